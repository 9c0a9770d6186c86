// Names used in expressions must resolve: variables, functions, enum
// constants, builtin constants and builtin functions.
enum Color { RED, GREEN };
kernel void ok(global int *out)
{
    int value = 1;
    out[0] = value + GREEN + CLK_LOCAL_MEM_FENCE + (int)get_global_id(0);
    out[1] = (int)FLT_MAX + memory_order_relaxed;
}

kernel void bad(global int *out)
{
    int counter = 0;
    out[0] = countr;          // typo of a local
    out[1] = get_global_idd(0); // typo of a builtin
    out[2] = nothing_like_this;
    out[3] = CLK_LOCAL_MEM_FENC;
}
