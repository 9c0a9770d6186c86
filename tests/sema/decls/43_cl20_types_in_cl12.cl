// RUN: -cl-std=CL1.2 — types OpenCL C 2.0 introduced are errors in 1.2
kernel void k(global int *out)
{
    atomic_int a;
    memory_order o;
    queue_t q;
    ndrange_t r;
    clk_event_t e;
    float4 fine = (float4)(0.0f);
    out[0] = (int)fine.x;
}
