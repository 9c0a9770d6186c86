// Blue paint, recursion, function-like names without '(', args over lines.
#define foo foo
foo
#define a b
#define b a
a b
#define self(x) x self(x)
self(1)
#define f(x) x f
f(1)(2)
#define g(x) (x)
g
int g;
g
(1,
  2)
#define EMPTY
#define LPAREN (
#define RPAREN )
#define F(x, y) x + y
#define ELLIP_FUNC(...) __VA_ARGS__
ELLIP_FUNC(F, LPAREN, 'a', 'b', RPAREN);
#define AA AA b
AA
#define obj(x) x
obj EMPTY (1)
#define NIL(x) x
#define G_0(arg) NIL(G_1)(arg)
#define G_1(arg) NIL(arg)
G_0(42)
#define q(x) #x
q( a  "b\n"   'c'  + /* comment */ d )
q(  )
#define cat(a, b) a ## b
cat(1, 2) cat(x, y) cat(+, +) cat(<<, =) cat(., 5) cat(L, 'a') cat(, ) cat(a,)
#define e(...) __VA_ARGS__ end
e() e(1) e(1, 2 , 3)
#define gnu(fmt, ...) printf(fmt, ## __VA_ARGS__)
gnu("x") gnu("x", 1, 2)
#define named(args...) call(args)
named(1, 2)
#define paren_arg(x) [x]
paren_arg((a, b)) paren_arg(())
kernel void k(global int *p) {}
#define kernel __kernel __attribute__((foo))
kernel void k2(void) {}
#define float4 int
float4 v;
