// Enumerator values are evaluated in order; each is an int constant.
enum E { A, B = 10, C, D = B + C, F = -1, G };
_Static_assert(A == 0 && C == 11 && D == 21 && G == 0, "enum values");
enum Flags { F1 = 1 << 0, F2 = 1 << 1, F3 = F1 | F2 };
_Static_assert(F3 == 3, "flags");

kernel void k(global int *out)
{
    enum E e = C;
    out[0] = e + F3;
}

enum Bad { X = 1.5, Y = undefined_name, Z = 0x100000000 };
