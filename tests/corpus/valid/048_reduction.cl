// Exercises: tree reduction in local memory with halving stride, unrolled last warp via volatile, and a work_group_reduce_add variant.
__kernel void reduce_sum(__global const float *in, __global float *partial, __local float *sdata, const uint n)
{
    uint l = get_local_id(0), ls = get_local_size(0);
    uint i = get_group_id(0) * ls * 2 + l;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + ls < n) v += in[i + ls];
    sdata[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ls >> 1; s > 32; s >>= 1) {
        if (l < s) sdata[l] += sdata[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l < 32) {
        volatile __local float *vs = sdata;
        for (uint s = 32; s > 0; s >>= 1)
            if (l < s) vs[l] += vs[l + s];
    }
    if (l == 0) partial[get_group_id(0)] = sdata[0];
}

__kernel void reduce_sum_wg(__global const float *in, __global float *partial)
{
    float s = work_group_reduce_add(in[get_global_id(0)]);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}
