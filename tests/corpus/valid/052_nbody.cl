// Exercises: N-body step with float4 positions (w = mass), local tiles of bodies, rsqrt, softening, velocity Verlet update.
#include "common.h"
#define SOFTENING 1e-3f

__kernel void nbody_step(__global const float4 *pos_in, __global float4 *pos_out,
                         __global float4 *vel, const int n, const float dt, __local float4 *tile)
{
    int gid = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
    float4 p = pos_in[gid];
    float3 acc = (float3)(0.0f);
    for (int base = 0; base < n; base += ls) {
        tile[lid] = pos_in[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < ls; j++) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float dist2 = dot(d, d) + SQR(SOFTENING);
            float inv = rsqrt(dist2);
            acc += d * (q.w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[gid];
    v.xyz += acc * dt;
    p.xyz += v.xyz * dt;
    pos_out[gid] = p;
    vel[gid] = v;
}
