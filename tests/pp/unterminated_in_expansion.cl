// An unterminated invocation produced by a macro carries the expansion notes.
#define f(a) a
#define g f
#define h g(~
h 5
