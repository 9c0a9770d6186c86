// case labels must be integer constant expressions.
enum Op { ADD, SUB };
kernel void k(global int *out, int op, int v)
{
    switch (op) {
    case ADD: out[0] = 1; break;
    case SUB + 1: out[0] = 2; break;
    case 'x': out[0] = 3; break;
    case (int)sizeof(int): break;
    case v: out[0] = 4; break;
    default: break;
    }
}

// A value appears once per switch, and one default, also in nested
// blocks of its body; an inner switch has labels of its own.
kernel void dup(global int *out, int x)
{
    switch (x) {
    case 1: out[0] = 1; break;
    case 2: {
        case 1: out[0] = 2;
    default: break;
    }
    case ADD + 2: break;
    default: out[0] = 3;
        switch (x & 3) {
        case 1: default: break;
        }
    }
}

// Case values convert to the promoted type of the condition: 4294967296
// is 0 as an int (a duplicate, with a warning for the lost bits), -1 is
// 4294967295 as a uint (a change of sign: no warning); as a long they
// differ, and a uchar promotes to int (256 and 0 differ).
kernel void converted(global int *out, int i, uint u, long l, uchar c)
{
    switch (i) { case 0: case 4294967296: break; }
    switch (u) { case -1: case 4294967295: break; }
    switch (l) { case 0: case 4294967296: break; }
    switch (c) { case 256: case 0: break; }
}
