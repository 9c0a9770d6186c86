// printf's format must be a string literal.
kernel void k(global int *o, constant char *fmt)
{
    printf("%d %f\n", o[0], 1.5f);
    printf("%v4f\n", (float4)(1.0f));
    printf(fmt, 1);
}
