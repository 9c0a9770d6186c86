// A file whose only diagnostic is a warning.
#warning "this kernel is slow"
kernel void f(global int *p) { p[0] = 1; }
