// Functions another program calls (`tests/aot.rs`): every record shape of
// the x86-64 C ABI, by value both ways. Values are small integers, so
// every float result is exact whatever the order of the operations.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "shapes.h"

F3 abi_mix(F2 a, FI b, DI c, B24 d, Pk e, U f, AC g, V4 h, V2F v, C3 j, char k) {
    F3 r;
    r.a = a.x * 2.0f + a.y + b.a + (float)b.b + (float)c.d + (float)c.i;
    r.b = (float)(d.a + d.b * 2 + d.c * 3) + (float)e.c + (float)e.i + (float)f.i;
    r.c = (float)(g.c[0] + g.c[4]) + h.v.x + h.v.w + v.v.y + v.x + (float)(j.a + j.b + j.c) + (float)k;
    return r;
}

// Five integer registers taken: `f` takes the sixth, `g` and `p` go on
// the stack (`p` as an integer once no register is left).
long abi_spill(long a, long b, long c, long d, long e, FI f, DI g, Pk p, long h) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f.b + 7 * g.i + 8 * p.i + 9 * h + (long)f.a + (long)g.d + p.c;
}

// The `sret` pointer takes an integer register: `g` is on the stack.
B24 abi_big(B24 d, long a, long b, long c, long e, long f, FI g) {
    B24 r = { d.a + a + b, d.b * c + e, d.c - f + g.b + (long)g.a };
    return r;
}

DI abi_di(DI c, FI b) { DI r = { c.d * 2.0 + b.a, c.i + b.b }; return r; }
Pk abi_pk(Pk e) { Pk r = { (char)(e.c + 1), e.i * 3 }; return r; }
AC abi_ac(AC g) { AC r; for (int i = 0; i < 5; i++) r.c[i] = g.c[4 - i] + (char)i; return r; }
C3 abi_c3(C3 j) { C3 r = { j.c, j.a, (char)(j.b * 2) }; return r; }
V2F abi_v2f(V2F v) { V2F r = { v.v.yx, v.x + v.v.x }; return r; }
V4 abi_v4(V4 h) { V4 r = { h.v.wzyx + (float4)(1.0f, 2.0f, 3.0f, 4.0f) }; return r; }
U abi_un(U f) { U r; r.i = f.i ^ 0x5a5a; return r; }
FI abi_fi(FI b) { FI r = { (float)b.b, (int)b.a }; return r; }
F2 abi_f2(F2 a) { F2 r = { a.y - a.x, a.x + a.y }; return r; }

// Overloads: exported under clang's Itanium names (records by their
// typedef names, pointees' address spaces by name on x86-64).
int __attribute__((overloadable)) ov(FI b, global const int *p) { return b.b * 3 + p[0]; }
int __attribute__((overloadable)) ov(Pk e, int *q) { return e.i + *q * 5; }
