// RUN: -Wextra — clang's -Wmissing-field-initializers: a positional list ending before a struct's last
// member, at its '}', for the first member left out of each struct it ran out in (through brace
// elision); not for '{0}', '{}', unions or arrays. A list with designators is not judged (clang
// warns at n's inner list, line 21: clc does not).
struct P { int x, y; };
struct Q { struct P p; int z; };
struct R { int a[3]; int b; };
union U { int i; float f; };
kernel void k(global int *o) {
    struct P a = { 1 };
    struct P b = { 0 };
    struct P c = { };
    struct P d = { .x = 1 };
    struct Q e = { { 1, 2 } };
    struct Q f = { 1, 2 };
    struct R g = { { 1, 2, 3 } };
    struct R h = { 1, 2, 3 };
    union U u = { 1 };
    int arr[3] = { 1 };
    struct P m[2] = { { 1 }, { 2, 3 } };
    struct Q n = { .p = { 1 } };
    struct P z = { 1, 2 };
    o[0] = a.x + b.x + c.x + d.x + e.z + f.z + g.b + h.b + u.i + arr[0] + m[0].y + n.z + z.y;
}
constant struct P g = { 1 };
kernel void k2(global int *o) {
    struct Q f = { 1 };
    struct Q h = { 1, 2, 3 };
    struct P arr[2] = { 1, 2, 3 };
    o[0] = f.z + h.z + arr[1].y + g.y + ((struct P){ 5 }).y;
}
