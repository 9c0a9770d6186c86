void f() {
    x = a + b * c - d / e % f;
    x = a << 1 + 2 >> 3;
    x = a < b == c > d != e <= f >= g;
    x = a & b ^ c | d && e || f;
    x = a ? b : c ? d : e;
    x += y -= z *= w;
    x /= 1; x %= 2; x <<= 3; x >>= 4; x &= 5; x ^= 6; x |= 7;
    x = (a, b), c;
    x = -a + +b - ~c + !d;
    x = *p++ + ++*q - --r + s--;
    x = &a[i].b->c;
}

// GNU's `c ?: b` (no middle operand), as clang: a conditional, right to left.
int elvis(int a, int b, int c) { return a ?: b ? c : a ?: 1; }
