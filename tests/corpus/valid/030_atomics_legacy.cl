// Exercises: OpenCL 1.x atomics atomic_inc/atomic_dec/atomic_add/atomic_cmpxchg/atomic_xchg/atomic_min/atomic_max on global and local ints.
__kernel void legacy_atomics(__global int *g, __global unsigned int *ug, __global float *fx)
{
    __local int l[2];
    if (get_local_id(0) == 0) { l[0] = 0; l[1] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&l[0]);
    atomic_dec(&l[1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    int old = atomic_add(&g[0], l[0]);
    atomic_sub(&g[1], 1);
    atomic_cmpxchg(&g[2], old, old + 1);
    atomic_xchg(&g[3], 9);
    atomic_min(&g[4], old);
    atomic_max(&ug[0], 3u);
    atomic_and(&ug[1], 0xf0u);
    atomic_or(&ug[2], 1u);
    atomic_xor(&ug[3], 0xffu);
    atom_add(&g[5], 1);
    atomic_xchg(&fx[0], 1.0f);
    atomic_inc(&ug[4]);
}
