// Valid barriers: flags 0 (execution only) or a combination of the fence
// flags, and work-group-or-wider scopes. clang-22 accepts this file.
__kernel void k(void) {
    barrier(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    work_group_barrier(CLK_IMAGE_MEM_FENCE, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_device);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_all_svm_devices);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
}
