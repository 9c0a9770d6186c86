// expect: syntax error: garbage tokens at top level between two valid kernels (clang: "unknown type name 'this'")
__kernel void ok1(__global int *out) { out[0] = 1; }

this is not ] valid + C 42 ;

__kernel void ok2(__global int *out) { out[0] = 2; }
