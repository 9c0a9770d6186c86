//! The integer builtins of §6.13.3 that no single LLVM intrinsic computes,
//! lowered inline on native targets: `abs` of unsigned types, `abs_diff`,
//! `hadd`, `rhadd`, `mul_hi`, `mad_hi`, `mad_sat`, `upsample`, `mul24` and
//! `mad24`. Everything is plain LLVM instructions on the argument's shape
//! (scalar or vector), so the loop vectoriser sees through the calls; the
//! ones an intrinsic computes exactly (`clz`, `add_sat`, `rotate`, …) stay in
//! `builtins::native_intrinsic`.
//!
//! This module knows the spec's definitions, not the SPIR-V side: there the
//! calls stay OpenCL.std instructions.

use super::expr::int_bits;
use super::{Gen, R, ice};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::OpenClStd;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// Whether [`Gen::integer_builtin`] lowers `op`.
pub(super) fn is_integer_op(op: OpenClStd) -> bool {
    use OpenClStd as E;
    matches!(
        op,
        E::UAbs
            | E::SAbsDiff
            | E::UAbsDiff
            | E::SHadd
            | E::UHadd
            | E::SRhadd
            | E::URhadd
            | E::SMulHi
            | E::UMulHi
            | E::SMadHi
            | E::UMadHi
            | E::SMadSat
            | E::UMadSat
            | E::SUpsample
            | E::UUpsample
            | E::SMul24
            | E::UMul24
            | E::SMad24
            | E::UMad24
    )
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// An integer builtin `op` (one [`is_integer_op`] accepts) on `args`,
    /// of result type `ty`.
    pub(super) fn integer_builtin(&mut self, op: OpenClStd, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        use OpenClStd as E;
        let t = self.vty(ty)?;
        let v = self.shaped_args(args, ty)?;
        let signed = matches!(op, E::SAbsDiff | E::SHadd | E::SRhadd | E::SMulHi | E::SMadHi | E::SMadSat | E::SUpsample | E::SMul24 | E::SMad24);
        Ok(match op {
            E::UAbs => v[0],
            E::SAbsDiff | E::UAbsDiff => {
                // The difference of the larger and the smaller is below
                // 2^n, so the wrapping subtraction is exact as unsigned.
                let (mx, mn) = if signed { ("llvm.smax", "llvm.smin") } else { ("llvm.umax", "llvm.umin") };
                let hi = self.intrinsic(mx, &[t], &[v[0], v[1]])?.expect("a value");
                let lo = self.intrinsic(mn, &[t], &[v[0], v[1]])?.expect("a value");
                self.binop(Op::LLVMSub, hi, lo)
            }
            E::SHadd | E::UHadd | E::SRhadd | E::URhadd => {
                // (x >> 1) + (y >> 1) + ((x & y) & 1), or `|` for the
                // rounding form: no intermediate overflows.
                let shr = if signed { Op::LLVMAShr } else { Op::LLVMLShr };
                let one = self.const_int(t, 1);
                let hx = self.binop(shr, v[0], one);
                let hy = self.binop(shr, v[1], one);
                let carry_op = if matches!(op, E::SHadd | E::UHadd) { Op::LLVMAnd } else { Op::LLVMOr };
                let c = self.binop(carry_op, v[0], v[1]);
                let c = self.binop(Op::LLVMAnd, c, one);
                let s = self.binop(Op::LLVMAdd, hx, hy);
                self.binop(Op::LLVMAdd, s, c)
            }
            E::SMulHi | E::UMulHi => self.mul_hi(v[0], v[1], signed),
            E::SMadHi | E::UMadHi => {
                let h = self.mul_hi(v[0], v[1], signed);
                self.binop(Op::LLVMAdd, h, v[2])
            }
            E::SMadSat | E::UMadSat => self.mad_sat(v[0], v[1], v[2], signed)?,
            E::SUpsample | E::UUpsample => {
                // (wide)hi << n | (wide)lo, lo always zero-extended.
                let n = int_bits(v[0].get_type());
                let hi = self.int_resize(v[0], t, signed);
                let lo = self.int_resize(v[1], t, false);
                let sh = self.const_int(t, n as i128);
                let hi = self.binop(Op::LLVMShl, hi, sh);
                self.binop(Op::LLVMOr, hi, lo)
            }
            // The spec leaves operands outside 24 bits implementation
            // defined: the low 32 bits of the full product.
            E::SMul24 | E::UMul24 => self.binop(Op::LLVMMul, v[0], v[1]),
            E::SMad24 | E::UMad24 => {
                let p = self.binop(Op::LLVMMul, v[0], v[1]);
                self.binop(Op::LLVMAdd, p, v[2])
            }
            _ => return ice(format!("{} is not an integer library function", op.name())),
        })
    }

    /// The same integer type (scalar or vector) with `bits`-bit elements.
    pub(super) fn with_int_bits(&self, t: BasicTypeEnum<'ctx>, bits: u32) -> BasicTypeEnum<'ctx> {
        let e = self.int_ty(bits);
        match t {
            BasicTypeEnum::VectorType(v) => e.vec_type(v.get_size()).into(),
            _ => e.into(),
        }
    }

    /// Arguments as values of the result's shape (scalars splatted to the
    /// result's width).
    pub(super) fn shaped_args(&mut self, args: &[ExprId], ty: TypeId) -> R<Vec<BasicValueEnum<'ctx>>> {
        let lanes = self.lanes_of(ty);
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            let v = self.value(a)?;
            vals.push(match lanes {
                Some(n) if !v.is_vector_value() => self.splat(v, n as u32),
                _ => v,
            });
        }
        Ok(vals)
    }

    /// The high half of the double-width product (LLVM selects the
    /// machine's widening multiplies for this pattern).
    fn mul_hi(&mut self, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>, signed: bool) -> BasicValueEnum<'ctx> {
        let t = a.get_type();
        let n = int_bits(t);
        let wt = self.with_int_bits(t, 2 * n);
        let wa = self.int_resize(a, wt, signed);
        let wb = self.int_resize(b, wt, signed);
        let p = self.binop(Op::LLVMMul, wa, wb);
        let sh = self.const_int(wt, n as i128);
        let h = self.binop(Op::LLVMLShr, p, sh);
        self.int_resize(h, t, false)
    }

    /// `a * b + c` saturated: exact in double width (the product and the
    /// sum both fit), clamped, narrowed.
    fn mad_sat(&mut self, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>, c: BasicValueEnum<'ctx>, signed: bool) -> R<BasicValueEnum<'ctx>> {
        let t = a.get_type();
        let n = int_bits(t);
        let wt = self.with_int_bits(t, 2 * n);
        let wa = self.int_resize(a, wt, signed);
        let wb = self.int_resize(b, wt, signed);
        let wc = self.int_resize(c, wt, signed);
        let p = self.binop(Op::LLVMMul, wa, wb);
        let s = self.binop(Op::LLVMAdd, p, wc);
        let clamped = if signed {
            let lo = self.wide_const(wt, -(1i128 << (n - 1)));
            let hi = self.wide_const(wt, (1i128 << (n - 1)) - 1);
            let s = self.intrinsic("llvm.smax", &[wt], &[s, lo])?.expect("a value");
            self.intrinsic("llvm.smin", &[wt], &[s, hi])?.expect("a value")
        } else {
            let hi = self.wide_const(wt, (1i128 << n) - 1);
            self.intrinsic("llvm.umin", &[wt], &[s, hi])?.expect("a value")
        };
        Ok(self.int_resize(clamped, t, false))
    }

    /// An integer constant of `t` (up to 128 bits, vectors splatted) for a
    /// value that fits in 64 bits signed or unsigned.
    pub(super) fn wide_const(&self, t: BasicTypeEnum<'ctx>, v: i128) -> BasicValueEnum<'ctx> {
        match t {
            BasicTypeEnum::IntType(i) => i.const_int(v as u64, v < 0).into(),
            BasicTypeEnum::VectorType(vt) => {
                let e = self.wide_const(vt.get_element_type(), v);
                let lanes: Vec<BasicValueEnum> = (0..vt.get_size()).map(|_| e).collect();
                super::const_vector(&lanes)
            }
            other => other.const_zero(),
        }
    }
}
