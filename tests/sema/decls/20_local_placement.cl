// __local variables only in the outermost scope of a kernel, without
// an initializer.
kernel void ok(global int *out)
{
    local int tile[64];
    local float sum;
    tile[get_local_id(0)] = 0;
    out[0] = tile[0] + (int)sum;
}

kernel void nested(global int *out)
{
    if (out[0]) {
        local int inner;
        out[1] = inner;
    }
}

void helper(void) { local int x; }

kernel void init(void) { local int y = 1; }
