// More than one address-space qualifier on one type.
global int *ok1;
global int * constant ok2 = 0;
global local int *bad1;
kernel void k(global constant int *p) {}
typedef global int gint;
constant gint bad2 = 1;
