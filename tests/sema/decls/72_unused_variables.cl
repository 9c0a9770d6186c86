// RUN: -Wall -Wextra -Wno-unused-but-set-parameter — clang's -Wunused-variable, -Wunused-but-set-variable (in -Wall),
// -Wunused-parameter (in -Wextra), off by default as in clang; a group turned off after
// -Wextra stays off; __attribute__((unused)) silences them.
int helper(int used, int unused_param) { return used; }
void decl_only(int x);
kernel void k(global int *o, int n, int m) {
    int a;
    int b = 1;
    int c = 2;
    o[0] = c;
    int d __attribute__((unused));
    __attribute__((unused)) int e;
    int s = sizeof(n);
    {
        int inner;
    }
    void (^blk)(int) = ^(int q) { int z; };
    for (int i = 0; i < 1; ) break;
    for (int j = 0; ; ) { break; }
    int f;
    f = 3;
}
kernel void k2(global int *o __attribute__((unused)), int p) { }
kernel void k3(global int *o, int p, int q) {
    int a; a = 1;
    int b = 0; b += 2;
    int c = 0; c++;
    int d = 0; d = d + 1;
    int e = 0; o[0] = (e = 2);
    int f = 0; f = 1, f = 2;
    int g = 0; (g) = 3;
    int h[2]; h[0] = 1;
    int i = 0; for (;; i++) break;
    int *ptr; ptr = 0;
    p = 3;
    q++;
    volatile int v; v = 1;
    static int st; st = 1;
    int w = 0; int *pw = &w;
}
#define INC(x) x = x + 1
kernel void k4(global int *o) { int a = 0; INC(a); }
