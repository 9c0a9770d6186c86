// Exercises: pointers in __global/__local/__constant/__private/__generic and unprefixed global/local/constant/private, generic pointer conversions, to_global/to_local/to_private.
__constant float scale = 2.0f;
constant int offsets[4] = { 0, 1, 2, 3 };

float read_generic(__generic const float *p) { return *p; }
float read_unqualified(const float *p) { return p[0]; }   /* generic by default in 2.0 */

void write_any(float *p, float v)
{
    __global float *g = to_global(p);
    if (g) { *g = v; return; }
    __local float *l = to_local(p);
    if (l) { *l = v; return; }
    __private float *pr = to_private(p);
    if (pr) *pr = v;
}

__kernel void spaces(__global float *gbuf, __local float *lbuf, __constant float *cbuf,
                     global float *gbuf2, local float *lbuf2, constant float *cbuf2)
{
    __private float priv = 1.0f;
    private float priv2 = 2.0f;
    __private float *pp = &priv;
    size_t i = get_global_id(0), l = get_local_id(0);
    lbuf[l] = gbuf[i];
    lbuf2[l] = gbuf2[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    __generic float *gen = &lbuf[l];
    float acc = read_generic(gen) + read_generic(&gbuf[i]) + read_generic(pp) + read_unqualified(&priv2);
    write_any(&gbuf[i], acc);
    write_any(&lbuf[l], acc);
    write_any(&priv, acc);
    gen = gbuf2 + i;
    *gen += cbuf[0] + cbuf2[offsets[i % 4]] * scale + priv;
    __global float *__private gp = gbuf;
    __local float *const lp = lbuf2;
    gp[i] += lp[l];
}
