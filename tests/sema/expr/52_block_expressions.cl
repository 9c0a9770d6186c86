// OpenCL C 2.0 §6.12: blocks are named or written, never computed; a
// block's return type comes from its returns; what it captures is a
// read-only copy.
typedef int (^bl_t)(int);

kernel void k(global int *out, int c)
{
    bl_t a = ^(int x) { return x + 1; };
    bl_t b = ^(int x) { return x * 2; };

    // No operators, no conditional, no assignment.
    out[0] = (c ? a : b)(1);
    out[1] = (a, b)(1);
    a = b;
    out[2] = a == b;
    bl_t *pa = &a;
    (*a)(1);

    // Casts name compatible block types only.
    out[3] = ((bl_t)a)(1);
    out[4] = ((void (^)(void))a, 0);
    bl_t from_pointer = (bl_t)out;
    int as_int = (int)a;

    // Literals' types: parameters and the returns' type.
    bl_t wrong_params = ^(float x, int y) { return y; };
    bl_t wrong_return = ^(int x) { return (short)x; };
    bl_t mixed = ^(int x) { if (x) return (char)1; return 2; };
    bl_t missing = ^(int x) { if (x) return; return 2; };
    out[5] = ^(int x) { return x * 7; }(2);
}
