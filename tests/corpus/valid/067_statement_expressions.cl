// Exercises: GNU statement expressions ({ ... }) as macros use them (clang accepts them in OpenCL C): min/max with temporaries, a switch picking a conversion (darktable's channelmixer.cl), loops, nested statement expressions, a struct value, a void one, and early exits.
#define MAX_T(a, b) ({ float _a = (a); float _b = (b); _a > _b ? _a : _b; })
#define CLAMP01(x) ({ float _x = (x); _x < 0.0f ? 0.0f : (_x > 1.0f ? 1.0f : _x); })

typedef enum { MODE_COPY, MODE_SCALE, MODE_INVERT } mode_t;
typedef struct { float lo, hi; } range_t;

#define CONVERT(kind) \
  ({ switch(kind) \
    { \
      case MODE_SCALE: { out = in * 0.5f; break; } \
      case MODE_INVERT: { out = 1.0f - in; break; } \
      case MODE_COPY: \
      default: { out = in; break; } \
    }})

float first_above(global const float *v, int n, float t)
{
    for (int i = 0; i < n; i++) {
        float x = ({ float y = v[i]; if (y > t) return y; y; });
        (void)x;
    }
    return t;
}

kernel void stmt_exprs(global const float4 *src, global float4 *dst, global const float *v, int n, mode_t mode)
{
    const int g = get_global_id(0);
    float4 in = src[g];
    float4 out;
    CONVERT(mode);
    float m = MAX_T(out.x, MAX_T(out.y, out.z));
    range_t r = ({ range_t t = { 0.0f, m }; t; });
    float s = ({ float acc = 0.0f; for (int i = 0; i < n; i++) { if (v[i] < 0.0f) continue; acc += v[i]; } acc; });
    ({ dst[g] = (float4)(CLAMP01(out.x), CLAMP01(out.y), CLAMP01(out.z), r.hi + s); });
    dst[g].w += ({ float a = ({ 2.0f; }); a * first_above(v, n, 0.5f); });
}
