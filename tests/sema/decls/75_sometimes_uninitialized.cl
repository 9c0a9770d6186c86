// RUN: -Wall -Wconditional-uninitialized — clang's analysis of uninitialized reads on the
// control-flow graph: each branch that leads to a read on paths that store nothing
// (-Wsometimes-uninitialized), a read uninitialized on some path with no such branch
// (-Wconditional-uninitialized, off even in -Wall), a variable read in its own initializer.
// Only the first read of a variable is reported. clang-22 gives the same warnings.
int a1(int c) { int x; if (c) x = 1; int y = x; return x + y; }
int a2(int c) { int x; if (c) x = 1; else if (c > 2) x = 2; return x; }
int a3(int c) { int x; switch (c) { case 1: x = 1; break; case 2: x = 3; break; } return x; }
int a4(int c) { int x; switch (c) { case 1: x = 1; break; case 2: break; default: x = 2; } return x; }
int a5(int c) { int x; for (int i = 0; i < c; i++) x = i; return x; }
int a6(int c) { int x; if (c && (x = 1)) return x; return x; }
int a7(int c) { int x; if (c) { x = 1; } else { return 0; } return x; }
int a8(int c) { int x; do { if (c) break; x = 1; } while (0); return x; }
int a9(int c) { int x; if (c) x = 1; c = c ? x : 1; return c; }
int b1(int c) { int x; while (1) { if (c) { x = 1; break; } c++; } return x; }
int b2(int c) { int x; goto L; x = 1; L: return x; }
int b3(int c) { for (int i = 0; i < c; i++) { int x; if (i) x = 1; c += x; } return c; }
int b4(int c) { int x; (void)x; return sizeof(x); }
int b5(int c) { int x; int y = c ? (x = 1) : 2; return x + y; }
int b6(int c) { int x; if (c || (x = 2)) return 1; return x; }
int b7(int c) { int x; switch (c) { case 0: x = 1; case 1: return x; default: return 0; } }
int b8(int c) { int x; if (0) x = 1; return x; }
int b9(int c) { int x; if (1) x = 1; return x; }
int c1(int c) { int x = x + 1; return x; }
int c2(int c) { int *p = &p[0]; float4 v = v.xyzw; return 0; }
int c3(int c) { int x; L: if (c) { c--; goto L; } x = 2; return x; }
int c4(int c) { int x; if (c) goto out; x = 1; out: return x; }
int c5(int c) { int x; for (int i = 0; i < c; i++) { c += x; x = i; } return c; }
kernel void k(global int *o) { o[0] = a1(o[1]); }
// What is a read, what is tracked, which note: records and vectors read whole (not through a
// member or component), pointers dereferenced, `int x = x;`, `__local` variables.
struct S { int a; int b; };
typedef struct S TS;
typedef float4 F4;
void take(struct S *p);
int d1(int c) { struct S s; struct S t = s; return t.a + s.a; }
int d2(int c) { struct S s; s.a = 1; struct S t = s; return t.a; }
int d3(int c) { float4 v; float4 w = v; return (int)w.x + (int)v.y; }
int d4(int c) { global int *p; return *p; }
int d5(int c) { int x = x; if (c) x = 1; return x; }
int d6(int c) { int x = x; return c; }
int d7(int c) { struct S s; take(&s); return s.a; }
int d8(int c) { TS s; F4 v; if (c) s.a = 1; return (c ? s : s).a + (int)v[0]; }
kernel void d9(global int *o) { local float sum; o[0] = (int)sum; }
