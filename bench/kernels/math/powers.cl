// Powers and roots: six per element.
kernel void powers(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    o[i] = pow(b, a) + powr(b, 0.5f * a) + pown(b, 3) + rootn(b, 3) + cbrt(a) + hypot(a, b);
}
