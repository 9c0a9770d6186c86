// Invalid: 1.x fences with no address space or with bits that are not
// fence flags. clang-22 -cl-std=CL2.0 accepts all of these silently.
__kernel void k(void) {
    mem_fence(0);
    read_mem_fence(16);
    write_mem_fence(CLK_LOCAL_MEM_FENCE | 0x100);
}
