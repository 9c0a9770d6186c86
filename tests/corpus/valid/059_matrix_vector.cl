// Exercises: matrix-vector product, one work-group per row with local reduction, float4 vectorised loads via vload4.
__kernel void matvec_simple(__global const float *A, __global const float *x, __global float *y, const int rows, const int cols)
{
    int r = get_global_id(0);
    if (r >= rows) return;
    float acc = 0.0f;
    int c = 0;
    for (; c + 4 <= cols; c += 4)
        acc += dot(vload4(0, A + r * cols + c), vload4(0, x + c));
    for (; c < cols; c++)
        acc += A[r * cols + c] * x[c];
    y[r] = acc;
}

__kernel void matvec_wg(__global const float *A, __global const float *x, __global float *y,
                        const int cols, __local float *partial)
{
    int r = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);
    float acc = 0.0f;
    for (int c = l; c < cols; c += ls) acc += A[r * cols + c] * x[c];
    partial[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s /= 2) {
        if (l < s) partial[l] += partial[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) y[r] = partial[0];
}
