// OpenCL C 2.0: a static or extern variable in a function is a
// program-scope object, so it lives in __global or __constant (also in a
// non-kernel function). One access qualifier per image or pipe (a
// typedef'd image has one already; the same again is fine), and a pipe is
// read_only or write_only.
typedef write_only image1d_t img1d_wo;
typedef image2d_t img;
kernel void k(void) {
    static private float a = 0;
    extern local float b;
    extern private float c;
    extern constant float d;
    static global int counter = 0;
}
void g(void) { extern constant float e; static constant float f = 1.0f; }
kernel void k7(read_only img1d_wo i) {}
kernel void k8(read_only img i, write_only img j) {}
kernel void k11(read_only write_only image1d_t i) {}
kernel void k13(read_write pipe int p) {}
