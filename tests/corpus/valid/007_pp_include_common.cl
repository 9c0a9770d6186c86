// Exercises: #include "common.h" via -I, include guard re-inclusion, macros and types from the header.
#include "common.h"
#include "common.h"

__kernel void use_common(__global real_t *data, __global particle_t *ps, int n)
{
    int i = get_global_id(0);
    int j = wrap_index(i + 1, n);
    real_t v = MAX2(data[i], data[j]);
    data[i] = lerp_f(v, SQR(ps[i].mass), 0.5f) + MIN2(TILE, BLOCK_SIZE);
}
