// Invalid: memory_scope_work_item on atomic operations.
// clang-22 -cl-std=CL2.0 accepts all of these silently.
__kernel void k(__global atomic_int *a, __global atomic_flag *f, __global int *out) {
    atomic_store_explicit(a, 1, memory_order_relaxed, memory_scope_work_item);
    out[0] = atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_item);
    out[1] = atomic_flag_test_and_set_explicit(f, memory_order_acquire, (int)0);
}
