// With cl_khr_fp16 enabled, half variables are fine; half kernel
// parameters are still not allowed by value.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void ok(global half *p)
{
    half x = p[0];
    half4 v = (half4)(x);
    p[1] = v.y;
}
void helper(half h) {}
