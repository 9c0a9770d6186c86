// OpenCL C has no implicit function declarations: a call to a function
// that is neither declared nor builtin is an error.
int helper(int x);
kernel void ok(global int *out) { out[0] = helper(1); }
int helper(int x) { return x * 2; }

kernel void bad(global int *out)
{
    out[0] = helpr(2);
    out[1] = later(3);
}
int later(int x) { return x; }
