// Block literals open a scope; their parameters and captures resolve.
kernel void k(global int *data, queue_t q)
{
    int captured = 42;
    void (^blk)(void) = ^{ data[0] = captured; };
    int (^add)(int, int) = ^(int a, int b) { return a + b + captured; };
    data[1] = add(1, 2);
    void (^bad)(void) = ^{ data[0] = missing; };
}
