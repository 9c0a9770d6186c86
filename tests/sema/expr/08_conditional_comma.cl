// The conditional operator: arithmetic, pointer and struct operands;
// comma expressions.
struct S { int a; };
struct T { int a; };

kernel void ok(global float *o, global int *p, int c)
{
    float f = c ? 1.0f : 2;
    global int *q = c ? p : 0;
    int *g = c ? p : (int *)0;
    struct S s1, s2;
    struct S s3 = c ? s1 : s2;
    o[0] = (c, f);
    o[1] = c ? f : c;
}

kernel void bad(global int *p, local int *l, int c)
{
    struct S s; struct T t;
    struct S x = c ? s : t;
    int *y = c ? p : l;
    int z = s ? 1 : 2;
    int w = c ? p : 1.0f;
}
