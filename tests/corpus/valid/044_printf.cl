// Exercises: printf with scalar conversions, vector conversion specifiers %v4f/%v2d/%v8hd/%v4hlf, width/precision, strings and %% escapes.
__kernel void printing(__global const float4 *v, __global const int2 *iv)
{
    size_t g = get_global_id(0);
    float4 f = v[g];
    int2 i = iv[g];
    short8 s = (short8)(1, 2, 3, 4, 5, 6, 7, 8);
    printf("%v4f\n", f);
    printf("%v2d %v8hd\n", i, s);
    printf("%v4hlf\n", f);
    printf("gid=%u x=%8.3f y=%-6.2e z=%g w=%a\n", (uint)g, f.x, f.y, f.z, f.w);
    printf("%s %c %5d %05i %x %X %o %%\n", "str", 'c', 42, 7, 255u, 255u, 8u);
    printf("%ld %lu %p\n", (long)g, (ulong)g, (void *)0);
    int n = printf("no args\n");
    if (n < 0) printf("printf failed\n");
}
