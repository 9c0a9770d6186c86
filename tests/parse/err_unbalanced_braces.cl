void f() {
    if (x) {
        y();
