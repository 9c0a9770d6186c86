// Escape-time iteration counts over a width x height window of the plane.
kernel void mandelbrot(global uint *out, int width, int height, float x0, float y0, float step, uint max_iter) {
    int px = get_global_id(0), py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float cr = x0 + px * step, ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    uint it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[py * width + px] = it;
}
