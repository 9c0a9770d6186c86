// OpenCL C 2.0 §6.12: a block uses read-only copies of the variables of
// the function around it, made when the block is; a block variable is
// not one of them.
typedef int (^bl_t)(int);

kernel void k(global int *out, int c)
{
    bl_t a = ^(int x) { return x + 1; };
    int n = 1;
    int arr[2] = { 1, 2 };
    void (^writes)(void) = ^{ n = 2; c++; arr[0] = 3; out[6] = n; };
    void (^addresses)(void) = ^{ int *p = &n; int *q = &c; };
    void (^calls)(void) = ^{ out[7] = a(1); };
    void (^nested)(void) = ^{ int m = 0; m = 1; int *p = &m; out[8] = ^(int y) { return y + m; }(1); };
    // Reading captures, and writing through captured pointers, is fine.
    void (^reads)(void) = ^{ out[9] = n + c + arr[1]; };
    reads();
}
