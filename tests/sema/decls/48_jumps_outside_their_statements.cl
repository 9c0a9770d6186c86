// break and continue need an enclosing loop (break: or switch); case and
// default an enclosing switch. A block literal's body is apart from the
// statements around it.
kernel void k(global int *out, int n)
{
    break;
    continue;
    case 1: out[0] = 1;
    default: out[0] = 2;
    switch (n) {
    case 0: break;
    default: continue;
    }
    for (int i = 0; i < n; i++) {
        switch (i) {
        case 1: continue;
        default: break;
        }
        if (i > 3) break;
    }
    while (n--) continue;
    do { break; } while (n);
    if (n) { break; }
}

kernel void blocks(global int *out, int n)
{
    for (int i = 0; i < n; i++) {
        void (^b)(void) = ^{ break; };
        int (^c)(int) = ^(int x) { switch (x) { case 1: return 1; } return 0; };
        b();
        out[i] = c(i);
    }
}
