// expect: syntax error: missing ';' after the declaration of x
__kernel void k(__global int *out)
{
    int x = 5
    out[0] = x;
}
