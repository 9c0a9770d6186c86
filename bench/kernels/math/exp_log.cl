// Exponentials and logarithms: eight functions per element.
kernel void exp_log(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    o[i] = exp(a) + exp2(a) + exp10(a * 0.3f) + expm1(a) + log(b) + log2(b) + log10(b) + log1p(b);
}
