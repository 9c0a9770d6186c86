// clang's -Wunused-comparison (a comparison as a statement) and
// -Wunused-value (a statement or a comma's left operand computing a value
// and nothing else); not for what a macro expanded to, not for (void).
#define CHECK(a) (a == 1)
kernel void k(global int *o, int x) {
    x == 1;
    x != 1;
    x < 1;
    (x == 2);
    CHECK(x);
    for (x == 0; x < 3; x++) {}
    o[0] == 1;
    x + 1;
}
kernel void k2(global int *o, int x, int y) {
    int a = (x, y);
    int b = (x, y, 3);
    for (int i = 0, j = 1; i < 3; i++, j++) o[i] = j;
    x++, y++;
    x, y++;
    (void)x;
    sizeof(x);
    -x;
    o[x];
    o[x]++;
}
// A statement with an error draws no warning about its value.
kernel void k3(global int *o) { nope; nope == 1; o[0] + nope; }
