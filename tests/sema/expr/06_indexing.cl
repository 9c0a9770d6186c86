// Subscripts: pointers, arrays (either order) and vectors, with integer
// indices.
kernel void ok(global float *a, global float4 *v)
{
    float arr[4] = {1, 2, 3, 4};
    a[0] = arr[1] + 2[arr];
    float4 x = v[0];
    a[1] = x[2];
    x[3] = 1.0f;
    a[2] = v[1][0];
}

kernel void bad(global float *a)
{
    float f = 1.0f;
    a[0] = f[0];
    a[1] = a[1.5f];
    int i = 3;
    a[2] = i[i];
}
