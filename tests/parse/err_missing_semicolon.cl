void f() {
    int x = 1
    x = 2;
    return x
}
