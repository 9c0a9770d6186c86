// OpenCL C 2.0 §6.13.11: atomic objects are accessed only through the
// atomic functions.
kernel void ok(global atomic_int *counter, global int *o)
{
    atomic_store(counter, 0);
    o[0] = atomic_load(counter) + atomic_fetch_add(counter, 1);
    atomic_int *p = counter;
    atomic_fetch_add_explicit(&counter[1], 1, memory_order_relaxed);
}

kernel void bad(global atomic_int *counter, global int *o)
{
    o[0] = *counter;
    *counter = 1;
    counter[0] += 1;
    counter[1]++;
    int v = counter[2] + 1;
}
