// pp-options: -Iinclude/next1 -Iinclude/next2
// #include_next: a header found in one -I directory includes the header of the same name found
// after it; in the main file it searches from the start, with clang-22's warning.
#include <nx.h>
int a = IN1 + IN2;
#include_next <nx.h>
