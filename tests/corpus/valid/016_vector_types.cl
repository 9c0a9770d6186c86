// Exercises: vector types of sizes 2, 3, 4, 8, 16 of char/uchar/short/int/uint/long/float/double; vector arithmetic.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void vectors(__global float16 *f16, __global int8 *i8, __global double2 *d2)
{
    char2 c2 = (char2)(1, 2);
    uchar3 uc3 = (uchar3)(1, 2, 3);
    short4 s4 = (short4)(1);
    ushort8 us8 = (ushort8)(0);
    int2 i2 = (int2)(1);
    int3 i3 = (int3)(i2, 3);
    int4 i4 = (int4)(i3, 4);
    int8 iv8 = (int8)(i4, i4);
    int16 i16 = (int16)(iv8, iv8.s76543210);
    uint4 u4 = (uint4)(1u, 2u, 3u, 4u);
    long2 l2 = (long2)(1l, 2l);
    ulong3 ul3 = (ulong3)(7ul);
    float2 f2 = (float2)(1.0f, 2.0f);
    float3 f3 = (float3)(f2, 3.0f);
    float4 f4 = (float4)(f3, 4.0f);
    float8 f8 = (float8)(f4, f4 * 2.0f);
    float16 f = (float16)(f8, f8 + 1.0f);
    double2 d = (double2)(0.5, 1.5);
    double3 d3 = (double3)(d, 2.5);
    size_t g = get_global_id(0);
    f16[g] = f * 2.0f + (float)c2.x + (float)uc3.z + (float)s4.w + (float)us8.s7 + (float)u4.y + (float)l2.x + (float)ul3.z;
    i8[g] = iv8 + i16.lo + i16.hi;
    d2[g] = d + d3.xy;
}
