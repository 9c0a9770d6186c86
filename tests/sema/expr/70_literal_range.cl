// clang's -Wliteral-range: a floating constant infinite in its type, or zero
// in it though its digits are not.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global float *o, global half *h) {
    o[0] = 1e40f;
    o[1] = 1e-50f;
    o[2] = 1e400;
    o[3] = 1e-400;
    h[0] = 1e5h;
    h[1] = 1e-9h;
    o[4] = 0.0e-999f;
    o[5] = 0x1p200f;
    o[6] = 1e-45f;
    o[7] = 3.5e38f;
    o[8] = 3.4028235e38f;
}
