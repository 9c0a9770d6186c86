// Integer literal types follow C99 6.4.4.1 (value, suffix, radix);
// floating literals: f -> float, none -> double, h -> half.
kernel void ok(global long *o, global float *f)
{
    int i = 2147483647;
    long l = 2147483648;        // too big for int: long
    uint u = 0xFFFFFFFF;        // hex: fits unsigned int
    ulong ul = 18446744073709551615u;
    o[0] = sizeof(2147483648) + sizeof(0xFFFFFFFF) + sizeof(1u) + sizeof(1l);
    f[0] = 1.0f + 'a';
    double d = 1.0;
    _Static_assert(sizeof(0x7FFFFFFF) == 4, "int");
    _Static_assert(sizeof(2147483648) == 8, "long");
    _Static_assert(sizeof('a') == 4, "char literals are int");
}

kernel void bad(global int *o)
{
    int4 v = 1.0f;              // a float does not widen to an int vector
    char4 c = (char4)(1);
    c = c + 1;                  // int has greater rank than char
    global int *p = 1;          // integer to pointer
}
