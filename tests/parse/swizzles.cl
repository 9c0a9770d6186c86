void f(float4 v, float16 w) {
    float2 a = v.xy;
    float b = v.w;
    float4 c = w.s0123;
    float4 d = w.sABCD;
    float2 e = v.lo;
    float2 g = v.odd;
    v.zw = a;
    float h = v.xyzw.x;
}
