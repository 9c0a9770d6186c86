// pp-options: -Iinclude
// #include with quotes, angles, macros, guards and #pragma once.
#include "include/guarded.h"
#include "include/guarded.h"
#include <guarded.h>
#include <once.h>
#include "include/once.h"
#include <plain.h>
#include <plain.h>
#include <sub/nested.h>
#define HDR <plain.h>
#include HDR
#define QHDR "include/plain.h"
#include QHDR
#define STR(x) #x
#define XSTR(x) STR(x)
#include XSTR(include/plain.h)
after = __LINE__;
