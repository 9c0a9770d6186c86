// Casts of OpenCL C's opaque types: only (event_t)0, as clang.
kernel void opaque(global int *out, queue_t q)
{
    event_t e = (event_t)0;
    event_t bad = (event_t)5;
    out[0] = (int)e;
    sampler_t s = (sampler_t)0x10;
    queue_t q2 = (queue_t)0;
    out[1] = (long)q;
}
