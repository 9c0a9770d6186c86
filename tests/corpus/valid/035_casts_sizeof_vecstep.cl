// Exercises: C casts between scalars/pointers, vector casts from scalars, sizeof of types/exprs/vectors, vec_step of types and exprs, _Alignof.
typedef struct { char c; float4 v; } s_t;

__kernel void casts(__global int *out, __global float *fin, __global uchar *bytes)
{
    float f = fin[0];
    int i = (int)f;
    uint u = (uint)(i < 0 ? -i : i);
    char c = (char)u;
    short s = (short)(long)f;
    float4 splat = (float4)f;
    int4 isplat = (int4)(i);
    __global uint *up = (__global uint *)fin;
    __global uchar4 *bp = (__global uchar4 *)bytes;
    float back = (float)(double)(ulong)u;
    size_t sz = sizeof(float3) + sizeof(int16) + sizeof f + sizeof(s_t) + sizeof(splat) + sizeof(char[10]);
    int steps = vec_step(float3) + vec_step(int16) + vec_step(splat) + vec_step(uchar) + vec_step(double2);
    int al = _Alignof(float3) + __alignof__(int) + _Alignof(s_t);
    out[0] = i + c + s + (int)sz + steps + al + (int)splat.y + isplat.z + (int)up[0] + bp[0].x + (int)back;
    out[1] = (int)(char)300 + (unsigned char)-1 + (int)(bool)5 + (int)1.9f + (int)-1.9f;
}
