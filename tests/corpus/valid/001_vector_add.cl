// Exercises: simplest kernel, get_global_id, __global pointers, bounds check.
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, const unsigned int n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
