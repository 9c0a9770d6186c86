// Exercises: nested loops with barriers in uniform control flow, work_group_barrier with scope, mem_fence variants, labelled break-out via goto.
#define N 32
__kernel void nested_barriers(__global float *data, __local float *tmp)
{
    size_t l = get_local_id(0), ls = get_local_size(0);
    for (int pass = 0; pass < 4; pass++) {
        for (int step = 1; step < (int)ls; step <<= 1) {
            tmp[l] = data[l];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (l >= (size_t)step)
                data[l] += tmp[l - step];
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
        work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
        int k = 0;
        while (k < N) {
            do {
                k += 4;
            } while (k % 8);
        }
        mem_fence(CLK_LOCAL_MEM_FENCE);
        read_mem_fence(CLK_GLOBAL_MEM_FENCE);
        write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (data[a * 4 + b] < 0.0f) goto out;
    data[0] = 1.0f;
out:
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
}
