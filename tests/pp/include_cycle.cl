// pp-options: -Iinclude
// An include cycle stops at depth 200 with one error.
#include "include/cycle_a.h"
never_reached
