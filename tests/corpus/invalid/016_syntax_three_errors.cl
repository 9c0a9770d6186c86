// expect: three unrelated syntax errors: missing ';' (line 5), stray ')' (line 11), 'else' without 'if' (line 16); a recovering parser reports all three
__kernel void k1(__global int *out)
{
    int a = 1;
    int b = 2
    out[0] = a + b;
}

__kernel void k2(__global int *out)
{
    out[0] = (3 + 4));
}

__kernel void k3(__global int *out)
{
    else out[0] = 5;
}
