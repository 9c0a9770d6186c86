// Invalid: constant order and scope values outside the enumerations
// (1 is C11's memory_order_consume, which OpenCL does not have).
// clang-22 -cl-std=CL2.0 accepts all of these without a diagnostic.
#define CONSUME 1
__kernel void k(__global atomic_int *a, __global int *out) {
    out[0] = atomic_load_explicit(a, CONSUME);
    out[1] = atomic_fetch_add_explicit(a, 1, 7, memory_scope_device);
    out[2] = atomic_fetch_or_explicit(a, 1, memory_order_relaxed, memory_scope_device + 10);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, -1, memory_scope_device);
}
