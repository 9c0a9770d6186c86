// pp-options: -Iinclude
// Malformed #include lines, then a missing file: that one is fatal (as in
// clang), so nothing after it is read.
#include <plain.h
#include
#include 42
#include "plain.h"
ok
#include "does_not_exist.h"
never_reached
#include <nope.h>
