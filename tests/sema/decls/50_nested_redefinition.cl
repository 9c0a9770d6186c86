// A struct redefined inside its own definition (the fuzzer's: the inner
// definition completed the outer record, which then contained itself and
// the checker recursed until the stack overflowed). clang-22: "nested
// redefinition"; the inner one is a record of its own.
struct Inner { int z; struct Inner { int z; } in; };
union U { int a; union U { float f; } u; };

kernel void k(global int *o) { struct Inner i = { 1, { 2 } }; o[0] = i.z + i.in.z; }
