// Valid fences: every flag combination, memory_scope_work_item with
// CLK_IMAGE_MEM_FENCE alone, and the 1.x fences. clang-22 accepts this file.
#define FLAGS (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
__kernel void k(void) {
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(FLAGS, memory_order_acq_rel, memory_scope_work_group);
    atomic_work_item_fence(FLAGS | CLK_IMAGE_MEM_FENCE, memory_order_acquire, memory_scope_all_svm_devices);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_release, memory_scope_work_item);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_sub_group);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(FLAGS);
}
