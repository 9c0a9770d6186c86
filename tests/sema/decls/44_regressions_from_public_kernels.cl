// Shapes found in public kernels where clc once disagreed with clang-22.
// Valid: an address space on an array parameter qualifies its elements
// (the parameter adjusts to a pointer, C99 6.7.5.3p7).
kernel void arrays(global uint a[4], local float b[], constant int c[2], global int *out)
{
    a[0] = 1;
    b[0] = 2.0f;
    out[0] = c[1];
}

// Invalid: access qualifiers belong to images and pipes (§6.6).
kernel void access(global read_only int *p, read_only image2d_t img)
{
    p[0] = 1;
}

// Invalid: printf is a builtin; a C prototype of it conflicts.
int printf(const char *restrict fmt, ...);
