#define A 1
#define F(x, y) ((x)+(y))   /* comment */
#define V(...) f(__VA_ARGS__ __VA_OPT__(, 0))
#define N(a, args...) g(a, args)
#define EMPTY
#define S(x) #x  a ## b
#undef A
#define B "str" 'c'
int x = B;
#if 0
#define SKIPPED
#endif
#define LATE F(1, 2)
