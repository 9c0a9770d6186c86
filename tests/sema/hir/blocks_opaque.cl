// Block literals (parameters as locals, captured variables by local id),
// called directly and passed to enqueue_kernel; samplers and events made
// from integer constants; a `__constant` pointer and a string literal.
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;

kernel void blocks(global int *data, queue_t q, read_only image2d_t img) {
    int captured = 42;
    int (^twice)(int) = ^(int x) { return x * 2 + captured; };
    data[0] = twice(3);
    int err = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
                             ^(local void *scratch) { ((local int *)scratch)[0] = captured; },
                             (uint)(4 * sizeof(int)));
    event_t e = 0;
    float4 px = read_imagef(img, smp, (int2)(0, 0));
    data[1] = err + (int)px.x;
    printf("%d\n", captured);
}
