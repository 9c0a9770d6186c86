// Exercises: work-efficient exclusive scan (up-sweep / down-sweep) in local memory with offsets and bank-conflict-free index macro.
#define LOG_BANKS 5
#define CF_OFFSET(n) ((n) >> LOG_BANKS)

__kernel void scan_exclusive(__global const int *in, __global int *out, __global int *block_sums,
                             __local int *temp, const int n)
{
    int l = get_local_id(0);
    int base = get_group_id(0) * n;
    int ai = l, bi = l + n / 2;
    temp[ai + CF_OFFSET(ai)] = in[base + ai];
    temp[bi + CF_OFFSET(bi)] = in[base + bi];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int x = offset * (2 * l + 1) - 1;
            int y = offset * (2 * l + 2) - 1;
            temp[y + CF_OFFSET(y)] += temp[x + CF_OFFSET(x)];
        }
        offset *= 2;
    }
    if (l == 0) {
        block_sums[get_group_id(0)] = temp[n - 1 + CF_OFFSET(n - 1)];
        temp[n - 1 + CF_OFFSET(n - 1)] = 0;
    }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int x = offset * (2 * l + 1) - 1;
            int y = offset * (2 * l + 2) - 1;
            int t = temp[x + CF_OFFSET(x)];
            temp[x + CF_OFFSET(x)] = temp[y + CF_OFFSET(y)];
            temp[y + CF_OFFSET(y)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + ai] = temp[ai + CF_OFFSET(ai)];
    out[base + bi] = temp[bi + CF_OFFSET(bi)];
}
