// Swizzles: .xyzw (width <= 4), .sN / .SN, .lo/.hi/.even/.odd; the result
// is a scalar for one component, else a vector of that many.
kernel void ok(global float4 *o, global float *f, global float16 *w)
{
    float4 v = o[0];
    float16 s = w[0];
    f[0] = v.x + v.w + s.sF + s.S0;
    float2 a = v.xy;
    float3 b = v.zyx;
    float4 c = v.wzyx;
    o[1] = v.xxyy;
    o[2] = s.s0123;
    float8 lo = s.lo;
    float4 q = s.hi.even;
    float2 t = v.odd;
    v.xy = a;
    v.s3 = 1.0f;
    s.lo.hi = q;
    float3 p3;
    float2 p3lo = p3.lo;
    float2 p3hi = p3.hi;
}

kernel void bad(global float4 *o, global float16 *w)
{
    float4 v = o[0];
    float2 two;
    float16 s = w[0];
    float a = two.z;
    float b = v.xs;
    float c = v.s4;
    float d = s.x + s.w;    // clang allows .xyzw on wider vectors
    float e = v.q;
    v.xx = two;
    float4 f = v.xyzwx;
    float g = v.sG;
}
