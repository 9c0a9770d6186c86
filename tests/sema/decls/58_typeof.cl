// GNU __typeof__ / __typeof: the type of an expression (an lvalue's object
// type, qualifiers and address space included; not evaluated) or of a type
// name. Plain `typeof` is C23's, an ordinary name in OpenCL C.
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })

__typeof__(1 + 2) file_scope = 3;

kernel void k(global int *o, int n, const int c, global float *f) {
    __typeof(c) cc = 3;
    cc = 4;
    __typeof__(o[0]) g = 2;
    int m = MAX(n, f[0]);
    __typeof__(int[4]) arr = {1, 2, 3, 4};
    __typeof__(arr) arr2;
    arr2 = arr;
    __typeof__(undefined_thing) z;
    __typeof__(n++) unevaluated = n;
    o[unevaluated] = sizeof(arr2) + cc + m;
}

void combined(int n) {
    __typeof__(n) int both;
}

void not_a_keyword(int n) {
    typeof(n) t;
}
