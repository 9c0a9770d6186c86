// Kernel pointer parameters must point to __global, __constant or
// __local; an unqualified pointee is __generic in OpenCL C 2.0.
kernel void ok(global int *g, constant int *c, local int *l, global int * global *pp) {}
kernel void bad_generic(int *p) {}
kernel void bad_private(private float *p) {}
kernel void bad_generic2(generic int *p) {}
// Ordinary functions take any pointer.
void fine(int *p, private int *q) {}
