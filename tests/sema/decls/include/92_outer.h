// Included by 92_line_directives.cl; includes 92_inner.h.
int outer_ok;
#include "92_inner.h"
int outer_bad = undeclared_in_outer;
