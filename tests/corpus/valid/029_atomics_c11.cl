// Exercises: atomic_int/atomic_uint/atomic_flag, atomic_fetch_add_explicit with memory_order/memory_scope, compare_exchange, atomic_load/store, flags, atomic_init.
__kernel void c11_atomics(__global atomic_int *counter, __global atomic_uint *ucounter,
                          __global atomic_flag *lock, __global int *out)
{
    __local atomic_int local_count;
    if (get_local_id(0) == 0)
        atomic_init(&local_count, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int old = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&local_count, 1, memory_order_relaxed, memory_scope_work_group);
    uint uold = atomic_fetch_or_explicit(ucounter, 1u << (get_local_id(0) % 32), memory_order_acq_rel);
    atomic_fetch_sub(counter, 1);
    atomic_fetch_max(counter, old);
    int expected = 0;
    bool swapped = atomic_compare_exchange_strong_explicit(counter, &expected, 42,
                        memory_order_seq_cst, memory_order_relaxed, memory_scope_device);
    bool weak = atomic_compare_exchange_weak(counter, &expected, 7);
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device)) { }
    out[0] += 1;
    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
    atomic_store_explicit(ucounter, 5u, memory_order_release, memory_scope_all_svm_devices);
    int v = atomic_load_explicit(counter, memory_order_acquire);
    int x = atomic_exchange(counter, v + 1);
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    out[get_global_id(0) + 1] = old + (int)uold + swapped + weak + x + atomic_load(&local_count);
}
