// expect: preprocessor error: pasting "+" and "-" with ## does not give a valid preprocessing token
#define PASTE(a, b) a##b

__kernel void k(__global int *out)
{
    int x = 1;
    out[0] = x PASTE(+, -) 1;
}
