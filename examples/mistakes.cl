// Deliberate mistakes, so the demo shows clc's diagnostics.
#define SCALE(x) ((x) * 2.0f
#define LEN 16

__kernel void missing_semicolon(__global int *p)
{
    int first = 1
    p[0] = first;
}

__kernel void bad_macro(__global float *p)
{
    p[0] = SCALE(p[1]);
}

__kernel void unbalanced(__global float *p, uint n)
{
    for (uint i = 0; i < LEN; i++ {
        p[i] = 0.0f;
    }
}
