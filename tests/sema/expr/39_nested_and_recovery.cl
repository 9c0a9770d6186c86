// One mistake gives one message: an untyped operand makes the enclosing
// expression untyped, without further errors.
struct S { int a; };

kernel void k(global float *o)
{
    struct S s;
    o[0] = (s + 1) * 2 + o[1];
    o[1] = sqrt(s.b) + 1.0f;
    o[2] = undeclared_name * 3 + ((float4)(1.0f)).x;
}
