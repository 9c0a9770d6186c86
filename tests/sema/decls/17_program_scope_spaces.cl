// Program-scope variables live in __global (the default in 2.0) or
// __constant.
int implicit_global = 1;
global int explicit_global;
constant float table[2] = { 1.0f, 2.0f };
static global int hidden = 3;
global int *gp = &explicit_global;

local int bad_local;
private int bad_private;
generic int bad_generic;
kernel void k(global int *out) { out[0] = implicit_global + hidden + *gp + (int)table[0]; }
