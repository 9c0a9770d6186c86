// Exercises: reqd_work_group_size(16,16,1), work_group_size_hint, vec_type_hint(float4), opencl_unroll_hint on loops, multiple kernels per file, attribute placement.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void fixed_wg(__global float *out)
{
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1.0f;
}

__kernel __attribute__((work_group_size_hint(64, 1, 1)))
void hinted(__global float *out)
{
    out[get_global_id(0)] = 2.0f;
}

__kernel __attribute__((vec_type_hint(float4)))
void vec_hinted(__global float4 *out)
{
    float4 acc = (float4)(0.0f);
    __attribute__((opencl_unroll_hint(4)))
    for (int i = 0; i < 16; i++)
        acc += (float4)(i);
    __attribute__((opencl_unroll_hint))
    for (int i = 0; i < 8; i++)
        acc *= 0.5f;
    int j = 0;
    __attribute__((opencl_unroll_hint(2)))
    while (j < 4) { acc.x += j; j++; }
    out[get_global_id(0)] = acc;
}

__attribute__((reqd_work_group_size(8, 8, 1), vec_type_hint(int)))
__kernel void combined(__global int *out)
{
    out[get_global_id(0)] = 3;
}

kernel void __attribute__((work_group_size_hint(32, 2, 1))) late_attr(global int *out)
{
    out[0] = 4;
}
