// Recursion through overloadable functions is recursion; one overload
// calling another of the same name is not.
__attribute__((overloadable)) int f(int x) { return x; }
__attribute__((overloadable)) int f(float x) { return f((int)x); }
__attribute__((overloadable)) int g(int x) { return g(x - 1); }
__attribute__((overloadable)) int g(float x) { return 0; }
int h(int x) { return h(x); }
kernel void k(global int *o) { o[0] = f(1.0f) + g(2) + h(1); }
