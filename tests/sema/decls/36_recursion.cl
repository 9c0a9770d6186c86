// Recursion (direct or through a cycle) is not supported in OpenCL C.
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

int ping(int n);
int pong(int n) { return n ? ping(n - 1) : 0; }
int ping(int n) { return n ? pong(n - 1) : 1; }

int leaf(int x) { return x + 1; }
int caller(int x) { return leaf(x) + leaf(x + 1); }

kernel void k(global int *out) { out[0] = fact(4) + ping(3) + caller(1); }
