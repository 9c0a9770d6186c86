// __builtin_offsetof(type, member-designator) as clang checks it: a complete struct or union
// type; members (of anonymous members too) and array elements in the path; an index that is no
// constant makes the offset vary at run time (a GNU extension), so no array size.
struct S { int a; float b[4]; struct { int x, y; }; union U { int p; char q; } u; };
struct I;
int f(int i) {
    int r = 0;
    r += __builtin_offsetof(int, a);
    r += __builtin_offsetof(struct S, c);
    r += __builtin_offsetof(struct S, a[1]);
    r += __builtin_offsetof(struct S, b.x);
    r += __builtin_offsetof(struct I, a);
    r += __builtin_offsetof(struct S, y);
    r += __builtin_offsetof(struct S, u.q);
    r += __builtin_offsetof(struct S, b[i]);
    r += __builtin_offsetof(struct S, b[1.0f]);
    int arr[__builtin_offsetof(struct S, b[i])];
    return r;
}
__constant int ok = __builtin_offsetof(struct S, u) / (__builtin_offsetof(struct S, y) == 24);
