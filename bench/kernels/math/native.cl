// The native_ variants: six per element.
kernel void native(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    o[i] = native_exp(a) + native_log(b) + native_sin(a) + native_cos(a) + native_sqrt(b) + native_divide(a, b);
}
