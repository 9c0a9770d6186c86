// expect: preprocessor error: division by zero in #if expression
#define DENOM 0
#if 10 / DENOM > 1
#define RATIO 1
#endif

__kernel void k(__global int *out) { out[0] = 1; }
