// clang's -Wreturn-type: control can run off the end of a non-void
// function ("in all control paths" where some path returns); the same
// functions and messages as clang-22.
int a(int x) { if (x) return 1; }
int b(int x) { return x; }
int c(int x) { if (x) return 1; else return 2; }
int d(int x) { while (1) { if (x) return 1; } }
int e(int x) { while (1) { if (x) break; } }
int f(int x) { for (;;) {} }
int g(int x) { switch (x) { case 1: return 1; default: return 2; } }
int h(int x) { switch (x) { case 1: return 1; } }
int i(int x) { switch (x) { case 1: return 1; default: break; } }
int j(int x) { do { return 1; } while (x); }
int k(int x) { do { if (x) continue; return 1; } while (x); }
int l(int x) { x++; }
int m(int x) { goto end; end: return x; }
int n(int x) { if (1) return 1; }
int o(int x) { if (0) return 1; else return 2; }
int p(int x) { { return 1; } }
int q(int x) { return 1; x++; }
int r(int x) { while (x) { return 1; } }
int s(int x) { switch (x) { default: return 1; } }
int t(int x) { for (;;) { switch (x) { case 1: break; default: return 2; } } }
float u(float x) { if (x > 0) return x; x = -x; }
void v(int x) { }
kernel void w(global int *out) { out[0] = a(1) + b(1) + c(1) + d(1) + e(1) + f(1) + g(1) + h(1) + i(1) + j(1) + k(1) + l(1) + m(1) + n(1) + o(1) + p(1) + q(1) + r(1) + s(1) + t(1) + u(1); }
