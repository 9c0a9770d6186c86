// Functions with __attribute__((overloadable)) may share a name.
float __attribute__((overloadable)) mag(float x) { return fabs(x); }
float __attribute__((overloadable)) mag(float2 v) { return length(v); }
kernel void ok(global float *out) { out[0] = mag(1.0f) + mag((float2)(1.0f, 2.0f)); }

// Without the attribute, a second signature conflicts.
int plain(int x) { return x; }
float plain(float x) { return x; }
