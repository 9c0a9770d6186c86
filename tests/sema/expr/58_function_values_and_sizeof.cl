// OpenCL C has no function pointers: a function is only called; any
// other use of its name (a cast, an argument, a value, sizeof) is
// "taking address of function", as clang says. sizeof and __alignof need
// a complete object type (clang makes the GNU sizeof(void) an error in
// OpenCL C); vec_step takes any.
struct S;
void foo(void *);
int twice(int x) { return 2 * x; }
kernel void bar(global int *p, global struct S *s) {
    foo((void *)foo);
    foo(twice);
    int x = (int)twice;
    p[0] = sizeof(twice) + sizeof twice;
    p[1] = sizeof(void) + __alignof__(void) + vec_step(void);
    p[2] = sizeof(struct S) + sizeof(*s);
    p[3] = twice(x) + sizeof(int[4]);
}
