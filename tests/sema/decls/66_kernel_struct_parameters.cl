// A struct kernel parameter is a host value: no bool, size_t or ptrdiff_t
// in it (their size is the device's), at any depth; in OpenCL C 2.0 no
// pointer to private or generic memory (OpenCL 1.x: no pointer at all).
// A pointer parameter reaches no private memory at any level.
struct G { global int *p; };
struct P { int *p; };
struct N { struct { size_t n; } in; };
struct A { bool b[2]; };
struct Fine { int a; float4 v; };
kernel void kg(struct G g) {}
kernel void kp(struct P p) {}
kernel void kn(struct N n) {}
kernel void ka(struct A a) {}
kernel void kf(struct Fine f) {}
kernel void kpp(private int * global *i) {}
kernel void kgg(global int * global *i) {}
