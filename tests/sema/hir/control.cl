// Control flow: if/else, while, do-while, for with break and continue,
// switch with cases, fallthrough and default, labels and goto.
kernel void control(global int *out, int n) {
    int acc = 0;
    if (n > 3) acc = 1; else if (n) acc = 2;
    while (acc < 10) { acc++; if (acc == 5) continue; }
    do acc--; while (acc > 0);
    for (int i = 0; ; i++) {
        if (i > n) break;
        acc += i;
    }
    switch (out[0]) {
    case 0:
        acc = 7;
    case 'a':
    case 1 + 1:
        acc *= 2;
        break;
    default:
        goto done;
    }
    char ch = n;
    switch (ch) { case -1: acc = 0; }
done:
    out[1] = acc;
    return;
}
