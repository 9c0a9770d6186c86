// Calls of user functions: argument count and argument types; calling
// something that is not a function.
int add(int a, int b) { return a + b; }
void touch(global int *p) { p[0] = 1; }
struct S { int a; };

kernel void ok(global int *o)
{
    o[0] = add(1, 2) + add(1.5f, 'c');
    touch(o);
}

kernel void bad(global int *o)
{
    struct S s;
    o[0] = add(1);
    o[1] = add(1, 2, 3);
    o[2] = add(s, 1);
    int x = 3;
    x(1);
    touch(5);
}
