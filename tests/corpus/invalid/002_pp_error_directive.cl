// expect: preprocessor error: #error directive reached in an active #if branch
#define WIDTH 3
#if WIDTH != 4
#error "WIDTH must be 4"
#endif

__kernel void k(__global int *out) { out[0] = WIDTH; }
