//! Branch-free approximations in `double` for the `float` and `half`
//! results of functions the C library would otherwise compute lane by
//! lane: `pown`, `rootn`, `cbrt`, `tgamma`, `lgamma` and `lgamma_r` (and
//! `log`, `log2`, `log10`, whose vector variant in glibc is not accurate
//! enough).
//!
//! A call of `tgammaf` or `cbrtf` is opaque to the loop vectoriser, and
//! glibc's libmvec has no vector variant of `tgamma`/`lgamma` and none of
//! `cbrtf` within OpenCL's bound; `pow` in `double` has one, but only half
//! as wide as a `float` loop wants. So these are built here from plain
//! instructions (fused multiply-adds, divisions, bit operations, selects)
//! on whatever shape they are given, which the vectoriser widens at any
//! width: `log2` and `exp2` (range reduction on the bits, then series),
//! `sin(πx)` (exact reduction, then a series), and Lanczos' approximation
//! of Γ (g = 7, nine terms) with the reflection formula for negative
//! arguments.
//!
//! Their relative error is below 2^-40 where the results are finite and
//! normal: far below one `float` ulp (2^-24), so the results round to
//! `float` within a fraction of an ulp over the last rounding, but not
//! accurate enough for `double` results, which stay with the C library.
//! Special values (zeros, infinities, NaN, negative integers for the gamma
//! functions, odd and even `n`) are selected explicitly, as C99's Annex F
//! and OpenCL's §7.5.1 give them.

use super::super::{Gen, R};
use super::{int_like, is_f80};
use inkwell::llvm_sys::{LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::values::BasicValueEnum;

type V<'ctx> = BasicValueEnum<'ctx>;

const LN_2: f64 = std::f64::consts::LN_2;
const LOG2_E: f64 = std::f64::consts::LOG2_E;
const SQRT_2: f64 = std::f64::consts::SQRT_2;
const PI: f64 = std::f64::consts::PI;
/// ln √(2π).
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;
/// √(2π).
const SQRT_2PI: f64 = 2.506_628_274_631_000_2;

/// Lanczos' coefficients for g = 7 and nine terms (relative error of Γ
/// about 1e-15 for arguments of real part ≥ 1/2).
const LANCZOS_G: f64 = 7.0;
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// The bits of √½ as a `float`: [`Gen::log_float`] reduces x by them.
const SQRT_HALF_BITS: u32 = 0x3F35_04F3;

/// P in ln(1 + f) = f - f²/2 + f³ P(f) for f in [√½ - 1, √2 - 1]: degree
/// 7, fitted by weighted least squares for the relative error of the
/// whole (worst 1.2 ulp of `float` with the rounding of the evaluation).
const LOG1P_FLOAT: [f64; 8] = [
    0.333_333_540_472_791_84,
    -0.250_008_519_435_429_45,
    0.199_998_265_729_569_02,
    -0.166_213_699_102_419_68,
    0.142_271_140_358_755_1,
    -0.132_021_042_089_021_5,
    0.126_203_274_888_603_8,
    -0.073_628_678_713_249_23,
];

/// A constant as `float` hi + lo, hi with its low 12 bits zero (so that
/// hi times an exponent below 2^12 is exact).
fn split_f32(v: f64) -> (f32, f32) {
    let hi = f32::from_bits((v as f32).to_bits() & 0xFFFF_F000);
    (hi, (v - f64::from(hi)) as f32)
}

/// `2^f = Σ (f ln 2)^n / n!` for |f| ≤ 1/2, to n = 10 (the next term is
/// below 2^-42).
fn exp2_coefficients() -> Vec<f64> {
    let mut c = Vec::with_capacity(11);
    let mut term = 1.0;
    for n in 0..11 {
        c.push(term);
        term *= LN_2 / f64::from(n + 1);
    }
    c
}

/// `ln m = 2 atanh s = s · Σ 2 s^2k / (2k + 1)` for s = (m - 1)/(m + 1),
/// |s| ≤ 0.172 when m is in [√½, √2), to k = 7 (the next term is below
/// 2^-44 of the sum).
fn log_coefficients() -> Vec<f64> {
    (0..8).map(|k| 2.0 / f64::from(2 * k + 1)).collect()
}

/// `sin u = u · Σ (-1)^k u^2k / (2k + 1)!` for |u| ≤ π/2, to k = 8 (the
/// next term is below 2^-44).
pub(super) fn sin_coefficients() -> Vec<f64> {
    let mut c = Vec::with_capacity(9);
    let mut term = 1.0;
    for k in 0..9 {
        c.push(term);
        term = -term / f64::from((2 * k + 2) * (2 * k + 3));
    }
    c
}

impl<'ctx> Gen<'_, 'ctx> {
    /// `pown(x, n)` for `double` `x` (a widened `float` or `half`):
    /// `2^(n log2|x|)` with `x`'s sign for odd `n`; `pown(x, 0)` is 1 for
    /// every `x`, NaN included. Zeros and infinities need no select: `log2`
    /// gives ±inf and `exp2` turns them into the zeros and infinities
    /// §7.5.1 asks for.
    pub(super) fn pown_wide(&mut self, x: V<'ctx>, n: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let nf = self.cast(Op::LLVMSIToFP, n, t);
        let ax = self.intr("llvm.fabs", &[x])?;
        let l = self.log2_wide(ax)?;
        let y = self.binop(Op::LLVMFMul, nf, l);
        let r = self.exp2_wide(y)?;
        let r = self.odd_sign(r, x, n)?;
        let n0 = self.icmp(inkwell::llvm_sys::LLVMIntPredicate::LLVMIntEQ, n, n.get_type().const_zero());
        Ok(self.select(n0, self.const_of(t, 1.0, 0), r))
    }

    /// `rootn(x, n)` for `double` `x`: `2^(log2|x| / n)` with `x`'s sign
    /// for odd `n`; NaN for `n` = 0 and for negative `x` with even `n`.
    pub(super) fn rootn_wide(&mut self, x: V<'ctx>, n: V<'ctx>) -> R<V<'ctx>> {
        use inkwell::llvm_sys::LLVMIntPredicate as IP;
        let t = x.get_type();
        let nf = self.cast(Op::LLVMSIToFP, n, t);
        let ax = self.intr("llvm.fabs", &[x])?;
        let l = self.log2_wide(ax)?;
        let y = self.binop(Op::LLVMFDiv, l, nf);
        let r = self.exp2_wide(y)?;
        let r = self.odd_sign(r, x, n)?;
        let it = n.get_type();
        let odd = self.binop(Op::LLVMAnd, n, self.const_int(it, 1));
        let even = self.icmp(IP::LLVMIntEQ, odd, it.const_zero());
        let neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let neg_even = self.binop(Op::LLVMAnd, neg, even);
        let n0 = self.icmp(IP::LLVMIntEQ, n, it.const_zero());
        let bad = self.binop(Op::LLVMOr, neg_even, n0);
        Ok(self.select(bad, self.const_of(t, f64::NAN, 0), r))
    }

    /// `cbrt(x)` for `double` `x` (a widened `float` or `half`, so never a
    /// denormal): fdlibm's first guess from the exponent bits (within 1/32
    /// of |x|^(1/3)), then two steps of Halley's iteration
    /// r ← r (r³ + 2a) / (2r³ + a), which cubes the relative error (times
    /// 2/3): 2^-5 → 2^-15 → 2^-47. Cheaper than 2^(log2|x| / 3).
    pub(super) fn cbrt_wide(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let it = int_like(self, t, 64);
        let i32t = int_like(self, t, 32);
        let a = self.intr("llvm.fabs", &[x])?;
        let bits = self.cast(Op::LLVMBitCast, a, it);
        let hi = self.binop(Op::LLVMLShr, bits, self.const_int(it, 32));
        let hi = self.cast(Op::LLVMTrunc, hi, i32t);
        let hi = self.binop(Op::LLVMUDiv, hi, self.const_int(i32t, 3));
        // fdlibm's B1: (682 - 0.03306235651) · 2^20, the bias that makes
        // the thirds of the exponent and mantissa fields a cube root.
        let hi = self.binop(Op::LLVMAdd, hi, self.const_int(i32t, 715_094_163));
        let hi = self.cast(Op::LLVMZExt, hi, it);
        let hi = self.binop(Op::LLVMShl, hi, self.const_int(it, 32));
        let mut r = self.cast(Op::LLVMBitCast, hi, t);
        let two_a = self.binop(Op::LLVMFAdd, a, a);
        for _ in 0..2 {
            let r2 = self.binop(Op::LLVMFMul, r, r);
            let r3 = self.binop(Op::LLVMFMul, r2, r);
            let num = self.binop(Op::LLVMFAdd, r3, two_a);
            let den = self.intr("llvm.fmuladd", &[r3, c(self, 2.0), a])?;
            let q = self.binop(Op::LLVMFDiv, num, den);
            r = self.binop(Op::LLVMFMul, r, q);
        }
        // Zeros, infinities and NaN are their own cube roots.
        let zero = self.fcmp(FP::LLVMRealOEQ, a, t.const_zero());
        let special = self.fcmp_exact(FP::LLVMRealUEQ, a, c(self, f64::INFINITY));
        let keep = self.binop(Op::LLVMOr, zero, special);
        let r = self.select(keep, a, r);
        self.intr("llvm.copysign", &[r, x])
    }

    /// `tgamma(x)` for `double` `x`: Γ(z + 1) by Lanczos with z = x - 1
    /// for x ≥ 1/2, divided by x for 0 ≤ x < 1/2 (z = x; ±0 give ±inf),
    /// and by reflection, π / (sin(πx) Γ(1 - x)), for x < 0 (z = -x).
    /// NaN for negative integers and -inf.
    pub(super) fn tgamma_wide(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let g = self.gamma_parts(x)?;
        let e = self.exp2_wide(g.log2_power)?;
        let sa = self.binop(Op::LLVMFMul, g.sum, c(self, SQRT_2PI));
        let gz = self.binop(Op::LLVMFMul, e, sa);
        let small = self.binop(Op::LLVMFDiv, gz, x);
        let sg = self.binop(Op::LLVMFMul, g.sinpi, gz);
        let refl = self.binop(Op::LLVMFDiv, c(self, PI), sg);
        let r = self.select(g.nonneg, small, refl);
        let r = self.select(g.ge_half, gz, r);
        // +inf (whose Lanczos terms are inf - inf); then the poles.
        let pinf = self.fcmp_exact(FP::LLVMRealOEQ, x, c(self, f64::INFINITY));
        let r = self.select(pinf, c(self, f64::INFINITY), r);
        Ok(self.select(g.neg_int, c(self, f64::NAN), r))
    }

    /// `lgamma(x)` for `double` `x`, and the sign of Γ(x) (`int` lanes:
    /// -1 where Γ(x) < 0, 0 at the poles as OpenCL asks, 1 elsewhere,
    /// -inf and NaN included, as glibc's `lgamma_r` gives them). The same cases as
    /// [`Self::tgamma_wide`], in logarithms: ln Γ(z + 1) (- ln x for
    /// 0 ≤ x < 1/2), or ln π - ln|sin(πx)| - ln Γ(1 - x) for x < 0; +inf
    /// for ±0, ±inf and negative integers, +0 for 1 and 2.
    pub(super) fn lgamma_wide(&mut self, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let g = self.gamma_parts(x)?;
        // ln Γ(z + 1) = ln √(2π) + (z + ½) ln t - t + ln A: the part
        // without ln A, which goes into one logarithm with the divisor.
        let lg = self.intr("llvm.fmuladd", &[g.log2_power, c(self, LN_2), c(self, LN_SQRT_2PI)])?;
        let ax = self.intr("llvm.fabs", &[x])?;
        let over_x = self.binop(Op::LLVMFDiv, g.sum, ax);
        let s = self.intr("llvm.fabs", &[g.sinpi])?;
        let s = self.binop(Op::LLVMFMul, s, c(self, 1.0 / PI));
        let times_s = self.binop(Op::LLVMFMul, g.sum, s);
        let q = self.select(g.nonneg, over_x, times_s);
        let q = self.select(g.ge_half, g.sum, q);
        let lq = self.log2_wide(q)?;
        let lq = self.binop(Op::LLVMFMul, lq, c(self, LN_2));
        let pos = self.binop(Op::LLVMFAdd, lg, lq);
        let nlg = self.fneg(lg);
        let neg = self.binop(Op::LLVMFSub, nlg, lq);
        let r = self.select(g.nonneg, pos, neg);
        let inf = self.is_inf(x)?;
        let pole = self.binop(Op::LLVMOr, inf, g.neg_int);
        let r = self.select(pole, c(self, f64::INFINITY), r);
        // Annex F's exact zeros, lgamma(1) = lgamma(2) = +0, which the
        // sum above misses by the rounding of terms near 7.
        let one = self.fcmp(FP::LLVMRealOEQ, x, c(self, 1.0));
        let two = self.fcmp(FP::LLVMRealOEQ, x, c(self, 2.0));
        let zero_at = self.binop(Op::LLVMOr, one, two);
        let r = self.select(zero_at, t.const_zero(), r);
        // The sign: Γ(x) < 0 where sin(πx) < 0 for negative non-integers.
        let it = int_like(self, t, 32);
        let s_neg = self.fcmp(FP::LLVMRealOLT, g.sinpi, t.const_zero());
        let x_neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let not_int = self.binop(Op::LLVMXor, g.neg_int, self.const_int(g.neg_int.get_type(), 1));
        let neg_gamma = self.binop(Op::LLVMAnd, x_neg, not_int);
        let neg_gamma = self.binop(Op::LLVMAnd, neg_gamma, s_neg);
        let sign = self.select(neg_gamma, self.const_int(it, -1), self.const_int(it, 1));
        let sign = self.zero_sign_at_poles(x, sign)?;
        Ok((r, sign))
    }

    /// `lgamma_r`'s sign with OpenCL's rule beyond C99 (§7.5.1): 0 where
    /// `x` is ±0 or a negative integer (-inf is neither).
    pub(super) fn zero_sign_at_poles(&mut self, x: V<'ctx>, sign: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let zero = self.fcmp(FP::LLVMRealOEQ, x, t.const_zero());
        let neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let fl = self.intr("llvm.floor", &[x])?;
        let int = self.fcmp(FP::LLVMRealOEQ, fl, x);
        let fin = self.is_finite(x)?;
        let neg_int = self.binop(Op::LLVMAnd, neg, int);
        let neg_int = self.binop(Op::LLVMAnd, neg_int, fin);
        let pole = self.binop(Op::LLVMOr, zero, neg_int);
        Ok(self.select(pole, sign.get_type().const_zero(), sign))
    }

    /// What `tgamma` and `lgamma` share: z (x - 1 for x ≥ 1/2, |x|
    /// below), Lanczos' sum A(z) and power term in log2,
    /// (z + ½) log2 t - t log2 e with t = z + g + ½, so that
    /// Γ(z + 1) = √(2π) · 2^power · A(z); sin(πx) for the reflection; and
    /// the masks choosing between the cases.
    fn gamma_parts(&mut self, x: V<'ctx>) -> R<GammaParts<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let ge_half = self.fcmp(FP::LLVMRealOGE, x, c(self, 0.5));
        let nonneg = self.fcmp(FP::LLVMRealOGE, x, t.const_zero());
        let xm1 = self.binop(Op::LLVMFSub, x, c(self, 1.0));
        let ax = self.intr("llvm.fabs", &[x])?;
        let z = self.select(ge_half, xm1, ax);
        let tt = self.binop(Op::LLVMFAdd, z, c(self, LANCZOS_G + 0.5));
        let zh = self.binop(Op::LLVMFAdd, z, c(self, 0.5));
        let l = self.log2_wide(tt)?;
        let te = self.binop(Op::LLVMFMul, tt, c(self, LOG2_E));
        let te = self.fneg(te);
        let log2_power = self.intr("llvm.fmuladd", &[zh, l, te])?;
        // A(z) = p0 + Σ p_i / (z + i) as one fraction, accumulated term
        // by term (one division instead of eight). Beyond 2^60 the sum is
        // p0 to within 2^-55, and z^8 must not overflow.
        let zc = self.intr("llvm.minnum", &[z, c(self, 2f64.powi(60))])?;
        let mut num = c(self, LANCZOS[1]);
        let mut den = self.binop(Op::LLVMFAdd, zc, c(self, 1.0));
        for (i, &p) in LANCZOS.iter().enumerate().skip(2) {
            let zi = self.binop(Op::LLVMFAdd, zc, c(self, i as f64));
            let pd = self.binop(Op::LLVMFMul, den, c(self, p));
            num = self.intr("llvm.fmuladd", &[num, zi, pd])?;
            den = self.binop(Op::LLVMFMul, den, zi);
        }
        let frac = self.binop(Op::LLVMFDiv, num, den);
        let sum = self.binop(Op::LLVMFAdd, frac, c(self, LANCZOS[0]));
        let sinpi = self.sinpi_wide(x)?;
        let neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let fl = self.intr("llvm.floor", &[x])?;
        let int = self.fcmp(FP::LLVMRealOEQ, fl, x);
        let neg_int = self.binop(Op::LLVMAnd, neg, int);
        Ok(GammaParts { ge_half, nonneg, neg_int, log2_power, sum, sinpi })
    }

    /// log2 x for `double` x that is zero, infinite, NaN or normal (never
    /// a denormal: these are widened `float` and `half` values and
    /// quantities derived from them): -inf for ±0, +inf for +inf, NaN for
    /// NaN and negative x. x = 2^e · m with m in [√½, √2) (so that values
    /// just below 1 keep their relative accuracy), then ln m by its atanh
    /// series.
    pub(super) fn log2_wide(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        debug_assert!(!is_f80(t));
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let it = int_like(self, t, 64);
        let bits = self.cast(Op::LLVMBitCast, x, it);
        let biased = self.binop(Op::LLVMLShr, bits, self.const_int(it, 52));
        let mb = self.binop(Op::LLVMAnd, bits, self.const_int(it, (1i128 << 52) - 1));
        let mb = self.binop(Op::LLVMOr, mb, self.const_int(it, 1023i128 << 52));
        let m = self.cast(Op::LLVMBitCast, mb, t);
        let big = self.fcmp(FP::LLVMRealOGT, m, c(self, SQRT_2));
        let half_m = self.binop(Op::LLVMFMul, m, c(self, 0.5));
        let m = self.select(big, half_m, m);
        // Through 32-bit integers: AVX2 converts those to double in one
        // instruction, 64-bit ones lane by lane.
        let biased = self.cast(Op::LLVMTrunc, biased, int_like(self, t, 32));
        let e = self.cast(Op::LLVMSIToFP, biased, t);
        let bias = self.select(big, c(self, -1022.0), c(self, -1023.0));
        let e = self.binop(Op::LLVMFAdd, e, bias);
        // m - 1 is exact in this range.
        let num = self.binop(Op::LLVMFSub, m, c(self, 1.0));
        let den = self.binop(Op::LLVMFAdd, m, c(self, 1.0));
        let s = self.binop(Op::LLVMFDiv, num, den);
        let s2 = self.binop(Op::LLVMFMul, s, s);
        let p = self.poly(s2, &log_coefficients())?;
        let ln_m = self.binop(Op::LLVMFMul, s, p);
        let r = self.intr("llvm.fmuladd", &[ln_m, c(self, LOG2_E), e])?;
        self.log_specials(x, r)
    }

    /// A logarithm `r` of `x` with the special values selected: -inf for
    /// ±0, +inf for +inf, NaN for NaN and negative x.
    fn log_specials(&mut self, x: V<'ctx>, r: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let zero = self.fcmp(FP::LLVMRealOEQ, x, t.const_zero());
        let r = self.select(zero, self.const_of(t, f64::NEG_INFINITY, 0), r);
        let pinf = self.fcmp_exact(FP::LLVMRealOEQ, x, self.const_of(t, f64::INFINITY, 0));
        let r = self.select(pinf, x, r);
        let bad = self.fcmp_exact(FP::LLVMRealULT, x, t.const_zero());
        Ok(self.select(bad, self.const_of(t, f64::NAN, 0), r))
    }

    /// `log`, `log2` or `log10` (`op`) of `float` x in `float` arithmetic:
    /// x = 2^e · m with m in [√½, √2) (denormals scaled by 2^23 first),
    /// f = m - 1 exact, ln(1 + f) = f - f²/2 + f³ P(f) with P of degree 7
    /// (fitted for relative error over the interval; [`LOG1P_FLOAT`]),
    /// then e ln 2 (or e log10 2) with the constant split so that e times
    /// its high part is exact, and log2 e (log10 e) split likewise.
    /// Within 1.3 ulp over the float range (the accuracy suite checks
    /// OpenCL's 3); -inf for ±0, +inf for +inf, NaN for NaN and negative
    /// x. No division and no widening: a loop over it vectorises at full
    /// `float` width.
    pub(super) fn log_float(&mut self, x: V<'ctx>, op: clc_builtins::functions::OpenClStd) -> R<V<'ctx>> {
        use clc_builtins::functions::OpenClStd as E;
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let it = int_like(self, t, 32);
        let tiny = self.fcmp(FP::LLVMRealOLT, x, c(self, f64::from(f32::MIN_POSITIVE)));
        let scaled = self.binop(Op::LLVMFMul, x, c(self, 8_388_608.0));
        let xs = self.select(tiny, scaled, x);
        let bits = self.cast(Op::LLVMBitCast, xs, it);
        // e = exponent of x / √½; m = x / 2^e.
        let i = self.binop(Op::LLVMSub, bits, self.const_int(it, i128::from(SQRT_HALF_BITS)));
        let e = self.binop(Op::LLVMAShr, i, self.const_int(it, 23));
        let eb = self.binop(Op::LLVMShl, e, self.const_int(it, 23));
        let mb = self.binop(Op::LLVMSub, bits, eb);
        let m = self.cast(Op::LLVMBitCast, mb, t);
        let f = self.binop(Op::LLVMFSub, m, c(self, 1.0));
        let f2 = self.binop(Op::LLVMFMul, f, f);
        let f3 = self.binop(Op::LLVMFMul, f2, f);
        let p = self.poly(f, &LOG1P_FLOAT)?;
        let q = self.intr("llvm.fmuladd", &[c(self, -0.5), f2, f])?;
        let r = self.intr("llvm.fmuladd", &[f3, p, q])?;
        let ef = self.cast(Op::LLVMSIToFP, e, t);
        let adjust = self.select(tiny, c(self, -23.0), c(self, 0.0));
        let ef = self.binop(Op::LLVMFAdd, ef, adjust);
        // (hi, lo) of the constant times e and of the one times ln(1 + f).
        let (e_k, r_k): ((f32, f32), (f32, f32)) = match op {
            E::Log2 | E::NativeLog2 | E::HalfLog2 => ((1.0, 0.0), split_f32(std::f64::consts::LOG2_E)),
            E::Log10 | E::NativeLog10 | E::HalfLog10 => (split_f32(std::f64::consts::LOG10_2), split_f32(std::f64::consts::LOG10_E)),
            _ => (split_f32(LN_2), (1.0, 0.0)),
        };
        let lo = self.binop(Op::LLVMFMul, r, c(self, f64::from(r_k.1)));
        let lo = self.intr("llvm.fmuladd", &[ef, c(self, f64::from(e_k.1)), lo])?;
        let sum = self.intr("llvm.fmuladd", &[r, c(self, f64::from(r_k.0)), lo])?;
        let res = self.intr("llvm.fmuladd", &[ef, c(self, f64::from(e_k.0)), sum])?;
        self.log_specials(x, res)
    }

    /// 2^y for `double` y: y = k + f with k an integer and |f| ≤ ½, the
    /// series of 2^f, then two exact scalings by powers of two (so that k
    /// up to ±2000 stays within the exponent field): infinities and zeros
    /// come out of overflow and underflow, NaN stays NaN.
    fn exp2_wide(&mut self, y: V<'ctx>) -> R<V<'ctx>> {
        let t = y.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let it = int_like(self, t, 64);
        // minnum/maxnum also map NaN to a number, so the conversion to an
        // integer below never sees one; NaN is put back at the end.
        let yc = self.intr("llvm.minnum", &[y, c(self, 2000.0)])?;
        let yc = self.intr("llvm.maxnum", &[yc, c(self, -2000.0)])?;
        let k = self.intr("llvm.roundeven", &[yc])?;
        let f = self.binop(Op::LLVMFSub, yc, k);
        let p = self.poly(f, &exp2_coefficients())?;
        // Through 32-bit integers, as in log2_wide.
        let ki = self.cast(Op::LLVMFPToSI, k, int_like(self, t, 32));
        let ki = self.cast(Op::LLVMSExt, ki, it);
        let k1 = self.binop(Op::LLVMAShr, ki, self.const_int(it, 1));
        let k2 = self.binop(Op::LLVMSub, ki, k1);
        let mut r = p;
        for kk in [k1, k2] {
            let e = self.binop(Op::LLVMAdd, kk, self.const_int(it, 1023));
            let e = self.binop(Op::LLVMShl, e, self.const_int(it, 52));
            let scale = self.cast(Op::LLVMBitCast, e, t);
            r = self.binop(Op::LLVMFMul, r, scale);
        }
        let nan = self.fcmp_exact(FP::LLVMRealUNO, y, y);
        Ok(self.select(nan, y, r))
    }

    /// sin(πx) for finite `double` x: x - 2·round(x/2) (exact) in [-1, 1],
    /// folded to a in [0, ½] (1 - a is exact there), then the series at
    /// πa, with the sign of the reduced argument.
    fn sinpi_wide(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let h = self.binop(Op::LLVMFMul, x, c(self, 0.5));
        let k = self.intr("llvm.roundeven", &[h])?;
        let k2 = self.binop(Op::LLVMFMul, k, c(self, 2.0));
        let r = self.binop(Op::LLVMFSub, x, k2);
        let a = self.intr("llvm.fabs", &[r])?;
        let b = self.binop(Op::LLVMFSub, c(self, 1.0), a);
        let a = self.intr("llvm.minnum", &[a, b])?;
        let u = self.binop(Op::LLVMFMul, a, c(self, PI));
        let u2 = self.binop(Op::LLVMFMul, u, u);
        let p = self.poly(u2, &sin_coefficients())?;
        let s = self.binop(Op::LLVMFMul, u, p);
        self.intr("llvm.copysign", &[s, r])
    }

    /// `r` with the sign of `x` where the integer `n` is odd.
    pub(super) fn odd_sign(&mut self, r: V<'ctx>, x: V<'ctx>, n: V<'ctx>) -> R<V<'ctx>> {
        use inkwell::llvm_sys::LLVMIntPredicate as IP;
        let it = n.get_type();
        let odd = self.binop(Op::LLVMAnd, n, self.const_int(it, 1));
        let odd = self.icmp(IP::LLVMIntNE, odd, it.const_zero());
        let signed = self.intr("llvm.copysign", &[r, x])?;
        Ok(self.select(odd, signed, r))
    }

    /// `c[0] + c[1] x + c[2] x² + …` by Estrin's scheme: pairs
    /// `c[2j] + c[2j+1] x` (independent fused multiply-adds), then the
    /// same on those pairs in x², and so on. Its chain of dependent
    /// operations grows with the logarithm of the degree, where Horner's
    /// grows with the degree: these loops are bound by that latency, not
    /// by the number of operations.
    pub(super) fn poly(&mut self, x: V<'ctx>, c: &[f64]) -> R<V<'ctx>> {
        let t = x.get_type();
        let mut terms: Vec<V<'ctx>> = c.iter().map(|&k| self.const_of(t, k, 0)).collect();
        let mut p = x;
        while terms.len() > 1 {
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            for pair in terms.chunks(2) {
                next.push(match pair {
                    [lo, hi] => self.intr("llvm.fmuladd", &[*hi, p, *lo])?,
                    [lo] => *lo,
                    _ => unreachable!("chunks of two"),
                });
            }
            terms = next;
            if terms.len() > 1 {
                p = self.binop(Op::LLVMFMul, p, p);
            }
        }
        Ok(terms[0])
    }
}

/// See [`Gen::gamma_parts`].
struct GammaParts<'ctx> {
    ge_half: V<'ctx>,
    nonneg: V<'ctx>,
    /// Negative integers and -inf: the poles.
    neg_int: V<'ctx>,
    log2_power: V<'ctx>,
    sum: V<'ctx>,
    sinpi: V<'ctx>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The series' coefficients: their truncation errors are below what
    /// the module documentation claims.
    #[test]
    fn series_are_long_enough() {
        let e = exp2_coefficients();
        assert_eq!(e[1], LN_2);
        // The first term left out, at |f| = ½.
        let next = e[10] * LN_2 / 11.0 * 0.5f64.powi(11);
        assert!(next < 2f64.powi(-42), "{next}");
        let s = sin_coefficients();
        assert!((s[1] + 1.0 / 6.0).abs() < 1e-17 && (s[2] - 1.0 / 120.0).abs() < 1e-18);
        let next = s[8].abs() / (18.0 * 19.0) * (PI / 2.0).powi(18);
        assert!(next < 2f64.powi(-44), "{next}");
        let l = log_coefficients();
        let smax = (SQRT_2 - 1.0) / (SQRT_2 + 1.0);
        // Relative to the sum, which is at least its first term, 2.
        let next = 2.0 / 17.0 * smax.powi(16) / 2.0;
        assert!(next < 2f64.powi(-44), "{next}");
        assert_eq!(l[0], 2.0);
    }

    /// The same formulas as the generated code, in Rust: Lanczos' Γ with
    /// the fraction accumulated term by term, against known values.
    #[test]
    fn lanczos_fraction_gives_gamma() {
        let gamma = |z: f64| {
            let mut num = LANCZOS[1];
            let mut den = z + 1.0;
            for (i, &p) in LANCZOS.iter().enumerate().skip(2) {
                let zi = z + i as f64;
                num = num * zi + den * p;
                den *= zi;
            }
            let a = LANCZOS[0] + num / den;
            let t = z + LANCZOS_G + 0.5;
            SQRT_2PI * ((z + 0.5) * t.log2() - t * LOG2_E).exp2() * a
        };
        for (z, want) in [(0.0, 1.0), (1.0, 1.0), (4.0, 24.0), (0.5, 0.886_226_925_452_758), (9.0, 362_880.0), (19.0, 1.216_451_004_088_32e17)] {
            let got = gamma(z);
            assert!(((got - want) / want).abs() < 1e-13, "Γ({z} + 1) = {got}, want {want}");
        }
        assert!((LN_SQRT_2PI - SQRT_2PI.ln()).abs() < 2e-16);
        assert!((SQRT_2PI - (2.0 * PI).sqrt()).abs() < 5e-16);
    }
}
