// Block literals and calls through block variables.
kernel void k(global int *o)
{
    int (^twice)(int) = ^int(int x) { return x * 2; };
    o[0] = twice(3);
    void (^noop)(void) = ^{ o[1] = 1; };
    noop();
    o[2] = twice(1, 2);
}
