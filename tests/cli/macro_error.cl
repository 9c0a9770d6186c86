// An error inside a macro expansion points at the use, with a note at the
// macro's definition.
#define STORE(p, v) p[0] = v v
kernel void f(global int *p)
{
    STORE(p, 1);
}
