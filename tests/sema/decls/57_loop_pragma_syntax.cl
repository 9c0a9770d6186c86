// How `#pragma unroll` and `#pragma nounroll` are written, and where they
// may stand: before a `for`, `while` or `do` loop (an attribute between
// is fine), with a count as clang-22 reads it.
kernel void syntax(global int *a, int n) {
#pragma unroll (2
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll ()
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll (4) 5
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 4 5
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 1, 2
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma nounroll 4
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll )
    for (int i = 0; i < n; i++) a[i] = 0;
}

kernel void placement(global int *a, int n) {
#pragma unroll 4
    a[0] = 1;
#pragma nounroll
    if (n) a[0] = 1;
#pragma unroll
    {}
#pragma unroll 2
    int x = 0;
    do {
    }
#pragma unroll
    while (n--);
#pragma unroll 2
}

kernel void attributes_first(global int *a, int n) {
    __attribute__((opencl_unroll_hint(4)))
#pragma unroll 2
    for (int i = 0; i < n; i++) a[i] = 0;
}
