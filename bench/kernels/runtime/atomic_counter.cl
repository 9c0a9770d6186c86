// Stream compaction: the indices of the elements divisible by 16, appended
// through one global counter (atomic_inc); their order is unspecified.
kernel void atomic_counter(global const uint *data, uint n, volatile global uint *counter, global uint *out) {
    size_t i = get_global_id(0);
    if (i < n && (data[i] & 15) == 0)
        out[atomic_inc(counter)] = i;
}
