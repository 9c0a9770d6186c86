// Exercises: local-memory tiled SGEMM with reqd_work_group_size(16,16,1), 2D __local tiles, barriers inside a loop, #include of common.h for TILE.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void sgemm_tiled(const int M, const int N, const int K,
                 __global const float *restrict A, __global const float *restrict B,
                 __global float *restrict C)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE + 1];    /* padded to avoid bank conflicts */
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int row = get_group_id(1) * TILE + ty;
    const int col = get_group_id(0) * TILE + tx;
    float acc = 0.0f;
    const int tiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < tiles; t++) {
        const int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[IDX2(row, ka, K)] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[IDX2(kb, col, N)] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc = mad(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[IDX2(row, col, N)] = acc;
}
