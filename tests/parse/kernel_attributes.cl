__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void k1(__global float *p) {}
__attribute__((work_group_size_hint(8, 8, 1))) __kernel void k2() {}
__kernel __attribute__((vec_type_hint(float4))) void k3() {}
__kernel void __attribute__((nosvm)) k4() {}
int over(int x) __attribute__((overloadable));
float over(float x) __attribute__((overloadable));
__attribute__((always_inline)) inline int ai(void) { return 1; }
__attribute__((noinline)) int ni(void) { return 2; }
int aligned_var __attribute__((aligned(16)));
typedef float float_aligned __attribute__((aligned(8)));
__attribute__((reqd_work_group_size(1,1,1), vec_type_hint(uint)))
kernel void k5(void) {}
