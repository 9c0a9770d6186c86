// Exercises: sparse matrix-vector product in CSR format, scalar (row per work-item) and vector (row per work-group) variants.
__kernel void spmv_csr_scalar(const int rows, __global const int *row_ptr, __global const int *col_idx,
                              __global const float *vals, __global const float *x, __global float *y)
{
    int r = get_global_id(0);
    if (r < rows) {
        float dot_ = 0.0f;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
            dot_ += vals[j] * x[col_idx[j]];
        y[r] = dot_;
    }
}

__kernel void spmv_csr_vector(__global const int *row_ptr, __global const int *col_idx,
                              __global const float *vals, __global const float *x, __global float *y)
{
    int r = get_group_id(0);
    int start = row_ptr[r], end = row_ptr[r + 1];
    float partial = 0.0f;
    for (int j = start + get_local_id(0); j < end; j += get_local_size(0))
        partial += vals[j] * x[col_idx[j]];
    float sum = work_group_reduce_add(partial);
    if (get_local_id(0) == 0) y[r] = sum;
}
