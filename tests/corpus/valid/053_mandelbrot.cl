// Exercises: Mandelbrot escape-time loop, 2D NDRange, float2 complex arithmetic, colour packing into uchar4, write to image.
#define MAX_ITER 256
__kernel void mandelbrot(__global uchar4 *out, const int width, const int height,
                         const float x0, const float y0, const float scale)
{
    int px = get_global_id(0), py = get_global_id(1);
    if (px >= width || py >= height) return;
    float2 c = (float2)(x0 + px * scale, y0 + py * scale);
    float2 z = (float2)(0.0f);
    int it = 0;
    while (it < MAX_ITER && dot(z, z) <= 4.0f) {
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
        ++it;
    }
    float t = (float)it / MAX_ITER;
    uchar4 color = it == MAX_ITER ? (uchar4)(0, 0, 0, 255)
                                  : convert_uchar4_sat((float4)(9.0f * (1 - t) * t * t * t, 15.0f * (1 - t) * (1 - t) * t * t,
                                                                8.5f * (1 - t) * (1 - t) * (1 - t) * t, 1.0f) * 255.0f);
    out[py * width + px] = color;
}

__kernel void mandelbrot_image(write_only image2d_t img, const float x0, const float y0, const float scale)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float cr = x0 + p.x * scale, ci = y0 + p.y * scale, zr = 0.0f, zi = 0.0f;
    int i;
    for (i = 0; i < MAX_ITER && zr * zr + zi * zi < 4.0f; i++) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
    }
    write_imagef(img, p, (float4)((float)i / MAX_ITER));
}
