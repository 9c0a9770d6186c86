// Exercises: SAXPY with unprefixed address spaces (global, constant), mad builtin.
kernel void saxpy(float alpha, global const float *x, global float *y, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n) return;
    y[i] = mad(alpha, x[i], y[i]);
}

kernel void saxpy_const(constant float *alpha, global const float *restrict x,
                        global float *restrict y)
{
    size_t i = get_global_id(0);
    y[i] = alpha[0] * x[i] + y[i];
}
