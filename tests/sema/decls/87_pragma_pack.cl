// #pragma pack: the largest alignment a struct's or union's members get, from the '{' of its
// definition; push/pop with labels, show, reset, macros; clang-22's warnings for malformed ones.
// Every _Static_assert holds in clang-22 too (the same layouts).
struct Natural { char c; int i; short s; };
_Static_assert(sizeof(struct Natural) == 12, "");

#pragma pack(1)
struct One { char c; int i; short s; };
_Static_assert(sizeof(struct One) == 7 && __alignof__(struct One) == 1, "");
_Static_assert(__builtin_offsetof(struct One, i) == 1 && __builtin_offsetof(struct One, s) == 5, "");

#pragma pack(push, outer, 2)
struct Two { char c; int i; long l; };
_Static_assert(sizeof(struct Two) == 14 && __builtin_offsetof(struct Two, l) == 6, "");
// pack caps an aligned member too; the record's own attribute still counts.
struct Capped { char c; int i __attribute__((aligned(16))); } __attribute__((aligned(8)));
_Static_assert(__builtin_offsetof(struct Capped, i) == 2 && sizeof(struct Capped) == 8, "");
#pragma pack(show)

#pragma pack(push, 4)
struct Four { char c; double d; float4 v; };
_Static_assert(__builtin_offsetof(struct Four, d) == 4 && __builtin_offsetof(struct Four, v) == 12, "");
union U { char c; long l; };
_Static_assert(__alignof__(union U) == 4, "");
#pragma pack(pop, outer)
#pragma pack(show)
struct BackToOne { char c; int i; };
_Static_assert(sizeof(struct BackToOne) == 5, "");

#pragma pack()
struct Reset { char c; int i; };
_Static_assert(sizeof(struct Reset) == 8, "");

// The value where the definition's '{' stands counts, a later pragma does not.
#define PACK_VALUE 2
#pragma pack(PACK_VALUE)
struct Early {
  char c;
#pragma pack(8)
  int i;
};
_Static_assert(sizeof(struct Early) == 6, "");
#pragma pack(0)
struct Zero { char c; int i; };
_Static_assert(sizeof(struct Zero) == 8, "");

// A nested definition takes the value at its own '{'.
#pragma pack(1)
struct Outer { char c; struct Inner { char d; int j; } in; };
_Static_assert(sizeof(struct Inner) == 5 && sizeof(struct Outer) == 6, "");
#pragma pack()

kernel void k(global struct One *p, global struct Two *q) { p->i = q->l; }

#pragma pack(3)
#pragma pack(32)
#pragma pack(pop)
#pragma pack 4
#pragma pack(push, 4
#pragma pack(push, 4) x
#pragma pack(foo)
#pragma pack(push, 2, x)
#pragma pack(push, r, 2)
#pragma pack(push)
