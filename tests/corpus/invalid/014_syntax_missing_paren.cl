// expect: syntax error: missing ')' in the if condition and in the call
__kernel void k(__global int *out, int n)
{
    if (n > 0 {
        out[0] = max(n, 1;
    }
}
