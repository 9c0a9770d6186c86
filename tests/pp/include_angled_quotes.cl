// An angled include that only a quoted one finds (next to this file): an
// error with the quotes as a fix-it, and the file is read anyway (no
// cascade), as in clang. #pragma once in the main file: a warning.
#pragma once
#include <include/plain.h>
after
