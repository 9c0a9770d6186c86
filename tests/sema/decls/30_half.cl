// half values need cl_khr_fp16; pointers to half are always allowed.
kernel void ok(global half *p) { global half *q = p; }
kernel void bad(half h)
{
    half x;
    half2 v;
    half arr[2];
}
half program_scope_half = 0;
