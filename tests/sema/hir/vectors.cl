// Scalar-to-vector splat, swizzles (read and write), vector literals,
// vector comparisons (signed integer vector results) and select-style ?:.
kernel void vectors(global float4 *v, global int4 *o) {
    float4 a = v[0] * 2.0f;              // 2.0f splat to float4
    float4 b = 1;                        // int -> float, then splat
    a.xy = b.zw;                         // swizzle write and read
    a.s3 = a.x + b.hi.y;
    float2 h = a.even + a.odd;
    float4 lit = (float4)(h, 1, 2.0f);   // elements converted to float
    int4 m = a < b;                      // comparison yields int4
    o[0] = m ? (int4)(1) : (int4)(0, 1, 2, 3);
    v[1] = m ? a : 0.5f;                 // scalar arm splat to float4
    o[1] = ~m + 3;
}
