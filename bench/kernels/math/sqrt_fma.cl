// Square roots, division and fused multiply-adds: six per element.
kernel void sqrt_fma(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    o[i] = sqrt(b) + rsqrt(b) + a / b + fma(a, b, 1.0f) + mad(a, a, b) + fmax(a, b);
}
