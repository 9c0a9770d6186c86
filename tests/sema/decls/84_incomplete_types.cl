// A struct or union declared but not defined: every use that needs its size or members is an
// error with clang's note at the forward declaration; a function definition needs complete
// parameter and result types (were accepted, and code generation failed: an internal error);
// pointer arithmetic and reading such an object too.
struct I;
union U;
struct I *g(void);
void f(struct I *p, union U *u) {
    struct I v;
    struct I arr[2];
    int a = sizeof(struct I) + sizeof(*p) + __alignof(union U);
    p[1];
    p->x;
    u->y;
    p + 1;
    *p;
    int b = __builtin_offsetof(struct I, a);
}
struct I h(void) { }
void k(struct I x) {}
