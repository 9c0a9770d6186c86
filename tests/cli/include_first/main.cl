// Uses what -include brings in; alone it does not compile.
kernel void k(global int *o) { my_int v = GREETING; o[0] = helper(v); }
