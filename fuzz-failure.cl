// Exercises: math/common/geometric/integer builtins: mad, clamp, dot, cross, length, normalize, select, shuffle, shuffle2, min/max, mix, step, native_*, popcount, rotate.
__kernel void builtins(__global float4 *fv, __global int4 *iv, __global uint *uv)
{
    size_t g = get_global_id(0);
    float4 a = fv[g], b = fv[g + 1];
    float4 m = mad(a, b, (float4)(1.0f));
    float4 c = clamp(a, 0.0f, 1.0f);
    float4 c2 = clamp(a, b, m);
    float d = dot(a, b);
    float3 cr = cross(a.xyz, b.xyz);
    float len = length(a) + distance(a, b) + fast_length(b);
    float4 n = normalize(a);
    int4 mask = isgreater(a, b);
    float4 s = select(a, b, mask);
    uint4 perm = (uint4)(3, 2, 1, 0);
    float4 sh = shuffle(a, perm);
    float8 wide = (float8)(a, b);
    float4 sh2 = shuffle2(a, b, (uint4)(0, 4, 1, 5));
    float4 sh3 = shuffle(wide, (uint4)(7, 0, 6, 1));
    float4 mx = fmax(a, b) + fmin(a, 2.0f) + max(a, b) + min(a, b);
    float4 mi = mix(a, b, 0.25f) + step(0.5f, a) + smoothstep(0.0f, 1.0f, a);
    float4 tr = sin(a) + cos(b) + exp(a) + log(fabs(b) + 1.0f) + sqrt(fabs(a)) + rsqrt(fabs(b) + 1.0f)
              + pow(fabs(a), 2.0f) + native_exp(a) + native_divide(a, b + 1.0f) + half_sqrt(fabs(a));
    float4 fl = floor(a) + ceil(b) + round(a) + trunc(b) + fract(a, &c) + fma(a, b, c) + hypot(a, b);
    int4 ia = iv[g];
    int4 ib = abs(ia) > 3 ? ia : -ia;
    int4 ic = clamp(ia, -5, 5) + mad.xyzw24(ia, ib, ia) + mul24(ia, 2) + hadd(ia, ib) + rotate(ia, 3) + mad_hi(ia, ib, ia);
    uint pc = popcount(uv[g]) + clz(uv[g]) + ctz(uv[g]) + abs_diff(uv[g], 3u) + add_sat(uv[g], 1u) + sub_sat(uv[g], 1u) + upsample((ushort)1, (ushort)2);
    fv[g] = m + c + c2 + (float4)(cr, d + len) + n + s + sh + sh2 + sh3 + mx + mi + tr + fl + sign(a) + degrees(a) + copysign(a, b);
    iv[g] = ic + ib + mask;
    uv[g] = pc + (uint)any(ia > 0) + (uint)all(ia < 0) + bitselect(1u, 2u, 3u);
}
