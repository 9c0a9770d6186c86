// clang's ext_vector_type makes OpenCL vector types (its headers define
// float4 so): a typedef, a variable, a parameter or a field of scalar
// type becomes the vector of N of them, the same type as the OpenCL one
// (size_t's vectors are ulong's). clc's vectors have OpenCL C's sizes.
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int __attribute__((ext_vector_type(2))) i2;
typedef size_t sz2 __attribute__((ext_vector_type(2)));
typedef struct { float v __attribute__((ext_vector_type(3))); } S;

f4 scale(f4 v, float s __attribute__((ext_vector_type(4)))) { return v * s; }

kernel void ok(global float4 *o, global S *s)
{
    f4 v = (f4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 same = v.wzyx;
    i2 w = (int2)(1, 2);
    ulong2 u = (sz2)(3, 4);
    o[0] = scale(same, v) + (float4)(w.x, w.y, u.x, u.y);
    float3 t = s->v;
    o[1].xyz = t;
}

typedef float4 nested __attribute__((ext_vector_type(4)));
typedef bool bools __attribute__((ext_vector_type(4)));
typedef float five __attribute__((ext_vector_type(5)));
typedef float none __attribute__((ext_vector_type(0)));
typedef float negative __attribute__((ext_vector_type(-1)));
typedef float bare __attribute__((ext_vector_type));
typedef float *pointers __attribute__((ext_vector_type(4)));
kernel void bad(global float *o, int n)
{
    float x __attribute__((ext_vector_type(n))) = 0;
    o[0] = x;
}
