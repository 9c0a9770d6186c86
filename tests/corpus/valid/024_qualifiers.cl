// Exercises: const, volatile, restrict on pointers and pointees, const-pointer-to-const, volatile locals, const parameters.
int sum(const int *restrict a, const int *restrict b, const int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

__kernel void quals(__global const int *restrict in, __global int *restrict out,
                    __global volatile int *flag, const int n)
{
    const int k = 3;
    volatile int v = k;
    const int *const cp = &k;
    int priv[4] = { 1, 2, 3, 4 };
    int const *pc = priv;
    volatile __global int *vf = flag;
    size_t i = get_global_id(0);
    out[i] = in[i] * *cp + v + sum(priv, pc, 4);
    if (i == 0) {
        *vf = 1;
        while (*flag == 0) { }
    }
}
