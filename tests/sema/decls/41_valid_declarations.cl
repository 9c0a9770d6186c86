// Declarations clang accepts: sizeof of expressions in array sizes, ()
// prototypes, shadowing in sub-statements, a name in its own initializer.
int f();
int f(void) { return 1; }
typedef struct { int a[4]; float b; } S;
constant S cs = { {1,2,3,4}, 1.0f };
typedef void (*fp_unused);
struct node { int v; struct node *next; };
kernel void k(global int *out, global S *sp)
{
    int a[8];
    int b[sizeof(a) / sizeof(a[0])];
    S s;
    int c[sizeof(s.a) / sizeof(int)];
    int d[sizeof(*sp)];
    int e[sizeof out[0]];
    struct node n = { 1, 0 };
    const int m = 3;
    enum { LOCAL_N = 2 } en = LOCAL_N;
    int g[LOCAL_N];
    out[0] = f() + b[0] + c[0] + d[0] + e[0] + n.v + m + en + g[0] + cs.a[0];
    int x = x;
    typedef int T; T t = 1; out[1] = t;
    for (int i = 0, j = 1; i < j; i++) {}
    if (1) { int q; } else { int q; }
    switch (out[0]) { case 1: { int r; } default: ; }
}
void noproto(int);
void noproto(int x) {}
extern constant int ext_c;
static constant int static_c = 1;
__attribute__((always_inline)) int inl(int x) { return x; }
int unnamed_params(int, float);
kernel void sizes(global S *sp)
{
    int arr[3][5];
    _Static_assert(sizeof(arr) == 60 && sizeof(arr[0]) == 20 && sizeof arr[0][0] == 4, "arrays");
    _Static_assert(sizeof(sp->a) == 16 && sizeof(*sp) == 20 && sizeof(1ul) == 8 && sizeof 1.0f == 4, "members and literals");
}
