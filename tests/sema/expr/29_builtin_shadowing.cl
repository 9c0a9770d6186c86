// A user declaration shadows a builtin name; the call is then checked
// against the user's prototype.
float fmin3(float a, float b, float c) { return fmin(fmin(a, b), c); }

kernel void k(global float *o)
{
    int max = 3;
    o[0] = max + fmin3(1.0f, 2.0f, 3.0f);
    o[1] = max(1.0f, 2.0f);
}
