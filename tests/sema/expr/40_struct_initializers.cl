// Struct and union initializer lists check scalar and pointer members in
// order or by designator.
typedef struct { int n; float w; global int *p; } S;
typedef struct { float4 v; int k; } V;
union U { int i; float f; };
struct Inner { int a, b; };
struct Outer { struct Inner in; int c; };

kernel void ok(global int *g)
{
    S s = {1, 2.0f, g};
    S t = {.w = 1.0f, .n = 2};
    V v = {(float4)(1.0f), 3};
    union U u = {5};
    struct Outer o = {{1, 2}, 3};
    struct Outer e = {1, 2, 3};     // brace elision
    int arr[2][2] = {{1, 2}, {3, 4}};
}

kernel void bad(global int *g, local int *l)
{
    S s = {1, 2.0f, l};
    S t = {.p = 3.5f};
    S x = {g};
    struct Outer o = {{1, g}, 3};
}
