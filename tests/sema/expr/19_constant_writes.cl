// Writing through a pointer to __constant is an error; reading is fine.
constant float weights[3] = {0.25f, 0.5f, 0.25f};
typedef struct { float w; } W;
constant W cw = {1.0f};

kernel void ok(global float *o, constant float *c)
{
    o[0] = weights[0] + c[1] + *c + cw.w;
}

kernel void bad(constant float *c)
{
    c[0] = 1.0f;
    *c += 2.0f;
    weights[1] = 0.0f;
    cw.w = 2.0f;
}
