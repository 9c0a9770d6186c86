// Comparisons and logical operators give int for scalars; pointers
// compare with pointers and null pointer constants.
struct S { int a; };

kernel void ok(global int *o, global int *p, global int *q)
{
    float f = 1.0f; long l = 2;
    o[0] = (f < l) + (f == 2.0) + (l != 0) + (f && l) + (p || q);
    o[1] = p == q;
    o[2] = p != 0;
    o[3] = p < q;
    _Static_assert(sizeof(1.0 < 2.0) == 4, "comparisons are int");
}

kernel void bad(global int *o, global int *p)
{
    struct S s;
    o[0] = s && 1;
    o[1] = p == 5;
    o[2] = s == s;
}
