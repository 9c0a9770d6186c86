struct S { int a; }
void f() {}
