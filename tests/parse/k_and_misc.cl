;
int f(void);
int f(void) { return 0; }
void g(int a, float b) { f(); }
static int counter = 0;
