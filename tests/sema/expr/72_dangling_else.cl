// clang's -Wdangling-else: an if without else whose body ends (through loops,
// switches and labels) with an if ... else: the else is the inner if's.
kernel void k(global int *o, int a, int b) {
    if (a) if (b) o[0] = 1; else o[0] = 2;
    if (a) { if (b) o[0] = 1; else o[0] = 2; }
    if (a) if (b) o[0] = 1; else o[0] = 2; else o[0] = 3;
    if (a) for (;;) if (b) break; else o[1] = 1;
    if (a) while (b) if (b) break; else { o[1] = 1; }
    if (a) if (b) if (a) o[0] = 1; else o[0] = 2;
    if (a) o[0] = 1; else if (b) o[0] = 2; else o[0] = 3;
    if (a) if (b) o[0] = 1; else if (a) o[0] = 2; else o[0] = 3;
}
