// pp-options: -Iinclude
// Missing files and malformed #include lines.
#include "does_not_exist.h"
#include <plain.h
#include <nope.h>
#include
#include 42
#include "plain.h"
ok
