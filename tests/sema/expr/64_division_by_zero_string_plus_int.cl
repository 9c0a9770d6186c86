// clang's -Wdivision-by-zero (integer division and remainder by a
// constant zero, compound assignments too; not floats, not vectors) and
// -Wstring-plus-int / -Wstring-plus-char (a string literal plus an
// integer points into it; parentheses and subtraction do not warn).
kernel void k(global int *o, int i, char c) {
    constant char *a = "abc" + 1;
    constant char *b = "abc" + i;
    constant char *d = i + "abc";
    constant char *e = "abc" + 'x';
    constant char *f = "abc" + c;
    constant char *g = ("abc") + 5;
    constant char *h = "abc" - 1;
    o[0] = i / 0; o[1] = i % 0; o[2] = i / (1 - 1); i /= 0; i %= 0;
    float fl = 1.0f / 0; o[3] = 0 / 0;
    int4 v = (int4)(1) / 0; int4 w = (int4)(1) / (int4)(0);
    o[4] = i / 1 + i % (2 - 1);
}
