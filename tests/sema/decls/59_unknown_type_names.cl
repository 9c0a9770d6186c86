// A name used as a type that nobody declared: one error where it is
// written ("did you mean" when a type word or typedef is close), and the
// declaration is still made, so its uses do not cascade into more errors.
typedef struct { float re, im; } cfloat_t;

void proto(foo *p);                  // file-scope parameter: `name *`
void proto2(bar q, int n);           // two names in a row
__constant baz *table;               // qualifier, name, `*`
const qux limit = 1;

int takes_unknown(unit q) { return q + 1; }

kernel void k(global flaot4 *out, cflaot_t c, global int *n) {
    unit i = 0, j = i + 1;           // one error for both
    out[0] = (float4)(c.re + i + j);
    n[0] = takes_unknown(1, 2, 3);   // its type is unknown: no arity error
    { typedef float U; U a = 1; n[1] = a; }
    U gone = 2;                      // the typedef's scope has ended
    n[2] = gone;
    int (^b)(int) = ^(Missing m) { return m; };   // a block's parameter too
}
