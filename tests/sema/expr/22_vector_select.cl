// `?:` with a vector condition selects per component: an integer vector
// condition and operands of the same width and element size.
kernel void ok(global float4 *o, global int4 *io)
{
    float4 a = o[0], b = o[1];
    int4 m = a < b;
    o[2] = m ? a : b;
    io[0] = m ? io[1] : 0;
    o[3] = 1 ? a : b;
}

kernel void bad(global float4 *o, global int4 *io)
{
    float4 a = o[0];
    float2 f2;
    int4 m = io[0];
    o[0] = a ? a : a;
    o[1] = m ? f2 : f2;
    io[1] = m ? m : a;
    double4 d;
    d = m ? d : d;
}
