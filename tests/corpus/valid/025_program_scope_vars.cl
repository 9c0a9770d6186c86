// Exercises: program-scope __constant and __global variables with initializers, global pointers at program scope, static, extern-free globals.
__constant float weights[5] = { 0.1f, 0.2f, 0.4f, 0.2f, 0.1f };
__constant int4 lut = (int4)(1, 2, 4, 8);
__constant char greeting[] = "hi";
__global int counter = 0;
__global float state[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
global int *global_ptr = &counter;
static __global uint seeds[2] = { 12345u, 67890u };
__global struct { int hits; float mean; } stats = { 0, 0.0f };

__kernel void use_globals(__global float *out)
{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < 5; k++)
        acc += weights[k] * state[k % 4];
    counter += lut.w;
    *global_ptr += 1;
    seeds[i % 2] = seeds[i % 2] * 1103515245u + 12345u;
    stats.hits++;
    stats.mean = acc;
    out[i] = acc + greeting[0] + (float)seeds[0];
}
