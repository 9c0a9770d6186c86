// Pointer conversions may add const/volatile but not drop them (a
// warning, as in clang).
void takes(global int *p) {}
void takes_const(const global int *p) {}

kernel void k(global int *g, const global int *cg, volatile global int *vg)
{
    takes_const(g);
    const global int *c2 = g;
    takes(cg);
    global int *p = cg;
    p = vg;
}
