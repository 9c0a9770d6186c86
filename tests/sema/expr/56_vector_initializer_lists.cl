// A braced list for a vector, as clang checks OpenCL C's: every component
// given (vectors in the list give all of theirs), or none at all; a scalar
// converts to the element type, a vector must have it; no designators. A
// vector takes one item whole: there is no brace elision into vectors, so
// a scalar for a vector element or member is a splat.
struct S { int2 a; int b; };
kernel void wrong(global int *out) {
    int2 v = { 1, };
    int4 w = { (int2)(1, 2), 3 };
    int8 x = { (int4)(1), (int2)(2), 3 };
    int3 y = { 1, 2 };
    int4 z = { 1, 2, 3, 4, 5 };
    int4 a = { (float2)(1), 1, 2 };
    int4 b = { .x = 1, 2, 3, 4 };
    int4 c = { [0] = 1, 2, 3, 4 };
    int2 d = { {1, 2} };
    int2 e = { out, 2 };
    int2 arr[2] = { {1}, {2, 3} };
    struct S s = { { 1 }, 2 };
    int2 over[2] = { 1, 2, 3 };
    out[0] = v.x + w.x + x.s0 + y.x + z.x + a.x + b.x + c.x + d.x + e.x + arr[0].x + s.b + over[0].x;
}
kernel void right(global int *out) {
    int4 h = { (int2)(1, 2), (int2)(3, 4) };
    int4 j = { (int3)(5, 6, 7), 8 };
    int2 k = { {1}, 2 };
    int2 none = { };
    float2 f = { 1, 2u };
    int2 splat[2] = { 1, 2 };
    struct S s = { 5, 7 };
    out[0] = h.x + j.w + k.x + none.y + (int)f.y + splat[1].y + s.a.y + s.b;
}
