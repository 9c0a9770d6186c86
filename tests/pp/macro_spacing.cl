// -E spacing around empty expansions, as clang-22 prints it: a token
// takes the space before the first replacement token that made it, or
// before one that made nothing (an empty argument, an empty macro).
#define F(a,b) [a b]
#define G(a,...) f(a, __VA_ARGS__)
#define E
F(,) F(1,) F(,2) G(1) G(1,E) F(E,E)
[E E] [E]
#define TAIL(x) a x
#define ID(x) x
#define CALL(x) a (x)
[TAIL()] [TAIL(1)] [ID()] [CALL()]
#define GNU(a, ...) f(a, ## __VA_ARGS__)
#define GNU2(a, ...) f(a,##__VA_ARGS__)
GNU(1) GNU(1,2) GNU(1, 2) GNU2(1) GNU2(1,2) GNU2(1, 2)
#define P(x) x
P(v).xy P(1).5
