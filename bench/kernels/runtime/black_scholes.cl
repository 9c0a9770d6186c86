// European call and put prices (Black-Scholes), the normal CDF through erf.
float cnd(float x) { return 0.5f * (1.0f + erf(x * 0.70710678f)); }

kernel void black_scholes(global const float *spot, global const float *strike, global const float *years, global float *call, global float *put, float rate, float vol) {
    size_t i = get_global_id(0);
    float s = spot[i], k = strike[i], t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / k) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
    float d2 = d1 - vol * sqrt_t;
    float disc = k * exp(-rate * t);
    call[i] = s * cnd(d1) - disc * cnd(d2);
    put[i] = disc * cnd(-d2) - s * cnd(-d1);
}
