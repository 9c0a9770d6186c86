// RUN: -Wall — clang's -Wtautological-bitwise-compare (a mask compared with a value it cannot give; an
// 'or' with a non-zero literal as a condition) and -Wtautological-negation-compare (x && !x), in -Wall
// only (clang finds them building the control-flow graph). Not for a constant a macro wrote.
#define M 8
kernel void k(global int *o, int x, uchar uc, int4 v) {
    if ((uc & 0xF) == 16) o[0] = 1;
    if ((x & 8) != 4) o[1] = 1;
    if ((x | 4) == 3) o[2] = 1;
    if ((5 | x) != 3) o[3] = 1;
    if ((x & 8) == 8) o[4] = 1;
    if ((x & M) == 4) o[5] = 1;
    if (x | 5) o[6] = 1;
    o[7] = (x & 8) == 3;
    if (x && !x) o[8] = 1;
    if (!x || x) o[9] = 1;
    if (o[0] && !o[0]) o[10] = 1;
    o[11] = x || !x;
    while (x | 1) { x++; }
    if (4 == (x & 3)) o[12] = 1;
}
