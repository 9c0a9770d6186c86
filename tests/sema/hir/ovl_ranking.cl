// Overload ranking: f(char) picks f(int) by promotion; exact matches pick their own.
__attribute__((overloadable)) int f(int x) { return x; }
__attribute__((overloadable)) int f(float x) { return (int)x; }
__attribute__((overloadable)) int g(long x) { return 1; }
__attribute__((overloadable)) int g(short x) { return 2; }
kernel void k(global int *o) {
    o[1] = f('a');
    o[3] = f(2) + f(2.0f);
}
