// An array defined without a size takes it from its initializer; without
// one, a local array is an error, and a program-scope one is C's
// tentative definition: one element, with clang's warning. Declarations
// (extern) need no size.
global int g[];
extern global int e[];
kernel void k(global int *o) {
    local float tile[];
    int a[];
    int b[] = {1, 2};
    o[0] = b[0] + g[0];
}
