// Exercises: vload2/3/4/8/16 and vstore2/3/4/8/16 from global, local, private and constant memory, vload_half/vstore_half_rte.
__kernel void vloads(__global const float *in, __global float *out, __constant float *cin, __global half *h)
{
    size_t g = get_global_id(0);
    __local float lbuf[64];
    float priv[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    float4 a = vload4(g, in);
    float2 b = vload2(0, in + 1);
    float3 c = vload3(g, in);
    float8 d = vload8(0, priv);
    float16 e = vload16(0, in);
    float4 k = vload4(0, cin);
    vstore4(a + k, g, out);
    vstore2(b, 1, out);
    vstore3(c, g, out);
    vstore8(d, 0, out);
    vstore16(e, 0, out);
    vstore4(a, get_local_id(0), lbuf);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 back = vload4(0, lbuf);
    vstore4(back, 0, priv);
    float4 hv = vload_half4(g, h);
    vstore_half4_rte(hv * 2.0f, g, h);
    vstore_half_rtz(back.x, 0, h);
    float4 ha = vloada_half4(0, h);
    out[0] += priv[0] + ha.w;
}
