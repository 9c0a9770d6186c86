// Exercises: queue_t, ndrange_t, clk_event_t, enqueue_kernel with blocks ^{ ... }, block variables, local-memory block args, get_default_queue, events.
__kernel void child_work(__global int *data, int value)
{
    data[get_global_id(0)] = value;
}

__kernel void parent(__global int *data, queue_t q, int n)
{
    if (get_global_id(0) != 0) return;
    ndrange_t range = ndrange_1D((size_t)n);
    size_t gsz[2] = { 4, 4 };
    ndrange_t range2 = ndrange_2D(gsz);
    int captured = 42;
    void (^blk)(void) = ^{ data[get_global_id(0)] = captured; };
    clk_event_t ev1, ev2;
    int err = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, range, 0, NULL, &ev1, blk);
    err |= enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, range2, 1, &ev1, &ev2,
                          ^{ data[get_global_id(1) * 4 + get_global_id(0)] += 1; });
    err |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, range,
                          ^(local void *scratch) { ((local int *)scratch)[get_local_id(0)] = captured; },
                          (uint)(64 * sizeof(int)));
    uint sz = get_kernel_work_group_size(blk);
    uint mul = get_kernel_preferred_work_group_size_multiple(blk);
    clk_event_t marker;
    enqueue_marker(q, 1, &ev2, &marker);
    release_event(ev1);
    release_event(ev2);
    release_event(marker);
    data[0] = err + (int)sz + (int)mul;
}
