int f(int x) {
    if (x) a(); else if (y) b(); else c();
    if (x) if (y) d(); else e();
    switch (x) {
    case 1:
    case 2: x++; break;
    case 3 + 1: { x--; }
    default: x = 0;
    }
    ;
    return x;
}
