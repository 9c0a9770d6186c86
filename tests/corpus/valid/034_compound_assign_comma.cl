// Exercises: all compound assignments (+= -= *= /= %= <<= >>= &= |= ^=) on scalars, vectors and array elements; comma in for and expressions.
__kernel void compound(__global int *out, __global float4 *fv)
{
    int x = 100;
    x += 5; x -= 3; x *= 2; x /= 4; x %= 7;
    x <<= 3; x >>= 1; x &= 0xff; x |= 0x100; x ^= 0x55;
    int arr[4] = { 1, 2, 3, 4 };
    int i = 0;
    arr[i++] += arr[i];
    arr[3] *= arr[2] -= 1;
    float4 v = fv[0];
    v *= 2.0f;
    v += (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    v.xy /= (float2)(2.0f);
    int4 iv = (int4)(8);
    iv >>= 1; iv <<= (int4)(1, 2, 3, 4); iv %= 5; iv ^= iv.wzyx;
    int a, b, c;
    for (a = 0, b = 10, c = 0; a < b; a++, b--, c += a * b)
        ;
    int d = (a++, b++, a + b);
    out[0] = x + arr[0] + arr[3] + c + d + iv.x;
    fv[0] = v;
}
