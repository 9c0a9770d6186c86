// Exercises: numerically stable row softmax: work-group max and sum reductions, exp, one work-group per row, INFINITY/FLT_MAX macros.
__kernel void softmax_rows(__global const float *in, __global float *out, const int cols)
{
    int row = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);
    __global const float *x = in + row * cols;
    __global float *y = out + row * cols;
    float m = -INFINITY;
    for (int c = l; c < cols; c += ls) m = fmax(m, x[c]);
    m = work_group_reduce_max(m);
    float s = 0.0f;
    for (int c = l; c < cols; c += ls) s += exp(x[c] - m);
    s = work_group_reduce_add(s);
    float inv = s > 0.0f ? 1.0f / s : FLT_MAX;
    for (int c = l; c < cols; c += ls) y[c] = exp(x[c] - m) * inv;
}
