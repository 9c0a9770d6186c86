// Function-scope variables are __private by default; __global ones are
// only allowed when static.
kernel void k(global int *out)
{
    private int p = 1;
    int q = 2;
    static global int counter = 0;  // static: a program-scope object
    global int bad = 3;
    out[0] = p + q + counter + bad;
}
