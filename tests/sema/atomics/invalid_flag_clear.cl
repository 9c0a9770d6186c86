// Invalid: clearing a flag with an acquiring order.
// clang-22 -cl-std=CL2.0 accepts both calls without a diagnostic.
__kernel void k(__global atomic_flag *f) {
    atomic_flag_clear_explicit(f, memory_order_acquire);
    atomic_flag_clear_explicit(f, memory_order_acq_rel, memory_scope_device);
}
