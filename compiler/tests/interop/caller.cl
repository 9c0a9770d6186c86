// Calls the functions of `def.cl`, compiled as another program.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "shapes.h"

F3 abi_mix(F2 a, FI b, DI c, B24 d, Pk e, U f, AC g, V4 h, V2F v, C3 j, char k);
long abi_spill(long a, long b, long c, long d, long e, FI f, DI g, Pk p, long h);
B24 abi_big(B24 d, long a, long b, long c, long e, long f, FI g);
DI abi_di(DI c, FI b);
Pk abi_pk(Pk e);
AC abi_ac(AC g);
C3 abi_c3(C3 j);
V2F abi_v2f(V2F v);
V4 abi_v4(V4 h);
U abi_un(U f);
FI abi_fi(FI b);
F2 abi_f2(F2 a);
int __attribute__((overloadable)) ov(FI b, global const int *p);
int __attribute__((overloadable)) ov(Pk e, int *q);

// Work-item `n` writes 24 longs to `out[24 n ..]`, every field of every
// result (floats converted exactly: they are small integers).
kernel void calls(global long *out) {
    int n = get_global_id(0);
    global long *o = out + 24 * n;
    F2 a = { n, n + 1 };
    FI b = { n + 2, n + 3 };
    DI c = { n + 4, n + 5 };
    B24 d = { n + 6, n + 7, n + 8 };
    Pk e = { (char)(n + 9), n + 10 };
    U f; f.i = n + 11;
    AC g = { { (char)n, 1, 2, 3, (char)(n + 12) } };
    V4 h = { (float4)(n + 13, 0, 0, n + 14) };
    V2F v = { (float2)(0, n + 15), n + 16 };
    C3 j = { (char)(n + 17), (char)(n + 18), (char)(n + 19) };
    F3 m = abi_mix(a, b, c, d, e, f, g, h, v, j, (char)(n + 20));
    o[0] = m.a; o[1] = m.b; o[2] = m.c;
    o[3] = abi_spill(n, 1, 2, 3, 4, b, c, e, n + 21);
    B24 r = abi_big(d, n, 1, 2, 3, 4, b);
    o[4] = r.a; o[5] = r.b; o[6] = r.c;
    DI rd = abi_di(c, b); o[7] = rd.d; o[8] = rd.i;
    Pk rp = abi_pk(e); o[9] = rp.c; o[10] = rp.i;
    AC rg = abi_ac(g); o[11] = rg.c[0] + 256 * rg.c[4];
    C3 rj = abi_c3(j); o[12] = rj.a + 256 * rj.b + 65536 * rj.c;
    V2F rv = abi_v2f(v); o[13] = rv.v.x; o[14] = rv.v.y; o[15] = rv.x;
    V4 rh = abi_v4(h); o[16] = rh.v.x; o[17] = rh.v.w;
    U ru = abi_un(f); o[18] = ru.i;
    FI rb = abi_fi(b); o[19] = rb.a; o[20] = rb.b;
    F2 ra = abi_f2(a); o[21] = ra.x; o[22] = ra.y;
    int q = n + 22;
    o[23] = ov(b, (global const int *)(o + 1)) + ov(e, &q);
}
