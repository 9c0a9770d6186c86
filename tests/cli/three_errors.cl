// Three unrelated syntax errors; each must be reported.
kernel void a(global int *p)
{
    int x = 1
    p[0] = x;
}

kernel void b(global int *p)
{
    p[0] = (1 + 2;
}

kernel void c(global int *p)
{
    p[0] = 3 +;
}
