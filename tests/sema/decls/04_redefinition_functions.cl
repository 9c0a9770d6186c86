// A compatible redeclaration of a prototype is fine; conflicting types
// and a second body are errors.
int twice(int x);
int twice(int x);
int twice(int y) { return 2 * y; }

float conflict(int x);
int conflict(int x);

int body(void) { return 1; }
int body(void) { return 2; }

kernel void k(global int *out) { out[0] = twice(1) + body(); }
