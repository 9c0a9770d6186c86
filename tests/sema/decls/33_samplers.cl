// Program-scope samplers must be const or __constant and initialized.
constant sampler_t s1 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
const sampler_t s2 = CLK_NORMALIZED_COORDS_TRUE | CLK_FILTER_LINEAR;
kernel void ok(read_only image2d_t img, global float4 *out)
{
    out[0] = read_imagef(img, s1, (int2)(0, 0)) + read_imagef(img, s2, (float2)(0.0f));
}

sampler_t s3 = CLK_FILTER_NEAREST;
constant sampler_t s4;
struct with_sampler { sampler_t s; };
