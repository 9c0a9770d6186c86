_Static_assert(sizeof(int) == 4, "int is 32 bits");
void f() {
    _Static_assert(1, "block scope");
    int x;
}
