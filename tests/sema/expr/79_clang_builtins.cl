// clang's own __builtin_* functions as clang-22 checks them: calls of one prototype (argument
// counts, conversions and their warnings), the type-generic classification functions,
// __builtin_expect_with_probability's constant probability, __builtin_prefetch's flags,
// -Wassume, __builtin_nan's literal payload (clang would call the C library's nan for other
// strings: an error here), integer constant expressions, and no -Wreturn-type after
// __builtin_unreachable or __builtin_trap; memcpy/memset/memmove between spaces, but not into
// __constant memory (clang takes that).
kernel void k(global int *p, int n, float f, global float *g) {
    switch (n) { case __builtin_clz(0): break; case __builtin_popcount(7): break; }
    p[0] = __builtin_expect_with_probability(n, 1, 1.5);
    p[1] = __builtin_expect_with_probability(n, 1, f);
    __builtin_prefetch(p, 2);
    __builtin_prefetch(p, 1, 5);
    __builtin_prefetch(p, n);
    __builtin_prefetch(p, 0, 1, 2);
    __builtin_assume(n++ > 0);
    __builtin_assume(get_global_id(0) < 64);
    p[2] = __builtin_clz(1.5f);
    g[0] = __builtin_nanf(0);
    g[1] = __builtin_nanf("abc");
    p[4] = __builtin_constant_p(n, 1);
    p[5] = __builtin_isnan(3);
    p[6] = __builtin_popcount((int2)(1, 2));
    p[7] = __builtin_expect(n);
    p[8] = __builtin_isnan(f) + __builtin_isless(f, 2.0f) + __builtin_constant_p(n) + __builtin_constant_p(1.5f);
    int sized[__builtin_ctz(8) + __builtin_bswap16(0x100)];
    _Static_assert(__builtin_rotateleft8(0x81, 1) == 3, "rotated");
    _Static_assert(__builtin_expect(5, 0) == 5 && __builtin_abs(-4) == 4, "values");
    _Static_assert(__builtin_clrsb(-1) == 31, "sign bits");
    g[2] = __builtin_inff() + __builtin_sqrtf(f) + __builtin_fmaf(f, f, f) + __builtin_copysignf(f, -1.0f);
    sized[0] = __builtin_ilogbf(f);
    p[9] = sized[0];
    __builtin_memcpy(sized, p, sizeof(sized));
    __builtin_memset(g, 0, 4);
    constant int *c = 0;
    __builtin_memmove(c, p, 4);
    p[10] = __builtin_isnan(f, f);
    __builtin_prefetch();
}
int no_return_needed(int x) { if (x) return 1; __builtin_unreachable(); }
int nor_here(int x) { if (x) return 1; __builtin_trap(); }
constant float inf = __builtin_huge_valf();
constant int bits = __builtin_popcountl(-1L) + __builtin_parity(7);
#if !(__has_builtin(__builtin_expect) && __has_builtin(__builtin_constant_p) && __has_builtin(__builtin_sqrtf) && __has_builtin(__builtin_bitreverse64)) || __has_builtin(__builtin_no_such_thing)
#error "__has_builtin disagrees with clang-22"
#endif
