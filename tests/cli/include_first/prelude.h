// Read first by -include: a macro and a type the main file uses.
#pragma once
#define GREETING 42
typedef int my_int;
