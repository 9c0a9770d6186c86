// cl_khr_gl_msaa_sharing: no clc target has multi-sample images (the CPU
// runtime shares no OpenGL images; SPIR-V for OpenCL forbids them), so
// their types are refused, as double is without cl_khr_fp64.
#pragma OPENCL EXTENSION cl_khr_gl_msaa_sharing : enable
kernel void k(read_only image2d_msaa_t a, read_only image2d_array_msaa_depth_t b, global float4 *o)
{
    o[0] = read_imagef(a, (int2)(0, 0), 1);
    o[1].x = get_image_num_samples(b);
}
