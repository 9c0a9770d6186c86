void f() {
    int x = ;
    y = 1 + ;
    z = (int);
}
