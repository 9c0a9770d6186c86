// Invalid: atomic_work_item_fence with flags that are not fence flags, and
// memory_scope_work_item without CLK_IMAGE_MEM_FENCE alone; a relaxed fence
// is a warning. clang-22 -cl-std=CL2.0 accepts all of these silently.
__kernel void k(int n) {
    atomic_work_item_fence(0, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | 8, memory_order_acquire, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_item);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    // Flags that are not constant may be CLK_IMAGE_MEM_FENCE: not checked.
    atomic_work_item_fence(n, memory_order_seq_cst, memory_scope_work_item);
}
