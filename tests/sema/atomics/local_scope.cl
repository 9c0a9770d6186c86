// Warnings: atomics on __local objects with a device-or-wider scope, which
// local memory reduces to the work-group. The __global and work-group cases,
// the implicit forms and the non-constant scope give nothing.
// clang-22 -cl-std=CL2.0 accepts this file without a warning.
typedef struct { atomic_int count; } counter_t;
__constant int DEV = memory_scope_device;

__kernel void k(__global atomic_int *g, __local atomic_int *lp, int s, __global int *out) {
    __local atomic_int l;
    __local atomic_int la[4];
    __local counter_t c;
    __local atomic_int *alias = lp;
    atomic_int *gen = lp; // generic: its space is not known
    atomic_int *gen_g = g;
    atomic_fetch_add_explicit(&l, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(lp, 1, memory_order_relaxed, memory_scope_all_svm_devices);
    atomic_store_explicit(&la[2], 0, memory_order_release, memory_scope_device);
    atomic_store_explicit(la + 1, 0, memory_order_release, memory_scope_device);
    out[0] = atomic_load_explicit(&c.count, memory_order_acquire, memory_scope_device);
    out[1] = atomic_fetch_sub_explicit(alias, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit((__local atomic_int *)gen, 1, memory_order_relaxed, DEV);
    atomic_fetch_max_explicit(&lp[3], 1, memory_order_relaxed, DEV);
    // No warning below.
    atomic_fetch_add_explicit(&l, 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(g, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&l, 1, memory_order_relaxed, s);
    atomic_fetch_add_explicit(&l, 1, memory_order_relaxed);
    atomic_fetch_add(lp, 1);
    atomic_fetch_add_explicit(gen, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit((__global atomic_int *)gen_g, 1, memory_order_relaxed, memory_scope_device);
}
