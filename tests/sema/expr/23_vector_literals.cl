// Vector literals: components must add up exactly to the width; elements
// are scalars or vectors of the same element type; one scalar splats.
kernel void ok(global float4 *o, global int8 *io)
{
    float2 h = (float2)(1.0f, 2.0f);
    o[0] = (float4)(h, 3.0f, 4);
    o[1] = (float4)(h, h);
    o[2] = (float4)(0.5f);
    io[0] = (int8)((int4)(1), 2, 3, (int2)(4, 5));
    float3 t = (float3)(1, 2, 3);
    int x = (int)(1, 2);    // a cast of a comma expression
}

kernel void bad(global float4 *o, global int4 *io)
{
    float2 h;
    o[0] = (float4)(1.0f, 2.0f);
    o[1] = (float4)(h, h, 1.0f);
    io[0] = (int4)(1, h, 2);
    o[2] = (float4)(1, 2, 3);
}
