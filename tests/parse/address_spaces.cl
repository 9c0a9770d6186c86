__global int *g1;
global int *g2;
__local float *local_ptr;
constant int table[2] = { 1, 2 };
__private int priv;
void f(__global int * __private *pp, local int *l, const __constant float *c) {
    __local int scratch[16];
    private int x;
}
