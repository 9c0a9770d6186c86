// Controlling expressions: scalars for if/while/for/do, integers for
// switch.
struct S { int a; };

kernel void k(global int *o, global float *f)
{
    struct S s;
    if (o) o[0] = 1;
    while (f[0] > 0.0f) f[0] -= 1.0f;
    switch (o[1]) { case 0: break; }
    if (s) o[0] = 2;
    switch (f[0]) { default: break; }
    float4 v;
    for (; v;) {}
}
