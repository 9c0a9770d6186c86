// C = A * B, all n x n, row-major; one work-item per element of C.
kernel void sgemm_naive(global const float *a, global const float *b, global float *c, int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}
