// Atomic objects: ATOMIC_VAR_INIT at program scope, atomic_init elsewhere
// (OpenCL C 2.0 §6.13.11.1).
global atomic_int counter = ATOMIC_VAR_INIT(0);
global atomic_uint total = ATOMIC_VAR_INIT(7u);
global atomic_flag flag = ATOMIC_FLAG_INIT;

kernel void ok(global int *out)
{
    atomic_int mine;
    atomic_init(&mine, 3);
    out[0] = atomic_load(&counter) + atomic_load(&mine) + (int)atomic_load(&total);
}

kernel void bad(global int *out)
{
    atomic_int in_function = ATOMIC_VAR_INIT(1);
    out[0] = atomic_load(&in_function);
}
