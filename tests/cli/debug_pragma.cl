kernel void k(global int *p) { *p = 1; }
#pragma clc __debug crash
