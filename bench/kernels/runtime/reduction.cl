// One partial sum per work-group: a tree reduction in local memory, with a
// barrier in every step of the loop.
kernel void reduction(global const float *in, global float *partial, local float *scratch, uint n) {
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
