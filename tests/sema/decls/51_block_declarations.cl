// OpenCL C 2.0 §6.12.5: where blocks may be declared.
typedef int (^bl_t)(int);

// A block is not a parameter or a return value (of functions or blocks).
void takes(bl_t b);
bl_t gives(int x);
int (^const pb)(bl_t inner) = ^(int x) { return x; };

// Nor a field, an array element or a pointee.
struct holder { bl_t b; };
bl_t *pointer_to_block;

kernel void k(global int *out)
{
    bl_t one = ^(int x) { return x; };
    bl_t arr[2] = { one, one };
    bl_t *p;
    // Block variables are initialized, and never extern.
    bl_t uninitialized;
    extern bl_t elsewhere;
    out[0] = one(1);
}

// Program-scope blocks are constants made from literals or other blocks.
bl_t triple = ^(int x) { return 3 * x; };
bl_t same = triple;
bl_t from_int = 0;
