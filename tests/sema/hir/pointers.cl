// Array decay, address-space casts to __generic, null pointers, pointer
// arithmetic, members through . and ->, address-of and dereference, and
// an explicit cast from __generic back to __global.
typedef struct { int n; float xs[4]; } S;

int sum(int *p, int n) {             // p points into __generic
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}

kernel void pointers(global int *g, local int *l, global S *sp) {
    int priv[4] = {1, 2, 3, 4};
    int a = sum(priv, 4) + sum(g, 1) + sum(l, 2);   // decay and casts to __generic
    int *q = 0;                                      // null pointer constant
    q = g + 1;                                       // pointer offset, then to __generic
    global int *back = (global int *)q;              // explicit __generic -> __global
    long diff = back - g;                            // ptrdiff_t
    sp->n = *back;
    sp[1].xs[2] = (float)(&priv[1] - priv);
    S local_s = { 3, { 1.0f } };
    *g = local_s.n + (q != 0) + (g == back);
}
