// clang's -Wsizeof-pointer-div (sizeof of a pointer divided by the size of
// what it points to) and -Wsizeof-array-div (an array's size divided by a
// size other than its elements'); parentheses around either sizeof silence
// them, as do arrays of arrays and of characters.
struct S { int *q; int arr[3]; };
kernel void k(global int *o, global int *p, global float *fp) {
    int a[10];
    short sa[4];
    char buf[16];
    int m[2][3];
    struct S s;
    o[0] = sizeof(p) / sizeof(p[0]);
    o[1] = sizeof p / sizeof *p;
    o[2] = sizeof(p) / sizeof(int);
    o[3] = sizeof(p) / (sizeof(int));
    o[4] = (sizeof(p)) / sizeof(int);
    o[5] = sizeof(fp) / sizeof(int);
    o[6] = sizeof(a) / sizeof(short);
    o[7] = sizeof(a) / (sizeof(short));
    o[8] = sizeof(a) / sizeof(a[0]);
    o[9] = sizeof(buf) / sizeof(int);
    o[10] = sizeof(m) / sizeof(int);
    o[11] = sizeof(s.q) / sizeof(int);
    o[12] = sizeof(s.arr) / sizeof(char);
    o[13] = sizeof(sa) / sizeof(long);
    o[14] = sizeof(a) / sizeof(unsigned int);
    o[15] = sizeof(int*) / sizeof(int);
}
