// Designated initializers checked as clang checks them: array designators are integer constants,
// not negative, within bounds, on arrays only; field designators on records only (a member of an
// anonymous member is designated through it); every item converted to the type of the sub-object
// it lands in, after a designator too (positional items go on in the innermost object a
// designator named); -Winitializer-overrides (default on) where an item initializes what an
// earlier one did (a union: another member); excess and scalar lists; GNU ranges
// `[lo ... hi]`, never empty, and without side effects (each element gets the item).
struct In { int a; float2 v; };
struct S { struct In in; __global int *p; float f[2]; struct { int x, y; }; };
union U { int i; float f; };
int g(void);
void m(__global int *q, int x) {
    struct S s3 = { .in.v = 1, .p = 2.0f };
    struct S s4 = { .f[1] = q };
    struct S s5 = { [0] = 1 };
    int a[2] = { .x = 1 };
    int b[2][2] = { [0][3] = 1, [1] = {1, q} };
    struct S arr[2] = { [1].in = {1, 2}, [0].f = {q} };
    struct S s6 = { .in = { .v = (float2)(1), .q = 3 } };
    int y[2] = { [5] = 3 };
    int z[2] = { [x] = 1 };
    int v[3] = { [-1] = 2 };
    int w[3] = { [1.0f] = 2 };
    struct S s7 = { .in.a = 1, q, 2.0f };
    struct S s8 = { .y = q };
    int r1[2] = { [1 ... 0] = 3 };
    int r2[2] = { [0 ... 5] = 3 };
    int r3[4] = { [0 ... 3] = g() };
    int r4[4] = { [0 ... 3] = x++ };
    int s = { [0] = 1 };
    int r5[] = { [0 ... 2000000] = 1 };
    struct In ins[2] = { s3, s3 };
}
void overrides(int x) {
    struct S o1 = { .in = {1, 2}, .in.a = 3 };
    struct S o2 = { .in.a = 3, .in = {1, 2} };
    int o3[3] = { [1] = 1, 2, [1] = 3, 4 };
    union U o4 = { .f = 1.0f, .i = 2 };
    int o5[6] = { [0 ... 3] = x, [2 ... 4] = x + 1 };
    int e1 = { 1, 2 };
    int e2 = { { 1 } };
    struct In e3 = { .a = 1, 2, 3 };
    int e4[2] = { 1, 2, 3 };
    union U e5 = { .f = 1, 2 };
}
