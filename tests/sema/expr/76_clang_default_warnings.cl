// RUN: -Wall — warnings clang gives by default (-Wint-in-bool-context: -Wall):
// -Wconstant-logical-operand, -Wint-in-bool-context, -Winteger-overflow, -Wpointer-to-int-cast,
// -Wvoid-pointer-to-int-cast, -Wtypedef-redefinition, -Wdefault-const-init-var-unsafe, and
// self-comparison of any operands but floating-point ones. Not for what a macro wrote.
#define FOUR 4
#define HAS(x) (x && 4)
#define BIG 2147483647
enum E { A, B, C };
struct S { int a; };
typedef int T;
typedef int T;

kernel void logical(global int *o, int x, long l, uint u)
{
    o[0] = x && 4;
    o[1] = x || 4;
    o[2] = 4 && x;
    o[3] = x && 1;
    o[4] = x && FOUR;
    o[5] = HAS(x);
    o[6] = (x > 1) && (2 + 2);
    o[7] = x && 4 && 5;
    o[8] = l || 8;
    o[9] = u && 4u;
    o[10] = x && C;
    o[11] = B || x;
}

kernel void overflow(global int *o, global long *l, int x)
{
    o[0] = 2147483647 + 1;
    o[1] = BIG * 2;
    o[2] = -(-2147483647 - 1);
    o[3] = x + (BIG + 1);
    o[4] = 1 << 31;
    l[0] = 9223372036854775807L + 1;
    o[5] = 2147483647u + 1u;
    o[6] = -2147483648 / -1;
    o[7] = 65536 * 65536;
    o[8] = (short)32767 + (short)1;
    o[9] = 2147483647 * 2 * 2;
    switch (x) { case 2147483647 + 1: break; }
}

kernel void casts(global int *o, global void *vp, local char *lp, constant float *cp)
{
    o[0] = (int)o;
    o[1] = (int)vp;
    o[2] = (uint)lp;
    o[3] = (long)o;
    o[4] = (bool)o;
    o[5] = (char)cp;
    o[6] = (size_t)o;
}

kernel void self_comparisons(global int *o, global int *p, int4 v, float4 f, float g)
{
    o[0] = p == p;
    int4 m = v < v;
    int4 n = f == f;
    o[1] = g != g;
    o[2] = m.x + n.x;
}

kernel void constants(global int *o)
{
    const int c;
    const int a[4];
    const struct S s;
    int *const q;
    typedef int U;
    typedef int U;
    const int fine = 1;
    o[0] = c + a[0] + s.a + (q != 0) + fine + sizeof(T) + sizeof(U);
}
