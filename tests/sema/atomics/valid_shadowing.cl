// Valid: scoping of const locals; an inner non-const variable shadows an
// outer const, so its value is not known and nothing is checked.
// clang-22 accepts this file.
__kernel void k(__global atomic_int *a, __global int *out) {
    const int o = memory_order_acquire;
    out[0] = atomic_load_explicit(a, o);
    {
        int o = memory_order_release;
        o = memory_order_relaxed;
        out[1] = atomic_load_explicit(a, o);
    }
    for (int i = 0; i < 2; i++) {
        const int r = memory_order_release;
        atomic_store_explicit(a, i, r);
    }
}
