// Exercises: Hillis-Steele inclusive prefix sum with double buffering (ping-pong pointers into one __local array) and block-sum add-back kernel.
__kernel void prefix_sum(__global const float *in, __global float *out, __local float *buf)
{
    int l = get_local_id(0), n = get_local_size(0);
    int pout = 0, pin = 1;
    buf[pout * n + l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (l >= off)
            buf[pout * n + l] = buf[pin * n + l] + buf[pin * n + l - off];
        else
            buf[pout * n + l] = buf[pin * n + l];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[pout * n + l];
}

__kernel void add_block_sums(__global float *data, __global const float *sums)
{
    size_t grp = get_group_id(0);
    if (grp > 0) data[get_global_id(0)] += sums[grp - 1];
}
