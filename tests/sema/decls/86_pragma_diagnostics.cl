// RUN: -Wall — #pragma clang diagnostic / GCC diagnostic: push, pop, ignored, warning, error
// from where the pragma stands on in reading order (into includes and back out), through
// _Pragma in macros, and clang-22's messages for malformed ones; #pragma message, GCC warning,
// GCC error; GCC system_header; -Wunknown-pragmas. Same lines, columns and messages as clang-22
// (but the order: clang defers unused-variable warnings to the file's end). 'fatal' is tested in
// 93_fatal_errors.cl: it stops every diagnostic after it.
void f0(void) { int before_any_pragma; }
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-variable"
void f1(void) { int ignored_here; }
#pragma clang diagnostic pop
void f2(void) { int reported_again; }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused"
void f3(void) { int ignored_through_the_group; }
#pragma GCC diagnostic warning "-Wunused-variable"
void f4(void) { int the_nearer_option_decides; }
#pragma GCC diagnostic pop
#pragma clang diagnostic push
#pragma clang diagnostic error "-Wunused-variable"
void f5(void) { int now_an_error; }
#pragma GCC diagnostic error "-Wunused-variable"
void f6(void) { int gcc_error_too; }
#pragma clang diagnostic ignored "-Weverything"
void f7(void) { int everything_off; }
#pragma clang diagnostic warning "-Wunused-variable"
void f8(void) { int only_this_one_back; int x; { int x = 2; } }
#pragma clang diagnostic pop

#include "include/86_pragma_header.h"
void after_header(int x) { x == 3; }
#pragma clang diagnostic pop
void after_pop(int x) { x == 4; }

#define QUIET_BEGIN _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wunused-variable\"")
#define QUIET_END _Pragma("clang diagnostic pop")
QUIET_BEGIN
void f9(void) { int quiet_by_macro; }
QUIET_END
void f10(void) { int loud_again; }

#include "include/86_system_header.h"

#pragma clang diagnostic pop
#pragma clang diagnostic push junk
#pragma clang diagnostic pop
#pragma GCC diagnostic foo
#pragma clang diagnostic
#pragma clang diagnostic ignored
#pragma clang diagnostic ignored Wunused
#pragma clang diagnostic ignored L"-Wunused"
#pragma clang diagnostic ignored "unused"
#pragma clang diagnostic ignored "-Wunused-varible"
#pragma clang diagnostic ignored "-Wno-unused-variable"
#pragma clang diagnostic ignored "-Wunused-variable" junk
#pragma clang diagnostic ignored "-W" "unused-variable"
void f11(void) { int concatenated_name; }
#pragma clang diagnostic warning "-Wformat=2"

#define MSG "from a macro"
#pragma message("hello " "there")
#pragma message "no parentheses"
#pragma message(MSG)
#pragma GCC warning "careful"
#pragma GCC error "stop here"
#pragma message("a") junk
#pragma message(
#pragma message
#pragma GCC warning
#pragma clang diagnostic ignored "-W#pragma-messages"
#pragma message("silenced")
_Pragma("message(\"from _Pragma, silenced too\")")

#pragma STDC FP_CONTRACT OFF
#pragma STDC FP_CONTRACT maybe
#pragma STDC FENV_ACCESS OFF
#pragma STDC FENV_ROUND FE_UPWARD
#pragma STDC foo
#pragma weird thing
#pragma GCC foo
#pragma clang foo
#pragma
#pragma GCC system_header
