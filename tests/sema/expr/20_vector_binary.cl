// OpenCL C §6.3: vector operands must have the same type; a scalar
// widens to the element type if its rank does not exceed the element's.
kernel void ok(global float4 *o, global int4 *io)
{
    float4 a = o[0], b = o[1];
    int4 i = io[0];
    o[2] = a + b * 2.0f - 1;        // float and int scalars widen to float4
    io[1] = i * 3 + (i << 1) + (i & 0xFF);
    uchar4 u = (uchar4)(1);
    u = u + (uchar)1;
    long4 lv = (long4)(1);
    lv = lv + 1;                    // int widens to long
}

kernel void bad(global float4 *o, global int4 *io)
{
    float4 a = o[0];
    int4 i = io[0];
    float2 f2;
    o[0] = a + i;
    o[1] = a + f2;
    io[0] = i + 1.0f;
    o[2] = a + 1.0;                 // double has greater rank than float
    io[1] = i + 1L;
    o[3] = a % a;
    o[4] = a << 1;
}
