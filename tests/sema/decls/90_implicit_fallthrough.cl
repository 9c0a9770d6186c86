// RUN: -Wimplicit-fallthrough — clang's (off by default): a case or default label that the statements
// before it fall into; not after return, break, goto, an endless loop or both branches of an if
// leaving, not for stacked labels nor after __attribute__((fallthrough));. Same as clang-22.
int f(int x) {
  int r = 0;
  switch (x) {
  case 0: r = 1;
  case 1: r += 2; break;
  case 2:
  case 3: r = 3; __attribute__((fallthrough));
  case 4: { r++; }
  default: r--;
  }
  switch (x) { case 0: if (r) return 1; else break; case 1: return 2; case 5: while (1) {} case 6: r = 0; }
  switch (x) { case 0: r = 1; goto out; case 1: r = 2; out: case 2: r++; }
  switch (x) { default: r = 9; case 7: ; }
  return r;
}
