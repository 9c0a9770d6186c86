// clang's default warnings for a constant whose implicit conversion changes
// its value: a floating literal to an integer (-Wliteral-conversion), an
// integer constant to a narrower integer it does not fit
// (-Wconstant-conversion; a negative value for an unsigned type is only a
// sign change, and a same-width conversion is fine), an integer constant
// to a float that cannot hold it (-Wimplicit-const-int-float-conversion).
// In initializers, assignments, arguments, returns and vector literals;
// not in compound assignments, casts, or where the value is kept.
int f(char c) { return c; }
char g(void) { return 1000; }
kernel void k(global int *out, global uchar *u, global float *fl) {
    int2 v = (int2)(1.5f, 2);
    int2 w = (int2)(2.5f);
    uchar a = 255; char b = 255; char c = -129; char d = -128; uchar e = -1;
    out[0] = f(300) + v.x + w.x + a + b + c + d + e + g();
    u[0] = 256;
    int x = -2.25;
    int y = 2.0f;
    short s = 1e10;
    fl[0] = 16777217L;
    double dd = 9007199254740993L;
    out[1] = x + y + s + (int)dd + (char)300;
    out[3] += 1.5f;
    bool bb = 2;
    ulong ul = -1;
    int i = 4294967295u;
    int j = 0x80000000;
    char cc = 'a' + 200;
    out[2] = bb + ul + i + j + cc;
}
