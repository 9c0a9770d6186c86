// auto and register are not OpenCL C; static and extern are allowed at
// program scope (and in functions in 2.0).
static int s1 = 1;
extern int e1;
static int helper(void) { return 1; }
kernel void k(global int *out)
{
    static int local_static = 0;
    auto int a = 1;
    register int r = 2;
    out[0] = s1 + helper() + local_static + a + r;
}
void params(static int x) {}
