// A declaration with no type specifier: C89's implicit int is an error in
// OpenCL C (as in clang), reported once per declaration; the declaration
// is made with 'int' and checked on: a kernel must return void, and the
// names are declared, so their uses are quiet (not those of a name never
// declared).
kernel foo(global int *p) { p[0] = 1; }
static bar(int x) { return x + 1; }
__attribute__((always_inline)) static inline baz(void) { return 2; }
const limit = 3;

// With a type (given before the qualifiers, by a struct or an enum body,
// or by a typedef name), nothing is missing.
int const a = 1;
struct S { int m; } const s = {1};
enum E { A } const e = A;
typedef int T;
const T t = 2;

kernel void k(global int *out) {
    const x = 3;
    static y;
    int const w = 1;
    { } const v = 2;
    out[0] = bar(x) + baz() + limit + y + w + v + a + s.m + e + t + nope;
}
