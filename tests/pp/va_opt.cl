// __VA_OPT__ (C23 6.10.5.1), which clang-22 takes in OpenCL C: the same
// output, spacing included, and diagnostics as clang-22 -x cl
// -cl-std=CL2.0 -E.
#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)
F(1) F(1,) F(1, 2) F(1, 2, 3) F()
#define G(...) [__VA_OPT__(x ## __VA_ARGS__ ## y)]
G() G(a) G(a b)
#define E
// Present only when the arguments expand to something.
F(1, E) G(E)
#define H(x, ...) x ## __VA_OPT__(_suffix)
H(a) H(a, 1)
#define I(x, ...) __VA_OPT__(pre_) ## x
I(a) I(a, 1)
#define S(...) #__VA_OPT__(a   b  c)
S() S(1)
#define T(...) __VA_OPT__()
[T() T(1)]
#define N(x, ...) __VA_OPT__(x x) x
N(1) N(1, 2)
#define SPACE(...) <__VA_OPT__( x )> <__VA_OPT__(x)> < __VA_OPT__(x) >
SPACE() SPACE(1)
#define EMPTYPASTE(x, ...) a ## __VA_OPT__() ## b
EMPTYPASTE(1) EMPTYPASTE(1, 2)
// An empty argument at an end of __VA_OPT__ next to ## is a placemarker.
#define PLACE_START(a, b, ...) a ## __VA_OPT__(b c)
PLACE_START(x,,1) PLACE_START(x,y,1) PLACE_START(x,y)
#define PLACE_END(a, b, ...) __VA_OPT__(c b) ## a
PLACE_END(x,,1) PLACE_END(x,y,1) PLACE_END(x,y)
#define NAMED(args...) [__VA_OPT__(args)]
NAMED() NAMED(1)
#define STR2(...) #__VA_OPT__(__VA_ARGS__)
STR2(a  "b" 'c') STR2()
#define ST3(x, ...) #x #__VA_OPT__(x)
ST3(1, 2)
#define STR4(...) [# __VA_OPT__(a b)] [x#__VA_OPT__(a b)]
STR4() STR4(1)
// The arguments are expanded first (to know whether they are empty).
#define COUNT(...) __VA_OPT__(__COUNTER__) __VA_ARGS__
COUNT(__COUNTER__)
#define A(...) __VA_OPT__
#define B(...) __VA_OPT__ x
#define C(...) __VA_OPT__(__VA_OPT__())
#define D(...) __VA_OPT__(## x)
#define DE(...) __VA_OPT__(x ##)
#define HASH(...) # __VA_OPT__
#define NONVARIADIC(x) __VA_OPT__(x)
#define OBJECT __VA_OPT__(x)
#define __VA_OPT__ 1
#define PARAM(__VA_OPT__, ...) 1
#define J(...) ## __VA_OPT__(x)
#define K(...) __VA_OPT__(x) ##
#define L(...) __VA_OPT__((x)
#define L1(...) __VA_OPT__(1
#define L2(...) __VA_OPT__(int
#define L3(...) __VA_OPT__(
#define M(...) __VA_OPT__(x))
#define P(...) __VA_OPT__(#)
#define Q(...) __VA_OPT__(# x)
#undef __VA_OPT__
#ifdef __VA_OPT__
#endif
#if defined(__VA_OPT__)
#endif
__VA_OPT__
