// Vector shifts: the left operand decides the type; the right is any
// integer scalar or an integer vector of the same width. Compound
// assignment converts the result back to the target.
kernel void ok(global int4 *o, global int *p)
{
    int4 i4 = o[0];
    long l = 3;
    uchar4 u4 = (uchar4)(1);
    o[1] = i4 << l;
    u4 = u4 >> 2;
    o[2] = i4 << u4;
    i4 <<= 1;
    int i = 1;
    i += 1.5f;
    global int *q = p;
    q += 2;
}

kernel void bad(global int4 *o, global int *p)
{
    int4 i4 = o[0];
    int2 i2;
    int i = 1;
    float f = 1.0f;
    o[0] = i << i4;
    o[1] = i4 >> i2;
    o[2] = i4 << f;
    i += p;
    float4 f4;
    f4 += i4;
}
