// #pragma OPENCL EXTENSION takes effect from where it appears, as in clang.
kernel void before(global half *p) { half h = p[0]; p[1] = h; }
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void after(global half *p) { half h = p[0]; p[1] = h; }
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
kernel void again(global half *p) { half h = p[0]; p[1] = h; }
