// pp-options: SOURCE_DATE_EPOCH=1700000000
// The builtin macros computed where they are used, as clang-22's
// (-x cl -cl-std=CL2.0 -E, SOURCE_DATE_EPOCH=1700000000 -Wdate-time: the
// same output and diagnostics but for the include's name, './' first in
// clang's, and the file named in diagnostics after #line).
date = __DATE__ __TIME__ __TIMESTAMP__
counter = __COUNTER__ __COUNTER__
#define C __COUNTER__
#define TWICE(x) x x
#define S(x) #x
#define XS(x) S(x)
pre_expanded_once = C C TWICE(__COUNTER__) TWICE(C)
#if __COUNTER__ == 6
counter_in_if
#endif
main = __FILE__ __BASE_FILE__ __FILE_NAME__ __INCLUDE_LEVEL__
#include "include/builtin_level.h"
after = __INCLUDE_LEVEL__ __BASE_FILE__
stringized = S(__COUNTER__) XS(__COUNTER__) XS(__FILE_NAME__)
#if defined(__COUNTER__) && defined __DATE__ && defined(__TIME__) && defined(__TIMESTAMP__) && defined(__BASE_FILE__) && defined(__FILE_NAME__) && defined(__INCLUDE_LEVEL__)
all_defined
#endif
#line 100 "dir/other.cl"
line_changes_base = __FILE__ __BASE_FILE__ __FILE_NAME__ __LINE__
#undef __COUNTER__
#define __DATE__ 1
#undef __INCLUDE_LEVEL__
replaced = __COUNTER__ __DATE__ __INCLUDE_LEVEL__
