// Remainders: fmod, remainder and remquo with its quotient's low bits,
// four terms per element (quotients up to a few thousand).
kernel void remainders(global const float *x, global const float *y, global float *o) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    int q;
    float r = remquo(a * 100.0f, b, &q);
    o[i] = fmod(a * 1000.0f, b) + remainder(b * 1000.0f, a + 4.5f) + r + (float)(q & 7);
}
