// Exercises: float literals with f suffix, exponents, leading/trailing dot, hex floats, double literals with fp64.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void float_literals(__global float *out, __global double *dout)
{
    float a = 1.0f;
    float b = .5f;
    float c = 3.f;
    float d = 1e10f;
    float e = 2.5E-3F;
    float f = 6.02e+23f;
    float g = 0x1.8p3f;
    float h = 0X1P-2F;
    float i = 0x.8p1f;
    float j = 0xAp0f;
    float k = 1.17549435e-38f;
    double x = 1.0;
    double y = 0x1.fffffffffffffp1023;
    double z = 5e-324;
    out[0] = a + b + c + d + e + f + g + h + i + j + k;
    dout[0] = x + y + z + 1.5e2;
}
