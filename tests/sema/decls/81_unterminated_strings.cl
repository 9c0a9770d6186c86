// RUN: -Wextra — a string filling a character array without its NUL: clang's
// -Wunterminated-string-initialization (in -Wextra); longer is -Wexcess-initializers. A string in
// braces initializes a character array too (C99 6.7.8p14).
kernel void k(global char *o) {
    char s[3] = "abc";
    char t[2] = "abc";
    char u[4] = "abc";
    uchar w[3] = "abc";
    char v[3] = { "abc" };
    o[0] = s[0] + t[0] + u[0] + w[0] + v[0];
}
constant char g[3] = "xyz";
