// Exercises: every scalar type, unsigned long, type specifier spellings, half via pointer, size_t and friends.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scalars(__global long *out, __global half *hp)
{
    bool b = true;
    char c = -1;
    signed char sc = -2;
    unsigned char uc = 255;
    uchar uc2 = 1;
    short s = -300;
    unsigned short us = 60000;
    ushort us2 = 2;
    int i = -70000;
    signed int si = -1;
    unsigned int ui = 4000000000u;
    unsigned ui2 = 3;
    uint ui3 = 4;
    long l = -5000000000l;
    unsigned long ul = 10000000000ul;
    ulong ul2 = 6;
    long int li = 7;
    unsigned long int uli = 8;
    float f = 1.5f;
    double d = 2.5;
    size_t sz = get_global_size(0);
    ptrdiff_t pd = -1;
    intptr_t ip = 0;
    uintptr_t uip = 0;
    float hf = vload_half(0, hp);
    vstore_half(hf * 2.0f, 1, hp);
    out[0] = b + c + sc + uc + uc2 + s + us + us2 + i + si + ui + ui2 + ui3 + l + ul + ul2 + li + uli
           + (long)f + (long)d + sz + pd + ip + uip;
}
