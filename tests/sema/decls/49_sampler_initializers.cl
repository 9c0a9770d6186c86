// A program-scope sampler's initializer is an integer constant expression
// however it is spelled (its bits are read at compile time); one that
// cannot be evaluated is an error, not a failure in code generation.
__constant sampler_t a = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE || CLK_FILTER_NEAREST;
__constant sampler_t b = (CLK_ADDRESS_REPEAT > 0) ? CLK_FILTER_LINEAR : CLK_FILTER_NEAREST;
__constant sampler_t c = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT << CLK_FILTER_LINEAR;
__constant sampler_t d = 1 / 0;
const sampler_t e = CLK_FILTER_NEAREST % 0;

kernel void k(read_only image2d_t i, global float4 *o) {
    o[0] = read_imagef(i, a, (int2)(0)) + read_imagef(i, b, (int2)(0)) + read_imagef(i, c, (float2)(0))
         + read_imagef(i, d, (int2)(0)) + read_imagef(i, e, (int2)(0));
}
