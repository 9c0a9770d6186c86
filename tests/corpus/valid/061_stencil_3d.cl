// Exercises: 7-point 3D stencil with 3D NDRange, boundary checks, index macro, and a 2D 5-point Jacobi step with a __local halo.
#define I3(x, y, z) (((z) * ny + (y)) * nx + (x))
__kernel void stencil7(__global const float *in, __global float *out, const int nx, const int ny, const int nz,
                       const float c0, const float c1)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
    out[I3(x, y, z)] = c0 * in[I3(x, y, z)]
                     + c1 * (in[I3(x - 1, y, z)] + in[I3(x + 1, y, z)]
                           + in[I3(x, y - 1, z)] + in[I3(x, y + 1, z)]
                           + in[I3(x, y, z - 1)] + in[I3(x, y, z + 1)]);
}

__kernel void jacobi2d(__global const float *in, __global float *out, const int w, const int h)
{
    __local float t[18][18];
    int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
    int x = get_global_id(0), y = get_global_id(1);
    int cx = min(x, w - 1), cy = min(y, h - 1);
    t[ly][lx] = in[cy * w + cx];
    if (lx == 1) t[ly][0] = in[cy * w + max(cx - 1, 0)];
    if (lx == 16) t[ly][17] = in[cy * w + min(cx + 1, w - 1)];
    if (ly == 1) t[0][lx] = in[max(cy - 1, 0) * w + cx];
    if (ly == 16) t[17][lx] = in[min(cy + 1, h - 1) * w + cx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x < w && y < h)
        out[y * w + x] = 0.25f * (t[ly][lx - 1] + t[ly][lx + 1] + t[ly - 1][lx] + t[ly + 1][lx]);
}
