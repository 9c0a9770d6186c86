void f() {
    int (^square)(int) = ^(int x) { return x * x; };
    void (^noargs)(void) = ^{ g(); };
    int r = square(3);
    float (^typed)(float) = ^float (float y) { return y; };
    int k = ^int (void) { return 1; }();
}
