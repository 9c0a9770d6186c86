// RUN: -cl-std=CL1.2 — no static variables in functions; extern ones
// must be __constant.
kernel void k(global int *out)
{
    static int s = 1;
    extern int e;
    extern constant int ec;
    out[0] = s;
}
