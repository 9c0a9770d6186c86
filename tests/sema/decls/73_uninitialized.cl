// RUN: -Wall — clang's -Wuninitialized (in -Wall, off by default): a local read before anything
// stores to it on every path; -Wsometimes-uninitialized where a branch leads to the read on
// paths that do not store it (`d`, `q`). clang-22 -Wall gives the same warnings.
int f(int *p);
kernel void k(global int *o, int c) {
    int a;
    o[0] = a;
    int b;
    b = 1;
    o[1] = b;
    int d;
    if (c) d = 1;
    o[2] = d;
    int e;
    if (c) e = 1; else e = 2;
    o[3] = e;
    int g;
    f(&g);
    o[4] = g;
    int h;
    h++;
    int i;
    i += 1;
    int j;
    while (c--) { o[5] = j; }
    int m;
    for (int t = 0; t < 4; t++) { o[t] = m; m = t; }
    float4 v;
    v.x = 1.0f;
    o[6] = (int)v.x;
    int n;
    o[7] = sizeof(n);
    int q;
    o[8] = c && (q = 1);
    o[9] = q;
    int r;
    if (c) { o[10] = r; }
    int s, t = 3;
    o[11] = s + t;
    int u;
    u = u + 1;
    int w;
    { int w = 2; o[12] = w; }
    int x;
    o[13] = c ? x : 0;
    int y;
    switch (c) { case 0: y = 1; break; default: o[14] = y; }
    int z;
    do { o[15] = z; } while (0);
}
