//! Branch-free `double` results of `rootn`, `cbrt`, `tgamma`, `lgamma`
//! and `lgamma_r`, in double-double arithmetic where one `double` is not
//! precise enough.
//!
//! The [`wide`](super::wide) module computes these functions for `float`
//! and `half` in plain `double`; for `double` results the C library was
//! called lane by lane, which kept a work-item loop calling them from
//! vectorising. Here they are built from the same kind of instructions
//! (fused multiply-adds, divisions, bit operations, selects, no branch
//! and no call), so the loop vectoriser widens them at any width.
//!
//! A double-double is an unevaluated sum `hi + lo` with |lo| ≤ ½ ulp(hi):
//! 106 bits of mantissa, built from error-free transformations, the sum
//! `a + b = s + e` (Knuth's two-sum, six additions) and the product
//! `a·b = p + e` (`e = fma(a, b, -p)`, exact, where the target has FMA
//! instructions; else Dekker's product of Veltkamp-split halves, since
//! LLVM makes `llvm.fma` a C library call per lane there). Those need no
//! reassociation (`-cl-fast-relaxed-math` gives up accuracy anyway; the
//! Dekker steps carry no fast-math flags).
//!
//! The pieces, with their error budgets (measured against glibc's x87
//! `long double` functions by `tests/tests/math_accuracy.rs`):
//!
//! - [`Gen::log_dd`]: ln x as a double-double, x = 2^e·m with m in
//!   [√½, √2) (denormals scaled first), s = (m - 1)/(m + 1) as a
//!   double-double, ln m = 2 atanh s = 2s + 2s³/3 + … with 2s carried in
//!   double-double and the rest (below 0.0034) in `double`, e·ln 2 with
//!   ln 2 split so that e·ln2_hi is exact. Absolute error below 2^-58.
//! - [`Gen::exp_dd`]: e^(hi + lo) rounded to `double`: k = round(hi/ln 2),
//!   r = hi - k ln 2 + lo (exact first step, then a two-sum), a degree-13
//!   Taylor polynomial, 1 + r summed exactly, and 2^k applied in two
//!   steps, so that results near overflow come out right and denormal
//!   results are rounded once. Within 0.52 ulp of e^(hi + lo).
//! - [`Gen::sinpi_dd`]: sin(πb) for b in [0, ½] as a double-double: the
//!   sine series below ¼, the cosine of π(½ - b) above (with its leading
//!   terms exact). Relative error below 2^-54.
//! - [`Gen::lgamma_parts`]: ln |Γ(x)| as a double-double: Stirling's
//!   series for arguments of 10 and more, Γ(a) = Γ(a + 10)/(a (a+1) …
//!   (a+9)) below (the product in double-double), and the reflection
//!   formula Γ(x) Γ(-x) = -π/(x sin πx) for negative x, in logarithms so
//!   that nothing overflows on the way. Absolute error about 2^-58 near
//!   the small arguments, growing to 2^-51 with the factor (y - ½) of
//!   Stirling's ln y near 170 (where tgamma overflows).
//!
//! So `cbrt` (dedicated: Halley's iteration then a Newton step on a
//! double-double residual) is within 0.5 ulp and a hair, `rootn` within
//! 0.65 ulp (1 for denormal results, rounded twice), `tgamma` within
//! about 2.5 ulp (OpenCL allows 2, 16 and 16). `lgamma` (no bound in
//! OpenCL) is within a few ulps, also around its zeros at 1 and 2 (Taylor
//! series there); near its zeros on the negative axis (one between each
//! pair of negative integers below -2) the absolute error stays about
//! 2^-57, so the relative one grows as the result goes to zero.

use super::super::{Gen, R};
use super::int_like;
use super::wide::sin_coefficients;
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::values::BasicValueEnum;

type V<'ctx> = BasicValueEnum<'ctx>;

/// ln 2 with its last 12 mantissa bits zero (so that e·LN2_HI is exact for
/// |e| < 2^12), and the rest.
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEFA_3000);
const LN2_LO: f64 = 2.823_529_056_303_157_7e-13;
const LOG2_E: f64 = std::f64::consts::LOG2_E;
const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// π = PI_HI + PI_LO.
const PI_HI: f64 = std::f64::consts::PI;
const PI_LO: f64 = 1.224_646_799_147_353_2e-16;
/// ln π and ln √(2π) as double-doubles.
const LN_PI: (f64, f64) = (1.144_729_885_849_400_2, 1.026_595_116_270_782_6e-17);
const LN_SQRT_2PI: (f64, f64) = (0.918_938_533_204_672_8, -3.878_294_158_067_241_4e-17);
/// Arguments of Γ below this are shifted up by it (Γ(a) = Γ(a + N)/(a …
/// (a + N - 1))) for Stirling's series.
const SHIFT: u32 = 10;
/// Beyond this, Stirling's terms past (y - ½) ln y - y are below 2^-60 of
/// it, and y² no longer fits: lgamma is y (ln y - 1) there.
const HUGE: f64 = 1_152_921_504_606_846_976.0; // 2^60

/// `ln m = 2s + s · Σ_{k≥1} 2 s^2k / (2k + 1)`: the coefficients of the
/// part after 2s, in s², for |s| ≤ 0.1716 (m in [√½, √2)); the first left
/// out, 2 s^23 / 23, is below 2^-60 of 2s and 2^-62 in magnitude.
fn log_tail_coefficients() -> Vec<f64> {
    (1..=10).map(|k| 2.0 / f64::from(2 * k + 1)).collect()
}

/// `e^r = 1 + r + r² Σ_{j≥2} r^(j-2) / j!` for |r| ≤ ln2/2 + 2^-30: the
/// coefficients of the sum, to j = 13 (the next term is below 2^-57).
fn exp_tail_coefficients() -> Vec<f64> {
    let mut c = Vec::with_capacity(12);
    let mut term = 0.5;
    for j in 2..14 {
        c.push(term);
        term /= f64::from(j + 1);
    }
    c
}

/// `cos v = 1 - v²/2 + v⁴ Σ_{k≥2} (-1)^k v^(2k-4) / (2k)!` for |v| ≤ π/4:
/// the coefficients of the sum, to k = 9 (the next term is below 2^-68).
fn cos_tail_coefficients() -> Vec<f64> {
    let mut c = Vec::with_capacity(8);
    let mut term = 1.0 / 24.0;
    for k in 2..10 {
        c.push(term);
        term = -term / f64::from((2 * k + 1) * (2 * k + 2));
    }
    c
}

/// Stirling's series, ln Γ(y) = (y - ½) ln y - y + ln √(2π) +
/// Σ B_2k / (2k (2k - 1) y^(2k-1)): its coefficients (Bernoulli numbers
/// B_2 … B_18 as fractions), in 1/y². At y ≥ 10 the first left out,
/// B_20/(380 y^19), is below 2^-62.
fn stirling_coefficients() -> Vec<f64> {
    const B: [(f64, f64); 9] = [(1.0, 6.0), (-1.0, 30.0), (1.0, 42.0), (-1.0, 30.0), (5.0, 66.0), (-691.0, 2730.0), (7.0, 6.0), (-3617.0, 510.0), (43867.0, 798.0)];
    B.iter().enumerate().map(|(i, &(n, d))| {
        let k = (i + 1) as f64;
        n / (d * 2.0 * k * (2.0 * k - 1.0))
    }).collect()
}

/// ln Γ(1 + ε) = -γε + Σ_{k≥2} (-1)^k ζ(k) ε^k / k: the coefficients of
/// ε^1 … ε^24 (Euler's γ and ζ(k)/k to `double`). For |ε| ≤ 0.2 the first
/// left out is below 2^-58 of the sum, which is near -γε: lgamma keeps
/// its relative accuracy down to the zero at 1.
const LGAMMA_AT_1: [f64; 24] = [
    -0.577_215_664_901_532_9, 0.822_467_033_424_113_2, -0.400_685_634_386_531_43, 0.270_580_808_427_784_54, -0.207_385_551_028_673_98,
    0.169_557_176_997_408_2, -0.144_049_896_768_846_1, 0.125_509_669_524_743_04, -0.111_334_265_869_564_69, 0.100_099_457_512_781_8,
    -0.090_954_017_145_829_04, 0.083_353_840_546_109, -0.076_932_516_411_352_2, 0.071_432_946_295_361_33, -0.066_668_705_882_420_46,
    0.062_500_955_141_213_04, -0.058_823_978_658_684_585, 0.055_555_767_627_403_614, -0.052_631_679_379_616_66, 0.050_000_047_698_101_69,
    -0.047_619_070_330_142_226, 0.045_454_556_293_204_67, -0.043_478_266_053_040_26, 0.041_666_669_150_341_21,
];

/// ln Γ(2 + ε) = (1 - γ)ε + Σ_{k≥2} (-1)^k (ζ(k) - 1) ε^k / k: the
/// coefficients of ε^1 … ε^17, for |ε| ≤ 0.2 (the first left out is below
/// 2^-57 of the sum), around the zero at 2.
const LGAMMA_AT_2: [f64; 17] = [
    0.422_784_335_098_467_13, 0.322_467_033_424_113_2, -0.067_352_301_053_198_1, 0.020_580_808_427_784_546, -0.007_385_551_028_673_986,
    0.002_890_510_330_741_523_4, -0.001_192_753_911_703_261, 0.000_509_669_524_743_042_5, -0.000_223_154_758_453_579_39, 9.945_751_278_180_853e-5,
    -4.492_623_673_813_314e-5, 2.050_721_277_567_069e-5, -9.439_488_275_268_397e-6, 4.374_866_789_907_488e-6, -2.039_215_753_801_366e-6,
    9.551_412_130_407_42e-7, -4.492_469_198_764_566e-7,
];

/// A double-double: the unevaluated sum `hi + lo`.
#[derive(Clone, Copy)]
pub(super) struct Dd<'ctx> {
    pub hi: V<'ctx>,
    pub lo: V<'ctx>,
}

impl<'ctx> Gen<'_, 'ctx> {
    fn add(&self, a: V<'ctx>, b: V<'ctx>) -> V<'ctx> {
        self.binop(Op::LLVMFAdd, a, b)
    }

    fn sub(&self, a: V<'ctx>, b: V<'ctx>) -> V<'ctx> {
        self.binop(Op::LLVMFSub, a, b)
    }

    fn mul(&self, a: V<'ctx>, b: V<'ctx>) -> V<'ctx> {
        self.binop(Op::LLVMFMul, a, b)
    }

    fn div(&self, a: V<'ctx>, b: V<'ctx>) -> V<'ctx> {
        self.binop(Op::LLVMFDiv, a, b)
    }

    fn k(&self, like: V<'ctx>, v: f64) -> V<'ctx> {
        self.const_of(like.get_type(), v, 0)
    }

    /// The double-double of a constant pair.
    fn dd_const(&self, like: V<'ctx>, (hi, lo): (f64, f64)) -> Dd<'ctx> {
        Dd { hi: self.k(like, hi), lo: self.k(like, lo) }
    }

    fn dd_select(&self, c: V<'ctx>, a: Dd<'ctx>, b: Dd<'ctx>) -> Dd<'ctx> {
        Dd { hi: self.select(c, a.hi, b.hi), lo: self.select(c, a.lo, b.lo) }
    }

    fn dd_neg(&self, a: Dd<'ctx>) -> Dd<'ctx> {
        Dd { hi: self.fneg(a.hi), lo: self.fneg(a.lo) }
    }

    /// a + b = s + e exactly (Knuth), whatever the magnitudes.
    fn two_sum(&self, a: V<'ctx>, b: V<'ctx>) -> Dd<'ctx> {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let ab = self.sub(s, bb);
        let ea = self.sub(a, ab);
        let eb = self.sub(b, bb);
        Dd { hi: s, lo: self.add(ea, eb) }
    }

    /// a + b = s + e exactly, for |a| ≥ |b| (or a = 0) (Dekker).
    fn fast_two_sum(&self, a: V<'ctx>, b: V<'ctx>) -> Dd<'ctx> {
        let s = self.add(a, b);
        let d = self.sub(s, a);
        Dd { hi: s, lo: self.sub(b, d) }
    }

    /// a·b = p + e exactly (barring underflow), e by a fused multiply-add
    /// where the target has one, else by Dekker's product.
    pub(super) fn two_prod(&mut self, a: V<'ctx>, b: V<'ctx>) -> R<Dd<'ctx>> {
        let p = self.mul(a, b);
        if self.has_fma() {
            let np = self.fneg(p);
            let e = self.intr("llvm.fma", &[a, b, np])?;
            return Ok(Dd { hi: p, lo: e });
        }
        // Dekker: with a = ah + al and b = bh + bl split into 26-bit
        // halves, every partial product is exact, and so is
        // ((ah·bh - p) + ah·bl + al·bh) + al·bl. Without fast-math flags:
        // reassociation would undo the splits.
        let (ah, al) = self.split(a)?;
        let (bh, bl) = self.split(b)?;
        let u = |g: &Self, op: Op, x: V<'ctx>, y: V<'ctx>| g.exact_op(op, x, y);
        let hh = u(self, Op::LLVMFMul, ah, bh);
        let e = u(self, Op::LLVMFSub, hh, p);
        let hl = u(self, Op::LLVMFMul, ah, bl);
        let e = u(self, Op::LLVMFAdd, e, hl);
        let lh = u(self, Op::LLVMFMul, al, bh);
        let e = u(self, Op::LLVMFAdd, e, lh);
        let ll = u(self, Op::LLVMFMul, al, bl);
        let e = u(self, Op::LLVMFAdd, e, ll);
        Ok(Dd { hi: p, lo: e })
    }

    /// c - a·b, exact where that is a double and c - a·b rounded is exact
    /// (Sterbenz: the product within a factor 2 of c), as the remainder of
    /// a division or of a rounded quotient: one fused multiply-add, or
    /// (c - p) - e from [`Self::two_prod`]'s a·b = p + e.
    pub(super) fn exact_fms(&mut self, a: V<'ctx>, b: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        if self.has_fma() {
            let na = self.fneg(a);
            return self.intr("llvm.fma", &[na, b, c]);
        }
        let Dd { hi: p, lo: e } = self.two_prod(a, b)?;
        let r = self.exact_op(Op::LLVMFSub, c, p);
        Ok(self.exact_op(Op::LLVMFSub, r, e))
    }

    /// a = h + l exactly with h of at most 26 significant bits (Veltkamp,
    /// the constant 2^27 + 1); values above 2^996, whose product with the
    /// constant would overflow, are split scaled by 2^-28.
    fn split(&mut self, a: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let abs = self.intr("llvm.fabs", &[a])?;
        let big = self.fcmp_exact(FP::LLVMRealOGT, abs, self.k(a, 2f64.powi(996)));
        let down = self.select(big, self.k(a, 2f64.powi(-28)), self.k(a, 1.0));
        let up = self.select(big, self.k(a, 2f64.powi(28)), self.k(a, 1.0));
        let x = self.exact_op(Op::LLVMFMul, a, down);
        let t = self.exact_op(Op::LLVMFMul, x, self.k(a, 134_217_729.0));
        let d = self.exact_op(Op::LLVMFSub, t, x);
        let h = self.exact_op(Op::LLVMFSub, t, d);
        let l = self.exact_op(Op::LLVMFSub, x, h);
        Ok((self.exact_op(Op::LLVMFMul, h, up), self.exact_op(Op::LLVMFMul, l, up)))
    }

    /// `a op b` without fast-math flags: steps of exact arithmetic, which
    /// reassociation would undo, and (`rem`) values that overflow with the
    /// largest arguments (Y·2^64 beside a tiny X, 2^c·Y, 4Y, 2r), which
    /// under `-cl-finite-math-only` the flags would make poison, not the
    /// infinities the comparisons there expect.
    pub(super) fn exact_op(&self, op: Op, a: V<'ctx>, b: V<'ctx>) -> V<'ctx> {
        use inkwell::values::{BasicValue, FastMathFlags};
        let v = self.binop(op, a, b);
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_fast_math_flags(FastMathFlags::empty());
        }
        v
    }

    /// Does the target have fused multiply-add instructions (else
    /// `llvm.fma` becomes a C library call per lane)?
    pub(super) fn has_fma(&self) -> bool {
        static HOST_FMA: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        self.opts.host_cpu && *HOST_FMA.get_or_init(|| inkwell::targets::TargetMachine::get_host_cpu_features().to_string_lossy().split(',').any(|f| f == "+fma"))
    }

    /// The sum of two double-doubles (relative error about 2^-104 unless
    /// they cancel; absolute error within 2^-105 of the larger anyway).
    fn dd_add(&self, a: Dd<'ctx>, b: Dd<'ctx>) -> Dd<'ctx> {
        let s = self.two_sum(a.hi, b.hi);
        let l = self.add(a.lo, b.lo);
        let l = self.add(s.lo, l);
        self.fast_two_sum(s.hi, l)
    }

    /// The product of two double-doubles (relative error about 2^-102).
    fn dd_mul(&mut self, a: Dd<'ctx>, b: Dd<'ctx>) -> R<Dd<'ctx>> {
        let p = self.two_prod(a.hi, b.hi)?;
        let cross = self.mul(a.lo, b.hi);
        let cross = self.intr("llvm.fmuladd", &[a.hi, b.lo, cross])?;
        let l = self.add(p.lo, cross);
        Ok(self.fast_two_sum(p.hi, l))
    }

    /// A double-double times a `double`.
    fn dd_mul_d(&mut self, a: Dd<'ctx>, b: V<'ctx>) -> R<Dd<'ctx>> {
        let p = self.two_prod(a.hi, b)?;
        let l = self.intr("llvm.fmuladd", &[a.lo, b, p.lo])?;
        Ok(self.fast_two_sum(p.hi, l))
    }

    /// ln x as a double-double, for x > 0 finite (denormals included);
    /// other arguments give unspecified values, which callers replace.
    /// See the module documentation for the method; the reduction
    /// (m - 1 is exact, m + 1 is carried as a double-double, and the
    /// remainder of the division is exact by a fused multiply-add) keeps
    /// s to 2^-105 relative.
    pub(super) fn log_dd(&mut self, x: V<'ctx>) -> R<Dd<'ctx>> {
        let t = x.get_type();
        let it = int_like(self, t, 64);
        let i32t = int_like(self, t, 32);
        // Denormals: scaled by 2^54 into the normal range.
        let sub = self.fcmp_exact(FP::LLVMRealOLT, x, self.k(x, f64::MIN_POSITIVE));
        let scaled = self.mul(x, self.k(x, 2f64.powi(54)));
        let xs = self.select(sub, scaled, x);
        let bits = self.cast(Op::LLVMBitCast, xs, it);
        let biased = self.binop(Op::LLVMLShr, bits, self.const_int(it, 52));
        let mb = self.binop(Op::LLVMAnd, bits, self.const_int(it, (1i128 << 52) - 1));
        let mb = self.binop(Op::LLVMOr, mb, self.const_int(it, 1023i128 << 52));
        let m = self.cast(Op::LLVMBitCast, mb, t);
        let big = self.fcmp(FP::LLVMRealOGT, m, self.k(x, SQRT_2));
        let half_m = self.mul(m, self.k(x, 0.5));
        let m = self.select(big, half_m, m);
        // Through 32-bit integers, as in log2_wide.
        let biased = self.cast(Op::LLVMTrunc, biased, i32t);
        let e = self.cast(Op::LLVMSIToFP, biased, t);
        let bias = self.select(big, self.k(x, -1022.0), self.k(x, -1023.0));
        let sub_bias = self.select(sub, self.k(x, -54.0), t.const_zero());
        let bias = self.add(bias, sub_bias);
        let e = self.add(e, bias);
        // s = f / d with f = m - 1 (exact) and d = m + 1 = dh + dl.
        let one = self.k(x, 1.0);
        let f = self.sub(m, one);
        let dh = self.add(m, one);
        let dh1 = self.sub(dh, one);
        let dl = self.sub(m, dh1);
        let sh = self.div(f, dh);
        let nsh = self.fneg(sh);
        let rem = self.exact_fms(sh, dh, f)?;
        let rem = self.intr("llvm.fmuladd", &[nsh, dl, rem])?;
        let sl = self.div(rem, dh);
        // The series after its first term, from sh alone (sl changes it
        // by less than 2^-60 of ln m).
        let z = self.mul(sh, sh);
        let p = self.poly(z, &log_tail_coefficients())?;
        let sz = self.mul(sh, z);
        let tail = self.mul(sz, p);
        let two = self.k(x, 2.0);
        let sh2 = self.mul(sh, two);
        let sl2 = self.mul(sl, two);
        // e ln 2 + 2s + tail: e·LN2_HI is exact.
        let eh = self.mul(e, self.k(x, LN2_HI));
        let h = self.two_sum(eh, sh2);
        let lo = self.intr("llvm.fmuladd", &[e, self.k(x, LN2_LO), sl2])?;
        let lo = self.add(lo, tail);
        let lo = self.add(h.lo, lo);
        Ok(self.fast_two_sum(h.hi, lo))
    }

    /// ln (hi + lo) for a positive double-double: ln hi + lo/hi.
    fn log_of_dd(&mut self, x: Dd<'ctx>) -> R<Dd<'ctx>> {
        let l = self.log_dd(x.hi)?;
        let c = self.div(x.lo, x.hi);
        let lo = self.add(l.lo, c);
        Ok(self.fast_two_sum(l.hi, lo))
    }

    /// e^(hi + lo) rounded to `double` (see the module documentation):
    /// +inf above the range, +0 below, NaN for a NaN `hi`; `lo` is ignored
    /// where |hi| ≥ 1400 (it may be NaN there, next to an infinite `hi`).
    pub(super) fn exp_dd(&mut self, y: Dd<'ctx>) -> R<V<'ctx>> {
        let t = y.hi.get_type();
        let it = int_like(self, t, 64);
        let c = |g: &Self, v: f64| g.k(y.hi, v);
        // Beyond ±1400 the result is 0 or inf whatever lo is; the clamp
        // keeps k within what two scalings reach (minnum/maxnum also map
        // NaN to a number; NaN is put back at the end).
        let hc = self.intr("llvm.minnum", &[y.hi, c(self, 1400.0)])?;
        let hc = self.intr("llvm.maxnum", &[hc, c(self, -1400.0)])?;
        let ah = self.intr("llvm.fabs", &[y.hi])?;
        let in_range = self.fcmp_exact(FP::LLVMRealOLT, ah, c(self, 1400.0));
        let lo = self.select(in_range, y.lo, t.const_zero());
        let kh = self.mul(hc, c(self, LOG2_E));
        let k = self.intr("llvm.roundeven", &[kh])?;
        let nk = self.fneg(k);
        // hc - k·LN2_HI is exact (k·LN2_HI is, and the difference is
        // below ½ in magnitude on the grid of hc's ulp).
        let r = self.intr("llvm.fmuladd", &[nk, c(self, LN2_HI), hc])?;
        let cl = self.intr("llvm.fmuladd", &[nk, c(self, LN2_LO), lo])?;
        let rr = self.two_sum(r, cl);
        // e^(rh + rl) = 1 + rh + rh² P(rh) + rl (1 + …): rl's product is
        // below 2^-100.
        let p = self.poly(rr.hi, &exp_tail_coefficients())?;
        let r2 = self.mul(rr.hi, rr.hi);
        let w = self.intr("llvm.fmuladd", &[r2, p, rr.lo])?;
        let a = self.two_sum(c(self, 1.0), rr.hi);
        let w = self.add(a.lo, w);
        let mut res = self.add(a.hi, w);
        // 2^k in two exact steps (k1 + k2 = k, each within the exponent
        // field); only the second can round (denormal results).
        let ki = self.cast(Op::LLVMFPToSI, k, int_like(self, t, 32));
        let ki = self.cast(Op::LLVMSExt, ki, it);
        let k1 = self.binop(Op::LLVMAShr, ki, self.const_int(it, 1));
        let k2 = self.binop(Op::LLVMSub, ki, k1);
        for kk in [k1, k2] {
            let e = self.binop(Op::LLVMAdd, kk, self.const_int(it, 1023));
            let e = self.binop(Op::LLVMShl, e, self.const_int(it, 52));
            let scale = self.cast(Op::LLVMBitCast, e, t);
            res = self.mul(res, scale);
        }
        let nan = self.fcmp_exact(FP::LLVMRealUNO, y.hi, y.hi);
        Ok(self.select(nan, y.hi, res))
    }

    /// sin(πb) as a double-double for b in [0, ½] (exact: reduced
    /// arguments). Below ¼, u = πb as a double-double and sin u = u (1 +
    /// q) with q = u² S(u²) in [-0.11, 0]; above, cos v for v = π(½ - b)
    /// (½ - b is exact), 1 - v²/2 with v² exact, the rest below 0.016.
    fn sinpi_dd(&mut self, b: V<'ctx>) -> R<Dd<'ctx>> {
        let c = |g: &Self, v: f64| g.k(b, v);
        let low = self.fcmp(FP::LLVMRealOLE, b, c(self, 0.25));
        let u = self.times_pi(b)?;
        let z = self.mul(u.hi, u.hi);
        let sc = sin_coefficients();
        let s = self.poly(z, &sc[1..])?;
        let q = self.mul(z, s);
        let l = self.intr("llvm.fmuladd", &[u.hi, q, u.lo])?;
        let sin = self.fast_two_sum(u.hi, l);
        let d = self.sub(c(self, 0.5), b);
        let v = self.times_pi(d)?;
        let w = self.two_prod(v.hi, v.hi)?;
        let vh2 = self.mul(v.hi, c(self, 2.0));
        let wl = self.intr("llvm.fmuladd", &[vh2, v.lo, w.lo])?;
        let half_w = self.mul(w.hi, c(self, -0.5));
        let k = self.two_sum(c(self, 1.0), half_w);
        let p = self.poly(w.hi, &cos_tail_coefficients())?;
        let w2 = self.mul(w.hi, w.hi);
        let tail = self.mul(w2, p);
        let half_wl = self.mul(wl, c(self, 0.5));
        let tail = self.sub(tail, half_wl);
        let tail = self.add(k.lo, tail);
        let cos = self.fast_two_sum(k.hi, tail);
        Ok(self.dd_select(low, sin, cos))
    }

    /// π·b as a double-double.
    fn times_pi(&mut self, b: V<'ctx>) -> R<Dd<'ctx>> {
        let u = self.two_prod(b, self.k(b, PI_HI))?;
        let l = self.intr("llvm.fmuladd", &[b, self.k(b, PI_LO), u.lo])?;
        Ok(self.fast_two_sum(u.hi, l))
    }

    /// `rootn(x, n)` for `double`: e^(ln|x| / n) with the division in
    /// double-double (the remainder of l_hi / n is exact by a fused
    /// multiply-add), x's sign for odd n; NaN for n = 0 and for negative x
    /// with even n. Zeros and infinities go through ln as ∓inf, and e^y
    /// turns ±inf into the zeros and infinities §7.5.1 gives.
    pub(super) fn rootn_dd(&mut self, x: V<'ctx>, n: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let nf = self.cast(Op::LLVMSIToFP, n, t);
        let ax = self.intr("llvm.fabs", &[x])?;
        let l = self.log_dd(ax)?;
        let zero = self.fcmp(FP::LLVMRealOEQ, ax, t.const_zero());
        let inf = self.fcmp_exact(FP::LLVMRealOEQ, ax, self.k(x, f64::INFINITY));
        let lh = self.select(zero, self.k(x, f64::NEG_INFINITY), l.hi);
        let lh = self.select(inf, ax, lh);
        let special = self.binop(Op::LLVMOr, zero, inf);
        let ll = self.select(special, t.const_zero(), l.lo);
        let yh = self.div(lh, nf);
        let rem = self.exact_fms(yh, nf, lh)?;
        let rem = self.add(rem, ll);
        let yl = self.div(rem, nf);
        let r = self.exp_dd(Dd { hi: yh, lo: yl })?;
        let nan = self.fcmp_exact(FP::LLVMRealUNO, x, x);
        let r = self.select(nan, x, r);
        let r = self.odd_sign(r, x, n)?;
        let it = n.get_type();
        let odd = self.binop(Op::LLVMAnd, n, self.const_int(it, 1));
        let even = self.icmp(IP::LLVMIntEQ, odd, it.const_zero());
        let neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let neg_even = self.binop(Op::LLVMAnd, neg, even);
        let n0 = self.icmp(IP::LLVMIntEQ, n, it.const_zero());
        let bad = self.binop(Op::LLVMOr, neg_even, n0);
        Ok(self.select(bad, self.k(x, f64::NAN), r))
    }

    /// `cbrt(x)` for `double`: |x| scaled into [2^-912, 2^768) by 2^162
    /// or 2^-768 (exact; the root is scaled back by 2^-54 or 2^256), so
    /// that the errors of the exact products below stay normal, the
    /// first guess of [`Self::cbrt_wide`], two steps of Halley's iteration
    /// (2^-5 → 2^-15 → 2^-45), then one Newton step r - (r³ - a)/(3r²)
    /// with r³ - a from exact products: within 2^-90 before the last
    /// rounding.
    pub(super) fn cbrt_dd(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.k(x, v);
        let it = int_like(self, t, 64);
        let i32t = int_like(self, t, 32);
        let a = self.intr("llvm.fabs", &[x])?;
        let sub = self.fcmp_exact(FP::LLVMRealOLT, a, c(self, 2f64.powi(-750)));
        let big = self.fcmp_exact(FP::LLVMRealOGE, a, c(self, 2f64.powi(768)));
        let up = self.mul(a, c(self, 2f64.powi(162)));
        let down = self.mul(a, c(self, 2f64.powi(-768)));
        let s = self.select(big, down, a);
        let s = self.select(sub, up, s);
        let back = self.select(big, c(self, 2f64.powi(256)), c(self, 1.0));
        let back = self.select(sub, c(self, 2f64.powi(-54)), back);
        let bits = self.cast(Op::LLVMBitCast, s, it);
        let hi = self.binop(Op::LLVMLShr, bits, self.const_int(it, 32));
        let hi = self.cast(Op::LLVMTrunc, hi, i32t);
        let hi = self.binop(Op::LLVMUDiv, hi, self.const_int(i32t, 3));
        // fdlibm's B1, as in cbrt_wide.
        let hi = self.binop(Op::LLVMAdd, hi, self.const_int(i32t, 715_094_163));
        let hi = self.cast(Op::LLVMZExt, hi, it);
        let hi = self.binop(Op::LLVMShl, hi, self.const_int(it, 32));
        let mut r = self.cast(Op::LLVMBitCast, hi, t);
        let two_s = self.add(s, s);
        for _ in 0..2 {
            let r2 = self.mul(r, r);
            let r3 = self.mul(r2, r);
            let num = self.add(r3, two_s);
            let den = self.intr("llvm.fmuladd", &[r3, c(self, 2.0), s])?;
            let q = self.div(num, den);
            r = self.mul(r, q);
        }
        // r³ - s: r² = p2 + e2 and p2·r = p3 + e3 exactly, p3 - s exact
        // (Sterbenz), e2·r in double.
        let r2 = self.two_prod(r, r)?;
        let r3 = self.two_prod(r2.hi, r)?;
        let d = self.sub(r3.hi, s);
        let e = self.intr("llvm.fmuladd", &[r2.lo, r, r3.lo])?;
        let res = self.add(d, e);
        let den = self.mul(r2.hi, c(self, 3.0));
        let corr = self.div(res, den);
        let r = self.sub(r, corr);
        let r = self.mul(r, back);
        // Zeros, infinities and NaN are their own cube roots.
        let zero = self.fcmp(FP::LLVMRealOEQ, a, t.const_zero());
        let special = self.fcmp_exact(FP::LLVMRealUEQ, a, c(self, f64::INFINITY));
        let keep = self.binop(Op::LLVMOr, zero, special);
        let r = self.select(keep, a, r);
        self.intr("llvm.copysign", &[r, x])
    }

    /// What `tgamma` and `lgamma` share: ln |Γ(x)| as a double-double for
    /// finite x other than the poles (see the module documentation), and
    /// ln a (a = |x|, for lgamma beyond 2^60), and whether Γ(x) < 0.
    ///
    /// With a = |x|, y = a + 10 (a double-double) and Q = (a + 1) … (a +
    /// 9) below 10, y = a and Q = 1 above, and S = Stirling's ln Γ(y):
    /// ln Γ(a) = S - ln Q - ln D with D = a (below 10) or 1; for x < 0,
    /// ln |Γ(x)| = ln π - ln |x sin πx| - ln Γ(a) = ln π - S + ln Q - ln D
    /// with D = |sin πx| (below 10, where a cancels) or a |sin πx|. So no
    /// intermediate overflows, and a tiny a enters only through ln D.
    fn lgamma_parts(&mut self, x: V<'ctx>) -> R<LgammaParts<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.k(x, v);
        let a = self.intr("llvm.fabs", &[x])?;
        let neg = self.fcmp(FP::LLVMRealOLT, x, t.const_zero());
        let shift = self.fcmp(FP::LLVMRealOLT, a, c(self, f64::from(SHIFT)));
        let one = self.dd_const(x, (1.0, 0.0));
        let plain = Dd { hi: a, lo: t.const_zero() };
        let ys = self.two_sum(a, c(self, f64::from(SHIFT)));
        let y = self.dd_select(shift, ys, plain);
        let mut q = self.two_sum(a, c(self, 1.0));
        for i in 2..SHIFT {
            let f = self.two_sum(a, c(self, f64::from(i)));
            q = self.dd_mul(q, f)?;
        }
        let q = self.dd_select(shift, q, one);
        // Stirling's series at y (clamped where lgamma takes the short
        // form instead).
        let ly = self.log_of_dd(y)?;
        let yc = self.intr("llvm.minnum", &[y.hi, c(self, HUGE)])?;
        let ym = self.two_sum(yc, c(self, -0.5));
        let yml = self.add(ym.lo, y.lo);
        let ym = self.fast_two_sum(ym.hi, yml);
        let s = self.dd_mul(ym, ly)?;
        let s = self.dd_add(s, self.dd_neg(Dd { hi: yc, lo: y.lo }));
        let iy = self.div(c(self, 1.0), yc);
        let iy2 = self.mul(iy, iy);
        let p = self.poly(iy2, &stirling_coefficients())?;
        let series = self.mul(iy, p);
        let c0 = self.dd_const(x, LN_SQRT_2PI);
        let c0 = Dd { hi: c0.hi, lo: self.add(c0.lo, series) };
        let s = self.dd_add(s, c0);
        // sin(πx): r = x - 2 round(x/2) in [-1, 1] (exact), folded to
        // b = min(|r|, 1 - |r|) in [0, ½]; Γ(x) < 0 where r < 0.
        let h = self.mul(x, c(self, 0.5));
        let k = self.intr("llvm.roundeven", &[h])?;
        let k2 = self.mul(k, c(self, 2.0));
        let r = self.sub(x, k2);
        let ar = self.intr("llvm.fabs", &[r])?;
        let br = self.sub(c(self, 1.0), ar);
        let b = self.intr("llvm.minnum", &[ar, br])?;
        let sin = self.sinpi_dd(b)?;
        let a_sin = self.dd_mul_d(sin, a)?;
        // Below 2^-32, sin(πa) = πa to 2^-62, and πa is better left
        // unrounded: a may be a denormal, whose products lose bits. So
        // D = a there, and ln π drops out.
        let tiny = self.fcmp(FP::LLVMRealOLT, a, c(self, 2f64.powi(-32)));
        let d_neg = self.dd_select(shift, sin, a_sin);
        let d_neg = self.dd_select(tiny, plain, d_neg);
        let d_pos = self.dd_select(shift, plain, one);
        let d = self.dd_select(neg, d_neg, d_pos);
        let ld = self.log_of_dd(d)?;
        let lq = self.log_of_dd(q)?;
        let nld = self.dd_neg(ld);
        let pos = self.dd_add(s, self.dd_neg(lq));
        let pos = self.dd_add(pos, nld);
        let ln_pi = self.dd_const(x, LN_PI);
        let ln_pi = self.dd_select(tiny, Dd { hi: t.const_zero(), lo: t.const_zero() }, ln_pi);
        let negv = self.dd_add(ln_pi, self.dd_neg(s));
        let negv = self.dd_add(negv, lq);
        let negv = self.dd_add(negv, nld);
        let l = self.dd_select(neg, negv, pos);
        let r_neg = self.fcmp(FP::LLVMRealOLT, r, t.const_zero());
        let neg_gamma = self.binop(Op::LLVMAnd, neg, r_neg);
        let fl = self.intr("llvm.floor", &[x])?;
        let int = self.fcmp(FP::LLVMRealOEQ, fl, x);
        let neg_int = self.binop(Op::LLVMAnd, neg, int);
        Ok(LgammaParts { l, ln_a: ly, neg_gamma, neg_int })
    }

    /// `tgamma(x)` for `double`: e^(ln |Γ(x)|) with Γ's sign. 1/x below
    /// 2^-54 in magnitude (Γ(x) = 1/x - γ + O(x), so that is within a
    /// hair of half an ulp, and ±0 give ±inf); NaN for negative integers
    /// and -inf, +inf for +inf.
    pub(super) fn tgamma_dd(&mut self, x: V<'ctx>) -> R<V<'ctx>> {
        let c = |g: &Self, v: f64| g.k(x, v);
        let g = self.lgamma_parts(x)?;
        let r = self.exp_dd(g.l)?;
        let nr = self.fneg(r);
        let r = self.select(g.neg_gamma, nr, r);
        let a = self.intr("llvm.fabs", &[x])?;
        let tiny = self.fcmp(FP::LLVMRealOLT, a, c(self, 2f64.powi(-54)));
        let inv = self.div(c(self, 1.0), x);
        let r = self.select(tiny, inv, r);
        let pinf = self.fcmp_exact(FP::LLVMRealOEQ, x, c(self, f64::INFINITY));
        let r = self.select(pinf, x, r);
        let nan = self.fcmp_exact(FP::LLVMRealUNO, x, x);
        let r = self.select(nan, x, r);
        Ok(self.select(g.neg_int, c(self, f64::NAN), r))
    }

    /// `lgamma(x)` for `double`, and the sign of Γ(x) as
    /// [`Self::lgamma_wide`] gives it: ln |Γ(x)| rounded from its
    /// double-double; a (ln a - 1) beyond 2^60; +inf for ±0, ±inf and the
    /// poles, +0 for 1 and 2, NaN for NaN.
    pub(super) fn lgamma_dd(&mut self, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.k(x, v);
        let g = self.lgamma_parts(x)?;
        let r = self.add(g.l.hi, g.l.lo);
        let a = self.intr("llvm.fabs", &[x])?;
        let lm1 = self.sub(g.ln_a.hi, c(self, 1.0));
        let lm1 = self.add(lm1, g.ln_a.lo);
        let huge = self.mul(a, lm1);
        let is_huge = self.fcmp(FP::LLVMRealOGE, a, c(self, HUGE));
        let mut r = self.select(is_huge, huge, r);
        // Around the zeros at 1 and 2, where the double-double's absolute
        // error would be many ulps of the result: the Taylor series, with
        // ε = x - 1 or x - 2 exact.
        for (at, coeffs) in [(1.0, &LGAMMA_AT_1[..]), (2.0, &LGAMMA_AT_2[..])] {
            let e = self.sub(x, c(self, at));
            let p = self.poly(e, coeffs)?;
            let near = self.intr("llvm.fabs", &[e])?;
            let near = self.fcmp(FP::LLVMRealOLE, near, c(self, 0.2));
            let taylor = self.mul(e, p);
            r = self.select(near, taylor, r);
        }
        let one = self.fcmp(FP::LLVMRealOEQ, x, c(self, 1.0));
        let two = self.fcmp(FP::LLVMRealOEQ, x, c(self, 2.0));
        let zero_at = self.binop(Op::LLVMOr, one, two);
        let r = self.select(zero_at, t.const_zero(), r);
        let zero = self.fcmp(FP::LLVMRealOEQ, x, t.const_zero());
        let inf = self.fcmp_exact(FP::LLVMRealOEQ, a, c(self, f64::INFINITY));
        let pole = self.binop(Op::LLVMOr, zero, inf);
        let pole = self.binop(Op::LLVMOr, pole, g.neg_int);
        let r = self.select(pole, c(self, f64::INFINITY), r);
        let nan = self.fcmp_exact(FP::LLVMRealUNO, x, x);
        let r = self.select(nan, x, r);
        let it = int_like(self, t, 32);
        let not_int = self.binop(Op::LLVMXor, g.neg_int, self.const_int(g.neg_int.get_type(), 1));
        let neg_gamma = self.binop(Op::LLVMAnd, g.neg_gamma, not_int);
        let sign = self.select(neg_gamma, self.const_int(it, -1), self.const_int(it, 1));
        let sign = self.zero_sign_at_poles(x, sign)?;
        Ok((r, sign))
    }
}

/// See [`Gen::lgamma_parts`].
struct LgammaParts<'ctx> {
    /// ln |Γ(x)|.
    l: Dd<'ctx>,
    /// ln y: ln |x| from 10 on.
    ln_a: Dd<'ctx>,
    /// x < 0 and sin(πx) < 0.
    neg_gamma: V<'ctx>,
    /// Negative integers and -inf: the poles.
    neg_int: V<'ctx>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{LN_2, PI};

    /// The split constants: the high parts are what they claim, the sums
    /// are the constants.
    #[test]
    fn constants_are_split_right() {
        assert_eq!(LN2_HI.to_bits() & 0xfff, 0);
        assert_eq!(LN2_HI + LN2_LO, LN_2);
        assert!(LN2_LO.abs() < 2f64.powi(-41));
        assert!(PI_LO.abs() <= f64::EPSILON * PI / 2.0);
        assert!((LN_PI.0 - PI.ln()).abs() <= f64::EPSILON && LN_PI.1.abs() <= f64::EPSILON);
        assert!((LN_SQRT_2PI.0 - (2.0 * PI).ln() / 2.0).abs() <= f64::EPSILON && LN_SQRT_2PI.1.abs() <= f64::EPSILON);
    }

    /// The series' first terms left out are below what the module and
    /// the coefficient functions claim.
    #[test]
    fn series_are_long_enough() {
        let l = log_tail_coefficients();
        assert_eq!((l[0], l.len()), (2.0 / 3.0, 10));
        let smax: f64 = (SQRT_2 - 1.0) / (SQRT_2 + 1.0);
        // Relative to 2s, and in magnitude.
        assert!(smax.powi(22) / 23.0 < 2f64.powi(-60));
        assert!(2.0 * smax.powi(23) / 23.0 < 2f64.powi(-62));
        let e = exp_tail_coefficients();
        assert_eq!((e[0], e[1], e.len()), (0.5, 1.0 / 6.0, 12));
        let rmax = LN_2 / 2.0 + 2f64.powi(-30);
        assert!(rmax.powi(14) * e[11] / 14.0 < 2f64.powi(-57));
        let c = cos_tail_coefficients();
        assert!((c[1] + 1.0 / 720.0).abs() < 1e-18 && (c[2] - 1.0 / 40320.0).abs() < 1e-20);
        assert!((PI / 4.0).powi(20) * c[7].abs() / (19.0 * 20.0) < 2f64.powi(-68));
        let s = stirling_coefficients();
        assert_eq!((s[0], s[1]), (1.0 / 12.0, -1.0 / 360.0));
        // B_20 = -174611/330, at y = 10.
        let next = 174_611.0 / 330.0 / (20.0 * 19.0) / 10f64.powi(19);
        assert!(next < 2f64.powi(-62), "{next}");
    }

    /// The Taylor coefficients of ln Γ around 1 and 2: ζ(2)/2 and ζ(4)/4
    /// in closed form, the two series differ by those of ln(1 + ε).
    #[test]
    fn lgamma_taylor_coefficients() {
        assert!((LGAMMA_AT_1[1] - PI * PI / 12.0).abs() < 1e-16);
        assert!((LGAMMA_AT_1[3] - PI.powi(4) / 360.0).abs() < 1e-16);
        assert!((LGAMMA_AT_2[0] - LGAMMA_AT_1[0] - 1.0).abs() < 1e-16);
        for k in 1..LGAMMA_AT_2.len() {
            // ln Γ(2 + ε) - ln Γ(1 + ε) = ln(1 + ε) = Σ (-1)^(k+1) ε^k / k.
            let log1p = if k % 2 == 0 { 1.0 } else { -1.0 } / (k + 1) as f64;
            assert!((LGAMMA_AT_2[k] - LGAMMA_AT_1[k] - log1p).abs() < 1e-16, "{k}");
        }
        // The first terms left out, at |ε| = 0.2, against the sums' least
        // magnitude (about γ|ε| (1 - 0.3) and (1 - γ)|ε| (1 - 0.2)).
        assert!(1.0 / 25.0 * 0.2f64.powi(25) / (0.577 * 0.2 * 0.7) < 2f64.powi(-58));
        assert!(2f64.powi(-18) / 18.0 * 0.2f64.powi(18) / (0.422 * 0.2 * 0.8) < 2f64.powi(-57));
    }
}
