// RUN: -cl-std=CL1.2 — pointer-to-pointer and structs with pointers
// are not kernel parameters; unqualified pointees are __private.
struct plain { int a; float b; };
struct with_ptr { global int *p; };
kernel void ok(global int *p, struct plain s) {}
kernel void bad_pp(global int * global *pp) {}
kernel void bad_struct(struct with_ptr s) {}
kernel void bad_private(int *p) {}
