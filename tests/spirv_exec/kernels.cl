// Kernels run by tests/spirv_exec/run.py: compiled by clc to SPIR-V and run
// on another OpenCL implementation, compiled by clc for x86-64 and run
// natively, and both compared with values computed in numpy.

kernel void arith(global const int *a, global const int *b, global int *o) {
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    o[i * 6 + 0] = x << (y & 31);
    o[i * 6 + 1] = x >> (y & 31);
    o[i * 6 + 2] = y != 0 ? x / y : 0;
    o[i * 6 + 3] = y != 0 ? x % y : 0;
    o[i * 6 + 4] = (x < y) - (x > y);
    o[i * 6 + 5] = convert_uchar_sat(x) + convert_short_sat(x * 1000);
}

kernel void floats(global const float *a, global const float *b, global float *o) {
    int i = get_global_id(0);
    float x = a[i], y = b[i];
    o[i * 5 + 0] = x * y - x / (fabs(y) + 1.0f);
    o[i * 5 + 1] = fmin(x, y) + fmax(x, 2.0f);
    o[i * 5 + 2] = sqrt(fabs(x)) + floor(y) + ceil(x) + trunc(y);
    o[i * 5 + 3] = (float)convert_int_rtz(x * 3.5f);
    o[i * 5 + 4] = copysign(fma(x, y, 1.0f), y);
}

kernel void vectors(global const float4 *v, global int4 *m, global float4 *o) {
    int i = get_global_id(0);
    float4 a = v[i];
    float4 b = a.wzyx;
    b.xy = (float2)(0.5f, -0.5f);
    int4 lt = a < b;
    m[i] = lt;
    o[i] = lt ? a : b * 2.0f;
}

kernel void vec3(global float *p) {
    int i = get_global_id(0);
    float3 t = vload3(i, p);
    vstore3(t.zxy * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, p);
}

typedef struct { char c; float4 v; int k; } S;
constant int table[2][3] = { 1, 2, 3, 4, 5, 6 };

int pick(int x) {
    switch (x & 3) { case 0: return 10; case 1: x += 100; case 2: return x; default: break; }
    return -1;
}

// Corpus 038's switch: cases sharing targets, in a loop whose latch the
// switch reaches straight (Intel's runtime crashed building it before clc
// split critical edges for SPIR-V).
int sw(int x) {
    int r = 0;
    switch (x) {
    case 0: r += 1;
    case 1: case 2: r += 2; break;
    default: r = -1;
    case 5: r += 3; break;
    case 'a': r = 97;
    }
    switch (x & 3) default: r++;
    return r;
}

kernel void structs(global S *s, global int *o) {
    int i = get_global_id(0);
    S t = { 'a', (float4)(1.0f, 2.0f, 3.0f, 4.0f), i * 3 };
    s[i] = t;
    int priv[4] = { [2] = 5, 6 };
    int acc = 0;
    for (int k = 0; k < 4; k++) { if (k == 1) continue; acc += priv[k] * table[k & 1][k % 3]; }
    for (int j = 0; j < i + 40; j++) acc += sw(j);
    o[i] = acc + pick(i);
}

kernel void atomics(global atomic_int *sum, global volatile int *legacy, global atomic_uint *mx) {
    int i = get_global_id(0);
    atomic_fetch_add_explicit(sum, i + 1, memory_order_relaxed, memory_scope_device);
    atomic_inc(legacy);
    atomic_fetch_max(mx, (uint)(i * 7 % 13));
}

// Needs a work-group launcher: run on the other implementation only.
kernel void local_reverse(global const int *in, global int *out, local int *tmp) {
    int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    tmp[l] = in[g * n + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g * n + l] = tmp[n - 1 - l];
}

// Needs a work-group launcher: run on the other implementation only.
// Async copies with a null event and with an event shared by two copies,
// and get_fence of local and global pointers.
kernel void async_copies(global const int *in, global int *out, global int *fences, local int *tmp) {
    int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    event_t e = async_work_group_copy(tmp, in + g * n, n, 0);
    wait_group_events(1, &e);
    fences[g * n + l] = get_fence(tmp + l) | get_fence(out + l) << 4;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t f = async_work_group_strided_copy(out + g * n, tmp, n / 2, 2, 0);
    f = async_work_group_strided_copy(out + g * n + 1, tmp + n / 2, n / 2, 2, f);
    wait_group_events(1, &f);
}

kernel void more_math(global const float4 *v, global const float *a, global const float *b, global float4 *o, global float *r, global int *q) {
    int i = get_global_id(0);
    o[i] = ldexp(v[i], i % 7 - 3);
    int k;
    r[i] = remquo(a[i] * 10.0f, b[i] / 64.0f, &k);
    q[i] = k;
}

kernel void clang_bits(global const uint *u, global const ulong *l, global int *o, global ulong *w) {
    int i = get_global_id(0);
    uint x = u[i];
    ulong y = l[i];
    global int *r = o + i * 8;
    r[0] = __builtin_clz(x); r[1] = __builtin_ctz(x); r[2] = __builtin_popcount(x); r[3] = __builtin_ffs((int)x);
    r[4] = __builtin_clrsb((int)x); r[5] = __builtin_clzl(y); r[6] = __builtin_parityll(y); r[7] = __builtin_expect(x > 5, 1) ? 1 : 2;
    global ulong *q = w + i * 6;
    q[0] = __builtin_bswap16((ushort)x) | ((ulong)__builtin_bswap32(x) << 16);
    q[1] = __builtin_bswap64(y);
    q[2] = __builtin_bitreverse8((uchar)x) | ((ulong)__builtin_bitreverse16((ushort)x) << 8) | ((ulong)__builtin_bitreverse32(x) << 24);
    q[3] = __builtin_bitreverse64(y);
    q[4] = __builtin_rotateleft32(x, i) ^ __builtin_rotateright64(y, i);
    q[5] = __builtin_rotateleft8((uchar)x, i) | (__builtin_rotateright16((ushort)x, i) << 8);
}

kernel void clang_memory(global char *s, global int *o) {
    int i = get_global_id(0);
    global char *row = s + 32 * i;
    __builtin_memmove(row + 2 + i % 3, row, 9);
    __builtin_memmove(row + 16, row + 18 + i % 3, 9);
    int a[2];
    __builtin_memset(a, i, sizeof(a));
    __builtin_memcpy(o + 2 * i, a, sizeof(a));
}
