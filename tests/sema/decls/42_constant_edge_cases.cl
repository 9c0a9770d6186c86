// Edge cases of constant evaluation and layout: wrapping, bool casts,
// arrays too large to size, out-of-range shifts (the count taken modulo
// the width, OpenCL C 6.3.j, as clang does), a struct containing itself.
_Static_assert((bool)5 == 1, "bool cast");
_Static_assert(-2147483647 - 1 == (-2147483647 - 1) / 1, "INT_MIN");
_Static_assert(-(-9223372036854775807L - 1) < 0, "negation wraps");
_Static_assert((char)200 == -56 && (ushort)-1 == 65535, "narrowing casts");
_Static_assert(0x7fffffff + 1u == 0x80000000, "unsigned");
_Static_assert(sizeof(ptrdiff_t) == 8 && _Alignof(long) == 8, "target sizes");
_Static_assert(CLK_LOCAL_MEM_FENCE == 1, "builtin constants");

constant int huge[1ul << 62] = { 0 };
enum { X = 1 << 40 };
_Static_assert(X == 256 && (256 >> 36) == 16 && (1ul << 65) == 2, "shift counts are masked");
struct R { struct R r; int x; };

// An object's size must fit in 61 bits (its size in bits in 64, as LLVM's
// types need): 2^61 chars are too many, 2^61 - 1 are not; a struct whose
// members add up past it is too large (LLVM's verifier saw "unsized types").
typedef union { uint u; uchar bytes[18446744073709551615ul]; } W;
constant char most[2305843009213693951ul] = { 1 };
constant char all[2305843009213693952ul];
struct Two { char a[1ul << 60]; char b[1ul << 60]; };
