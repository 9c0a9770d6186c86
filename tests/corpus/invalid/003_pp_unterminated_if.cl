// expect: preprocessor error: unterminated conditional directive (#if without #endif)
#if defined(SOME_FLAG) || 1
__kernel void k(__global int *out) { out[0] = 1; }
#ifdef OTHER
int unused;
#endif
