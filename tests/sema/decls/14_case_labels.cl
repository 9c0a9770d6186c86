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
