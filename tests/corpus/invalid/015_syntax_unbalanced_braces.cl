// expect: syntax error: unbalanced braces: the kernel body is never closed (expected '}' at end of file)
__kernel void k(__global int *out, int n)
{
    for (int i = 0; i < n; i++) {
        if (i % 2) {
            out[i] = i;
        }
    out[0] = n;
}
