// pp-options: -Iinclude
// Malformed #include lines, then a missing file: that one is fatal (as in
// clang): nothing after it is reported, but -E goes on.
#include <plain.h
#include
#include 42
#include "plain.h"
ok
#include "does_not_exist.h"
still_preprocessed
#include <nope.h>
