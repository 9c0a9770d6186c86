// printf formats checked against their arguments (warnings, as clang's -Wformat).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
constant char *msg = "hi";
kernel void k(global float *out, int i, float f, float4 v, uint2 u, double d) {
    // Fine.
    printf("%d %u %x %c %f %e %g %a %s %p %%\n", i, 3u, 255, 'c', f, d, f, f, "lit", out);
    printf("%v4hlf %v2hlu %5.2v4hlf %ld %v2lf\n", v, u, v, (long)i, (double2)(d, d));
    printf("%*d|%.*f\n", 4, i, 2, f);
    // Mismatches.
    printf("%d\n", f);
    printf("%f\n", i);
    printf("%v4hlf\n", f);
    printf("%v2hlf\n", v);
    printf("%f\n", v);
    printf("%v4f\n", v);
    printf("%s\n", msg);
    printf("%p\n", i);
    printf("%q and %v5d\n");
    printf("%d %d\n", i);
    printf("%d\n", i, i);
}

// A `*` width or precision takes an int.
kernel void stars(float f, int n, long l)
{
    printf("%*d %.*f %*.*e\n", n, 1, f, 2.0f, l, n, 3.0f);
}
