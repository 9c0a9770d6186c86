// RUN: -Wextra — clang's -Wsign-compare (in -Wextra, off by default): a comparison made in an
// unsigned type of a signed operand that may be negative; not against a non-negative
// constant or mask, nor == with an unsigned constant below the signed range's top.
kernel void k(global int *o, global uint *g, int i, uint u, short s, ulong ul, long l, uchar uc, char c) {
    if (u < i) o[0] = 1;
    if (i < u) o[0] = 1;
    if (u == -1) o[0] = 1;
    if (u == i) o[0] = 1;
    if (u < 5) o[0] = 1;
    if (i < 5u) o[0] = 1;
    if (i == 5u) o[0] = 1;
    if (i == 0xFFFFFFFFu) o[0] = 1;
    if (u < s) o[0] = 1;
    if (ul < l) o[0] = 1;
    if (ul < i) o[0] = 1;
    if (l < u) o[0] = 1;
    if (uc < c) o[0] = 1;
    if (u < (i & 0xFF)) o[0] = 1;
    if (g[0] > i) o[0] = 1;
    if (get_global_id(0) < i) o[0] = 1;
    if (u < c) o[0] = 1;
}
// Not where the result is a constant (both operands constant: static assertions, enumerators,
// case values), nor against unsigned zero where the result is always the same (`c < 0u`,
// clang's -Wtautological-unsigned-zero-compare, off): only `c <= 0u` and `0u < c` are reported.
_Static_assert(-1 < 0u == 0, "usual arithmetic conversions");
enum E { A = -1 < 1u };
kernel void constants(global int *o, int c) {
    switch (c) { case -1 < 1u: o[0] = 1; }
    o[1] = -1 < 1u;
    o[2] = c < 0u;
    o[3] = c >= 0u;
    o[4] = 0u > c;
    o[5] = c <= 0u;
    o[6] = 0u < c;
}
