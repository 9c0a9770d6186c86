// Exercises: layer normalization over rows with local-memory mean/variance reduction, gamma/beta, epsilon, rsqrt; helper struct for moments.
typedef struct { float mean; float m2; } moments_t;

__kernel void layer_norm(__global const float *x, __global float *y, __global const float *gamma,
                         __global const float *beta, const int cols, const float eps,
                         __local float *ssum, __local float *ssq)
{
    int row = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);
    float s = 0.0f, q = 0.0f;
    for (int c = l; c < cols; c += ls) {
        float v = x[row * cols + c];
        s += v;
        q += v * v;
    }
    ssum[l] = s;
    ssq[l] = q;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int st = ls / 2; st > 0; st >>= 1) {
        if (l < st) { ssum[l] += ssum[l + st]; ssq[l] += ssq[l + st]; }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    moments_t mo;
    mo.mean = ssum[0] / cols;
    mo.m2 = ssq[0] / cols - mo.mean * mo.mean;
    float inv = rsqrt(mo.m2 + eps);
    for (int c = l; c < cols; c += ls)
        y[row * cols + c] = (x[row * cols + c] - mo.mean) * inv * gamma[c] + beta[c];
}
