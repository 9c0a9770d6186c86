// Exercises: convert_T, convert_T_sat, convert_T_rte/rtz/rtp/rtn, convert_int4_sat, as_uint/as_float/as_int4 reinterpretation.
__kernel void conversions(__global float4 *fin, __global int4 *iout, __global uchar4 *bout, __global uint *uout)
{
    size_t g = get_global_id(0);
    float4 f = fin[g];
    int4 a = convert_int4(f);
    int4 b = convert_int4_sat(f * 1e10f);
    int4 c = convert_int4_rte(f);
    int4 d = convert_int4_sat_rtz(f);
    uchar4 px = convert_uchar4_sat(f * 255.0f);
    float4 back = convert_float4(px) / 255.0f;
    short2 s = convert_short2_rtp(f.xy);
    long e = convert_long_rtn(f.w);
    uint bits = as_uint(f.x);
    float re = as_float(bits ^ 0x80000000u);
    int4 ibits = as_int4(f);
    float4 fb = as_float4(ibits);
    uchar4 bytes = as_uchar4(bits);
    ushort2 halves = as_ushort2(re);
    iout[g] = a + b + c + d + ibits + (int4)(s.x, s.y, (int)e, 0);
    bout[g] = px + bytes;
    uout[g] = bits + as_uint(fb.y) + halves.x + convert_uint(back.x);
}
