// Invalid barriers: flags with other bits, memory_scope_work_item, and a
// sub-group scope on a work-group barrier. clang-22 -cl-std=CL2.0 accepts
// all of these silently.
__kernel void k(void) {
    barrier(8);
    work_group_barrier(CLK_LOCAL_MEM_FENCE | 0x20);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_item);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_item);
}
