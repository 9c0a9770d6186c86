// Integer builtins: seven per element.
kernel void integer(global const uint *x, global const uint *y, global uint *o) {
    size_t i = get_global_id(0);
    uint a = x[i], b = y[i];
    o[i] = mul_hi(a, b) + rotate(a, b) + popcount(a) + clz(b) + add_sat(a, b) + hadd(a, b) + (uint)mad_sat((int)a, (int)b, 7);
}
