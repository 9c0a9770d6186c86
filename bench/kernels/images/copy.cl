/* Image copies next to the same copy on buffers: what an image read and
 * write cost over plain loads and stores (see bench/README.md, "images"). */

kernel void buffer_copy_uchar4(global const uchar4 *src, global uchar4 *dst) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    dst[i] = src[i];
}

kernel void buffer_copy_float4(global const float4 *src, global float4 *dst) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    dst[i] = src[i];
}

/* Sampler-less read (integer coordinates), write_imagef. */
kernel void image_copy(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p));
}

/* Sampled read at texel centres (nearest filtering), write_imagef. */
kernel void image_copy_sampled(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, s, convert_float2(p) + 0.5f));
}

/* Integer texels. */
kernel void image_copy_ui(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(dst, p, read_imageui(src, p));
}
