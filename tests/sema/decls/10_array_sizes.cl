// Array sizes are integer constant expressions: literals, enum
// constants, sizeof, casts, builtin constants.
enum { N = 4 };
constant int a1[N * 2] = { 0 };
constant int a2[sizeof(float4) / sizeof(float)] = { 0 };
constant int a3[(int)2.9] = { 0 };
constant int a4[N ? 3 : 5] = { 0 };
constant char a5[] = "abc";
constant int a6[1 << 3] = { 0 };

constant int b1[-1] = { 0 };
constant int b2[1.5] = { 0 };
constant int b3[N / 0] = { 0 };
// An undeclared name in a local array's size: that error alone (not also
// "variable length arrays are not supported").
kernel void k(void) { local int s[64 * UNDECLARED_SIZE]; int t[UNDECLARED_SIZE + 1]; }
