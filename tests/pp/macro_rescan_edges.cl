// Rescanning corner cases, compared with clang -E.
#define f(x) x(1)
#define g(y) [y]
f(g)
#define h(x) x
#define i(x) h(x
i(2))
#define id(x) x
id(id)(3)
#define APPLY(m, ...) m(__VA_ARGS__)
#define SUM(a, b) a + b
APPLY(SUM, 1, 2)
#define CALL(x) x
#define EMPTY()
#define DEFER(x) x EMPTY()
DEFER(g)(4)
CALL(DEFER(g)(5))
#define STR(x) #x
#define XSTR(x) STR(x)
XSTR(__LINE__) STR(__LINE__) XSTR(f(h))
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
CAT(__LI, NE__) XCAT(g, )(6) CAT(1, e) CAT(0x, 1p-3) CAT(-, =) CAT(%:, %:)
STR("a\"b" '\'' \n)
