// expect: preprocessor error: unterminated function-like macro invocation (missing ')' before end of file) and #elif after #else
#define F(x) (x)
#if 0
#else
#elif 1
#endif
__kernel void k(__global int *out)
{
    out[0] = F(1 + 2;
}
