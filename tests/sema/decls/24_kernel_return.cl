// Kernels must return void and be declared at program scope.
kernel void ok(global int *out) { out[0] = 1; }
__kernel void also_ok(void) {}
kernel int bad(void) { return 0; }
kernel float4 bad_vec(global float4 *p) { return p[0]; }
