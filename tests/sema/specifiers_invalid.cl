// Combinations of type specifiers C does not allow, one per line.
typedef int T;
kernel void k(global int *out)
{
    int int a;
    signed unsigned b;
    short long c;
    long long d;
    long long long e;
    unsigned float f;
    long double g;
    char short h;
    float4 int i;
    T float j;
    void int k2;
    _Complex float l;
    const m;
    out[0] = (short long)1;
}
