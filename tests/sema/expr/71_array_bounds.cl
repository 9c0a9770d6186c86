// clang's -Warray-bounds: a constant subscript outside an array of known
// size (one past the end under '&' is fine; not in sizeof; not a struct's
// last member, which may be a flexible array).
struct S { int arr[3]; };
constant int table[4] = {1, 2, 3, 4};
kernel void k(global int *o, int i) {
    int a[4];
    int m[2][3];
    local int buf[8];
    struct S s;
    o[0] = a[4];
    o[1] = a[-1];
    o[2] = a[3];
    int *p = &a[4];
    int *q = &a[5];
    o[3] = m[1][3];
    o[4] = m[2][0];
    o[5] = buf[8];
    o[6] = s.arr[3];
    o[7] = table[4];
    o[8] = sizeof(a[10]);
    o[9] = 4[a];
    o[10] = a[i];
    o[11] = (a)[4];
    int *r = &(a[4]);
    o[12] = *&a[4];
}
