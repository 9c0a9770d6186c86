// A compatible redeclaration of a prototype is fine; conflicting types
// and a second body are errors.
int twice(int x);
int twice(int x);
int twice(int y) { return 2 * y; }

// A parameter's top-level qualifiers are not part of the function's type
// (C17 6.7.6.3p15): these declare one function. The pointee's are.
uint shift(const uint x, volatile int n);
uint shift(uint x, int n) { return x << n; }
int first(const int *restrict const p);
int first(const int *p) { return p[0]; }
int pointee(const int *p);
int pointee(int *p);

float conflict(int x);
int conflict(int x);

int body(void) { return 1; }
int body(void) { return 2; }

kernel void k(global int *out) { out[0] = twice(1) + body() + shift(1, 2) + first(out); }
