// Without cl_khr_fp16, half values do not exist: a half literal, a cast to
// half and a function returning half are errors (as in clang); pointers to
// half and vload_half/vstore_half are fine.
constant float f = 1.0h;
half hret(void);
float widen(global half *p, float c) {
    float y = (half)c;
    return vload_half(0, p) + y;
}
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
half fine(half h) { return h * 2.0h + (half)1.5f; }
