// expect: preprocessor error: function-like macro invoked with the wrong number of arguments (3 for 2, then 1 for 2)
#define ADD(a, b) ((a) + (b))

__kernel void k(__global int *out)
{
    out[0] = ADD(1, 2, 3);
    out[1] = ADD(1);
}
