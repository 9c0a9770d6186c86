// RUN: -Wall — A fatal error stops the diagnostics, as clang-22's: here `#pragma clang diagnostic fatal`
#pragma clang diagnostic error "-Wunused-variable"
void errors(void) { int made_an_error; }
#pragma clang diagnostic fatal "-Wunused-variable"
void fatal(void) { int made_fatal; }
void after(void) { int not_reported; }
int not_reported_either = undeclared;
