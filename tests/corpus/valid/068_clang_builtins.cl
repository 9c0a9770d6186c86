// clang's own __builtin_* functions: hints, bit counts, byte and bit swaps, rotations, constants, memcpy/memmove/memset, math and classification under their __builtin_ names
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

constant float infinity = __builtin_inff();
constant int table_bits = __builtin_ctz(256);

uint bucket(uint key) {
    switch (key & 3) {
    case 0: return __builtin_popcount(key);
    case 1: return __builtin_clz(key);
    case 2: return __builtin_ffs((int)key);
    case 3: return __builtin_parity(key);
    }
    __builtin_unreachable();
}

kernel void hash(global const uint *keys, global uint *out, global ulong *wide, global float *f, int n) {
    int i = get_global_id(0);
    __builtin_assume(n > 0);
    if (UNLIKELY(i >= n))
        return;
    uint k = keys[i];
    __builtin_prefetch(keys + i + 16, 0, 1);
    uint h = __builtin_rotateleft32(k * 0x9E3779B9u, 13) ^ __builtin_bswap32(k);
    h ^= __builtin_bitreverse32(h) >> (32 - table_bits);
    out[i] = LIKELY(k != 0) ? h + bucket(k) : 0;
    ulong w = ((ulong)k << 32) | h;
    wide[i] = __builtin_bswap64(w) + __builtin_rotateright64(w, 7) + __builtin_clzll(w | 1) + __builtin_bitreverse64(w);
    float x = f[i];
    f[i] = __builtin_isnan(x) || __builtin_isinf(x) ? __builtin_nanf("") : __builtin_fminf(__builtin_sqrtf(__builtin_fabsf(x)), infinity);
    uint copy[2];
    __builtin_memset(copy, 0, sizeof(copy));
    __builtin_memcpy(copy, keys + i, sizeof(uint));
    __builtin_memmove(out + i, copy, sizeof(uint));
    out[i] += (ushort)__builtin_bswap16((ushort)k) + (uchar)__builtin_bitreverse8((uchar)k) + __builtin_clrsb((int)k);
}
