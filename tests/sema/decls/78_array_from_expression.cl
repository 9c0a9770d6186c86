// An array takes an expression only as a character array from a string (`char *p[] = "…"`
// was accepted and lowered to an internal error: found by the fuzzer).
kernel void k(global int *o) { int b[2] = {1,2}; int a[2] = b; char c[3] = "ab"; char d[3] = ("ab"); int e[2] = "ab"; o[0] = a[0]+c[0]+d[0]+e[0]; }
char *p[] = "xy";
char ok[] = "xy";
