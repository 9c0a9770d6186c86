// Bit-fields are not supported in OpenCL.
struct ok { int a; unsigned b; };
struct flags {
    unsigned ready : 1;
    unsigned mode : 3;
    int : 0;
};
kernel void k(global struct ok *p) { p->a = 0; }
