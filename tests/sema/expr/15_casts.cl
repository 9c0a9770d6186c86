// Explicit casts: scalar <-> scalar, pointer <-> pointer, integer <->
// pointer, scalar -> vector; what cannot be cast.
struct S { int a; };

kernel void ok(global float *o, global int *ip)
{
    int i = (int)o[0];
    float f = (float)i;
    ulong addr = (ulong)o;
    global int *p = (global int *)addr;
    global float *q = (global float *)ip;
    float4 v = (float4)f;
    (void)v;
    int *g = (int *)ip;
    global int *back = (global int *)g;
}

kernel void bad(global float *o)
{
    struct S s;
    float f = 1.0f;
    int i = (int)s;
    global int *p = (global int *)f;
    float x = (float)o;
    struct S t = (struct S)1;
}
