// Exercises: bitonic sort step kernel (global) and local-memory bitonic sort with compare-exchange helper, uint keys, direction flags.
inline void cmp_swap(__local uint *a, __local uint *b, bool up)
{
    uint x = *a, y = *b;
    if ((x > y) == up) { *a = y; *b = x; }
}

__kernel void bitonic_step(__global uint *keys, const uint stage, const uint pass)
{
    uint i = get_global_id(0);
    uint pair_dist = 1u << (stage - pass);
    uint block = 2 * pair_dist;
    uint left = (i % pair_dist) + (i / pair_dist) * block;
    uint right = left + pair_dist;
    bool up = ((i / (1u << stage)) % 2) == 0;
    uint a = keys[left], b = keys[right];
    if ((a > b) == up) { keys[left] = b; keys[right] = a; }
}

__kernel void bitonic_local(__global uint *keys, __local uint *s)
{
    uint l = get_local_id(0), n = get_local_size(0) * 2;
    uint base = get_group_id(0) * n;
    s[l] = keys[base + l];
    s[l + n / 2] = keys[base + l + n / 2];
    for (uint size = 2; size <= n; size <<= 1) {
        bool up = ((l & (size / 2)) == 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            uint pos = 2 * l - (l & (stride - 1));
            cmp_swap(&s[pos], &s[pos + stride], up);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    keys[base + l] = s[l];
    keys[base + l + n / 2] = s[l + n / 2];
}
