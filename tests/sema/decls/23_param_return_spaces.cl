// Parameters and return values are not qualified with an address space
// (pointees may be).
global int *ok_ret(global int *p) { return p; }
void ok_private(private int x) {}

void bad_param(global int g) {}
void bad_local_param(local float f) {}
global int bad_ret(void);
kernel void k(global int *out) { out[0] = *ok_ret(out); }
