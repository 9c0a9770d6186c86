// Before OpenCL C 3.0, .rgba draws a warning, as in clang.
kernel void k(global float4 *o)
{
    float4 v = o[0];
    float3 c = v.rgb;
}
