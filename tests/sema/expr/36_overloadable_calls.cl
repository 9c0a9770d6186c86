// Calls into user overload sets pick the overload the arguments match.
float __attribute__((overloadable)) twice(float x) { return x * 2.0f; }
int __attribute__((overloadable)) twice(int x) { return x * 2; }
float4 __attribute__((overloadable)) twice(float4 x) { return x * 2.0f; }

kernel void k(global float *f, global int *i, global float4 *v)
{
    f[0] = twice(f[0]);
    i[0] = twice(i[0]);
    v[0] = twice(v[0]);
    _Static_assert(sizeof(twice(1)) == 4, "the int overload");
    _Static_assert(sizeof(twice((float4)(1.0f))) == 16, "the float4 overload");
}

struct S { int a; };

kernel void bad(global float *f)
{
    struct S s;
    f[0] = twice(s);
    f[1] = twice(1.0f, 2.0f);
    f[2] = twice('c');      // a promotion picks the int overload in clang
}
