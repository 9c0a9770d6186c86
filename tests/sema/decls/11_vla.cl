// Variable length arrays are not supported in OpenCL.
kernel void ok(global int *out)
{
    const int n = 4;        // not an integer constant expression in C
    int fixed[4 + 4];
    out[0] = fixed[0] + n;
}

kernel void bad(global int *out, int n)
{
    int vla[n];
    float grid[2][n + 1];
    out[0] = vla[0];
}
