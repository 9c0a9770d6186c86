// Exercises: image2d_t/image3d_t with read_only/write_only/read_write, sampler_t constants, read_imagef/write_imagef/read_imagei, image queries.
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t linear_norm = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

__kernel void copy_image(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 c = read_imagef(src, nearest, p);
    write_imagef(dst, p, c);
}

__kernel void scale_image(__read_only image2d_t src, __write_only image2d_t dst, sampler_t s)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    float2 uv = (float2)((p.x + 0.5f) / dim.x, (p.y + 0.5f) / dim.y);
    write_imagef(dst, p, read_imagef(src, linear_norm, uv) + read_imagef(src, s, p));
}

__kernel void rw_image(read_write image2d_t img, read_only image3d_t vol, __write_only image3d_t out3)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 c = read_imagef(img, p);
    int4 q = (int4)(p, 0, 0);
    float4 v = read_imagef(vol, nearest, q);
    int w = get_image_width(vol) + get_image_height(img) + get_image_depth(vol);
    write_imagef(img, p, c * 0.5f + v + (float4)(w));
    write_imagef(out3, q, v);
}

__kernel void int_image(read_only image2d_t src, __global int4 *out)
{
    int2 p = (int2)(get_global_id(0), 0);
    out[p.x] = read_imagei(src, nearest, p) + (int4)(get_image_channel_order(src), get_image_channel_data_type(src), 0, 0);
}
