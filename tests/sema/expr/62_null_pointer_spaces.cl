// A null pointer constant is 0 or (void *)0; (global void *)0 is a
// pointer into __global, which converts and compares as one.
kernel void k(global int *o) {
    constant int *p4 = (global void *)0;
    global int *p6 = (local void *)0;
    global int *p1 = (global void *)0;
    global int *p2 = (void *)0;
    local int *l = 0;
    bool c = p1 == (local void *)0;
    o[0] = c + (p1 == 0) + (p2 == (void *)0) + (p1 == (global void *)0) + (l == 0);
}
