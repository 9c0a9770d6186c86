// Compound literals are lvalues of their type.
typedef struct { int a; float b; } P;

kernel void ok(global float *o)
{
    P p = (P){1, 2.0f};
    o[0] = ((P){3, 4.0f}).b + p.b;
    int *q = (int[]){1, 2, 3};
    o[1] = q[1];
}

kernel void bad(global float *o)
{
    P p = (P){1, 2.0f};
    int x = (P){1, 2.0f};
}
