void f(__global int *a, int n) {
    #pragma unroll
    for (int i = 0; i < 4; i++) a[i] = 0;
    #pragma unroll 8
    while (n--) a[n] = 1;
    #pragma nounroll
    do { n++; } while (n < 3);
    __attribute__((opencl_unroll_hint(2)))
    for (int j = 0; j < n; j++) a[j] += j;
    __attribute__((opencl_unroll_hint))
    while (n) n--;
}
void g(__global int *a, int n) {
    #pragma unroll (4 + 1)
    for (;;) {}
    #pragma unroll 2 3
    while (n) n--;
    #pragma unroll
    __attribute__((opencl_unroll_hint(2)))
    for (;;) {}
    #pragma unroll
    n++;
    do {} 
    #pragma nounroll
    while (n);
}
