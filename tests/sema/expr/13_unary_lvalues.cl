// Address-of, indirection, increment and decrement.
kernel void ok(global int *o)
{
    int x = 1;
    int *p = &x;
    *p = 2;
    o[0] = *p + *&x;
    x++; ++x; x--; --x;
    p++;
    float4 v;
    float *pv = (float *)&v;
}

kernel void bad(global int *o)
{
    int x = 1;
    int *p = &(x + 1);
    o[0] = *x;
    (x + 1)++;
    const int c = 1;
    c--;
    struct { int a; } s;
    s++;
}

kernel void components(global float *o)
{
    float4 v;
    float *p = &v.x;
    float *q = &v[1];
    float2 *r = &v.xy;
}
