// Macro definition and invocation errors.
#define
#define 3
#define defined
#define F(a, a) a
#define G(a b) a
#define H(a, ...
#define S(x) #y
#define P1 ## x
#define P2(x) x ##
#define TWO(a, b) a b
TWO(1)
TWO(1, 2, 3)
TWO()
#define ONE(a) a
ONE()
ONE(1, 2)
#define NONE() n
NONE() NONE(1)
#define BAD(a, b) a ## b
BAD(+, -) BAD(", x) BAD(/, /)
#define OUTER BAD(1, +)
OUTER
#undef
#undef 4
#undef TWO extra
#define A 1
#define A 1
#define A  1
#define A 2
#define __LINE__ 3
ONE(unterminated
int x;
