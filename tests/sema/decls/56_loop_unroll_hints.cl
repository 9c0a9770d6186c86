// `__attribute__((opencl_unroll_hint(N)))` (OpenCL C 2.0 §6.11.5) and
// `#pragma unroll N` on loops: clang-22's rules and messages.
#define N 4
enum { E = 3 };
kernel void valid(global int *a, int n) {
    __attribute__((opencl_unroll_hint)) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(1))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(N * 2))) while (n--) a[n] = 1;
    __attribute__((opencl_unroll_hint(E))) do a[n] = 2; while (n++ < 8);
    __attribute__((__opencl_unroll_hint__('a'))) for (;;) break;
    __attribute__((opencl_unroll_hint(4294967297))) for (;;) break;
    __attribute__((opencl_unroll_hint(2), opencl_unroll_hint)) for (;;) break;
#pragma unroll 2
    __attribute__((opencl_unroll_hint(4))) for (;;) break;
#pragma unroll
    for (int i = 0; i < 4; i++) a[i] = 0;
#pragma unroll 0
    for (int i = 0; i < 4; i++) a[i] = 0;
#pragma unroll (N * 2)
    while (n--) a[n] = 1;
#pragma unroll E
    do a[n] = 2; while (n++ < 8);
#pragma unroll sizeof(int)
    for (;;) break;
#pragma unroll 3 ? 2 : 1
    for (;;) break;
#pragma nounroll
    for (;;) break;
    _Pragma("unroll 6") for (;;) break;
}

kernel void attribute_places(global int *a, int n) {
    __attribute__((opencl_unroll_hint)) a[0] = 1;
    __attribute__((opencl_unroll_hint)) { a[0] = 1; }
    __attribute__((opencl_unroll_hint(4))) if (n) a[0] = 2;
    __attribute__((opencl_unroll_hint(0))) a[0] = 1;
    __attribute__((opencl_unroll_hint(4))) ;
    __attribute__((opencl_unroll_hint(2))) L: for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint)) int x = 0;
}

__attribute__((opencl_unroll_hint)) int program_scope;

kernel void attribute_arguments(global int *a, int n) {
    __attribute__((opencl_unroll_hint(0))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(-1))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(n))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(1, 2))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(1.5f))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint("x"))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(4294967296))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(2147483648))) for (int i = 0; i < n; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(undeclared))) for (;;) break;
}

kernel void pragma_counts(global int *a, int n) {
#pragma unroll -1
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll n
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 1.5
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 2.0f
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll true
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 2147483648
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 2147483647
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll undeclared
    for (;;) break;
}

kernel void pragma_pairs(global int *a, int n) {
#pragma unroll 2
#pragma unroll 3
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 4
#pragma unroll
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 4
#pragma nounroll
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll
#pragma unroll
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 1
#pragma unroll 4
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 1
#pragma nounroll
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll (N * 2)
#pragma unroll -1
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma unroll 0
#pragma unroll 2
#pragma unroll 3
    for (int i = 0; i < n; i++) a[i] = 0;
}
