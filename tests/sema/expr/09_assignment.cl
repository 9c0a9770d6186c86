// Assignment needs a modifiable lvalue: not const, not an rvalue, not an
// array, not __constant.
constant int table[2] = {1, 2};

kernel void ok(global int *o)
{
    int x = 0;
    x = 3;
    x += 2; x -= 1; x *= 2; x /= 2; x %= 5; x <<= 1; x >>= 1; x &= 7; x |= 8; x ^= 1;
    o[0] = x;
    int y, z;
    y = z = x;
}

kernel void bad(global int *o, constant int *c)
{
    const int k = 1;
    k = 2;
    1 = 2;
    (o[0] + 1) = 3;
    int a[2];
    a = 0;
    c[0] = 1;
    table[1] = 3;
    k++;
}
