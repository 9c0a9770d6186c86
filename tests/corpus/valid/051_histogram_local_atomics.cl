// Exercises: 256-bin histogram with __local bins, local atomic_inc, then global atomic_add merge; uchar4 vector loads.
#define BINS 256
__kernel void histogram256(__global const uchar4 *data, const uint n4, __global uint *hist)
{
    __local uint bins[BINS];
    uint l = get_local_id(0), ls = get_local_size(0);
    for (uint b = l; b < BINS; b += ls) bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0)) {
        uchar4 px = data[i];
        atomic_inc(&bins[px.x]);
        atomic_inc(&bins[px.y]);
        atomic_inc(&bins[px.z]);
        atomic_inc(&bins[px.w]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < BINS; b += ls)
        if (bins[b]) atomic_add(&hist[b], bins[b]);
}
