// Images are only function parameters, never pointed to.
kernel void ok(read_only image2d_t src, write_only image2d_t dst, sampler_t s)
{
    float4 px = read_imagef(src, s, (int2)(0, 0));
    write_imagef(dst, (int2)(0, 0), px);
}
void helper(read_only image2d_t img) {}

image2d_t global_image;
kernel void local_image(void) { image2d_t img; }
kernel void ptr_image(read_only image2d_t *img) {}
struct holds_image { image2d_t img; };
