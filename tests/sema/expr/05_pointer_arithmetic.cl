// Pointer arithmetic and pointer difference (ptrdiff_t).
kernel void ok(global float *a, global float *b, global long *o)
{
    global float *p = a + 4;
    p = 2 + p;
    p -= 1;
    p++;
    o[0] = b - a;
    _Static_assert(sizeof(b - a) == sizeof(ptrdiff_t), "ptrdiff_t");
    float *g = a;           // named to generic
    o[1] = g - a;           // generic overlaps global
}

kernel void bad(global float *a, global int *i, local float *l)
{
    float *x;
    x = a + 1.5f;
    long d = a - i;
    long e = a - l;
    x = a * 2;
    x = 1 - a;
}
