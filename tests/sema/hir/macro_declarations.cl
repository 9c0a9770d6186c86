// Names declared by one macro expansion share its span: each still
// resolves to its own declaration.
#define V for (int k = 0; k < 4; k++) { int ok = 1 + k; o[ok] = k; }
#define PAIR int a = 1, b = a + 1;
kernel void t(global int *o) {
    V
    PAIR
    o[0] = a + b;
}
