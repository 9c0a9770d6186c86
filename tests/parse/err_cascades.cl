kernel void missing_comma(global float *a global float *b, int n)
{
    b[0] = a[0] * n;
}

kernel void missing_type(global float *a, w)
{
    a[0] = w;
}

kernel void misspelt_type(global float *a, cosnt float *b)
{
    a[0] = b[0];
}

void statements(global int *p, int n)
{
    p[0] = p[1 + n;
    p[2] = (n + 1)) * 2;
    if (n > 0 {
        p[3] = max(n, 1;
    }
    p[4] = n;
}

kernel void extra_paren(global int *p) )
{
    int i = 0;
    p[i] = 1;
}

kernel void after_all(global int *p) { p[0] = 0; }

struct shape {
    int w;
    struct {
        uchar flags;
        uchar pad[3 3];
    };
    float r;
};

struct pair { int a int b; };
kernel void uses_pair(global struct pair *p) { p->b = p->a; }
