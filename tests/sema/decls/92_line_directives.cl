// RUN: -Wall — Places after #line and line markers, and "In file included from" lines, as clang-22 gives them
#include "include/92_outer.h"
int after_include = undeclared_after;
int redefined_in_inner;
#line 100 "generated.cl"
int at_100 = undeclared_at_100;
kernel void k(global int *p) {
    int unused;
    p[0] = missing_call();
}
#line 7
int at_7 = undeclared_at_7;
# 20 "template.h" 1
int in_template = undeclared_in_template;
struct inner_s { float b; };
# 9 "generated.cl" 2
int back = undeclared_back;
# 30 "system.h" 1 3
static void in_system(void) { int unused_in_system; }
int sys_error = undeclared_in_system;
# 11 "generated.cl" 2
static void after_system(void) { int unused_after_system; }
