// RUN: -cl-std=CL1.2
// A program-scope sampler is a constant: OpenCL C 1.2 takes it without
// __constant (clang puts it in the constant address space), as long as
// it is const; other program-scope variables need __constant.
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__const sampler_t also = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
constant sampler_t spelled = CLK_FILTER_NEAREST;
sampler_t mutable_one = CLK_FILTER_NEAREST;
const int not_constant = 3;

kernel void k(read_only image2d_t img, global float4 *o)
{
    o[0] = read_imagef(img, nearest, (int2)(0, 0)) + read_imagef(img, also, (float2)(0.5f, 0.5f)) + read_imagef(img, spelled, (int2)(1, 0));
}
