// Idioms of real kernels that clang accepts: none may be rejected.
typedef struct { float arr[4]; int n; } Box;
enum Mode { A, B };
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void k1(global float4 *o, global int *cnt, local int *lc, int n, read_only image2d_t img, write_only image2d_t out, global Box *bx, global half *hp, local float *lt)
{
    if (get_global_id(0) >= n) return;
    int idx = get_local_id(0) + get_group_id(0) * get_local_size(0);
    float4 v = (float4)(0);
    v.xyz = v.zyx;
    v.lo = v.hi;
    uint x = as_uint(v.x);
    float f = as_float(0x3f800000);
    local float tile[16][16];
    tile[get_local_id(1)][get_local_id(0)] = f;
    atomic_inc(&cnt[0]);
    atom_add(&cnt[1], 2);
    atomic_add(&lc[0], 1);
    float4 px = read_imagef(img, smp, (int2)(get_global_id(0), get_global_id(1)));
    write_imagef(out, (int2)(1, 2), px);
    float4 s = select(v, px, v > px);
    int an = any(v > 0.0f) + all(isless(v, px));
    float3 c = cross(v.xyz, px.xyz);
    int4 ci = convert_int4_sat_rte(v);
    uchar4 u = convert_uchar4_sat(v * 255.0f);
    float q = (float)idx / (float)n + fma(f, f, f) + native_sin(f) + length(v.xy);
    vstore_half(f, 0, hp);
    float hf = vload_half(0, hp);
    bx->arr[1] = bx[0].arr[2];
    bx->n++;
    int *p = cnt;
    *p++ = 1;
    int sz = sizeof(tile) / sizeof(tile[0]);
    int t = n ? 1 : 0u;
    char ch = 'a'; ch += 1;
    bool b = n > 0;
    if (b && !b) {}
    double d = f;
    enum Mode m = B;
    switch (m) { case A: break; case B: break; }
    int r = work_group_reduce_add(idx);
    prefetch(o, 16);
    event_t e = async_work_group_copy(lt, (global float *)o, 16, 0);
    wait_group_events(1, &e);
    float4 mx = max(v, 0.0f) + min(v, px) + clamp(v, px, px);
    int ab = abs(idx) + mad24(idx, idx, idx) + min(idx, n);
    ulong tt = (ulong)get_global_id(0) << 32;
    float4 sh = shuffle(v, (uint4)(0, 1, 2, 3));
    int2 coord = (int2)(get_global_id(0), get_global_id(1));
    o[0] = v * 2 + s + mx + sh;
    o[1] += (float4)(c, 1.0f);
    float2 sc = (float2)(sincos(f, &hf), 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    float fr = fract(f, &hf);
    o[2] = normalize(v) + fabs(v) * sign(v) + step(0.5f, v) + smoothstep(0.0f, 1.0f, v);
    int cc = popcount(idx) + clz(idx) + hadd(idx, n) + (int)upsample((short)1, (ushort)2);
    uint ui = get_work_dim();
    v = isnan(v.x) ? v : -v;
    v.s0123 = v.wzyx;
    o[3] = native_divide(v, v + 1.0f) + half_sqrt(fabs(v)) + rsqrt(v) + exp(v) + log2(v);
}

kernel void k2(global int *o, global atomic_int *a)
{
    void (^blk)(void) = ^{ o[0] = 1; };
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(16), blk);
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(16), ^{ o[1] = 2; });
    int s = sub_group_reduce_add(o[0]) + get_sub_group_size();
    atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_device);
    int exp = 0;
    atomic_compare_exchange_strong(a, &exp, 1);
    int *gp = o;
    global int *back = to_global(gp);
    local int *lp = to_local(gp);
    float4 f4 = vload4(0, (global float *)o);
    clk_event_t ev;
    queue_t q = get_default_queue();
}
