// Exercises: one radix sort pass (4-bit digits): per-group digit histogram with local atomics, then scatter using scanned offsets.
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define DIGIT(k, shift) (((k) >> (shift)) & (RADIX - 1))

__kernel void radix_histogram(__global const uint *keys, __global uint *group_hist, const uint shift, const uint n)
{
    __local uint h[RADIX];
    uint l = get_local_id(0);
    if (l < RADIX) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint g = get_global_id(0);
    if (g < n) atomic_inc(&h[DIGIT(keys[g], shift)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < RADIX) group_hist[l * get_num_groups(0) + get_group_id(0)] = h[l];
}

__kernel void radix_scatter(__global const uint *keys, __global uint *out, __global const uint *scanned,
                            const uint shift, const uint n, __local uint *digits)
{
    uint l = get_local_id(0), g = get_global_id(0), ls = get_local_size(0);
    uint key = g < n ? keys[g] : 0xFFFFFFFFu;
    uint d = DIGIT(key, shift);
    digits[l] = d;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint rank = 0;
    for (uint i = 0; i < l; i++) rank += digits[i] == d;
    if (g < n) out[scanned[d * get_num_groups(0) + get_group_id(0)] + rank] = key;
    (void)ls;
}
