// expect: lexical error: invalid digit '9' in octal constant 09 (and '8' in 0178)
__kernel void k(__global int *out)
{
    out[0] = 09;
    out[1] = 0178;
}
