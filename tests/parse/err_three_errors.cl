void f() {
    int a = 1
    a = (2;
    b = * ;
    return;
}
int after_errors;
