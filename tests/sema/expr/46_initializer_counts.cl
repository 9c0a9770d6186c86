// Initializer lists longer than their object, unknown designators, and
// over-long strings; brace elision (flat lists for nested arrays) stays valid.
struct S { int a; float b; };
kernel void k(global int *o) {
    int a[2] = {1, 2, 3};
    struct S s = { .nope = 1 };
    struct S t = { 1, 2.0f, 3 };
    char str[2] = "abc";
    int m[2][2] = { {1, 2}, {3, 4, 5} };
    float4 v = {1, 2, 3, 4, 5};
    o[0] = a[0] + s.a + t.a + str[0] + m[0][0] + (int)v.x;
}
kernel void elided(global int *o) {
    int m[2][2] = {1, 2, 3, 4};
    char exact[3] = "abc";
    float4 v = {1, 2, 3, 4};
    struct S u = { .b = 1.0f, .a = 2 };
    o[0] = m[1][1] + exact[0] + (int)v.w + u.a;
}
