// 256-bin histogram of bytes (4 per uint): per-group bins in local memory
// with local atomics, merged into the global bins with global atomics.
kernel void histogram(global const uint *data, uint n, global uint *bins) {
    local uint hist[256];
    size_t lid = get_local_id(0);
    for (size_t i = lid; i < 256; i += get_local_size(0))
        hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
        uint v = data[i];
        atomic_inc(&hist[v & 0xff]);
        atomic_inc(&hist[(v >> 8) & 0xff]);
        atomic_inc(&hist[(v >> 16) & 0xff]);
        atomic_inc(&hist[v >> 24]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = lid; i < 256; i += get_local_size(0))
        atomic_add(&bins[i], hist[i]);
}
