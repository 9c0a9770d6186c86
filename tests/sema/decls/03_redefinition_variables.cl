// Redefining a variable in the same scope is an error; shadowing in an
// inner scope is fine.
kernel void ok(global int *out)
{
    int a = 1;
    {
        int a = 2;
        out[0] = a;
    }
    for (int a = 0; a < 2; a++)
        out[1] = a;
}

kernel void bad(global int *out)
{
    int y = 1;
    float y = 2.0f;
    out[0] = y;
}

void params(int p, int q)
{
    int p = 3;
}
