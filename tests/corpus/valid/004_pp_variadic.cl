// Exercises: variadic macros with __VA_ARGS__, printf through a macro, empty variadic part.
#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define SUM3(...) sum3(__VA_ARGS__)
#define FIRST(a, ...) (a)
#define APPLY(f, ...) f(__VA_ARGS__)

int sum3(int a, int b, int c) { return a + b + c; }

__kernel void pp_variadic(__global int *out)
{
    int gid = get_global_id(0);
    int s = SUM3(gid, 1, 2);
    int f = FIRST(7, 8, 9);
    int m = APPLY(max, s, f);
    if (gid == 0)
        LOG("gid=%d s=%d f=%d m=%d\n", gid, s, f, m);
    out[gid] = m;
}
