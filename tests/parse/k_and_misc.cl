;
int f(void);
int f(void) { return 0; }
void g(int a, float b) { f(); }
static int counter = 0;

// GNU's __extension__ before a declaration or an expression is ignored.
__extension__ typedef long long_t;
long_t ext(int z) { __extension__ int y = z; return __extension__ (y + 1); }
