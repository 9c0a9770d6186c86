// A kernel is the program's entry point: it cannot be static, nor be
// called 'main'.
static kernel void hidden(global int *p) { p[0] = 1; }
kernel void main(global int *p) { p[0] = 2; }
kernel void fine(global int *p) { p[0] = 3; }
