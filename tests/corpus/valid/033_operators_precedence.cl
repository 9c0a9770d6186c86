// Exercises: every binary/unary C operator with tricky precedence and associativity, without redundant parentheses.
__kernel void operators(__global int *out, __global uint *uout, int a, int b, int c)
{
    int r0 = a + b * c - a / b % c;
    int r1 = a << 2 + b >> 1;               /* shift binds looser than + */
    int r2 = a & b == c;                    /* == binds tighter than & */
    int r3 = a | b ^ c & a;
    int r4 = a < b == b > c;
    int r5 = a && b || c && !a;
    int r6 = -a - -b + +c - ~a;
    int r7 = !!a + !b;
    int r8 = a ? b : c ? a : b;             /* right-associative */
    int r9 = a - b - c;                     /* left-associative */
    int r10 = a = b = c;                    /* right-associative assignment */
    int r11 = (a, b, c);
    int r12 = a++ + ++b - c-- - --a;
    int r13 = a <= b != b >= c;
    int r14 = a * -b / +c;
    int r15 = sizeof a + sizeof(int) * 2;
    int r16 = a > b ? a : b > c ? b : c;
    int r17 = 1 << 31 >> 31;
    uint u = (uint)a >> 3 | (uint)b << 29;
    uint u2 = ~0u >> 1 & 0x0f0fu ^ 0xffu;
    int *p = &r0;
    int r18 = *p++ + *&r1;
    int arr[3] = { 1, 2, 3 };
    int r19 = 2[arr] + *(arr + 1) + -arr[0];
    out[0] = r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7 + r8 + r9 + r10;
    out[1] = r11 + r12 + r13 + r14 + r15 + r16 + r17 + r18 + r19;
    uout[0] = u + u2;
}
