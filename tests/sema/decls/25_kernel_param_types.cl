// Kernel parameters may not be bool, size_t, ptrdiff_t, intptr_t,
// uintptr_t, or event_t.
kernel void ok(int i, uint u, float f, float4 v, global int *p, constant float *c, local char *l) {}
kernel void bad_bool(bool b) {}
kernel void bad_sizes(size_t s, ptrdiff_t d, intptr_t ip, uintptr_t up) {}
kernel void bad_event(event_t e) {}
// Ordinary functions may take them.
void fine(bool b, size_t s) {}
