void f() {
    int a = 42;
    unsigned b = 42u;
    long c = 0x1Fl;
    unsigned long d = 017UL;
    float e = 1.5f;
    double g = 1e-3;
    half h = 1.0h;
    float hx = 0x1p-3f;
    char ch = 'a';
    char nl = '\n';
    __constant char *s = "hello" " world\n";
    bool t = true, u = false;
    float dot = .5f;
}
