// RUN: -Wall — GNU case ranges (`case lo ... hi:`) and clang's -Wswitch: a range overlapping a
// value or another range is a duplicate, an empty range a warning; a switch on an enum without
// 'default' names the enumerators it does not handle, and a case value no enumerator has is
// reported; a case value the condition's own type cannot hold (before promotion) is reported.
enum E { A, B, C, D, F, G };
typedef enum { X, Y } T;
enum Z { Z0 = 1, Z1 = 1, Z2 = 5 };

kernel void ranges(global int *io, int x, uchar u, char s, uint w)
{
    switch (x) { case 1 ... 3: case 2: break; case 5 ... 4: break; case 7 ... 9: case 9 ... 12: break; case x ... 3: break; }
    switch (u) { case 250 ... 300: break; case 10 ... 10: break; case 256: case 0: break; }
    switch (s) { case -129: break; case 200: break; case 255: break; }
    switch (w) { case -1: break; case -1L ... 4294967296L: break; }
    switch (x) { case 0 ... 1000000: io[0] = 1; break; case -5 ... -1: io[0] = 2; break; }
}

kernel void enums(enum E e, T t, enum Z z)
{
    switch (e) { case A: break; }
    switch (e) { case A: case B: break; }
    switch (e) { case A: case B: case C: break; }
    switch (e) { case 7: break; case A ... D: break; case F: case G: case 10 ... 12: break; }
    switch (t) { case X: break; }
    switch (t) { case X: break; default: break; }
    switch ((int)e) { case A: break; }
    switch (z) { case 1: break; }
    switch (e + 0) { case A: break; }
    switch ((e)) { case A: case B: case C: case D: case F: break; }
    switch (e) { }
    switch (e) { case 9: break; default: break; }
}
