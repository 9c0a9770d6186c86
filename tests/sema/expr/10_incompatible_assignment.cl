// Incompatible types in assignment and initialization name both types.
struct S { int a; };

kernel void ok(global float *o)
{
    float f = 1;        // arithmetic conversions are implicit
    int i = 2.5f;
    bool b = o;         // pointer to bool
    float4 v = 1.0f;    // a scalar widens in assignment
    struct S s1, s2;
    s1 = s2;
}

kernel void bad(global float *o)
{
    struct S s;
    s = 3;
    float f = o;
    int i = s;
    float4 v;
    float2 w = v;
    o = 1.0f;
}
