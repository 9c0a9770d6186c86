// Exercises: #include by relative path from this file's directory, nested include, overloadable helpers.
#include "../include/math_helpers.h"
#include "../include/pp_config.h"

#if CONFIG_LEVEL >= 2 && CONFIG_USE_FAST_MATH
#define FAST 1
#else
#define FAST 0
#endif

__kernel void use_math_helpers(__global float4 *v, __global int *iv)
{
    size_t i = get_global_id(0);
    v[i] = square(v[i]) * PI_F;
    iv[i] = square(iv[i]) + FAST + CONFIG_VECTOR_WIDTH;
}
