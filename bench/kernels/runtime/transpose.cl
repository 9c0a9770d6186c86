// out = transpose(in), in is height x width; 16 x 16 tiles through local
// memory (padded against bank conflicts).
#define TILE 16
kernel void transpose(global const float *in, global float *out, int width, int height) {
    local float tile[TILE][TILE + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_group_id(0) * TILE + lx, y = get_group_id(1) * TILE + ly;
    if (x < width && y < height)
        tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + lx;
    y = get_group_id(0) * TILE + ly;
    if (x < height && y < width)
        out[y * height + x] = tile[lx][ly];
}
