// Exercises: OpenCL 2.0 work-group collectives: work_group_reduce_add/min/max, scan_inclusive/exclusive, broadcast, any/all; sub-group-free; get_enqueued_local_size.
__kernel void wg_functions(__global const int *in, __global int *out, __global float *fout)
{
    size_t g = get_global_id(0);
    int x = in[g];
    int sum = work_group_reduce_add(x);
    int mn = work_group_reduce_min(x);
    int mx = work_group_reduce_max(x);
    int incl = work_group_scan_inclusive_add(x);
    int excl = work_group_scan_exclusive_add(x);
    int smax = work_group_scan_inclusive_max(x);
    int first = work_group_broadcast(x, 0);
    int anyneg = work_group_any(x < 0);
    int allpos = work_group_all(x > 0);
    float fsum = work_group_reduce_add((float)x);
    out[g] = sum + mn + mx + incl + excl + smax + first + anyneg + allpos
           + (int)get_enqueued_local_size(0) + (int)get_global_linear_id() + (int)get_local_linear_id()
           + (int)get_work_dim() + (int)get_num_groups(0) + (int)get_global_offset(0);
    fout[g] = fsum;
}
