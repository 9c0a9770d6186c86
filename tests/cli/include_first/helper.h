// Read second, found through -I.
int helper(my_int x) { return x + 1; }
