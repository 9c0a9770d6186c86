// Exercises: object-like and function-like macros, nested calls, rescanning, parenthesisation.
#define N 64
#define HALF (N / 2)
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define FMA3(a, b, c) ADD(MUL(a, b), c)
#define TWICE(f, x) f(f(x, x), f(x, x))
#define ID(x) x
#define CALL(f, args) f args
#define EMPTY
#define GET_ADD() ADD
#define MAYBE_EMPTY(x) x EMPTY

__kernel void pp_macros(__global int *out)
{
    int i = get_global_id(0);
    int a = FMA3(i, 2, 1);
    int b = TWICE(ADD, i);
    int c = ID(ID(ID(HALF)));
    int d = CALL(MUL, (i, 3));
    int e = GET_ADD()(1, 2) MAYBE_EMPTY(+ 1); /* ADD rescanned with the following (1, 2) */
    out[i % N] = a + b + c + d + e;
}
