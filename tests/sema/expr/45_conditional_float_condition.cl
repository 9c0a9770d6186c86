// The condition of ?: may be any scalar or vector result except a
// floating-point one (OpenCL C 2.0 §6.3.i); if/while/&&/! accept floats.
kernel void k(global float *o, double d, int i, float4 v)
{
    o[0] = o[10] ? 1.0f : 2.0f;
    o[1] = d ? 1.0f : 2.0f;
    o[2] = i ? 1.0f : 2.0f;
    o[3] = (o[11] != 0.0f) ? 1.0f : 2.0f;
    if (o[4]) o[5] = 1;
    o[6] = o[7] && i;
    o[8] = !o[9];
    float4 w = (v > 0.0f) ? v : -v;
    o[12] = w.x;
}
