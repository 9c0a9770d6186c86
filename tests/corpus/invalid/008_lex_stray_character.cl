// expect: lexical error: stray '@' character in program text (clang reports "expected expression")
__kernel void k(__global int *out)
{
    int a = 1;
    out[0] = a @ 2;
}
