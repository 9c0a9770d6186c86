// RUN: -cl-std=CL1.2
// Builtins that need a later version or an extension.
kernel void k(global float *o, global int *p)
{
    o[0] = sqrt(2.0);      // double: cl_khr_fp64 is core in 1.2
    global int *g = to_global(p);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
}
