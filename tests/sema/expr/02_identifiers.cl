// Identifiers: variables, enum constants (int) and builtin constants.
enum Color { RED, GREEN = 5 };
constant float scale = 2.0f;

kernel void ok(global float *o, global int *io)
{
    io[0] = RED + GREEN;
    o[0] = scale * M_PI_F + FLT_MAX;
    io[1] = CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE;
    enum Color c = GREEN;
    io[2] = c;
}

kernel void bad(global float *o)
{
    o[0] = undefined_thing;
    o[1] = M_PI_F + missing;
}
