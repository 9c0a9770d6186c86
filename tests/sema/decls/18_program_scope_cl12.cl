// RUN: -cl-std=CL1.2 — program-scope variables must be __constant.
constant int ok_table[2] = { 1, 2 };
int not_constant;
global int not_constant_either;
kernel void k(global int *out) { out[0] = ok_table[0]; }
