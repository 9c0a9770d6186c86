// A struct member that cannot be declared (a syntax error, an unknown
// type) leaves its struct without it: a name not found in that struct is
// not reported, it may be the lost member's. In other structs it is.
struct point { float x, ; };
struct item { unknown_t id; int w; };
struct fine { int a; };
kernel void k(global float *out) {
    struct point p = { .y = 1.0f };
    struct item it = { .id = 1 };
    struct fine f = { .b = 1 };
    out[0] = p.x + p.y + it.id + it.w + f.a + f.b;
}
