// The same identifier as a different kind of symbol in one scope.
enum Mode { FAST, SLOW };
int FAST;
typedef int SLOW;
int fn(void);
int fn;
kernel void k(global int *out) { out[0] = FAST + fn(); }
