// With cl_khr_fp16 enabled, half variables are fine, and so are half
// kernel parameters by value (as clang-22 has it; OpenCL C 1.x listed
// half among the types kernel arguments cannot have).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void ok(global half *p)
{
    half x = p[0];
    half4 v = (half4)(x);
    p[1] = v.y;
}
void helper(half h) {}
kernel void by_value(half h, half4 v, global half *out) { out[0] = h + v.w; }
