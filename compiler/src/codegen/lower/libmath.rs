//! The math functions of OpenCL C (§6.13.2) on native (x86-64) targets:
//! `float`, `double` and `half`, scalars and vectors, within the ULP bounds
//! of the OpenCL C 2.0 specification (§7.4).
//!
//! Each function is one of four kinds, chosen in [`Gen::math_builtin`]:
//!
//! - an LLVM intrinsic or instruction applied to the whole vector (`sqrt`,
//!   `sin`, `pow`, `ldexp`, …). LLVM's back end turns a
//!   transcendental one into calls of the C library (glibc's `sinf`, `exp`,
//!   …, all within 1–2 ulp), and the loop vectoriser can widen a work-item
//!   loop around it (codegen::vecmath gives it libmvec's vector variants);
//! - a few instructions around intrinsics (`fract`, `modf`, `maxmag`,
//!   `nextafter`, `powr`'s special cases, `hypot`, the `…pi` functions),
//!   computed in a wider type where that makes them accurate: `float` in
//!   `double`, `double` in x87 `long double` (x86-64's `x86_fp80`, whose
//!   C functions `sinl`, `powl`, … glibc provides), `half` in `float` or
//!   `double`;
//! - for `float` and `half` results of `pown`, `rootn`, `cbrt`, `tgamma`,
//!   `lgamma` and `lgamma_r`, branch-free approximations in `double`
//!   built from plain instructions ([`wide`]), and for `double` results
//!   of `rootn`, `cbrt`, `tgamma`, `lgamma` and `lgamma_r` the same in
//!   double-double arithmetic ([`dd`]); in every precision the exact
//!   `fmod`, `remainder` and `remquo` as modular arithmetic on the
//!   significands ([`rem`]): all of these vectorise at any width where the
//!   C library's functions (and LLVM's `frem`, which becomes `fmodf` calls)
//!   would not;
//! - a C library function called lane by lane (`erf`, `expm1`, …):
//!   [`libm_symbol`] names it, the one
//!   place where vector variants (glibc's libmvec) can be attached. Such a
//!   call is opaque to the loop vectoriser unless it has one.
//!
//! `-cl-denorms-are-zero` flushes `float` denormal arguments and results to
//! (signed) zero here, since the C library does not; `-cl-fast-relaxed-math`
//! reaches the intrinsics as fast-math flags.
//!
//! This module knows nothing about SPIR-V: there, math builtins stay
//! OpenCL.std instructions.

mod dd;
mod rem;
mod wide;

use super::expr::float_bits_of;
use super::{Gen, R};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::{OpenClStd, Purity};
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum};

/// The precision a C library function works in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prec {
    /// `float` (and `half`, computed in `float`).
    Single,
    Double,
}

/// The C type a library function works in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    Float,
    Double,
}

/// The scalar C-library function that computes `op` on one element of
/// precision `prec`, for the functions lowered to such calls (see the
/// module documentation), and the C type it works in. Its signature is
/// the C one: `T f(T)` or `T f(T, T)`.
pub fn libm_symbol(op: OpenClStd, prec: Prec) -> Option<(&'static str, CType)> {
    use OpenClStd as E;
    // `cbrt`, `rootn`, `tgamma`, `lgamma` and `lgamma_r` are computed
    // inline in every precision (the `wide` and `dd` modules).
    let (s, d) = match op {
        E::Erf => ("erff", "erf"),
        E::Erfc => ("erfcf", "erfc"),
        E::Expm1 => ("expm1f", "expm1"),
        E::Log1p => ("log1pf", "log1p"),
        E::Hypot => ("hypotf", "hypot"),
        E::Asinh => ("asinhf", "asinh"),
        E::Acosh => ("acoshf", "acosh"),
        E::Atanh => ("atanhf", "atanh"),
        _ => return None,
    };
    match prec {
        Prec::Single => Some((s, CType::Float)),
        Prec::Double => Some((d, CType::Double)),
    }
}

/// Every C-library symbol [`libm_symbol`] may name: what generated code may
/// call besides LLVM's own library calls.
pub fn libm_symbols() -> impl Iterator<Item = &'static str> {
    OpenClStd::ALL.iter().flat_map(|&op| [Prec::Single, Prec::Double].into_iter().filter_map(move |p| libm_symbol(op, p).map(|(name, _)| name)))
}

/// π and 1/π to x87 `long double` precision.
const PI: &str = "3.14159265358979323846264338327950288";
const INV_PI: &str = "0.318309886183790671537767526745028841";

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// Lowers a math builtin on a native target: `Ok(None)` when `op` is
    /// not one of §6.13.2's (the caller lowers it), else the call's value.
    pub(super) fn math_builtin(&mut self, op: OpenClStd, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        if !is_math(op) {
            return Ok(None);
        }
        let lanes = self.lanes_of(ty).map(u32::from);
        // Arguments: numbers splatted to the result's width (`fmin(float4,
        // float)`, `ldexp(float4, int)`), pointers as they are.
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            let v = self.value(a)?;
            let v = match (lanes, v) {
                (Some(n), BasicValueEnum::FloatValue(_) | BasicValueEnum::IntValue(_)) => self.splat(v, n),
                _ => v,
            };
            vals.push(self.flush_denormal(v)?);
        }
        let r = self.math_value(op, &vals)?;
        Ok(Some(self.flush_denormal(r)?))
    }

    fn math_value(&mut self, op: OpenClStd, v: &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        use OpenClStd as E;
        let x = v[0];
        let t = x.get_type();
        let bits = float_bits_of(t);
        let direct = |op: OpenClStd| -> Option<&'static str> {
            Some(match op {
                E::Sqrt | E::NativeSqrt | E::HalfSqrt => "llvm.sqrt",
                E::Exp | E::NativeExp | E::HalfExp => "llvm.exp",
                E::Exp2 | E::NativeExp2 | E::HalfExp2 => "llvm.exp2",
                E::Exp10 | E::NativeExp10 | E::HalfExp10 => "llvm.exp10",
                E::Log | E::NativeLog | E::HalfLog => "llvm.log",
                E::Log2 | E::NativeLog2 | E::HalfLog2 => "llvm.log2",
                E::Log10 | E::NativeLog10 | E::HalfLog10 => "llvm.log10",
                E::Sin | E::NativeSin | E::HalfSin => "llvm.sin",
                E::Cos | E::NativeCos | E::HalfCos => "llvm.cos",
                E::Tan | E::NativeTan | E::HalfTan => "llvm.tan",
                E::Asin => "llvm.asin",
                E::Acos => "llvm.acos",
                E::Atan => "llvm.atan",
                E::Atan2 => "llvm.atan2",
                E::Sinh => "llvm.sinh",
                E::Cosh => "llvm.cosh",
                E::Tanh => "llvm.tanh",
                E::Pow => "llvm.pow",
                E::Fabs => "llvm.fabs",
                E::Floor => "llvm.floor",
                E::Ceil => "llvm.ceil",
                E::Trunc => "llvm.trunc",
                E::Rint => "llvm.roundeven",
                E::Round => "llvm.round",
                E::Fmin => "llvm.minnum",
                E::Fmax => "llvm.maxnum",
                E::Copysign => "llvm.copysign",
                _ => return None,
            })
        };
        // log, log2 and log10 of float and half: LLVM's vector log has no
        // libmvec variant within OpenCL's 3 ulp (glibc's vector logf is
        // 3.8 ulp off), so a vectorised loop would call logf lane by lane;
        // the branch-free `float` version vectorises at full width.
        if matches!(op, E::Log | E::Log2 | E::Log10) && bits != 64 {
            return self.in_float(v, |g, w| g.log_float(w[0], op));
        }
        if let Some(name) = direct(op) {
            let r = self.intr(name, v)?;
            if approximate(op) {
                // native_/half_: their loose bounds let the vectoriser
                // use vector variants outside the full functions' bounds
                // (codegen::vecmath reads `afn`).
                mark_approximate(r);
            }
            return Ok(r);
        }
        let half = bits == 16;
        Ok(match op {
            E::Fma if half => {
                // In double: the product is exact and one rounding to
                // double then to half is the correctly rounded result.
                let d = self.widened(v, 64);
                let p = self.binop(Op::LLVMFMul, d[0], d[1]);
                let s = self.binop(Op::LLVMFAdd, p, d[2]);
                self.narrow(s, t)
            }
            E::Fma => self.intr("llvm.fma", v)?,
            E::Mad => self.intr("llvm.fmuladd", v)?,
            // `half` in `double`, rounded once: the square root rounded
            // to `half` and then the quotient would be off by up to 1.3 ulp
            // (cl_khr_fp16 allows 1).
            E::Rsqrt if half => self.in_double(v, |g, w| {
                let r = g.intr("llvm.sqrt", &w[..1])?;
                let one = g.const_of(r.get_type(), 1.0, 1);
                Ok(g.binop(Op::LLVMFDiv, one, r))
            })?,
            E::Rsqrt | E::NativeRsqrt | E::HalfRsqrt => {
                let r = self.intr("llvm.sqrt", &v[..1])?;
                let one = self.const_of(t, 1.0, 1);
                self.binop(Op::LLVMFDiv, one, r)
            }
            E::NativeRecip | E::HalfRecip => {
                let one = self.const_of(t, 1.0, 1);
                self.binop(Op::LLVMFDiv, one, x)
            }
            E::NativeDivide | E::HalfDivide => self.binop(Op::LLVMFDiv, x, v[1]),
            // Exact remainders, inline ([`rem`]): LLVM's frem would call
            // fmodf lane by lane.
            E::Fmod | E::Remainder => {
                let kind = if op == E::Fmod { rem::Rem::Fmod } else { rem::Rem::Remainder };
                self.in_float(v, |g, w| Ok(g.rem_exact(kind, w[0], w[1])?.0))?
            }
            E::Remquo => {
                let w = if half { self.widened(&v[..2], 32) } else { v[..2].to_vec() };
                let (r, quo) = self.rem_exact(rem::Rem::Remquo, w[0], w[1])?;
                self.store_through(v[2], quo)?;
                self.narrow(r, t)
            }
            E::Powr | E::NativePowr | E::HalfPowr => self.powr(x, v[1])?,
            E::Pown if bits != 64 => self.in_double(v, |g, w| g.pown_wide(w[0], w[1]))?,
            E::Pown => self.pown(x, v[1])?,
            E::Rootn if bits != 64 => self.in_double(v, |g, w| g.rootn_wide(w[0], w[1]))?,
            E::Rootn => self.rootn_dd(x, v[1])?,
            E::Cbrt if bits != 64 => self.in_double(v, |g, w| g.cbrt_wide(w[0]))?,
            E::Cbrt => self.cbrt_dd(x)?,
            E::Tgamma if bits != 64 => self.in_double(v, |g, w| g.tgamma_wide(w[0]))?,
            E::Tgamma => self.tgamma_dd(x)?,
            E::Lgamma if bits != 64 => self.in_double(v, |g, w| Ok(g.lgamma_wide(w[0])?.0))?,
            E::Lgamma => self.lgamma_dd(x)?.0,
            E::LgammaR => {
                let (r, sign) = if bits != 64 {
                    let w = self.widened(&v[..1], 64);
                    let (r, sign) = self.lgamma_wide(w[0])?;
                    (self.narrow(r, t), sign)
                } else {
                    self.lgamma_dd(x)?
                };
                self.store_through(v[1], sign)?;
                r
            }
            E::Ldexp => self.in_float(v, |g, w| {
                let e = g.cast(Op::LLVMSExt, w[1], int_like(g, w[1].get_type(), 32));
                g.intr2("llvm.ldexp", &[w[0].get_type(), e.get_type()], &[w[0], e])
            })?,
            E::Frexp => {
                let (m, e) = self.frexp(x)?;
                self.store_through(v[1], e)?;
                m
            }
            E::Ilogb => self.ilogb(x)?,
            E::Logb => self.logb(x)?,
            E::Nan => self.nan_of(x, bits_of_int(x.get_type()))?,
            E::Nextafter => self.nextafter(x, v[1])?,
            E::Fdim => {
                // x - y when x > y, +0 otherwise, NaN for a NaN.
                let d = self.binop(Op::LLVMFSub, x, v[1]);
                let gt = self.fcmp(FP::LLVMRealOGT, x, v[1]);
                let zero = t.const_zero();
                let r = self.select(gt, d, zero);
                let uno = self.fcmp(FP::LLVMRealUNO, x, v[1]);
                let nan = self.const_of(t, f64::NAN, 0);
                self.select(uno, nan, r)
            }
            E::Maxmag | E::Minmag => {
                let (ax, ay) = (self.intr("llvm.fabs", &[x])?, self.intr("llvm.fabs", &[v[1]])?);
                let (first, second, tie) =
                    if op == E::Maxmag { (FP::LLVMRealOGT, FP::LLVMRealOLT, "llvm.maxnum") } else { (FP::LLVMRealOLT, FP::LLVMRealOGT, "llvm.minnum") };
                let tie = self.intr(tie, &v[..2])?;
                let c2 = self.fcmp(second, ax, ay);
                let r = self.select(c2, v[1], tie);
                let c1 = self.fcmp(first, ax, ay);
                self.select(c1, x, r)
            }
            E::Fract => {
                let fl = self.intr("llvm.floor", &[x])?;
                let d = self.binop(Op::LLVMFSub, x, fl);
                // The largest value below 1: fract(x) never rounds up to 1.
                let below_one = self.const_of(t, below_one(bits), 0);
                let r = self.intr("llvm.minnum", &[d, below_one])?;
                let zero = self.signed_zero_of(x)?;
                let inf = self.is_inf(x)?;
                let r = self.select(inf, zero, r);
                // ±0 and NaN are their own fractions.
                let keep = self.fcmp(FP::LLVMRealUEQ, x, t.const_zero());
                let r = self.select(keep, x, r);
                self.store_through(v[1], fl)?;
                r
            }
            E::Modf => {
                let i = self.intr("llvm.trunc", &[x])?;
                let d = self.binop(Op::LLVMFSub, x, i);
                let inf = self.is_inf(x)?;
                let zero = t.const_zero();
                let d = self.select(inf, zero, d);
                let r = self.intr("llvm.copysign", &[d, x])?;
                self.store_through(v[1], i)?;
                r
            }
            E::Sincos => {
                let s = self.intr("llvm.sin", &[x])?;
                let c = self.intr("llvm.cos", &[x])?;
                self.store_through(v[1], c)?;
                s
            }
            E::Hypot if bits != 64 => self.in_double(v, |g, w| {
                // Squares and their sum are exact enough in double; an
                // infinite argument wins over a NaN.
                let xx = g.binop(Op::LLVMFMul, w[0], w[0]);
                let yy = g.binop(Op::LLVMFMul, w[1], w[1]);
                let s = g.binop(Op::LLVMFAdd, xx, yy);
                let r = g.intr("llvm.sqrt", &[s])?;
                let (ix, iy) = (g.is_inf(w[0])?, g.is_inf(w[1])?);
                let inf = g.binop(Op::LLVMOr, ix, iy);
                let pinf = g.const_of(w[0].get_type(), f64::INFINITY, 0);
                Ok(g.select(inf, pinf, r))
            })?,
            E::Sinpi | E::Cospi | E::Tanpi => self.in_wider(v, |g, w| g.trig_pi(op, w[0]))?,
            E::Asinpi | E::Acospi | E::Atanpi | E::Atan2pi => self.in_wider(v, |g, w| {
                let name = match op {
                    E::Asinpi => "llvm.asin",
                    E::Acospi => "llvm.acos",
                    E::Atanpi => "llvm.atan",
                    _ => "llvm.atan2",
                };
                let a = g.intr(name, w)?;
                let k = g.const_str(a.get_type(), INV_PI);
                Ok(g.binop(Op::LLVMFMul, a, k))
            })?,
            E::Erf => {
                // erf is odd: erf(|x|) with x's sign, |x| taken through a
                // product with a constant (|a·c| = |a|·|c| exactly). Calls
                // whose arguments differ only in sign then compute the same
                // erf(|x|), which LLVM computes once once they are inlined
                // (Black-Scholes' cnd(d) and cnd(-d): four calls, two
                // values). Exact: erf(-x) = -erf(x), erf(±0) = ±0.
                let a = self.abs_through_product(x)?;
                let r = self.libm_lanes(op, &[a])?;
                self.intr("llvm.copysign", &[r, x])?
            }
            _ if libm_symbol(op, Prec::Double).is_some() => self.libm_lanes(op, v)?,
            _ => return super::ice(format!("math builtin {} has no lowering", op.name())),
        })
    }

    /// |x|, as |a|·|c| when x is the product `a · c` of a value and a
    /// constant (the same bits: the sign of a product is apart from its
    /// rounding), so that |a·c| and |(-a)·c| are one expression after
    /// LLVM folds |-a| to |a|.
    fn abs_through_product(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        use inkwell::values::{BasicValue, InstructionOpcode};
        if let Some(i) = x.as_instruction_value().filter(|i| i.get_opcode() == InstructionOpcode::FMul) {
            let ops: Vec<BasicValueEnum<'ctx>> = (0..2)
                .filter_map(|k| match i.get_operand(k) {
                    Some(inkwell::values::Operand::Value(v)) => Some(v),
                    _ => None,
                })
                .collect();
            if let [a, b] = ops[..] {
                let constant = |v: BasicValueEnum<'ctx>| match v {
                    BasicValueEnum::FloatValue(f) => f.is_const(),
                    BasicValueEnum::VectorValue(vv) => vv.is_const(),
                    _ => false,
                };
                let (val, k) = if constant(b) { (a, b) } else if constant(a) { (b, a) } else { return self.intr("llvm.fabs", &[x]) };
                let (av, ak) = (self.intr("llvm.fabs", &[val])?, self.intr("llvm.fabs", &[k])?);
                let p = self.binop(Op::LLVMFMul, av, ak);
                // The product keeps the original's fast-math flags.
                if let (Some(pi), Ok(flags)) = (p.as_instruction_value(), i.get_fast_math_flags()) {
                    let _ = pi.set_fast_math_flags(flags);
                }
                return Ok(p);
            }
        }
        self.intr("llvm.fabs", &[x])
    }

    /// `powr(x, y)`: `pow` for `x >= 0`, with its own special cases (NaN
    /// for negative `x`, `0^0`, `inf^0` and `1^inf`). `-0` is zero: `pow`
    /// of `|x|` (C's `pow(-0, -3)` is `-inf`, powr's `+inf`).
    fn powr(&mut self, x: BasicValueEnum<'ctx>, y: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let ax = self.intr("llvm.fabs", &[x])?;
        let p = self.intr("llvm.pow", &[ax, y])?;
        let zero = t.const_zero();
        let one = self.const_of(t, 1.0, 1);
        let neg = self.fcmp(FP::LLVMRealOLT, x, zero);
        let x0 = self.fcmp(FP::LLVMRealOEQ, x, zero);
        let y0 = self.fcmp(FP::LLVMRealOEQ, y, zero);
        let xinf = self.is_inf(x)?;
        let yinf = self.is_inf(y)?;
        let x1 = self.fcmp(FP::LLVMRealOEQ, x, one);
        let x0_or_inf = self.binop(Op::LLVMOr, x0, xinf);
        let zero_pow = self.binop(Op::LLVMAnd, x0_or_inf, y0);
        let one_inf = self.binop(Op::LLVMAnd, x1, yinf);
        let uno = self.fcmp(FP::LLVMRealUNO, x, y);
        let mut bad = self.binop(Op::LLVMOr, neg, zero_pow);
        bad = self.binop(Op::LLVMOr, bad, one_inf);
        bad = self.binop(Op::LLVMOr, bad, uno);
        let nan = self.const_of(t, f64::NAN, 0);
        Ok(self.select(bad, nan, p))
    }

    /// `pown(x, n)` for `double`: `pow` with the exponent converted
    /// exactly (C99's `pow` has pown's special cases for integer
    /// exponents), which libmvec vectorises within 16 ulp.
    fn pown(&mut self, x: BasicValueEnum<'ctx>, n: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let nf = self.cast(Op::LLVMSIToFP, n, x.get_type());
        self.intr("llvm.pow", &[x, nf])
    }

    /// `sinpi`, `cospi`, `tanpi` of `x` (in a type wider than the
    /// result's): the argument is reduced exactly (periodicity and
    /// symmetry) to where `π·r` is accurate, then the C library's function.
    fn trig_pi(&mut self, op: OpenClStd, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let c = |g: &Self, v: f64| g.const_of(t, v, 0);
        let pi = self.const_str(t, PI);
        let a = self.intr("llvm.fabs", &[x])?;
        let nan_or_inf = self.fcmp(FP::LLVMRealUGE, a, c(self, f64::INFINITY));
        // Whether the integer nearest |x| is odd (for the signs of zeros).
        let half = self.binop(Op::LLVMFMul, a, c(self, 0.5));
        let ri = self.intr("llvm.roundeven", &[a])?;
        let hri = self.binop(Op::LLVMFMul, ri, c(self, 0.5));
        let hri_floor = self.intr("llvm.floor", &[hri])?;
        let odd = self.fcmp(FP::LLVMRealONE, hri, hri_floor);
        let r = match op {
            OpenClStd::Sinpi | OpenClStd::Cospi => {
                // r = |x| - 2·round(|x|/2), exactly, in [-1, 1]; then in
                // [0, 1] (cospi is even; sinpi's sign is kept apart).
                let k = self.intr("llvm.round", &[half])?;
                let k2 = self.binop(Op::LLVMFMul, k, c(self, 2.0));
                let r = self.binop(Op::LLVMFSub, a, k2);
                let rneg = self.fcmp(FP::LLVMRealOLT, r, t.const_zero());
                let ar = self.intr("llvm.fabs", &[r])?;
                if op == OpenClStd::Sinpi {
                    // sin(π·t) for t in [0, 1], t folded into [0, 1/2]
                    // (1 - t is exact there).
                    let big = self.fcmp(FP::LLVMRealOGT, ar, c(self, 0.5));
                    let folded = self.binop(Op::LLVMFSub, c(self, 1.0), ar);
                    let tt = self.select(big, folded, ar);
                    let arg = self.binop(Op::LLVMFMul, tt, pi);
                    let s = self.intr("llvm.sin", &[arg])?;
                    // sinpi is odd in r and in x: the sign of the result
                    // is that of r times that of x; zeros are +0 · sign(x).
                    let ns = self.fneg(s);
                    let s = self.select(rneg, ns, s);
                    // Integers give +0 before x's sign: sinpi(n) is +0
                    // for n > 0.
                    let s = self.binop(Op::LLVMFAdd, s, t.const_zero());
                    let sx = self.intr("llvm.copysign", &[c(self, 1.0), x])?;
                    self.binop(Op::LLVMFMul, s, sx)
                } else {
                    // cos(π·t), t in [0, 1]: cos below 1/4, sin(π(1/2 - t))
                    // up to 3/4 (exact difference), -cos(π(1 - t)) above.
                    let lo = self.fcmp(FP::LLVMRealOLE, ar, c(self, 0.25));
                    let hi = self.fcmp(FP::LLVMRealOGT, ar, c(self, 0.75));
                    let d_mid = self.binop(Op::LLVMFSub, c(self, 0.5), ar);
                    let d_hi = self.binop(Op::LLVMFSub, c(self, 1.0), ar);
                    let cos_arg = self.select(hi, d_hi, ar);
                    let cos_arg = self.binop(Op::LLVMFMul, cos_arg, pi);
                    let cv = self.intr("llvm.cos", &[cos_arg])?;
                    let ncv = self.fneg(cv);
                    let cv = self.select(hi, ncv, cv);
                    let sin_arg = self.binop(Op::LLVMFMul, d_mid, pi);
                    let sv = self.intr("llvm.sin", &[sin_arg])?;
                    // cospi(n + 1/2) is +0.
                    let sv = self.binop(Op::LLVMFAdd, sv, t.const_zero());
                    let mid = self.binop(Op::LLVMOr, lo, hi);
                    self.select(mid, cv, sv)
                }
            }
            _ => {
                // tanpi has period 1: r = |x| - rint(|x|) in [-1/2, 1/2];
                // tan(π|r|) directly below 1/4, as 1/tan(π(1/2 - |r|))
                // above (exact difference).
                let r = self.binop(Op::LLVMFSub, a, ri);
                let ar = self.intr("llvm.fabs", &[r])?;
                let lo = self.fcmp(FP::LLVMRealOLE, ar, c(self, 0.25));
                let d = self.binop(Op::LLVMFSub, c(self, 0.5), ar);
                let arg = self.select(lo, ar, d);
                let arg = self.binop(Op::LLVMFMul, arg, pi);
                let tv = self.intr("llvm.tan", &[arg])?;
                let inv = self.binop(Op::LLVMFDiv, c(self, 1.0), tv);
                let tv = self.select(lo, tv, inv);
                // The sign: r's, or at integers the parity's (tanpi(n) is
                // -0 for odd n > 0); then x's.
                let rneg = self.fcmp(FP::LLVMRealOLT, r, t.const_zero());
                let rzero = self.fcmp(FP::LLVMRealOEQ, r, t.const_zero());
                let zero_neg = self.binop(Op::LLVMAnd, rzero, odd);
                let neg = self.binop(Op::LLVMOr, rneg, zero_neg);
                let ntv = self.fneg(tv);
                let tv = self.select(neg, ntv, tv);
                let sx = self.intr("llvm.copysign", &[c(self, 1.0), x])?;
                self.binop(Op::LLVMFMul, tv, sx)
            }
        };
        let nan = c(self, f64::NAN);
        Ok(self.select(nan_or_inf, nan, r))
    }

    /// `frexp`: the mantissa in [1/2, 1) and the exponent (0 for zeros,
    /// infinities and NaNs, whose mantissa is themselves). Computed on the
    /// bits (`half` in `float`): LLVM 22's `llvm.frexp` crashes its x86
    /// DAG combiner on wide `double` vectors, and the bit form vectorises.
    fn frexp(&mut self, x: BasicValueEnum<'ctx>) -> R<(BasicValueEnum<'ctx>, BasicValueEnum<'ctx>)> {
        let t = x.get_type();
        let w = if float_bits_of(t) == 16 { self.cast(Op::LLVMFPExt, x, self.with_elem(t, self.ctx.f32_type().into())) } else { x };
        let wt = w.get_type();
        let double = float_bits_of(wt) == 64;
        let (bits, mbits, bias, scale) = if double { (64, 52, 1023, 54) } else { (32, 23, 127, 25) };
        let it = int_like(self, wt, bits);
        let i32t = int_like(self, wt, 32);
        // Denormals: scaled into the normal range first.
        let a = self.intr("llvm.fabs", &[w])?;
        let min_normal = self.const_of(wt, 2f64.powi(1 - bias), 0);
        let sub = self.fcmp_exact(FP::LLVMRealOLT, a, min_normal);
        let k = self.const_of(wt, 2f64.powi(scale), 0);
        let scaled = self.binop(Op::LLVMFMul, w, k);
        let ws = self.select(sub, scaled, w);
        let xi = self.cast(Op::LLVMBitCast, ws, it);
        let biased = self.binop(Op::LLVMLShr, xi, self.const_int(it, mbits));
        let biased = self.binop(Op::LLVMAnd, biased, self.const_int(it, 0x7ff >> if double { 0 } else { 3 }));
        let biased = self.cast(Op::LLVMTrunc, biased, i32t);
        let e = self.binop(Op::LLVMSub, biased, self.const_int(i32t, i128::from(bias - 1)));
        let adj = self.select(sub, self.const_int(i32t, i128::from(scale)), i32t.const_zero());
        let e = self.binop(Op::LLVMSub, e, adj);
        // The mantissa: the exponent field set to that of [1/2, 1).
        let exp_mask: i128 = if double { 0x7ff << 52 } else { 0xff << 23 };
        let kept = self.binop(Op::LLVMAnd, xi, self.const_int(it, !exp_mask & ((1i128 << bits) - 1)));
        let m = self.binop(Op::LLVMOr, kept, self.const_int(it, i128::from(bias - 1) << mbits));
        let m = self.cast(Op::LLVMBitCast, m, wt);
        let m = self.cast(Op::LLVMFPTrunc, m, t);
        let fin = self.is_finite(x)?;
        let zero = self.fcmp_exact(FP::LLVMRealOEQ, x, t.const_zero());
        let zero = self.binop(Op::LLVMXor, zero, self.const_of(zero.get_type(), 0.0, 1));
        let normal = self.binop(Op::LLVMAnd, fin, zero);
        let e = self.select(normal, e, i32t.const_zero());
        let m = self.select(normal, m, x);
        Ok((m, e))
    }

    /// `ilogb`: the unbiased exponent; `FP_ILOGB0` (`INT_MIN`) for zero,
    /// `INT_MAX` for infinities and `FP_ILOGBNAN` (`INT_MAX`) for NaN.
    fn ilogb(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let (_, e) = self.frexp(x)?;
        let it = e.get_type();
        let e = self.binop(Op::LLVMSub, e, self.const_int(it, 1));
        let zero = self.fcmp(FP::LLVMRealOEQ, x, x.get_type().const_zero());
        let fin = self.is_finite(x)?;
        let r = self.select(fin, e, self.const_int(it, i32::MAX.into()));
        Ok(self.select(zero, self.const_int(it, i32::MIN.into()), r))
    }

    /// `logb`: the exponent as a floating-point value; -inf for zero,
    /// +inf for infinities, NaN for NaN.
    fn logb(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let (_, e) = self.frexp(x)?;
        let e = self.binop(Op::LLVMSub, e, self.const_int(e.get_type(), 1));
        let r = self.cast(Op::LLVMSIToFP, e, t);
        let zero = self.fcmp(FP::LLVMRealOEQ, x, t.const_zero());
        let r = self.select(zero, self.const_of(t, f64::NEG_INFINITY, 0), r);
        // Infinities and NaN: |x| (+inf, or the NaN).
        let a = self.intr("llvm.fabs", &[x])?;
        let fin = self.is_finite(x)?;
        Ok(self.select(fin, r, a))
    }

    /// `nan(code)`: a quiet NaN carrying `code` in its low mantissa bits.
    fn nan_of(&mut self, code: BasicValueEnum<'ctx>, bits: u32) -> R<BasicValueEnum<'ctx>> {
        let it = code.get_type();
        let quiet: i128 = match bits {
            16 => 0x7e00,
            32 => 0x7fc0_0000,
            _ => 0x7ff8_0000_0000_0000,
        };
        let mant_mask: i128 = match bits {
            16 => 0x3ff,
            32 => 0x7f_ffff,
            _ => 0xf_ffff_ffff_ffff,
        };
        let c = self.binop(Op::LLVMAnd, code, self.const_int(it, mant_mask));
        let n = self.binop(Op::LLVMOr, c, self.const_int(it, quiet));
        let ft = match bits {
            16 => self.ctx.f16_type(),
            32 => self.ctx.f32_type(),
            _ => self.ctx.f64_type(),
        };
        let ft = self.with_elem(it, ft.into());
        Ok(self.cast(Op::LLVMBitCast, n, ft))
    }

    /// `nextafter(x, y)`: one step of the representation towards `y`, on
    /// the integer bits (so that `half` steps by half's ulp).
    fn nextafter(&mut self, x: BasicValueEnum<'ctx>, y: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let bits = float_bits_of(t);
        let it = int_like(self, t, bits);
        let xi = self.cast(Op::LLVMBitCast, x, it);
        let one = self.const_int(it, 1);
        let up = self.binop(Op::LLVMAdd, xi, one);
        let down = self.binop(Op::LLVMSub, xi, one);
        // Away from zero when moving the way x's sign points.
        let towards_pos = self.fcmp(FP::LLVMRealOLT, x, y);
        let x_pos = self.icmp(IP::LLVMIntSGE, xi, it.const_zero());
        let away = self.icmp(IP::LLVMIntEQ, towards_pos, x_pos);
        let stepped = self.select(away, up, down);
        let r = self.cast(Op::LLVMBitCast, stepped, t);
        // From ±0: the smallest denormal with y's sign.
        let tiny = self.cast(Op::LLVMBitCast, one, t);
        let tiny = self.intr("llvm.copysign", &[tiny, y])?;
        let xz = self.fcmp(FP::LLVMRealOEQ, x, t.const_zero());
        let r = self.select(xz, tiny, r);
        let eq = self.fcmp(FP::LLVMRealOEQ, x, y);
        let r = self.select(eq, y, r);
        let uno = self.fcmp(FP::LLVMRealUNO, x, y);
        let nan = self.binop(Op::LLVMFAdd, x, y);
        Ok(self.select(uno, nan, r))
    }

    /// Calls the C library's function for `op` lane by lane (`half` in
    /// `float`).
    fn libm_lanes(&mut self, op: OpenClStd, vals: &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        let t = vals[0].get_type();
        let (elem, lanes) = match t {
            BasicTypeEnum::VectorType(v) => (v.get_element_type(), Some(v.get_size())),
            other => (other, None),
        };
        let bits = float_bits_of(elem);
        let prec = if bits == 64 { Prec::Double } else { Prec::Single };
        let Some((name, ctype)) = libm_symbol(op, prec) else { return super::ice(format!("no C library function for {}", op.name())) };
        let ct: BasicTypeEnum<'ctx> = match ctype {
            CType::Float => self.ctx.f32_type().into(),
            CType::Double => self.ctx.f64_type().into(),
        };
        let i32t = self.ctx.i32_type();
        let params: Vec<BasicMetadataTypeEnum> = vals.iter().map(|_| ct.into()).collect();
        let f = self.declare(name, Some(ct), &params, false, false, Purity::Const);
        let one = |g: &mut Self, lane: Option<u32>| -> R<BasicValueEnum<'ctx>> {
            let mut xs: Vec<BasicMetadataValueEnum> = Vec::new();
            for v in vals {
                let x = match lane {
                    Some(i) => g.b.build_extract_element(v.into_vector_value(), i32t.const_int(i as u64, false), "")?,
                    None => *v,
                };
                xs.push(g.cast(Op::LLVMFPExt, x, ct).into());
            }
            let r = g.b.build_call(f, &xs, "")?.try_as_basic_value().basic().expect("a C math function returns a value");
            Ok(g.cast(Op::LLVMFPTrunc, r, elem))
        };
        match lanes {
            None => one(self, None),
            Some(n) => {
                let mut acc = t.into_vector_type().get_poison();
                for i in 0..n {
                    let r = one(self, Some(i))?;
                    acc = self.b.build_insert_element(acc, r, i32t.const_int(i as u64, false), "")?;
                }
                Ok(acc.into())
            }
        }
    }

    // -----------------------------------------------------------------
    // Helpers
    // -----------------------------------------------------------------

    /// Stores `v` through the pointer argument `p` (an output of `frexp`,
    /// `sincos`, …).
    fn store_through(&mut self, p: BasicValueEnum<'ctx>, v: BasicValueEnum<'ctx>) -> R<()> {
        let v = self.flush_denormal(v)?;
        let s = self.b.build_store(p.into_pointer_value(), v)?;
        let bytes = match v.get_type() {
            BasicTypeEnum::VectorType(vt) => {
                let n = vt.get_size();
                let e = if float_bits_of(v.get_type()) != 0 { float_bits_of(v.get_type()) } else { super::expr::int_bits(v.get_type()) };
                // 3-element vectors are aligned as 4.
                e / 8 * if n == 3 { 4 } else { n }
            }
            t => float_bits_of(t).max(super::expr::int_bits(t)) / 8,
        };
        let _ = s.set_alignment(bytes);
        Ok(())
    }

    fn intr(&mut self, name: &str, args: &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        let t = args[0].get_type();
        self.intr2(name, &[t], args)
    }

    fn intr2(&mut self, name: &str, tys: &[BasicTypeEnum<'ctx>], args: &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        match self.intrinsic(name, tys, args)? {
            Some(v) => Ok(v),
            None => super::ice(format!("{name} has no value")),
        }
    }

    /// `t` (a float, int or vector type) with its element type `e`.
    fn with_elem(&self, t: BasicTypeEnum<'ctx>, e: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
        match t {
            BasicTypeEnum::VectorType(v) => match e {
                BasicTypeEnum::FloatType(f) => f.vec_type(v.get_size()).into(),
                BasicTypeEnum::IntType(i) => i.vec_type(v.get_size()).into(),
                other => other,
            },
            _ => e,
        }
    }

    /// A floating-point constant given in decimal (for x87 precision).
    fn const_str(&mut self, t: BasicTypeEnum<'ctx>, s: &str) -> BasicValueEnum<'ctx> {
        let (ft, n) = match t {
            BasicTypeEnum::VectorType(v) => (v.get_element_type().into_float_type(), Some(v.get_size())),
            other => (other.into_float_type(), None),
        };
        // SAFETY: `s` is a valid decimal floating-point literal.
        let c: BasicValueEnum<'ctx> = unsafe { ft.const_float_from_string(s) }.into();
        match n {
            Some(n) => self.splat(c, n),
            None => c,
        }
    }

    /// The floating-point arguments of `v` converted to elements of `bits`
    /// (integers as they are).
    fn widened(&self, v: &[BasicValueEnum<'ctx>], bits: u32) -> Vec<BasicValueEnum<'ctx>> {
        let e: BasicTypeEnum<'ctx> = match bits {
            32 => self.ctx.f32_type().into(),
            64 => self.ctx.f64_type().into(),
            _ => self.ctx.x86_f80_type().into(),
        };
        v.iter()
            .map(|&x| if float_bits_of(x.get_type()) != 0 { self.cast(Op::LLVMFPExt, x, self.with_elem(x.get_type(), e)) } else { x })
            .collect()
    }

    fn narrow(&self, v: BasicValueEnum<'ctx>, t: BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx> {
        self.cast(Op::LLVMFPTrunc, v, t)
    }

    /// Computes `f` on the arguments widened (`half` and `float` to
    /// `double`, `double` to x87 `long double`), rounding the result back
    /// once.
    fn in_wider(&mut self, v: &[BasicValueEnum<'ctx>], f: impl FnOnce(&mut Self, &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>>) -> R<BasicValueEnum<'ctx>> {
        let t = v[0].get_type();
        let to = if float_bits_of(t) == 64 && !is_f80(t) { 80 } else { 64 };
        let w = self.widened(v, to);
        let r = f(self, &w)?;
        Ok(self.narrow(r, t))
    }

    /// As [`Self::in_wider`], in `double` (for `half` and `float` only).
    fn in_double(&mut self, v: &[BasicValueEnum<'ctx>], f: impl FnOnce(&mut Self, &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>>) -> R<BasicValueEnum<'ctx>> {
        let t = v[0].get_type();
        let w = self.widened(v, 64);
        let r = f(self, &w)?;
        Ok(self.narrow(r, t))
    }

    /// As [`Self::in_wider`], `half` in `float` and the others as they are
    /// (for functions exact in any precision, which LLVM may not know for
    /// `half`).
    fn in_float(&mut self, v: &[BasicValueEnum<'ctx>], f: impl FnOnce(&mut Self, &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>>) -> R<BasicValueEnum<'ctx>> {
        let t = v[0].get_type();
        if float_bits_of(t) != 16 {
            return f(self, v);
        }
        let w = self.widened(v, 32);
        let r = f(self, &w)?;
        Ok(self.narrow(r, t))
    }

    fn is_inf(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let a = self.intr("llvm.fabs", &[x])?;
        let inf = self.const_of(x.get_type(), f64::INFINITY, 0);
        Ok(self.fcmp_exact(FP::LLVMRealOEQ, a, inf))
    }

    fn is_finite(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let a = self.intr("llvm.fabs", &[x])?;
        let inf = self.const_of(x.get_type(), f64::INFINITY, 0);
        Ok(self.fcmp_exact(FP::LLVMRealOLT, a, inf))
    }

    /// A comparison without fast-math flags: classifying infinities must
    /// work under `-cl-fast-relaxed-math` too.
    fn fcmp_exact(&self, p: FP, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        use inkwell::values::AsValueRef;
        // SAFETY: a positioned builder; operands of one floating-point type.
        let r = unsafe { inkwell::llvm_sys::core::LLVMBuildFCmp(self.b.as_mut_ptr(), p, a.as_value_ref(), b.as_value_ref(), c"".as_ptr()) };
        self.raw(r)
    }

    /// Zero with the sign of `x`.
    fn signed_zero_of(&mut self, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let z = x.get_type().const_zero();
        self.intr("llvm.copysign", &[z, x])
    }

    /// With `-cl-denorms-are-zero`, a `float` denormal becomes a zero of
    /// its sign; other values are unchanged. Tested on the bits: under
    /// the function's denormal mode LLVM may treat a floating-point
    /// comparison with a denormal as one with zero.
    fn flush_denormal(&mut self, v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let t = v.get_type();
        if !self.opts.fp.denorms_are_zero || float_bits_of(t) != 32 || is_f80(t) {
            return Ok(v);
        }
        let it = int_like(self, t, 32);
        let bits = self.cast(Op::LLVMBitCast, v, it);
        let mag = self.binop(Op::LLVMAnd, bits, self.const_int(it, 0x7fff_ffff));
        let tiny = self.icmp(IP::LLVMIntULT, mag, self.const_int(it, 0x0080_0000));
        let sign = self.binop(Op::LLVMAnd, bits, self.const_int(it, 0x8000_0000));
        let r = self.select(tiny, sign, bits);
        Ok(self.cast(Op::LLVMBitCast, r, t))
    }
}

/// The functions of §6.13.2's table (and `half_`/`native_`): the
/// OpenCL.std instructions listed before the integer ones.
pub fn is_math(op: OpenClStd) -> bool {
    let ops = OpenClStd::ALL;
    let first_int = ops.iter().position(|&o| o == OpenClStd::SAbs).unwrap_or(ops.len());
    ops[..first_int].contains(&op)
}

fn is_f80<'ctx>(t: BasicTypeEnum<'ctx>) -> bool {
    let e = match t {
        BasicTypeEnum::VectorType(v) => v.get_element_type(),
        other => other,
    };
    matches!(e, BasicTypeEnum::FloatType(f) if f == f.get_context().x86_f80_type())
}

/// An integer type of `bits` with the lanes of `t`.
fn int_like<'ctx>(g: &Gen<'_, 'ctx>, t: BasicTypeEnum<'ctx>, bits: u32) -> BasicTypeEnum<'ctx> {
    g.with_elem(t, g.int_ty(bits).into())
}

fn bits_of_int(t: BasicTypeEnum<'_>) -> u32 {
    super::expr::int_bits(t)
}

/// The largest value below 1 of a format.
fn below_one(bits: u32) -> f64 {
    match bits {
        16 => 1.0 - 2f64.powi(-11),
        32 => f64::from(1.0f32 - f32::EPSILON / 2.0),
        _ => 1.0 - f64::EPSILON / 2.0,
    }
}

/// The `native_`/`half_` functions, whose accuracy bounds are loose.
fn approximate(op: OpenClStd) -> bool {
    format!("{op:?}").starts_with("Native") || format!("{op:?}").starts_with("Half")
}

/// Adds the `afn` fast-math flag (approximate functions allowed) to the
/// call computing `v`.
fn mark_approximate(v: BasicValueEnum<'_>) {
    use inkwell::llvm_sys::core::{LLVMCanValueUseFastMathFlags, LLVMGetFastMathFlags, LLVMIsAInstruction, LLVMSetFastMathFlags};
    use inkwell::values::AsValueRef;
    let r = v.as_value_ref();
    // SAFETY: `r` is a live value; the flags are only read and set on an
    // instruction that can carry them.
    unsafe {
        if !LLVMIsAInstruction(r).is_null() && LLVMCanValueUseFastMathFlags(r) != 0 {
            LLVMSetFastMathFlags(r, LLVMGetFastMathFlags(r) | inkwell::llvm_sys::LLVMFastMathApproxFunc);
        }
    }
}
