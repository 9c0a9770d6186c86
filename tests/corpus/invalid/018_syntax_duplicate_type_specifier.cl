// expect: syntax/semantic error: duplicate type specifier in 'int int x' and conflicting 'float int y'
__kernel void k(__global int *out)
{
    int int x = 1;
    float int y = 2;
    out[0] = x + y;
}
