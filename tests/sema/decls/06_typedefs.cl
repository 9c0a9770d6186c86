// Typedef redefinition with the same type is fine (C11); with a
// different type it is an error. Typedef names resolve to their types.
typedef int count_t;
typedef int count_t;
typedef count_t again_t;
typedef float4 vec_t;

kernel void ok(global int *out)
{
    again_t n = 3;
    vec_t v = (vec_t)(1.0f);
    out[0] = n + (int)v.x + sizeof(count_t);
}

typedef float count_t;
typedef int shape_t[4];
typedef int shape_t[5];
