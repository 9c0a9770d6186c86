// clang's default warnings about operators that bind otherwise than they
// read, also in macro bodies (-Wparentheses: an assignment as a condition,
// a bitwise operator with one comparison operand; -Wshift-op-parentheses;
// -Wlogical-not-parentheses), and -Wtautological-compare for an integer
// compared with itself (not in a macro, not floats, not literals).
#define SHL(a, n) (a << n + 1)
#define AND(a, b) (a & b == 4)
#define SAME(a) (a == a)
#define NOTEQ(a) (!a == 2)
#define ASSIGN_IF(a) if (a = 1) {}
kernel void k(global int *o, int i) {
    o[0] = SHL(i, 2);
    o[1] = AND(i, 3);
    o[2] = SAME(i);
    o[3] = NOTEQ(i);
    ASSIGN_IF(i)
    while (i = 0) {}
    do {} while (i = 0);
    for (; i = 0;) {}
    o[5] = (i = 1) ? 1 : 2;
    if ((i = 1)) {}
    if (i == 1 | i == 2) {}
    o[6] = i | 1 < 2; o[7] = i ^ 1 != 2; o[8] = 1 == 2 & i; o[9] = (i & 1) == 1 & i | 2;
    o[10] = i >> 1 - 1; o[11] = i + 1 << 2; o[12] = (i + 1) << 2;
    o[13] = !i < 2; o[14] = (!i) == 2; o[15] = !(i == 2); o[16] = !i == !o[1];
    float f = 1; o[17] = f == f; o[18] = o[0] == o[0]; o[19] = i != i; o[20] = i < i; o[21] = i >= i;
    o[22] = 3 == 3; o[23] = o[i] == o[i]; o[24] = o[i] == o[i + 1];
}
