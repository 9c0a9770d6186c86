// Invalid: compare-exchange failure orders that release, or are stronger
// than the success order. clang-22 -cl-std=CL2.0 accepts all of these.
__kernel void k(__global atomic_int *a, __global int *out) {
    int expected = 0;
    out[0] = atomic_compare_exchange_strong_explicit(a, &expected, 1, memory_order_seq_cst, memory_order_release);
    out[1] = atomic_compare_exchange_weak_explicit(a, &expected, 1, memory_order_acq_rel, memory_order_acq_rel, memory_scope_device);
    out[2] = atomic_compare_exchange_strong_explicit(a, &expected, 1, memory_order_relaxed, memory_order_acquire);
    out[3] = atomic_compare_exchange_weak_explicit(a, &expected, 1, memory_order_acq_rel, memory_order_seq_cst);
    out[4] = atomic_compare_exchange_strong_explicit(a, &expected, 1, memory_order_release, memory_order_acquire);
}
