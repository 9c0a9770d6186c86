// clang's -Wtautological-constant-out-of-range-compare (an integer compared
// with a constant its type cannot hold, after the usual conversions; a truth
// value with a constant other than 0 and 1) and, for truth values only,
// -Wtautological-constant-compare (compared with a bound: always one way).
#define LIMIT 300
typedef unsigned char byte;
kernel void k(global int *o, global uchar *g, int i, uint u, long l, short sh, char c) {
    bool b = o[3];
    unsigned char uc = o[0];
    uchar uc2 = o[1];
    byte by = o[2];
    if (uc > 300) o[0] = 1;
    if (uc < 300) o[0] = 1;
    if (300 > uc) o[0] = 1;
    if (uc == 256) o[0] = 1;
    if (uc != -1) o[0] = 1;
    if (uc2 >= LIMIT) o[0] = 1;
    if (by <= 255) o[0] = 1;
    if (by < 256) o[0] = 1;
    if (g[0] > 255) o[0] = 1;
    if (g[0] > 256) o[0] = 1;
    if (sh > 40000) o[0] = 1;
    if (sh < -40000) o[0] = 1;
    if (c == 200) o[0] = 1;
    if (i < 0x100000000L) o[0] = 1;
    if (u == -1) o[0] = 1;
    if (u > 0x1FFFFFFFFL) o[0] = 1;
    if (u < -1L) o[0] = 1;
    if ((i < 2) == 2) o[0] = 1;
    if (!i > 1) o[0] = 1;
    if (b == 2) o[0] = 1;
    if ((uc + 1) > 300) o[0] = 1;
    if ((uc & 0xF) == 16) o[0] = 1;
    o[1] = (i == 3) < 5;
}
