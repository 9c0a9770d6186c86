// enqueue_kernel: a block takes no parameters, or local void * per local size.
kernel void child(global int *o) { o[0] = 1; }
kernel void parent(global int *o) {
    queue_t q = get_default_queue();
    ndrange_t r = ndrange_1D(1);
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{ o[0] = 1; });
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local void *a, local void *b) { o[1] = 2; }, 16u, 32u);
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local void *a) { o[2] = 3; });
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local int *a) { o[3] = 4; }, 16u);
}
