// Return values convert to the result type; `void` values cannot be used.
struct S { int a; };
void nothing(void) {}
float half_of(int x) { return x / 2; }
global int *pick(global int *p) { return p; }

int bad_ret(struct S s) { return s; }
void vret(int x) { return x; }
local int *wrong_space(global int *p) { return p; }

kernel void k(global int *o)
{
    int x = nothing();
    o[0] = nothing() + 1;
    o[1] = half_of(3);
}
