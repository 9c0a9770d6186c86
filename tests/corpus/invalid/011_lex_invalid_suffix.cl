// expect: lexical error: invalid suffix "abc" on integer literal 12abc (and "q" on 1.5q) (clang: "invalid digit 'a' in decimal constant")
__kernel void k(__global int *out)
{
    out[0] = 12abc;
    out[1] = (int)1.5q;
}
