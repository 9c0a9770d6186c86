// Exercises: separable Gaussian blur on images with sampler, horizontal and vertical passes, __constant weights, read_imagef with float coords.
__constant sampler_t blur_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant float blur_w[7] = { 0.006f, 0.061f, 0.242f, 0.383f, 0.242f, 0.061f, 0.006f };

__kernel void blur_h(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 acc = (float4)(0.0f);
    for (int k = -3; k <= 3; k++)
        acc += blur_w[k + 3] * read_imagef(src, blur_sampler, p + (int2)(k, 0));
    write_imagef(dst, p, acc);
}

__kernel void blur_v(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 acc = (float4)(0.0f);
    for (int k = -3; k <= 3; k++)
        acc += blur_w[k + 3] * read_imagef(src, blur_sampler, (float2)(p.x + 0.5f, p.y + k + 0.5f));
    write_imagef(dst, p, acc);
}
