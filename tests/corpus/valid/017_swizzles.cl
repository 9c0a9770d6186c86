// Exercises: swizzles .xyzw, .s0123, .sF, .lo/.hi/.even/.odd, repeated components, swizzle assignment, swizzle of swizzle.
__kernel void swizzles(__global float4 *out4, __global float16 *out16, __global int2 *out2)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float16 w = (float16)(0.0f);
    float4 a = v.wzyx;
    float2 b = v.xx;
    float3 c = v.s012;
    float4 d = v.s0123;
    float e = w.sF;
    float e2 = w.sf;
    float8 lo = w.lo;
    float8 hi = w.hi;
    float8 ev = w.even;
    float8 od = w.odd;
    float2 nested = v.xyzw.zw.yx;
    v.xy = (float2)(9.0f, 8.0f);
    v.s3 = 7.0f;
    v.odd = v.even;
    w.s0123 = v;
    w.sCDEF = a;
    w.hi.lo = d;
    w.lo.s01 = b;
    int4 iv = (int4)(1, 2, 3, 4);
    iv.xz += 1;
    iv.yw *= iv.xz;
    float3 t = c.zyx;
    t.z++;
    size_t g = get_global_id(0);
    out4[g] = v + a + d + (float4)(nested, nested) + (float4)(t, e + e2);
    out16[g] = w + (float16)(lo, hi) + (float16)(ev, od);
    out2[g] = iv.hi + iv.lo;
}
