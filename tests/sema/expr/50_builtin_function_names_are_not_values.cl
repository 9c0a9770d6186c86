// A builtin function's name must be called: OpenCL C has no function
// pointers, and builtins are overloaded (found by fuzzing code generation).
kernel void k(global float *o, global int4 *v) {
    o[0] = sin;                       // error
    float x = fmax.x;                 // error
    int4 ia = v[0];
    v[1] = mad.xyzw24(ia, ia, ia);    // error: a mistyped mad24
    o[1] = sin(o[2]) + x;             // ok
}
