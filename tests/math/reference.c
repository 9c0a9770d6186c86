/* Reference values for the double-precision accuracy test
 * (tests/tests/math_accuracy.rs): each function computed in x87 long double
 * (64-bit mantissa) by glibc's long double functions, returned as the
 * double nearest the result plus the remainder (hi + lo), so that the test
 * measures errors well below one double ulp. */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>

static long double sinpil_ref(long double x) {
    /* sin(pi x), reduced with fmodl (exact) to [0, 2), then folded. */
    if (isinf(x) || isnan(x)) return NAN;
    long double r = fmodl(fabsl(x), 2.0L), s;
    if (r == 0.0L || r == 1.0L) s = 0.0L;
    else if (r < 1.0L) s = sinl(M_PIl * (r <= 0.5L ? r : 1.0L - r));
    else s = -sinl(M_PIl * (r <= 1.5L ? r - 1.0L : 2.0L - r));
    return signbit(x) ? -s : s;
}

static long double cospil_ref(long double x) {
    if (isinf(x) || isnan(x)) return NAN;
    long double r = fmodl(fabsl(x), 2.0L);
    if (r > 1.0L) r = 2.0L - r;
    if (r == 0.5L) return 0.0L;
    if (r <= 0.5L) return sinl(M_PIl * (0.5L - r));
    return -sinl(M_PIl * (r - 0.5L));
}

static long double tanpil_ref(long double x) {
    if (isinf(x) || isnan(x)) return NAN;
    long double a = fabsl(x), r = fmodl(a, 1.0L), t;
    /* The parity of the integer part decides the sign of zeros and poles. */
    int odd = fmodl(a - r, 2.0L) != 0.0L;
    if (r == 0.0L) t = odd ? -0.0L : 0.0L;
    else if (r == 0.5L) t = odd ? -INFINITY : INFINITY;
    /* Near the poles, as cot(pi (1/2 - r)): the difference is exact and
     * no cosine cancels. */
    else if (r < 0.25L) t = sinl(M_PIl * r) / cosl(M_PIl * r);
    else if (r <= 0.75L) t = cosl(M_PIl * (0.5L - r)) / sinl(M_PIl * (0.5L - r));
    else t = -sinl(M_PIl * (1.0L - r)) / cosl(M_PIl * (1.0L - r));
    return signbit(x) ? -t : t;
}

static long double rootnl_ref(long double x, int n) {
    if (n == 0) return NAN;
    if (x < 0 && n % 2 == 0) return NAN;
    long double r = powl(fabsl(x), 1.0L / n);
    return (n % 2 != 0 && signbit(x)) ? -r : r;
}

enum { SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH, ASINH, ACOSH, ATANH, EXP, EXP2, EXP10, EXPM1,
       LOG, LOG2, LOG10, LOG1P, CBRT, HYPOT, POW, POWN, ROOTN, ERF, ERFC, TGAMMA, LGAMMA, SQRT, RSQRT,
       SINPI, COSPI, TANPI, ASINPI, ACOSPI, ATANPI, ATAN2PI };

void clc_math_reference(int op, size_t count, const double *x, const double *y, const int *n, double *hi, double *lo) {
    for (size_t i = 0; i < count; i++) {
        long double a = x[i], b = y[i], r;
        int k = n[i], sign;
        switch (op) {
        case SIN: r = sinl(a); break;
        case COS: r = cosl(a); break;
        case TAN: r = tanl(a); break;
        case ASIN: r = asinl(a); break;
        case ACOS: r = acosl(a); break;
        case ATAN: r = atanl(a); break;
        case ATAN2: r = atan2l(a, b); break;
        case SINH: r = sinhl(a); break;
        case COSH: r = coshl(a); break;
        case TANH: r = tanhl(a); break;
        case ASINH: r = asinhl(a); break;
        case ACOSH: r = acoshl(a); break;
        case ATANH: r = atanhl(a); break;
        case EXP: r = expl(a); break;
        case EXP2: r = exp2l(a); break;
        case EXP10: r = exp10l(a); break;
        case EXPM1: r = expm1l(a); break;
        case LOG: r = logl(a); break;
        case LOG2: r = log2l(a); break;
        case LOG10: r = log10l(a); break;
        case LOG1P: r = log1pl(a); break;
        case CBRT: r = cbrtl(a); break;
        case HYPOT: r = hypotl(a, b); break;
        case POW: r = powl(a, b); break;
        case POWN: r = powl(a, (long double)k); break;
        case ROOTN: r = rootnl_ref(a, k); break;
        case ERF: r = erfl(a); break;
        case ERFC: r = erfcl(a); break;
        case TGAMMA: r = tgammal(a); break;
        case LGAMMA: r = lgammal_r(a, &sign); break;
        case SQRT: r = sqrtl(a); break;
        case RSQRT: r = 1.0L / sqrtl(a); break;
        case SINPI: r = sinpil_ref(a); break;
        case COSPI: r = cospil_ref(a); break;
        case TANPI: r = tanpil_ref(a); break;
        case ASINPI: r = asinl(a) / M_PIl; break;
        case ACOSPI: r = acosl(a) / M_PIl; break;
        case ATANPI: r = atanl(a) / M_PIl; break;
        case ATAN2PI: r = atan2l(a, b) / M_PIl; break;
        default: r = NAN;
        }
        double h = (double)r;
        hi[i] = h;
        lo[i] = isfinite(h) ? (double)(r - (long double)h) : 0.0;
    }
}
