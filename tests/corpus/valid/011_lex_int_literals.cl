// Exercises: integer literals in decimal, hex, octal with u, l, ul, UL, lu suffixes, and their types.
__kernel void int_literals(__global ulong *out)
{
    int d = 1234567;
    int h = 0x7fFFffff;
    int o = 0777;
    int zero = 0;
    unsigned int u = 4294967295u;
    unsigned int hu = 0xDEADBEEFU;
    long l = 9223372036854775807l;
    long L = 077L;
    unsigned long ul = 18446744073709551615ul;
    unsigned long UL = 0xFFFFFFFFFFFFFFFFUL;
    unsigned long lu = 12345lu;
    ulong oul = 01234567ul;
    out[0] = d + h + o + zero + u + hu;
    out[1] = l + L + ul + UL + lu + oul;
    out[2] = sizeof(0x7fffffff) + sizeof(0x80000000) + sizeof(1l) + sizeof(1u);
}
