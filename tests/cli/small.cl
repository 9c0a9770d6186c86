#define N 4
kernel void f(global float4 *p)
{
    float4 v = (float4)(1.0f, 2.0f, p[0].xy);
    for (int i = 0; i < N; i++)
        p[i] = v * i;
}
