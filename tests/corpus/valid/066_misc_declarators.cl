// Exercises: complex declarators (pointer to array, array of pointers, pointer to pointer), multiple declarators per line, function prototypes with unnamed params, void params, static functions.
static int apply(int (*arr)[4], int rows);
int count(const int *, int);

int apply(int (*arr)[4], int rows)
{
    int s = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < 4; c++) s += arr[r][c];
    return s;
}

int count(const int *p, int n) { int c = 0; for (int i = 0; i < n; i++) c += p[i] != 0; return c; }
static int nothing(void) { return 0; }

__kernel void declarators(__global int *out)
{
    int m[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };
    int (*pm)[4] = m;
    int a = 1, *pa = &a, **ppa = &pa, arr[3] = { 0 }, *parr[2] = { &a, &arr[1] };
    unsigned long big = 1ul << 40, *pbig = &big;
    __constant char *msg = "x";   /* string literals live in __constant */
    out[0] = apply(pm, 2) + count(&m[0][0], 8) + **ppa + *parr[1] + nothing() + (int)(*pbig >> 40) + msg[0];
}
