// Exercises: naive SGEMM C = alpha*A*B + beta*C with 2D NDRange and row-major indexing macros.
#define A_(r, c) A[(r) * K + (c)]
#define B_(r, c) B[(r) * N + (c)]
#define C_(r, c) C[(r) * N + (c)]

__kernel void sgemm_naive(const int M, const int N, const int K, const float alpha,
                          __global const float *A, __global const float *B,
                          const float beta, __global float *C)
{
    const int row = get_global_id(1);
    const int col = get_global_id(0);
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A_(row, k) * B_(k, col);
    C_(row, col) = alpha * acc + beta * C_(row, col);
}
