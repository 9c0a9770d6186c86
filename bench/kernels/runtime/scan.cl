// Inclusive prefix sums within each work-group.
kernel void scan(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    out[i] = work_group_scan_inclusive_add(in[i]);
}
