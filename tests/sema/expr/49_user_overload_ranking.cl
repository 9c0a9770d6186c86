// overloadable user functions: exact beats promotion beats conversion; ties are ambiguous.
__attribute__((overloadable)) int f(int x) { return x; }
__attribute__((overloadable)) int f(float x) { return (int)x; }
__attribute__((overloadable)) int g(long x) { return 1; }
__attribute__((overloadable)) int g(short x) { return 2; }
kernel void k(global int *o) {
    o[0] = f(1.0);
    o[1] = f('a');
    o[2] = g(1);
    o[3] = f(2) + f(2.0f);
}
