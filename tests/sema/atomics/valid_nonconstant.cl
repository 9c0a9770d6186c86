// Valid: orders and scopes that are not constant expressions are not
// checked here (codegen handles them at run time), and the implicit forms
// use seq_cst/device and are never diagnosed. clang-22 accepts this file.
__kernel void k(__global atomic_int *a, __local atomic_int *l, memory_order o, memory_scope s, cl_mem_fence_flags flags, __global int *out) {
    memory_order mo = memory_order_acq_rel; // not const: not folded
    atomic_store_explicit(a, 1, o, s);
    atomic_store_explicit(a, 1, mo);
    out[0] = atomic_load_explicit(a, o);
    out[1] = atomic_compare_exchange_strong_explicit(a, out, 1, o, mo, s);
    atomic_work_item_fence(flags, o, s);
    out[2] = atomic_fetch_add(l, 1);
    out[3] = atomic_load(l);
    atomic_store(a, 3);
    barrier(flags);
}
