// Explicit vector casts: scalar to vector broadcasts; between different
// vector types only convert_T/as_T.
kernel void ok(global float4 *o, global int4 *io)
{
    o[0] = (float4)2.0f;
    o[1] = (float4)(int)3;
    io[0] = (int4)io[1];
    o[2] = convert_float4(io[0]);
    io[1] = as_int4(o[0]);
}

kernel void bad(global float4 *o, global int4 *io)
{
    o[0] = (float4)io[0];
    io[0] = (int4)o[0];
    float f = (float)o[1];
    float2 h = (float2)o[1];
}
