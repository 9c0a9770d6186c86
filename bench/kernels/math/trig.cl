// Trigonometric functions and their inverses: seven per element.
kernel void trig(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i] * 0.1f;
    o[i] = sin(a) + cos(a) + tan(a * 0.25f) + asin(b) + acos(b) + atan(a) + atan2(a, b + 2.0f);
}
