// Exercises: vector literals with mixed parts, splat, vector comparisons, vector ternary, select, any/all, logical ops.
__kernel void vec_cond(__global float4 *a, __global float4 *b, __global int4 *mask_out)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float2 p = (float2)(x.x, 1.0f);
    float4 lit = (float4)(p, y.zw);
    float4 lit2 = (float4)(x.x, p, 1.0f);
    int4 m = x > y;
    int4 eq = x == lit;
    int4 both = m && eq;
    int4 either = m || !eq;
    float4 mx = m ? x : y;
    float4 sel = select(x, y, m);
    int4 bits = (m & 1) | (eq ^ 2) << 1;
    if (any(m) && !all(eq))
        mx += lit2;
    mask_out[i] = both + either + bits + (int4)(-1);
    a[i] = mx + sel;
}
