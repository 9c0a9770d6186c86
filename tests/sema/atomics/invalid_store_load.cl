// Invalid: store orders that acquire, load orders that release.
// clang-22 -cl-std=CL2.0 accepts all of these without a diagnostic.
#define ACQ memory_order_acquire

__kernel void k(__global atomic_int *a, __global int *out) {
    const int ar = memory_order_acq_rel;
    atomic_store_explicit(a, 1, memory_order_acquire);
    atomic_store_explicit(a, 1, ACQ, memory_scope_device);
    atomic_store_explicit(a, 1, ar);
    out[0] = atomic_load_explicit(a, memory_order_release);
    out[1] = atomic_load_explicit(a, (int)4, memory_scope_work_group);
}
