// Loop unrolling hints in the typed program: `#pragma unroll` over
// `opencl_unroll_hint`, the attributes' last state and last count.
#define N 2
kernel void hints(global int *a, int n) {
#pragma unroll
    for (int i = 0; i < n; i++) a[i] += i;
#pragma unroll N * 2
    while (n--) a[n] += 1;
#pragma nounroll
    do a[n]++; while (n++ < 4);
#pragma unroll 1
    for (;;) break;
    __attribute__((opencl_unroll_hint)) for (;;) break;
    __attribute__((opencl_unroll_hint(8), opencl_unroll_hint)) for (;;) break;
    __attribute__((opencl_unroll_hint(8), opencl_unroll_hint(1))) for (;;) break;
#pragma unroll 3
    __attribute__((opencl_unroll_hint(1))) for (;;) break;
    for (;;) break;
}
