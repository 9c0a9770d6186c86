// Every spelling C99 allows for the scalar types, plus OpenCL's words.
kernel void k(global int *out)
{
    char a; signed char b; unsigned char c; uchar d;
    short e; short int f; signed short g; signed short int h; unsigned short i; unsigned short int j; ushort k2;
    int l; signed m; signed int n; unsigned o; unsigned int p; uint q;
    long r; long int s; signed long t; signed long int u; unsigned long v; unsigned long int w; ulong x;
    float y; bool z; float4 v4; size_t sz;
    const volatile int cv = 0;
    int unsigned late_unsigned;
    long unsigned int shuffled;
    out[0] = (unsigned int)1 + sizeof(unsigned long) + sizeof(struct { int m; });
}
