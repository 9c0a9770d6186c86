void f() {
    a[1][2] = b(c, d)(e);
    s.x = p->y;
    f();
    g(1, 2, 3)[0]++;
    v.xyzw = v.s0123;
    w.lo = u.hi.even;
    p->q->r.s--;
}
