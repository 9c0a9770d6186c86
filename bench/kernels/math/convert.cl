// Conversions with saturation and rounding modes: five per element.
kernel void convert(global const float *x, global const uint *y, global uint *o) {
    size_t i = get_global_id(0);
    float a = x[i];
    uint b = y[i];
    o[i] = (uint)convert_int_sat_rte(a * 1.0e4f) + convert_uchar_sat(a * 300.0f) + (uint)convert_short_sat_rtn(a * 4.0e4f)
         + as_uint(convert_float_rtz(b)) + as_uint(convert_float_rtp((int)b));
}
