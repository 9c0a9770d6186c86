// Included by 92_outer.h.
struct inner_s { int a; };
int inner_bad = undeclared_in_inner;
int redefined_in_inner;
float redefined_in_inner;
