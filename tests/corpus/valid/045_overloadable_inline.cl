// Exercises: __attribute__((overloadable)) helper overload sets on scalar and vector types, inline and static inline helpers, forward declarations, recursion-free call chains.
static inline float sq(float x) { return x * x; }
inline int twice(int x) { return 2 * x; }

float __attribute__((overloadable)) norm1(float x);
float __attribute__((overloadable)) norm1(float2 v);
float __attribute__((overloadable)) norm1(float4 v);
int __attribute__((overloadable)) norm1(int x);

float __attribute__((overloadable)) norm1(float x) { return fabs(x); }
float __attribute__((overloadable)) norm1(float2 v) { return fabs(v.x) + fabs(v.y); }
float __attribute__((overloadable)) norm1(float4 v) { return norm1(v.xy) + norm1(v.zw); }
int __attribute__((overloadable)) norm1(int x) { return x < 0 ? -x : x; }

__attribute__((overloadable)) void accumulate(__global float *dst, float v) { *dst += v; }
__attribute__((overloadable)) void accumulate(__global int *dst, int v) { *dst += v; }

float helper_chain(float x);

__kernel void overloads(__global float *f, __global int *i, __global float4 *v)
{
    size_t g = get_global_id(0);
    accumulate(&f[g], norm1(v[g]) + norm1(f[g]) + sq(helper_chain(1.0f)));
    accumulate(&i[g], norm1(i[g]) + twice(3));
}

float helper_chain(float x) { return sq(x) + 1.0f; }
