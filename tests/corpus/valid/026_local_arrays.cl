// Exercises: __local arrays declared in kernels (1D and 2D), local pointer arguments, barriers between phases.
#define WG 64
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void local_arrays(__global const float *in, __global float *out, __local float *scratch)
{
    __local float tile[WG];
    __local int counts[4][WG / 4];
    local float4 vtile[WG / 4];
    size_t l = get_local_id(0), g = get_global_id(0);
    tile[l] = in[g];
    scratch[l] = 2.0f * in[g];
    counts[l % 4][l / 4] = (int)l;
    if (l < WG / 4) vtile[l] = (float4)(tile[l]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = tile[WG - 1 - l] + scratch[(l + 1) % WG] + counts[3][l / 4] + vtile[l / 4].y;
}
