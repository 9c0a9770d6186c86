void f(int n) {
    while (n) n--;
    do { n++; } while (n < 10);
    for (int i = 0; i < n; i++) { continue; }
    for (i = 0, j = 1; ; ) break;
    for (;;) {}
    for (int a = 0, b = 1; a < b; a++, b--) ;
}
