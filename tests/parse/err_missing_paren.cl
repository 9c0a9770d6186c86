void f() {
    if (x {
        y();
    }
    g(1, 2;
}
