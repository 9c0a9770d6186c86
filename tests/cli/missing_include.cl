// A missing header is a fatal error, as in clang: nothing after it is
// reported (the undeclared names below would cascade); -E goes on.
#include "no_such_header.h"
kernel void k(global T *p) { p[0] = VALUE; }
