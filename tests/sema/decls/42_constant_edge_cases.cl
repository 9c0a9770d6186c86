// Edge cases of constant evaluation and layout: wrapping, bool casts,
// arrays too large to size, out-of-range shifts (clc refuses them where
// clang only warns), a struct containing itself.
_Static_assert((bool)5 == 1, "bool cast");
_Static_assert(-2147483647 - 1 == (-2147483647 - 1) / 1, "INT_MIN");
_Static_assert(-(-9223372036854775807L - 1) < 0, "negation wraps");
_Static_assert((char)200 == -56 && (ushort)-1 == 65535, "narrowing casts");
_Static_assert(0x7fffffff + 1u == 0x80000000, "unsigned");
_Static_assert(sizeof(ptrdiff_t) == 8 && _Alignof(long) == 8, "target sizes");
_Static_assert(CLK_LOCAL_MEM_FENCE == 1, "builtin constants");

constant int huge[1ul << 62] = { 0 };
enum { X = 1 << 40 };
struct R { struct R r; int x; };
