// Valid: every failure order no stronger than its success order.
// clang-22 accepts this file.
__kernel void k(__global atomic_int *a, __global int *out) {
    int e = 0;
    out[0] = atomic_compare_exchange_strong_explicit(a, &e, 1, memory_order_seq_cst, memory_order_seq_cst);
    out[1] = atomic_compare_exchange_strong_explicit(a, &e, 1, memory_order_seq_cst, memory_order_acquire);
    out[2] = atomic_compare_exchange_strong_explicit(a, &e, 1, memory_order_acq_rel, memory_order_acquire);
    out[3] = atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_acquire, memory_order_acquire, memory_scope_work_group);
    out[4] = atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_release, memory_order_relaxed);
    out[5] = atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_relaxed, memory_order_relaxed);
    out[6] = atomic_compare_exchange_strong(a, &e, 2);
}
