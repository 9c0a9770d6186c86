// expect: preprocessor error: #include of a header that does not exist ("no_such_header.h" file not found)
#include "no_such_header.h"

__kernel void k(__global int *out) { out[0] = 1; }
