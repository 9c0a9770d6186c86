// Exercises: tiled matrix transpose through a padded __local tile, swapped group indices, naive transpose for comparison.
#define TDIM 16
__kernel void transpose_naive(__global const float *in, __global float *out, const int w, const int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
}

__kernel __attribute__((reqd_work_group_size(TDIM, TDIM, 1)))
void transpose_tiled(__global const float *in, __global float *out, const int w, const int h)
{
    __local float tile[TDIM][TDIM + 1];
    int bx = get_group_id(0) * TDIM, by = get_group_id(1) * TDIM;
    int tx = get_local_id(0), ty = get_local_id(1);
    if (bx + tx < w && by + ty < h)
        tile[ty][tx] = in[(by + ty) * w + bx + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by + tx, oy = bx + ty;
    if (ox < h && oy < w)
        out[oy * h + ox] = tile[tx][ty];
}
