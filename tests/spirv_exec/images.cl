// Images for tests/spirv_exec/run.py (on the other implementation, from
// clc's SPIR-V); compiler/tests/images.rs runs the same kernel natively.
constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void img_shift(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 a = read_imagef(src, edge, p + (int2)(1, 0));
    float4 b = read_imagef(src, s, (float2)(p.x + 0.5f, p.y + 0.5f));
    write_imagef(dst, p, a * 2.0f + b + (float4)(get_image_width(src), get_image_height(src), 0.0f, 0.0f));
}

kernel void img_format(read_only image2d_t a, read_only image2d_t b, global int *out) {
    out[0] = get_image_channel_data_type(a);
    out[1] = get_image_channel_data_type(b);
}

// The channel order is OpenCL's CLK_* value too (SPIR-V's OpImageQueryOrder,
// which clc writes into the binary itself, gives its enumerant), for images
// of each access qualifier.
kernel void img_order(read_only image2d_t a, write_only image2d_t b, read_write image2d_t c, read_only image2d_t d, global int *out) {
    out[0] = get_image_channel_order(a);
    out[1] = get_image_channel_order(b);
    out[2] = get_image_channel_order(c);
    out[3] = get_image_channel_order(d);
}

// A second kernel reading through `edge`: one program-scope sampler used by
// two functions (Intel's runtime failed to link that before clc gave each
// function its own OpConstantSampler).
kernel void img_edge(read_only image2d_t src, global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(src, edge, (int2)(i - 1, 0));
}
