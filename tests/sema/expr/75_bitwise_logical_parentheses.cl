// RUN: -Wall — clang's -Wlogical-op-parentheses and -Wbitwise-op-parentheses (in -Wparentheses,
// off by default): '&&' within '||', '&' or '^' within '|', '&' within '^'; not with a string
// literal as the message of an assertion, not in a macro's expansion.
#define OR(a, b) ((a) || (b))
#define MIX(a, b, c) (a && b || c)
kernel void k(global int *o, int a, int b, int c) {
    o[0] = a && b || c;
    o[1] = a || b && c;
    o[2] = (a && b) || c;
    o[3] = a || b && "reason";
    o[4] = a || (b && c);
    o[5] = 1 && b || c;
    o[6] = a && b || 0;
    o[7] = a & b | c;
    o[8] = a ^ b | c;
    o[9] = a & b ^ c;
    o[10] = a | b ^ c;
    o[11] = a | b & c;
    o[12] = (a & b) | c;
    o[13] = MIX(a, b, c);
    o[14] = OR(a && b, c);
    o[15] = a || b && c || a;
}
