// Valid: every order each operation allows, through macros, const locals,
// enumerators, casts, | and ?:. clang-22 accepts this file.
#define ORD_REL memory_order_release
#define SCOPE(x) memory_scope_##x

enum my_orders { MY_RELAXED, MY_ACQ = 2 };

__kernel void k(__global atomic_int *a, __global atomic_flag *f, __global int *out) {
    const memory_order acq = memory_order_acquire;
    const int relaxed = 0;
    atomic_store_explicit(a, 1, memory_order_relaxed);
    atomic_store_explicit(a, 1, ORD_REL, SCOPE(device));
    atomic_store_explicit(a, 1, memory_order_seq_cst, memory_scope_work_group);
    out[0] = atomic_load_explicit(a, acq);
    out[1] = atomic_load_explicit(a, (memory_order)relaxed);
    out[2] = atomic_load_explicit(a, (int)MY_ACQ, memory_scope_all_svm_devices);
    out[3] = atomic_fetch_add_explicit(a, 1, memory_order_acq_rel, memory_scope_device);
    out[4] = atomic_exchange_explicit(a, 2, memory_order_release);
    atomic_flag_clear_explicit(f, memory_order_release, memory_scope_device);
    atomic_flag_clear_explicit(f, 0 ? memory_order_acquire : memory_order_relaxed);
    out[5] = atomic_flag_test_and_set_explicit(f, memory_order_acq_rel);
    out[6] = atomic_flag_test_and_set_explicit(f, memory_order_acquire, memory_scope_work_group);
}
