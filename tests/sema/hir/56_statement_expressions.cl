// A statement expression: its statements, then its value (loaded, arrays
// decayed); one ending in a declaration is void.
kernel void k(global int *out, int n)
{
    int a[2] = {n, 2};
    out[0] = ({ int t = n * 2; if (t > 10) t = 10; t; });
    int *p = ({ a; });
    ({ int u = 1; });
    out[1] = *p;
}
