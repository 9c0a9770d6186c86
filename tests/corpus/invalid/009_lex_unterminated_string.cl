// expect: lexical error: unterminated string literal (missing closing ") (clang: warning "missing terminating '\"' character" then error "expected expression")
__kernel void k(__global int *out)
{
    printf("hello world\n);
    out[0] = 1;
}
