// Exercises: Black-Scholes option pricing with a polynomial CND approximation, float math builtins, multiple outputs, #define constants.
#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267793994605993438f

float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = RSQRT2PI * exp(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0f - c : c;
}

__kernel void black_scholes(__global float *call, __global float *put,
                            __global const float *S, __global const float *X, __global const float *T,
                            const float r, const float v, const uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        float s = S[i], x = X[i], t = T[i];
        float sqrtT = sqrt(t);
        float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float expRT = exp(-r * t);
        float c1 = cnd(d1), c2 = cnd(d2);
        call[i] = s * c1 - x * expRT * c2;
        put[i] = x * expRT * (1.0f - c2) - s * (1.0f - c1);
    }
}
