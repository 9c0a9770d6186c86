//! `convert_<float type>_rtz/_rtp/_rtn` where the rounding matters:
//! integer to floating point and narrowing between floating-point types,
//! inline on native targets (the other conversions are single LLVM
//! instructions or intrinsics, in `builtins::convert_builtin`).
//!
//! LLVM's conversions round to nearest even. The directed result is that
//! result, or its neighbour one unit in the last place away: comparing
//! the nearest result with the exact source tells which. Everything is
//! lane-wise IR, so vector conversions stay vectors.

use super::Gen;
use super::expr::{float_bits_of, int_bits};
use clc_builtins::functions::Rounding;
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The significand bits (with the implicit one) of a float type's width.
fn precision(float_bits: u32) -> u32 {
    match float_bits {
        16 => 11,
        32 => 24,
        _ => 53,
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// Integer `v` to the floating-point type `t`, rounded as `rounding`.
    pub(super) fn int_to_float_rounded(&mut self, v: BasicValueEnum<'ctx>, signed: bool, t: BasicTypeEnum<'ctx>, rounding: Rounding) -> BasicValueEnum<'ctx> {
        let r = self.cast(if signed { Op::LLVMSIToFP } else { Op::LLVMUIToFP }, v, t);
        let n = int_bits(v.get_type());
        let magnitude_bits = if signed { n - 1 } else { n };
        if rounding == Rounding::Rte || magnitude_bits <= precision(float_bits_of(t)) {
            // Every source value is representable: nothing to round.
            return r;
        }
        // Where `r` lies against `v`. `r` is integral (or infinite); it
        // converts back exactly unless it is at or above 2^n (2^(n-1)
        // signed), the first power of two past the source's range, or
        // -inf (a `half` result of a large negative source).
        let top = self.const_of(t, 2f64.powi(magnitude_bits as i32), 0);
        let minus_inf = self.const_of(t, f64::NEG_INFINITY, 0);
        let above = self.fcmp(FP::LLVMRealOGE, r, top);
        let below = self.fcmp(FP::LLVMRealOEQ, r, minus_inf);
        let back = self.cast(if signed { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, r, v.get_type());
        let (gt_p, lt_p) = if signed { (IP::LLVMIntSGT, IP::LLVMIntSLT) } else { (IP::LLVMIntUGT, IP::LLVMIntULT) };
        let gt = self.icmp(gt_p, back, v);
        let lt = self.icmp(lt_p, back, v);
        // `back` is poison exactly when `above` or `below` holds, and the
        // selects then do not choose it.
        let (yes, no) = (self.bool_like(above, true), self.bool_like(above, false));
        let gt = self.select(below, no, gt);
        let gt = self.select(above, yes, gt);
        let lt = self.select(below, yes, lt);
        let lt = self.select(above, no, lt);
        self.round_towards(r, gt, lt, rounding)
    }

    /// Floating-point `v` to the narrower floating-point type `t`, rounded
    /// as `rounding`.
    pub(super) fn float_narrow_rounded(&mut self, v: BasicValueEnum<'ctx>, t: BasicTypeEnum<'ctx>, rounding: Rounding) -> BasicValueEnum<'ctx> {
        let r = self.cast(Op::LLVMFPTrunc, v, t);
        if rounding == Rounding::Rte {
            return r;
        }
        // Widening is exact; NaN compares false both ways and stays NaN.
        let back = self.cast(Op::LLVMFPExt, r, v.get_type());
        let gt = self.fcmp(FP::LLVMRealOGT, back, v);
        let lt = self.fcmp(FP::LLVMRealOLT, back, v);
        self.round_towards(r, gt, lt, rounding)
    }

    /// `true`/`false` of the shape of the `i1` (vector) value `like`.
    fn bool_like(&self, like: BasicValueEnum<'ctx>, b: bool) -> BasicValueEnum<'ctx> {
        self.const_int(like.get_type(), b as i128)
    }

    /// The directed rounding of the exact value from its nearest-even
    /// rounding `r`, given whether `r` is above (`gt`) or below (`lt`) it:
    /// one step to the next representable value where `r` went the wrong
    /// way. The step is ±1 on the bits: sign and magnitude, so a step up
    /// from +0 is the smallest subnormal and a step down from +inf the
    /// largest finite value.
    fn round_towards(&mut self, r: BasicValueEnum<'ctx>, gt: BasicValueEnum<'ctx>, lt: BasicValueEnum<'ctx>, rounding: Rounding) -> BasicValueEnum<'ctx> {
        let t = r.get_type();
        let z = t.const_zero();
        let (up, down) = match rounding {
            Rounding::Rtp => (lt, self.bool_like(lt, false)),
            Rounding::Rtn => (self.bool_like(gt, false), gt),
            Rounding::Rtz => {
                let pos = self.fcmp(FP::LLVMRealOGT, r, z);
                let neg = self.fcmp(FP::LLVMRealOLT, r, z);
                (self.binop(Op::LLVMAnd, lt, neg), self.binop(Op::LLVMAnd, gt, pos))
            }
            Rounding::Rte => return r,
        };
        let it = self.bits_type(t);
        let bits = self.cast(Op::LLVMBitCast, r, it);
        let iz = it.const_zero();
        let negative = self.icmp(IP::LLVMIntSLT, bits, iz);
        let (plus, minus) = (self.const_int(it, 1), self.const_int(it, -1));
        // Up: away from zero for positive values, towards it for negative.
        let up_step = self.select(negative, minus, plus);
        let down_step = self.select(negative, plus, minus);
        let step = self.select(down, down_step, iz);
        let step = self.select(up, up_step, step);
        let bits = self.binop(Op::LLVMAdd, bits, step);
        self.cast(Op::LLVMBitCast, bits, t)
    }
}
