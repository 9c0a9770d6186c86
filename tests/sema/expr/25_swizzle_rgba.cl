// RUN: -cl-std=CL3.0
// .rgba is OpenCL C 3.0 (a warning before); it does not mix with .xyzw.
kernel void ok(global float4 *o)
{
    float4 v = o[0];
    float3 c = v.rgb;
    float a = v.a;
    o[1] = v.abgr;
}

kernel void bad(global float4 *o)
{
    float4 v = o[0];
    float2 m = v.xg;
}
