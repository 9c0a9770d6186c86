//! The common (§6.13.4), geometric (§6.13.5) and relational (§6.13.6)
//! builtins that no single LLVM intrinsic computes, lowered inline on
//! native targets: `step`, `smoothstep`, `sign`, `cross`, `length`,
//! `distance`, `normalize` and their `fast_` forms, the comparisons and
//! classifications, `select` and `bitselect`.
//!
//! Everything is branch-free LLVM IR on the argument's shape, so calls in
//! a work-item loop vectorise. `length`, `distance` and `normalize` rescale
//! by a power of two when the sum of squares would overflow or underflow
//! (as the spec's accuracy requirements need for large and tiny inputs);
//! `half` geometry is computed in `float`, whose range holds every sum of
//! squares of `half` values.

use super::expr::float_bits_of;
use super::{Gen, R, ice};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::{OpenClStd, RelOp};
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// Whether [`Gen::common_builtin`] lowers `op`.
pub(super) fn is_common_op(op: OpenClStd) -> bool {
    use OpenClStd as E;
    matches!(
        op,
        E::Step
            | E::Smoothstep
            | E::Sign
            | E::Cross
            | E::Length
            | E::Distance
            | E::Normalize
            | E::FastLength
            | E::FastDistance
            | E::FastNormalize
            | E::Select
            | E::Bitselect
    )
}

/// `llvm.is.fpclass` test masks.
const CLASS_NAN: u64 = 0x3;
const CLASS_INF: u64 = 0x204;
const CLASS_NORMAL: u64 = 0x108;
const CLASS_FINITE: u64 = 0x1f8;

/// How `length` and `normalize` rescale a sum of squares that underflows
/// (below the smallest normal) or overflows: multiply the vector by
/// `2^up` or `2^-down`. After scaling up, the largest element is below
/// 2^23 (2^52); after scaling down, four squares of the largest finite
/// value still sum below the largest finite value.
struct Rescale {
    min_normal: f64,
    up: i32,
    down: i32,
}

const RESCALE_F32: Rescale = Rescale { min_normal: f32::MIN_POSITIVE as f64, up: 86, down: 66 };
const RESCALE_F64: Rescale = Rescale { min_normal: f64::MIN_POSITIVE, up: 563, down: 514 };

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A common, geometric or selection builtin `op` (one [`is_common_op`]
    /// accepts) on `args`, of result type `ty`.
    pub(super) fn common_builtin(&mut self, op: OpenClStd, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        use OpenClStd as E;
        let t = self.vty(ty)?;
        Ok(match op {
            E::Step => {
                // 0.0 if x < edge, else 1.0.
                let v = self.shaped_args(args, ty)?;
                let below = self.fcmp(FP::LLVMRealOLT, v[1], v[0]);
                let (z, one) = (self.const_of(t, 0.0, 0), self.const_of(t, 1.0, 1));
                self.select(below, z, one)
            }
            E::Smoothstep => {
                // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2t).
                let v = self.shaped_args(args, ty)?;
                let num = self.binop(Op::LLVMFSub, v[2], v[0]);
                let den = self.binop(Op::LLVMFSub, v[1], v[0]);
                let q = self.binop(Op::LLVMFDiv, num, den);
                let (z, one) = (self.const_of(t, 0.0, 0), self.const_of(t, 1.0, 1));
                let q = self.intrinsic("llvm.maxnum", &[t], &[q, z])?.expect("a value");
                let q = self.intrinsic("llvm.minnum", &[t], &[q, one])?.expect("a value");
                let two = self.const_of(t, 2.0, 2);
                let three = self.const_of(t, 3.0, 3);
                let tq = self.binop(Op::LLVMFMul, two, q);
                let r = self.binop(Op::LLVMFSub, three, tq);
                let qq = self.binop(Op::LLVMFMul, q, q);
                self.binop(Op::LLVMFMul, qq, r)
            }
            E::Sign => {
                // 1.0 for x > 0, -1.0 for x < 0, x itself for ±0, 0 for NaN.
                let x = self.value(args[0])?;
                let z = self.const_of(t, 0.0, 0);
                let pos = self.fcmp(FP::LLVMRealOGT, x, z);
                let neg = self.fcmp(FP::LLVMRealOLT, x, z);
                let nan = self.fcmp(FP::LLVMRealUNO, x, x);
                let (one, minus) = (self.const_of(t, 1.0, 1), self.const_of(t, -1.0, -1));
                let r = self.select(nan, z, x);
                let r = self.select(neg, minus, r);
                self.select(pos, one, r)
            }
            E::Cross => {
                let a = self.value(args[0])?.into_vector_value();
                let b = self.value(args[1])?.into_vector_value();
                let lane = |g: &mut Self, v: inkwell::values::VectorValue<'ctx>, i: u64| g.b.build_extract_element(v, g.ctx.i32_type().const_int(i, false), "");
                let (x0, y0, z0) = (lane(self, a, 0)?, lane(self, a, 1)?, lane(self, a, 2)?);
                let (x1, y1, z1) = (lane(self, b, 0)?, lane(self, b, 1)?, lane(self, b, 2)?);
                let diff = |g: &mut Self, p: BasicValueEnum<'ctx>, q: BasicValueEnum<'ctx>, r: BasicValueEnum<'ctx>, s: BasicValueEnum<'ctx>| {
                    let l = g.binop(Op::LLVMFMul, p, q);
                    let rr = g.binop(Op::LLVMFMul, r, s);
                    g.binop(Op::LLVMFSub, l, rr)
                };
                let cx = diff(self, y0, z1, z0, y1);
                let cy = diff(self, z0, x1, x0, z1);
                let cz = diff(self, x0, y1, y0, x1);
                let vt = t.into_vector_type();
                let mut acc = vt.const_zero();
                for (i, c) in [cx, cy, cz].into_iter().enumerate() {
                    acc = self.b.build_insert_element(acc, c, self.ctx.i32_type().const_int(i as u64, false), "")?;
                }
                acc.into()
            }
            E::Length | E::FastLength => {
                let p = self.value(args[0])?;
                self.half_via_float(p, t, |g, p| g.length(p, op == E::Length))?
            }
            E::Distance | E::FastDistance => {
                let a = self.value(args[0])?;
                let b = self.value(args[1])?;
                let d = self.binop(Op::LLVMFSub, a, b);
                self.half_via_float(d, t, |g, p| g.length(p, op == E::Distance))?
            }
            E::Normalize | E::FastNormalize => {
                let p = self.value(args[0])?;
                self.half_via_float(p, t, |g, p| g.normalize(p, op == E::Normalize))?
            }
            E::Select => {
                // Scalar: c != 0 ? b : a; vector: the most significant bit
                // of each lane of c chooses b.
                let a = self.value(args[0])?;
                let b = self.value(args[1])?;
                let c = self.value(args[2])?;
                let z = c.get_type().const_zero();
                let pick = if c.is_vector_value() { self.icmp(IP::LLVMIntSLT, c, z) } else { self.icmp(IP::LLVMIntNE, c, z) };
                self.select(pick, b, a)
            }
            E::Bitselect => {
                // (a & ~c) | (b & c), on the bits of floating-point values.
                let v = self.shaped_args(args, ty)?;
                let it = self.bits_type(t);
                let [a, b, c] = [v[0], v[1], v[2]].map(|x| self.cast(Op::LLVMBitCast, x, it));
                let ones = self.const_int(it, -1);
                let nc = self.binop(Op::LLVMXor, c, ones);
                let l = self.binop(Op::LLVMAnd, a, nc);
                let r = self.binop(Op::LLVMAnd, b, c);
                let x = self.binop(Op::LLVMOr, l, r);
                self.cast(Op::LLVMBitCast, x, t)
            }
            _ => return ice(format!("{} is not a common library function", op.name())),
        })
    }

    /// A relational builtin other than `any`/`all`: `int` 1/0 for scalars,
    /// -1/0 lanes of the same-size signed integer type for vectors.
    pub(super) fn relational(&mut self, op: RelOp, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let x = self.value(args[0])?;
        let y = match args.get(1) {
            Some(&a) => Some(self.value(a)?),
            None => None,
        };
        let cmp = |g: &mut Self, p: FP| g.fcmp(p, x, y.expect("a binary relational function"));
        let c = match op {
            RelOp::IsEqual => cmp(self, FP::LLVMRealOEQ),
            RelOp::IsNotEqual => cmp(self, FP::LLVMRealUNE),
            RelOp::IsGreater => cmp(self, FP::LLVMRealOGT),
            RelOp::IsGreaterEqual => cmp(self, FP::LLVMRealOGE),
            RelOp::IsLess => cmp(self, FP::LLVMRealOLT),
            RelOp::IsLessEqual => cmp(self, FP::LLVMRealOLE),
            RelOp::IsLessGreater => cmp(self, FP::LLVMRealONE),
            RelOp::IsOrdered => cmp(self, FP::LLVMRealORD),
            RelOp::IsUnordered => cmp(self, FP::LLVMRealUNO),
            RelOp::IsFinite => self.fp_class(x, CLASS_FINITE)?,
            RelOp::IsInf => self.fp_class(x, CLASS_INF)?,
            RelOp::IsNan => self.fp_class(x, CLASS_NAN)?,
            RelOp::IsNormal => self.fp_class(x, CLASS_NORMAL)?,
            RelOp::SignBit => {
                let it = self.bits_type(x.get_type());
                let bits = self.cast(Op::LLVMBitCast, x, it);
                let z = it.const_zero();
                self.icmp(IP::LLVMIntSLT, bits, z)
            }
            RelOp::Any | RelOp::All => return ice("any/all have their own lowering"),
        };
        self.bool_result(c, ty)
    }

    /// `llvm.is.fpclass`: exact whatever the fast-math flags.
    fn fp_class(&mut self, x: BasicValueEnum<'ctx>, mask: u64) -> R<BasicValueEnum<'ctx>> {
        let m = self.ctx.i32_type().const_int(mask, false).into();
        Ok(self.intrinsic("llvm.is.fpclass", &[x.get_type()], &[x, m])?.expect("a value"))
    }

    /// The integer type of the same size and shape as a float type.
    pub(super) fn bits_type(&self, t: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
        let bits = float_bits_of(t);
        if bits == 0 {
            return t;
        }
        self.with_int_bits(t, bits)
    }

    /// Computes `f` of a `half` value in `float` (converting the result
    /// back to `t`); other types as they are.
    fn half_via_float(
        &mut self,
        p: BasicValueEnum<'ctx>,
        t: BasicTypeEnum<'ctx>,
        f: impl FnOnce(&mut Self, BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>>,
    ) -> R<BasicValueEnum<'ctx>> {
        if float_bits_of(p.get_type()) != 16 {
            return f(self, p);
        }
        let ft = match p.get_type() {
            BasicTypeEnum::VectorType(v) => self.ctx.f32_type().vec_type(v.get_size()).into(),
            _ => self.ctx.f32_type().into(),
        };
        let wide = self.cast(Op::LLVMFPExt, p, ft);
        let r = f(self, wide)?;
        Ok(self.cast(Op::LLVMFPTrunc, r, t))
    }

    /// The sum of the lanes' squares (the square of a scalar).
    fn sum_squares(&mut self, p: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let sq = self.binop(Op::LLVMFMul, p, p);
        let BasicValueEnum::VectorValue(v) = sq else { return Ok(sq) };
        let mut acc = self.b.build_extract_element(v, self.ctx.i32_type().const_zero(), "")?;
        for i in 1..v.get_type().get_size() {
            let x = self.b.build_extract_element(v, self.ctx.i32_type().const_int(i as u64, false), "")?;
            acc = self.binop(Op::LLVMFAdd, acc, x);
        }
        Ok(acc)
    }

    /// The element type of a float scalar or vector type.
    fn elem_of(t: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
        match t {
            BasicTypeEnum::VectorType(v) => v.get_element_type(),
            other => other,
        }
    }

    /// The power of two by which `p` is scaled before its sum of squares
    /// is taken again (1 when the sum `l2` neither overflows nor
    /// underflows), as a scalar of the element type.
    fn rescale_factor(&mut self, l2: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        let et = l2.get_type();
        let r = if float_bits_of(et) == 64 { RESCALE_F64 } else { RESCALE_F32 };
        let min = self.const_of(et, r.min_normal, 0);
        let inf = self.const_of(et, f64::INFINITY, 0);
        let small = self.fcmp(FP::LLVMRealOLT, l2, min);
        let big = self.fcmp(FP::LLVMRealOEQ, l2, inf);
        let (up, down, one) = (self.const_of(et, 2f64.powi(r.up), 0), self.const_of(et, 2f64.powi(-r.down), 0), self.const_of(et, 1.0, 1));
        let s = self.select(big, down, one);
        self.select(small, up, s)
    }

    /// Multiplies every lane of `p` by the scalar `s`.
    fn scale(&mut self, p: BasicValueEnum<'ctx>, s: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        let s = match p {
            BasicValueEnum::VectorValue(v) => self.splat(s, v.get_type().get_size()),
            _ => s,
        };
        self.binop(Op::LLVMFMul, p, s)
    }

    /// `length(p)`: the square root of the sum of squares, rescaled when
    /// that sum overflows or underflows (`careful`; the `fast_` form
    /// does not).
    fn length(&mut self, p: BasicValueEnum<'ctx>, careful: bool) -> R<BasicValueEnum<'ctx>> {
        let et = Self::elem_of(p.get_type());
        if careful && !p.is_vector_value() {
            return Ok(self.intrinsic("llvm.fabs", &[et], &[p])?.expect("a value"));
        }
        let l2 = self.sum_squares(p)?;
        if !careful {
            return Ok(self.intrinsic("llvm.sqrt", &[et], &[l2])?.expect("a value"));
        }
        let s = self.rescale_factor(l2);
        let q = self.scale(p, s);
        let l2 = self.sum_squares(q)?;
        let r = self.intrinsic("llvm.sqrt", &[et], &[l2])?.expect("a value");
        // Undo the scaling: 1/s is a power of two, so this is exact.
        let one = self.const_of(et, 1.0, 1);
        let inv = self.binop(Op::LLVMFDiv, one, s);
        Ok(self.binop(Op::LLVMFMul, r, inv))
    }

    /// `normalize(p)`: `p` when every lane is zero; NaN lanes when any lane
    /// is NaN; infinite lanes become ±1 and finite ones ±0 when some lane
    /// is infinite (OpenCL C 2.0 §6.13.5). The `fast_` form only keeps a
    /// zero vector.
    fn normalize(&mut self, p: BasicValueEnum<'ctx>, careful: bool) -> R<BasicValueEnum<'ctx>> {
        let t = p.get_type();
        let et = Self::elem_of(t);
        let zero = t.const_zero();
        let lanes_zero = self.fcmp(FP::LLVMRealOEQ, p, zero);
        let all_zero = self.all_lanes(lanes_zero)?;
        let q = if careful {
            let l2 = self.sum_squares(p)?;
            let s = self.rescale_factor(l2);
            let q = self.scale(p, s);
            // Still infinite: some lane is infinite.
            let l2 = self.sum_squares(q)?;
            let inf = self.const_of(et, f64::INFINITY, 0);
            let overflow = self.fcmp(FP::LLVMRealOEQ, l2, inf);
            let is_inf = self.fp_class(q, CLASS_INF)?;
            let (z, one) = (self.const_of(t, 0.0, 0), self.const_of(t, 1.0, 1));
            let unit = self.select(is_inf, one, z);
            let unit = self.intrinsic("llvm.copysign", &[t], &[unit, q])?.expect("a value");
            self.select(overflow, unit, q)
        } else {
            p
        };
        let l2 = self.sum_squares(q)?;
        let len = self.intrinsic("llvm.sqrt", &[et], &[l2])?.expect("a value");
        let r = match q {
            BasicValueEnum::VectorValue(v) => {
                let len = self.splat(len, v.get_type().get_size());
                self.binop(Op::LLVMFDiv, q, len)
            }
            _ => self.binop(Op::LLVMFDiv, q, len),
        };
        Ok(self.select(all_zero, p, r))
    }

    /// Whether every lane of an `i1` (vector) value is set, as one `i1`.
    fn all_lanes(&mut self, c: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let BasicValueEnum::VectorValue(v) = c else { return Ok(c) };
        let mut acc = self.b.build_extract_element(v, self.ctx.i32_type().const_zero(), "")?;
        for i in 1..v.get_type().get_size() {
            let x = self.b.build_extract_element(v, self.ctx.i32_type().const_int(i as u64, false), "")?;
            acc = self.binop(Op::LLVMAnd, acc, x);
        }
        Ok(acc)
    }
}
