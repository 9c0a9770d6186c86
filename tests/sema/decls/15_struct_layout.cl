// packed and aligned attributes feed the layout that sizeof sees.
typedef struct __attribute__((packed)) { char c; int i; short s; } packed_t;
_Static_assert(sizeof(packed_t) == 7, "packed");
struct __attribute__((aligned(16))) al { float a; int b; };
_Static_assert(sizeof(struct al) == 16 && _Alignof(struct al) == 16, "aligned");
typedef struct { char tag; float4 v __attribute__((aligned(32))); } member_aligned_t;
_Static_assert(_Alignof(member_aligned_t) == 32, "member alignment");
struct plain { char c; int i; } __attribute__((packed));
_Static_assert(sizeof(struct plain) == 5, "packed after the brace");
union u { char c[3]; int i; };
_Static_assert(sizeof(union u) == 4, "union");

struct __attribute__((aligned(3))) bad_align { int x; };
kernel void k(global packed_t *p) { p->i = 0; }
