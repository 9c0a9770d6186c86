//! `fmod`, `remainder` and `remquo`, exact and branch-free, for `float`
//! and `double` (and `half` through `float`) of any shape.
//!
//! LLVM's `frem` becomes a call of the C library's `fmodf`/`fmod` per
//! lane in the back end, and `remainder`/`remquo` have no vector variants
//! in glibc's libmvec, so a work-item loop calling them ran the C library
//! lane by lane. Here they are plain integer and floating-point
//! instructions with selects, which the loop vectoriser widens at any
//! width; every input takes the same operations.
//!
//! The results are exact, as the functions are. With X = |x| and
//! Y = |y| written on their lattices, X = MX·2^ax and Y = M·2^ay (MX, M
//! the integer significands, 2^ax, 2^ay the values of their last bits,
//! denormals included), X mod 2^c·Y = 2^(ay+c) · (MX·2^E mod M) for
//! E = ax - ay - c ≥ 0: the remainder of a quotient of up to 2^2100 is
//! modular arithmetic on integers below M < 2^53, held in `double`:
//!
//! - 2^E mod M by square-and-multiply over E's low bits (3 for `float`,
//!   6 for `double`), starting from 2^(E >> bits) < 2^32; each residue is
//!   kept balanced, in [-M/2, M/2] (for `double` within 2 more), by
//!   v - q·M with q the integer nearest v·(1/M), an integer whose
//!   magnitude is below 2^53, so one fused multiply-add gives it exactly;
//! - for `float` (M < 2^24) the product of two residues, doubled for a
//!   set bit of E, or of MX and one, is below 2^47 and exact; its
//!   quotient by M is estimated far within ½;
//! - for `double` a product of residues (up to 2^104) is split exactly
//!   into h + l (`fma`); h's quotient by M is estimated from 1/M as a
//!   double-double to within ¼, so h - q·M is an integer within ¾M of
//!   zero, and that plus l (at most half an ulp of h: 2^51) stays below
//!   2^53, exact, for one more reduction to balance;
//! - the residue R, moved to [0, M), gives 2^(ay+c)·R exactly.
//!
//! E ≥ 0 wherever X ≥ 2^c·Y (below that X is its own remainder), once
//! tiny X (and Y with it) are scaled by 2^64 out of the denormals, which
//! the result is scaled back from exactly. c is 0 for `fmod`;
//! `remainder` reduces modulo 2Y (c = 1) and `remquo` modulo 128Y (c = 7),
//! then subtracts 64Y, 32Y, ..., 2Y and Y (each difference is exact, its
//! operands within a factor of two), which rounds the quotient to nearest
//! even and counts its low seven bits, the ones OpenCL's `remquo` returns
//! (C asks for three; glibc gives three). A rounding that carries into the
//! eighth bit leaves 0, the low seven bits of the quotient, as PoCL's and
//! Intel's do. Special cases are selected: NaN for
//! a NaN, an infinite x or a zero y; x for an infinite y (and finite x:
//! X < 2^c·Y).
//!
//! `tests/tests/math_accuracy.rs` checks all three against exact results
//! (and quotients from an exact `fmod` by 128Y) in every precision and vector width, over
//! their hard cases too (ratios up to the format's widest, denormals,
//! significands of all ones, ties).

use super::super::expr::float_bits_of;
use super::super::{Gen, R};
use super::int_like;
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::values::BasicValueEnum;

type V<'ctx> = BasicValueEnum<'ctx>;

/// Which of the three functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rem {
    Fmod,
    Remainder,
    Remquo,
}

impl Rem {
    /// c: the reduction is modulo 2^c·Y, wide enough for the quotient bits
    /// the function needs (its parity for `remainder`'s ties, `remquo`'s
    /// seven).
    fn log2_multiple(self) -> i64 {
        match self {
            Rem::Fmod => 0,
            Rem::Remainder => 1,
            Rem::Remquo => 7,
        }
    }
}

/// A format's fields and the reduction's parameters for it.
#[derive(Clone, Copy, Debug)]
struct Format {
    bits: u32,
    mant: u32,
    bias: i64,
    /// X below 2^tiny is scaled by 2^SCALE with Y, which makes a denormal
    /// Y below X normal: where X ≥ 2^c·Y with both normal, E ≥ 0. A
    /// larger X has a biased exponent of at least tiny + bias, so
    /// E ≥ tiny + bias - 1 - c ≥ 0 whatever Y (c at most 7).
    tiny: i32,
    /// E's bits done by square-and-multiply: E < 2^(steps + 5), so that
    /// 2^(E >> steps) < 2^32 reduces exactly in one step.
    steps: u32,
}

const FLOAT: Format = Format { bits: 32, mant: 23, bias: 127, tiny: -100, steps: 3 };
const DOUBLE: Format = Format { bits: 64, mant: 52, bias: 1023, tiny: -960, steps: 6 };
/// Tiny values are scaled by 2^SCALE: more than the significand's bits, so
/// that a denormal Y below such X becomes normal.
const SCALE: i32 = 64;

impl Format {
    fn of(bits: u32) -> Format {
        if bits == 64 { DOUBLE } else { FLOAT }
    }
}

/// Arithmetic modulo M on integers in `double` lanes: M and 1/M rounded.
struct Modulus<'ctx> {
    m: V<'ctx>,
    inv: V<'ctx>,
    /// For `double`: 1/M - inv, for the quotients of products of residues
    /// (up to 2^104).
    inv_lo: Option<V<'ctx>>,
}

impl<'ctx> Gen<'_, 'ctx> {
    /// `fmod`, `remainder` or `remquo` (`kind`) of `float` or `double` `x`
    /// and `y` (scalars or vectors): the result, and `remquo`'s quotient
    /// bits with the quotient's sign (`int` lanes; its low seven bits,
    /// 0 to 127 in magnitude).
    pub(super) fn rem_exact(&mut self, kind: Rem, x: V<'ctx>, y: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let t = x.get_type();
        let f = Format::of(float_bits_of(t));
        let dt = self.with_elem(t, self.ctx.f64_type().into());
        let qt = int_like(self, t, 32);
        let c = kind.log2_multiple();
        let ax = self.intr("llvm.fabs", &[x])?;
        let ay = self.intr("llvm.fabs", &[y])?;
        let tiny = self.fcmp_exact(FP::LLVMRealOLT, ax, self.const_of(t, 2f64.powi(f.tiny), 0));
        let up = self.select(tiny, self.const_of(t, 2f64.powi(SCALE), 0), self.const_of(t, 1.0, 0));
        let xs = self.binop(Op::LLVMFMul, ax, up);
        let ys = self.exact_op(Op::LLVMFMul, ay, up);
        // X < 2^c·Y (an infinite Y, a zero X included): X is the remainder.
        let lim = self.exact_op(Op::LLVMFMul, ys, self.const_of(t, 2f64.powi(c as i32), 0));
        let trivial = self.fcmp_exact(FP::LLVMRealOLT, xs, lim);
        let reduced = self.rem_reduce(f, c, xs, ys)?;
        let xd = self.cast(Op::LLVMFPExt, xs, dt);
        let r = self.select(trivial, xd, reduced);
        let down = self.select(tiny, self.const_of(dt, 2f64.powi(-SCALE), 0), self.const_of(dt, 1.0, 0));
        let mut r = self.binop(Op::LLVMFMul, r, down);
        // r in [0, 2^c·Y): the rest of the division by Y, a bit of the
        // quotient at a time (exact differences; 2^k·Y may overflow for
        // `double`, where r ≥ inf is false as it should be).
        let yd = self.cast(Op::LLVMFPExt, ay, dt);
        let mut q = qt.const_zero();
        if kind == Rem::Remquo {
            for k in [64.0, 32.0, 16.0, 8.0, 4.0, 2.0] {
                let ky = self.exact_op(Op::LLVMFMul, yd, self.const_of(dt, k, 0));
                let ge = self.fcmp_exact(FP::LLVMRealOGE, r, ky);
                let less = self.binop(Op::LLVMFSub, r, ky);
                r = self.select(ge, less, r);
                let more = self.binop(Op::LLVMAdd, q, self.const_int(qt, k as i128));
                q = self.select(ge, more, q);
            }
        }
        if kind != Rem::Fmod {
            // To nearest, ties to even: r in [0, 2Y) where the quotient so
            // far is even; beyond Y/2 one more Y, and at 3Y/2 or more
            // another (2r compared: Y/2 is inexact for a denormal Y).
            let one = self.const_int(qt, 1);
            let r2 = self.exact_op(Op::LLVMFAdd, r, r);
            let past = self.fcmp_exact(FP::LLVMRealOGT, r2, yd);
            let less = self.binop(Op::LLVMFSub, r, yd);
            r = self.select(past, less, r);
            let more = self.binop(Op::LLVMAdd, q, one);
            q = self.select(past, more, q);
            let r2 = self.exact_op(Op::LLVMFAdd, r, r);
            let again = self.fcmp_exact(FP::LLVMRealOGE, r2, yd);
            let again = self.binop(Op::LLVMAnd, past, again);
            let less = self.binop(Op::LLVMFSub, r, yd);
            r = self.select(again, less, r);
            let more = self.binop(Op::LLVMAdd, q, one);
            q = self.select(again, more, q);
        }
        // Exact in the argument type; the sign is x's (a zero's too).
        let r = self.cast(Op::LLVMFPTrunc, r, t);
        let r = match kind {
            Rem::Fmod => self.intr("llvm.copysign", &[r, x])?,
            _ => {
                let sign = self.intr("llvm.copysign", &[self.const_of(t, 1.0, 0), x])?;
                self.binop(Op::LLVMFMul, r, sign)
            }
        };
        let uno = self.fcmp_exact(FP::LLVMRealUNO, x, y);
        let xinf = self.is_inf(x)?;
        let y0 = self.fcmp_exact(FP::LLVMRealOEQ, y, t.const_zero());
        let bad = self.binop(Op::LLVMOr, uno, xinf);
        let bad = self.binop(Op::LLVMOr, bad, y0);
        let r = self.select(bad, self.const_of(t, f64::NAN, 0), r);
        // The low seven bits (a carry into the eighth leaves 0), with the
        // quotient's sign: x's times y's.
        let q = self.binop(Op::LLVMAnd, q, self.const_int(qt, 127));
        let it = int_like(self, t, f.bits);
        let xneg = self.sign_bit(x, it);
        let yneg = self.sign_bit(y, it);
        let neg = self.binop(Op::LLVMXor, xneg, yneg);
        let nq = self.binop(Op::LLVMSub, qt.const_zero(), q);
        Ok((r, self.select(neg, nq, q)))
    }

    /// X mod 2^c·Y in `double` lanes, as 2^(ay+c) · (MX·2^E mod M), for
    /// finite `x` ≥ 2^c·`y` > 0 (made so, see [`Format::tiny`]; other
    /// lanes get anything).
    fn rem_reduce(&mut self, f: Format, c: i64, x: V<'ctx>, y: V<'ctx>) -> R<V<'ctx>> {
        let t = x.get_type();
        let dt = self.with_elem(t, self.ctx.f64_type().into());
        let it = int_like(self, t, f.bits);
        let (mx, ex) = self.lattice(f, x)?;
        let (m, ey) = self.lattice(f, y)?;
        let e = self.binop(Op::LLVMSub, ex, ey);
        let e = self.binop(Op::LLVMSub, e, self.const_int(it, i128::from(c)));
        let one = self.const_of(dt, 1.0, 0);
        let inv = self.binop(Op::LLVMFDiv, one, m);
        let inv_lo = if f.bits == 64 {
            // 1 - M·inv is exact (inv = 1/M rounded), and (1 - M·inv)/M is
            // the rest of 1/M.
            let res = self.exact_fms(m, inv, one)?;
            Some(self.binop(Op::LLVMFMul, res, inv))
        } else {
            None
        };
        let md = Modulus { m, inv, inv_lo };
        // 2^E mod M: 2^(E >> steps), then E's low bits from the top.
        let hi = self.binop(Op::LLVMAShr, e, self.const_int(it, i128::from(f.steps)));
        let p = self.pow2(hi, dt);
        let mut s = self.reduce(&md, p)?;
        for bit in (0..f.steps).rev() {
            let b = self.binop(Op::LLVMLShr, e, self.const_int(it, i128::from(bit)));
            let b = self.binop(Op::LLVMAnd, b, self.const_int(it, 1));
            let set = self.icmp(IP::LLVMIntNE, b, it.const_zero());
            if f.bits == 64 {
                s = self.mul_mod(&md, s, s)?;
                let s2 = self.binop(Op::LLVMFAdd, s, s);
                let doubled = self.reduce(&md, s2)?;
                s = self.select(set, doubled, s);
            } else {
                // s²·2 < 2^47 is exact: the doubling is in the product.
                let k = self.select(set, self.const_of(dt, 2.0, 0), one);
                let sk = self.binop(Op::LLVMFMul, s, k);
                s = self.mul_mod(&md, sk, s)?;
            }
        }
        // MX · 2^E mod M, in [0, M). For `float` MX < 2^24 times a
        // residue is exact as it is; for `double` MX is reduced first.
        let r = if f.bits == 64 {
            // MX/M up to 2^53: two steps for a balanced residue.
            let a = self.reduce(&md, mx)?;
            let a = self.reduce(&md, a)?;
            self.mul_mod(&md, a, s)?
        } else {
            self.mul_mod(&md, mx, s)?
        };
        let neg = self.fcmp(FP::LLVMRealOLT, r, dt.const_zero());
        let up = self.binop(Op::LLVMFAdd, r, m);
        let r = self.select(neg, up, r);
        // Times 2^(ay + c): for `double` in two factors, as ay + c goes
        // below the normal exponents (the product is exact either way).
        let unit = self.binop(Op::LLVMSub, ey, self.const_int(it, i128::from(f.bias + i64::from(f.mant) - c)));
        if f.bits != 64 {
            let scale = self.pow2(unit, dt);
            return Ok(self.binop(Op::LLVMFMul, r, scale));
        }
        let floor = self.const_int(it, -1000);
        let low = self.icmp(IP::LLVMIntSLT, unit, floor);
        let first = self.select(low, floor, unit);
        let second = self.binop(Op::LLVMSub, unit, first);
        let r = self.binop(Op::LLVMFMul, r, self.pow2(first, dt));
        Ok(self.binop(Op::LLVMFMul, r, self.pow2(second, dt)))
    }

    /// For finite, non-negative `x`: its integer significand (in `double`
    /// lanes) and its biased exponent, 1 for denormals (in integer lanes
    /// of `x`'s width), so that x = significand · 2^(exponent - bias -
    /// mant).
    fn lattice(&mut self, f: Format, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let t = x.get_type();
        let dt = self.with_elem(t, self.ctx.f64_type().into());
        let it = int_like(self, t, f.bits);
        let bits = self.cast(Op::LLVMBitCast, x, it);
        let field = self.binop(Op::LLVMLShr, bits, self.const_int(it, i128::from(f.mant)));
        let frac = self.binop(Op::LLVMAnd, bits, self.const_int(it, (1i128 << f.mant) - 1));
        let normal = self.icmp(IP::LLVMIntNE, field, it.const_zero());
        let one = self.const_int(it, 1);
        let exp = self.select(normal, field, one);
        let sig = if f.bits == 64 {
            // 2^52 + frac exactly, as the double whose exponent is 52;
            // less 2^52 for denormals (no 64-bit integer conversion,
            // which AVX2 does lane by lane).
            let d = self.binop(Op::LLVMOr, frac, self.const_int(it, 0x4330_0000_0000_0000));
            let d = self.cast(Op::LLVMBitCast, d, dt);
            let less = self.binop(Op::LLVMFSub, d, self.const_of(dt, 2f64.powi(52), 0));
            self.select(normal, d, less)
        } else {
            let with = self.binop(Op::LLVMOr, frac, self.const_int(it, 1 << 23));
            let m = self.select(normal, with, frac);
            self.cast(Op::LLVMSIToFP, m, dt)
        };
        Ok((sig, exp))
    }

    /// 2^e in `double` lanes `dt` for integer lanes `e` in [-1022, 1023].
    fn pow2(&self, e: V<'ctx>, dt: inkwell::types::BasicTypeEnum<'ctx>) -> V<'ctx> {
        let lt = int_like(self, dt, 64);
        let e = self.cast(Op::LLVMSExt, e, lt);
        let b = self.binop(Op::LLVMAdd, e, self.const_int(lt, 1023));
        let b = self.binop(Op::LLVMShl, b, self.const_int(lt, 52));
        self.cast(Op::LLVMBitCast, b, dt)
    }

    /// v - q·M for an integer |v| ≤ 2^53, q the integer nearest v·(1/M)
    /// (within ½ + |v/M|·2^-52 of v/M): an integer within M/2 + |v|·2^-51
    /// of zero, so exact in one fused multiply-add (for `float`'s smaller
    /// numbers every product is exact anyway).
    fn reduce(&mut self, md: &Modulus<'ctx>, v: V<'ctx>) -> R<V<'ctx>> {
        let q = self.binop(Op::LLVMFMul, v, md.inv);
        let q = self.intr("llvm.roundeven", &[q])?;
        if md.inv_lo.is_some() {
            return self.exact_fms(q, md.m, v);
        }
        // For `float` every product here is exact: fused or not, the same.
        let nq = self.fneg(q);
        self.intr("llvm.fmuladd", &[nq, md.m, v])
    }

    /// a·b mod M, balanced, for balanced residues a and b (for `float` one
    /// of them may be twice that, or MX: the product is below 2^47).
    fn mul_mod(&mut self, md: &Modulus<'ctx>, a: V<'ctx>, b: V<'ctx>) -> R<V<'ctx>> {
        let h = self.binop(Op::LLVMFMul, a, b);
        let Some(inv_lo) = md.inv_lo else { return self.reduce(md, h) };
        // a·b = h + l exactly; h/M (below 2^51 + 3) from 1/M = inv + inv_lo
        // within ¼, so h - q·M is an integer within ¾M + ½ of zero.
        let l = self.two_prod(a, b)?.lo;
        let lo = self.binop(Op::LLVMFMul, h, inv_lo);
        let q = if self.has_fma() {
            self.intr("llvm.fma", &[h, md.inv, lo])?
        } else {
            // h·inv = qh + ql exactly: the sum is as accurate as the
            // fused one.
            let p = self.two_prod(h, md.inv)?;
            let low = self.exact_op(Op::LLVMFAdd, p.lo, lo);
            self.exact_op(Op::LLVMFAdd, p.hi, low)
        };
        let q = self.intr("llvm.roundeven", &[q])?;
        let t = self.exact_fms(q, md.m, h)?;
        // |l| ≤ 2^51 (half an ulp of h < 2^105): the sum is below 2^53.
        let u = self.binop(Op::LLVMFAdd, t, l);
        self.reduce(md, u)
    }

    /// Whether the sign bit of `x` is set (-0 and negative NaNs too), as
    /// `bool` lanes; `it` is the integer type of `x`'s width.
    fn sign_bit(&self, x: V<'ctx>, it: inkwell::types::BasicTypeEnum<'ctx>) -> V<'ctx> {
        let bits = self.cast(Op::LLVMBitCast, x, it);
        self.icmp(IP::LLVMIntSLT, bits, it.const_zero())
    }
}
