// Exercises: vectorised vector add with float4/float8 pointers, vec_type_hint, tail handling, and an int16 variant.
__kernel __attribute__((vec_type_hint(float4)))
void vadd4(__global const float4 *a, __global const float4 *b, __global float4 *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void vadd8_tail(__global const float *a, __global const float *b, __global float *c, const uint n)
{
    uint i = get_global_id(0) * 8;
    if (i + 8 <= n) {
        vstore8(vload8(0, a + i) + vload8(0, b + i), 0, c + i);
    } else {
        for (; i < n; i++) c[i] = a[i] + b[i];
    }
}

__kernel void vadd_int16(__global const int16 *a, __global const int16 *b, __global int16 *c)
{
    size_t i = get_global_id(0);
    c[i] = add_sat(a[i], b[i]);
}
