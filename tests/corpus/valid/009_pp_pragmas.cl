// Exercises: #pragma OPENCL EXTENSION cl_khr_fp64, #pragma unroll, _Pragma operator, pragma via macro.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define UNROLL_4 _Pragma("unroll 4")

__kernel void pragmas(__global double *d, __global float *f)
{
    size_t i = get_global_id(0);
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < 8; ++k)
        acc += d[i * 8 + k];
    UNROLL_4
    for (int k = 0; k < 16; k++)
        f[i] += (float)k;
    _Pragma("unroll")
    for (int k = 0; k < 4; k++)
        acc *= 0.5;
    d[i] = acc;
}
#pragma OPENCL EXTENSION cl_khr_fp64 : disable
