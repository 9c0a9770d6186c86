// RUN: -Wconversion — clang's -Wimplicit-int-float-conversion: an integer whose values may need
// more bits than the floating type's significand (24 for float, 53 for double) converted
// implicitly: assignments, initializers, operands of arithmetic, comparisons and compound
// assignments, a scalar widened to a floating vector; not a short, a masked value, nor a
// constant (-Wimplicit-const-int-float-conversion's, on by default).
kernel void k(global float *f, global int *p, global long *l, int i) {
    f[0] = 16777217;
    f[1] = p[0];
    f[2] = l[0];
    float x = 2147483647;
    double d = l[1];
    f[3] = 1 << 30;
    f[4] = 16777216;
    f[5] = p[1] + 0.5f;
    if (f[6] < i) p[2] = 1;
    f[7] += i;
    f[8] = f[9] == i ? x : (float)d;
    float4 v = f[10];
    v.x -= i;
    v += i;
    v = v * i;
}
kernel void k2(global float4 *f, int i, short s, global double *d, long l) {
    float4 v = i;
    v = s;
    f[0] = v + s;
    d[0] = i;
    d[1] = l * 0.5;
    f[1] = (float4)(i, 1, 2, 3);
    f[2] = i & 0xFFFF;
}
