// RUN: -Wall — clang's -Wmissing-braces (in -Wall): an array or record member initialized without
// braces of its own; not for '{0}', nor for a record's only member. A list with designators is not
// judged from the first designator on (clang warns at m's 1 and 3: clc gives no warning there).
struct P { int a, b; };
struct Q { struct P p; int c; };
kernel void k(global int *o) {
  int a[2][2] = {1, 2, 3, 4};
  int b[2][2] = {0};
  struct Q q = {1, 2, 3};
  struct Q r = {{1, 2}, 3};
  struct P ps[2] = {1, 2, 3, 4};
  int4 v[2] = {1, 2};
  float4 f = {1, 2, 3, 4};
  struct Q z = {0};
  int c[2][2] = {{1, 2}, 3, 4};
  o[0] = a[0][0] + b[0][0] + q.c + r.c + ps[0].a + v[0].x + (int)f.x + z.c + c[1][0];
}
struct S1 { int arr[3]; };
struct U2 { union { int i; float f; } u; int n; };
struct P gp[2] = {1, 2, 3, 4};
constant int gt[2][3] = {1, 2, 3, 4, 5, 6};
kernel void k2(global int *o, int x) {
  struct S1 s1 = {1, 2, 3};
  struct U2 u2 = {1, 2};
  char names[2][4] = {"abc", "def"};
  struct P p = {1, 2};
  struct Q q1 = {p, 3};
  struct Q q2 = {x + 1, x, 3};
  struct Q q3 = {-1, 2 * x, (int)1.5f};
  struct P ps2[2] = {1, 2, [1] = {3, 4}};
  int m[2][2] = {[0] = 1, 2, 3};
  int4 vv[2][2] = {1, 2, 3, 4};
  o[0] = s1.arr[0] + u2.n + names[0][0] + q1.c + q2.c + q3.c + ps2[0].a + m[0][0] + vv[0][0].x + gp[0].a + gt[0][0] + ((struct Q){1, 2, 3}).c;
}
