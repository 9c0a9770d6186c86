// expect: lexical error: unterminated /* comment at end of file
__kernel void k(__global int *out)
{
    out[0] = 1;
}
/* this comment is never closed
__kernel void k2(__global int *out) { out[0] = 2; }
