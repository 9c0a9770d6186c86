// expect: lexical error: unterminated character literal (missing closing ') (clang: warning "missing terminating ' character" then error "expected expression")
__kernel void k(__global char *out)
{
    char c = 'a;
    out[0] = c;
}
