// Exercises: event_t, async_work_group_copy in both directions, async_work_group_strided_copy, wait_group_events, prefetch.
#define LSIZE 128
__kernel void async_copy(__global const float4 *in, __global float4 *out, __local float4 *buf)
{
    size_t group = get_group_id(0);
    event_t ev = async_work_group_copy(buf, in + group * LSIZE, LSIZE, 0);
    wait_group_events(1, &ev);
    size_t l = get_local_id(0);
    buf[l] *= 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t evs[2];
    evs[0] = async_work_group_copy(out + group * LSIZE, buf, LSIZE / 2, 0);
    evs[1] = async_work_group_strided_copy(out + group * LSIZE + LSIZE / 2, buf + LSIZE / 2, LSIZE / 2, 1, 0);
    wait_group_events(2, evs);
    prefetch(in + (group + 1) * LSIZE, LSIZE);
}
