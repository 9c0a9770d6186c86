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
