// Builtin calls resolve by overload on the argument types; the call has
// the overload's return type.
kernel void ok(global float4 *o, global int4 *io, global float *f)
{
    float4 a = o[0];
    int4 i = io[0];
    size_t gid = get_global_id(0);
    o[1] = clamp(a, 0.0f, 1.0f) + mix(a, a, 0.5f) + fabs(a) + pow(a, 2.0f);
    f[0] = dot(a, a) + length(a) + sqrt(2.0f);
    io[1] = max(i, i) + (int)abs_diff(i, i).x + mul24(i, 2) + rotate(i, 3);
    int4 m = isless(a, a);
    float4 v = vload4(0, f);
    vstore4(v, 1, f);
    barrier(CLK_LOCAL_MEM_FENCE);
    f[1] = convert_float(gid);
}

kernel void bad(global float4 *o, global int4 *io)
{
    float4 a = o[0];
    int4 i = io[0];
    o[0] = clamp(i, 1.0f, a);
    int x = max(1, 2u);
    float y = sqrt(2);
    int4 z = fabs(i);
    float w = get_global_id(0, 1);
}
