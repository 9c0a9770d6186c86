// RUN: -cl-std=CL1.2
// Without the generic space, an unqualified pointer points to __private,
// and pointers into different spaces never convert.
void f(int *p) {}

kernel void k(global int *g, local int *l)
{
    int x;
    int *p = &x;
    f(p);
    f(g);
    int *q = l;
    global int *g2 = (global int *)p;
}
