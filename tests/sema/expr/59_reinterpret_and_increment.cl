// as_type reinterprets the argument's own bits: its size must match the
// result's, with no conversion to make it so. ++ and -- take vectors of
// integers, not of floats (scalar floats are fine).
kernel void k(global int *o, char c, float f, int3 i3) {
    o[0] = as_int(c);
    uchar4 u = as_uchar4(c);
    o[1] = as_int(f) + u.x + as_int4(i3).w;
    float4 v = 0;
    ++v;
    v--;
    int4 w = 0;
    w++;
    f++;
    o[2] = w.x + (int)f;
}
