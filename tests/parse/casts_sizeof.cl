void f() {
    int a = (int)x;
    float *p = (float *)q;
    __global int *g = (__global int *)r;
    unsigned long n = (unsigned long)(x + 1);
    size_t s1 = sizeof(int);
    size_t s2 = sizeof x;
    size_t s3 = sizeof(x + 1);
    size_t s4 = sizeof(int[4]);
    size_t al = _Alignof(float4);
    int vs = vec_step(float4);
    int vs2 = vec_step(v);
    int c = (int)-1;
}
void offsets() {
    size_t o1 = __builtin_offsetof(struct S, a);
    size_t o2 = __builtin_offsetof(struct T, in.b[2][i + 1]);
}
