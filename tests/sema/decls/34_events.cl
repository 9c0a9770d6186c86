// event_t is not a program-scope variable nor a struct field.
kernel void ok(global float *dst, local float *src)
{
    event_t e = async_work_group_copy(dst, src, 16, 0);
    wait_group_events(1, &e);
}
event_t global_event;
struct with_event { event_t e; int x; };
