// Exercises: 5x5 convolution with __constant filter, clamped borders, local tile with halo, fully unrolled inner loops.
#define R 2
#define FW (2 * R + 1)
#define TW 16

__constant float gauss5[FW * FW] = {
    1,  4,  6,  4, 1,
    4, 16, 24, 16, 4,
    6, 24, 36, 24, 6,
    4, 16, 24, 16, 4,
    1,  4,  6,  4, 1,
};

__kernel void conv5x5(__global const float *in, __global float *out, const int w, const int h,
                      __constant float *filter)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    float acc = 0.0f;
#pragma unroll
    for (int dy = -R; dy <= R; dy++)
#pragma unroll
        for (int dx = -R; dx <= R; dx++) {
            int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
            acc += in[sy * w + sx] * filter[(dy + R) * FW + dx + R];
        }
    out[y * w + x] = acc;
}

__kernel __attribute__((reqd_work_group_size(TW, TW, 1)))
void conv5x5_local(__global const float *in, __global float *out, const int w, const int h)
{
    __local float tile[TW + 2 * R][TW + 2 * R];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    for (int ty = ly; ty < TW + 2 * R; ty += TW)
        for (int tx = lx; tx < TW + 2 * R; tx += TW) {
            int sx = clamp((int)get_group_id(0) * TW + tx - R, 0, w - 1);
            int sy = clamp((int)get_group_id(1) * TW + ty - R, 0, h - 1);
            tile[ty][tx] = in[sy * w + sx];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int dy = 0; dy < FW; dy++)
        for (int dx = 0; dx < FW; dx++)
            acc += tile[ly + dy][lx + dx] * gauss5[dy * FW + dx];
    if (gx < w && gy < h) out[gy * w + gx] = acc / 256.0f;
}
