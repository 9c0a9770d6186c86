// Unary and binary arithmetic: integer promotions, usual arithmetic
// conversions, integer-only operators.
struct S { int a; };

kernel void ok(global float *o, global int *io)
{
    char c = 1; short s = 2; uint u = 3; long l = 4; float f = 5.0f;
    io[0] = c + s;          // int
    o[0] = u * f;           // float
    io[1] = l % 3 + (u << 2) + (c & 7) + ~c + -s + !f;
    _Static_assert(sizeof(c + c) == 4, "promoted to int");
    _Static_assert(sizeof(u + l) == 8, "long");
}

kernel void bad(global float *o)
{
    struct S st;
    float f = 1.0f;
    int i = 2;
    o[0] = st + 1;
    o[1] = f % 2.0f;
    o[2] = f << 1;
    o[3] = ~f;
    o[4] = -st;
    o[5] = i & 1.5;
}
