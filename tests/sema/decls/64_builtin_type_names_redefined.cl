// Code shared with C hosts defines OpenCL's scalar and vector type names
// itself. In clang's headers they are typedefs, which C lets a program
// define again as the same type; for clc they are keywords, read as the
// typedef's name here and checked to be the same type.
typedef unsigned char uchar;
typedef unsigned int uint, ushort_not;
typedef unsigned long size_t;
typedef float float4 __attribute__((ext_vector_type(4)));
typedef uchar uchar;

typedef int uint2;
typedef float *float2;
typedef const int int;

kernel void k(global uchar *p, float4 v, ushort_not n) {
    p[0] = (uchar)v.x + (size_t)n;
}
