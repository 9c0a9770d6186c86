// RUN: -Wshadow — clang's -Wshadow (off by default; -Wshadow-all holds it): a local variable,
// parameter (of a definition or a block) or enumerator named as a variable or parameter of an
// enclosing scope, with a note at the one shadowed. Not for names that were a type, a function or an
// enumerator, nor for members, prototypes' parameters or declarations in the same scope. Same lines,
// columns and messages as clang-22.
int g;
constant int cg = 1;
typedef int T;
void proto(int g);
void f(int g) { }
void f2(int p) {
  int p2 = p;
  { int p = 1; (void)p; }
  int g = 2;
  for (int p2 = 0; p2 < 3; p2++) { int p2x = p2; (void)p2x; }
  { int T = 3; (void)T; }
  { int f = 4; (void)f; }
  { int cg = 5; (void)cg; }
  (void)g;
  int q = 1; { { int q = 2; (void)q; } } (void)q;
  struct S { int g; } s; (void)s;
  enum { g2, p3 }; { int g2 = 0; (void)g2; }
  { enum { p2 }; }
  { typedef float p2; }
  { static int p = 0; (void)p; }
}
kernel void k(global int *g) { int i = 0; { int i = 1; (void)i; } (void)i; }
void blk(void) { int x = 0; int (^b)(int) = ^(int x) { return x; }; int y = b(x); (void)y; }
