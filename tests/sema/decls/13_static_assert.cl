// _Static_assert at file scope, in functions, in structs.
_Static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert(sizeof(float3) == 16, "float3 takes 16 bytes");
_Static_assert(_Alignof(double2) == 16, "double2 alignment");
_Static_assert(vec_step(float3) == 4, "vec_step of a 3-vector is 4");
_Static_assert(sizeof(size_t) == 8, "64-bit target");
_Static_assert((uchar)300 == 44, "casts wrap");
_Static_assert(-1 < 0u == 0, "usual arithmetic conversions");

struct S { int a; _Static_assert(1, "in a struct"); };

kernel void k(global int *out)
{
    _Static_assert(2 + 2 == 4, "math");
    _Static_assert(sizeof(struct S) == 8, "struct S is 4 bytes");
    out[0] = 0;
}

_Static_assert(1 == 2, "one is not two");
_Static_assert(sizeof(char) == 2, "char is one byte");
