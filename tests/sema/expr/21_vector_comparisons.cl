// Vector comparisons and logical operators give signed integer vectors
// with the same width and element size.
kernel void ok(global float4 *o, global int4 *io, global long2 *lo, global short8 *so)
{
    float4 a = o[0], b = o[1];
    int4 m = a < b;
    io[0] = m & (a == b) & !m;
    double2 d = (double2)(1.0);
    lo[0] = d > d;
    half8 h;
    uchar4 u = (uchar4)(1);
    char4 cm = u != u;
    io[1] = a && b;
}

kernel void bad(global float4 *o)
{
    float4 a = o[0];
    float4 m = a < a;
    uint4 u = a > a;
}
