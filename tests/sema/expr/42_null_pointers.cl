// Null pointer constants (0, (void *)0, NULL) convert to pointers into
// every address space and compare with any pointer.
kernel void ok(global int *g, constant int *c, local int *l, int i)
{
    global int *a = NULL;
    constant int *b = 0;
    local int *d = (void *)0;
    int r = (c == NULL) + (g != 0) + (l == (void *)0);
    constant int *e = i ? c : NULL;
    global int *f = i ? 0 : g;
    if (!g) return;
    a = NULL;
}

kernel void bad(global int *g, int i)
{
    global int *a = 1;
    global int *b = (void *)1;
    int r = g == 2;
}
