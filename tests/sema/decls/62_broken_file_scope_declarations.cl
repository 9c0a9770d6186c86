// A file-scope declaration that a syntax error breaks is lost (here, a
// missing ';' before the next declaration: clang's "after top level
// declarator"); its names are then not reported where they are used, as
// the error already explains them. Other names still are.
constant int table[] = { 1, 2, 3 }
constant int origin = 4;
typedef struct { int a; } pair_t
kernel void k(global int *out) {
    pair_t p = { 1 };
    out[0] = table[1] + origin + p.a + missing;
}
