// Address spaces in argument passing, return, comparison, subtraction and
// the conditional operator.
void takes_global(global float *p) {}
void takes_generic(float *p) {}
global float *ret_global(float *p) { return p; }
float *ret_generic(local float *p) { return p; }

kernel void k(global float *g, local float *l, constant float *c, int i)
{
    takes_generic(g);
    takes_generic(l);
    takes_global(l);
    takes_generic(c);
    float *p = g;
    int same = p == g;
    int diff = g == l;
    long d = g - l;
    float *q = i ? g : l;
    float *r = i ? g : p;
    constant float *s = i ? c : g;
}
