// The example kernel the README's first command checks: a vector add with
// a macro, a helper function and a local-memory tile.
#define TILE 64
#define IDX(g, l) ((g) * TILE + (l))

inline float scale(float x, float k) { return x * k; }

__kernel __attribute__((reqd_work_group_size(TILE, 1, 1)))
void vector_add(__global const float *a, __global const float *b,
                __global float *out, float k, uint n)
{
    __local float tile[TILE];
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    tile[lid] = gid < n ? a[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n)
        out[IDX(get_group_id(0), lid)] = tile[lid] + scale(b[gid], k);
}
