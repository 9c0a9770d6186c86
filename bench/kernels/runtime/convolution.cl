// 5x5 convolution of a width x height image, borders clamped (with
// conditionals rather than the clamp builtin, which clc's CPU target does
// not provide yet).
kernel void convolution(global const float *in, global float *out, constant float *filter, int width, int height) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float acc = 0.0f;
    for (int fy = -2; fy <= 2; fy++) {
        int yy = y + fy;
        yy = yy < 0 ? 0 : yy >= height ? height - 1 : yy;
        for (int fx = -2; fx <= 2; fx++) {
            int xx = x + fx;
            xx = xx < 0 ? 0 : xx >= width ? width - 1 : xx;
            acc += filter[(fy + 2) * 5 + fx + 2] * in[yy * width + xx];
        }
    }
    out[y * width + x] = acc;
}
