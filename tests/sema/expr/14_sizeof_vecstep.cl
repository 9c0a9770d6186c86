// sizeof, _Alignof (size_t) and vec_step (int).
kernel void ok(global ulong *o, global int *i)
{
    float3 v;
    o[0] = sizeof(v) + sizeof(float4) + _Alignof(double);
    i[0] = vec_step(v) + vec_step(float8) + vec_step(1.0f);
    _Static_assert(sizeof(sizeof(int)) == 8, "size_t");
    _Static_assert(vec_step(float3) == 4, "3 takes 4");
}

struct S { int a; };

kernel void bad(global int *i)
{
    struct S s;
    i[0] = vec_step(s);
}
