// OpenCL C 2.0 §6.5.5: named spaces convert to generic implicitly;
// generic to named only by an explicit cast; __constant is disjoint from
// generic and from the other spaces; named spaces never mix.
kernel void ok(global int *g, local int *l, constant int *c)
{
    int *p = g;         // global -> generic
    p = l;              // local -> generic
    int x;
    p = &x;             // private -> generic
    global int *g2 = (global int *)p;   // explicit cast from generic
    constant int *c2 = c;
    const global int *cg = g;           // adding const
    void *vp = g;
}

kernel void bad(global int *g, local int *l, constant int *c)
{
    l = g;
    int *p = c;
    global int *g2 = p;
    constant int *c2 = g;
    global int *g3 = (global int *)l;
    constant int *c3 = (constant int *)p;
}
