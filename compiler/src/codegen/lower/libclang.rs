//! clang's own `__builtin_*` functions with a lowering of their own
//! ([`GnuOp`]; those that are OpenCL builtins under another name lower as
//! that builtin): LLVM intrinsics and instructions, on every target.
//!
//! Constant calls never get here: the checker folds them (integer constant
//! expressions, `__builtin_inf`, `__builtin_nan`, `__builtin_constant_p`).
//! Hints (`__builtin_expect`, `__builtin_assume`) become LLVM's only when
//! optimising a native module, as clang emits them only when optimising;
//! the zero counts are defined (the width), where GCC leaves them undefined.

use super::{Gen, R, ice};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::GnuOp;
use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op};
use inkwell::IntPredicate;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A call of clang's builtin `op` on `args`, of result type `ty`.
    pub(super) fn clang_builtin(&mut self, op: GnuOp, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        use GnuOp as G;
        let hints = self.opts.opt_level > 0 && !self.spirv();
        match op {
            G::Expect | G::ExpectWithProbability => {
                let v = self.value(args[0])?;
                if !hints {
                    return Ok(Some(v));
                }
                let expected = self.value(args[1])?;
                let probability = match (op, args.get(2)) {
                    (G::ExpectWithProbability, Some(&p)) => match self.value(p)? {
                        BasicValueEnum::FloatValue(f) if f.is_const() => Some(f),
                        _ => None,
                    },
                    _ => None,
                };
                let r = match probability {
                    Some(p) => self.intrinsic("llvm.expect.with.probability", &[v.get_type()], &[v, expected, p.into()])?,
                    None => self.intrinsic("llvm.expect", &[v.get_type()], &[v, expected])?,
                };
                r.map_or_else(|| ice("llvm.expect gave no value"), |r| Ok(Some(r)))
            }
            G::Assume => {
                // No argument: one that might change something, ignored.
                let Some(&a) = args.first() else { return Ok(None) };
                if hints {
                    let c = self.truth(a)?;
                    self.intrinsic("llvm.assume", &[], &[c.into()])?;
                }
                Ok(None)
            }
            G::Unreachable | G::Trap => {
                // LLVM 22's SPIR-V back end drops `llvm.trap`: what is left
                // is OpUnreachable, as from clang-22.
                if op == G::Trap {
                    self.intrinsic("llvm.trap", &[], &[])?;
                }
                self.b.build_unreachable()?;
                self.continue_in_new_block("after.unreachable");
                Ok(None)
            }
            G::DebugTrap => {
                if !self.spirv() {
                    self.intrinsic("llvm.debugtrap", &[], &[])?;
                }
                Ok(None)
            }
            G::Clz | G::Ctz | G::Popcount | G::Parity | G::Ffs | G::Clrsb => {
                let x = self.value(args[0])?;
                let t = x.get_type();
                let bits = super::expr::int_bits(t);
                let r = match op {
                    G::Clz => self.count("llvm.ctlz", x)?,
                    G::Ctz => self.count("llvm.cttz", x)?,
                    G::Popcount => self.count("llvm.ctpop", x)?,
                    G::Parity => {
                        let n = self.count("llvm.ctpop", x)?;
                        self.binop(Op::LLVMAnd, n, self.const_int(t, 1))
                    }
                    G::Ffs => {
                        let n = self.count("llvm.cttz", x)?;
                        let n = self.binop(Op::LLVMAdd, n, self.const_int(t, 1));
                        let zero = self.icmp(IP::LLVMIntEQ, x, self.const_int(t, 0));
                        self.select(zero, self.const_int(t, 0), n)
                    }
                    _ => {
                        // The sign copied over every bit, flipped away:
                        // the leading zeros left, less the sign bit.
                        let sign = self.binop(Op::LLVMAShr, x, self.const_int(t, i128::from(bits) - 1));
                        let y = self.binop(Op::LLVMXor, x, sign);
                        let n = self.count("llvm.ctlz", y)?;
                        self.binop(Op::LLVMSub, n, self.const_int(t, 1))
                    }
                };
                self.resize_int(r, ty).map(Some)
            }
            // (On SPIR-V, `emit` expands `llvm.bitreverse` before the back
            // end sees it: the optimiser makes it of hand-written code too.)
            G::ByteSwap | G::BitReverse => {
                let x = self.value(args[0])?;
                let name = if op == G::ByteSwap { "llvm.bswap" } else { "llvm.bitreverse" };
                self.intrinsic(name, &[x.get_type()], &[x])
            }
            G::RotateLeft | G::RotateRight => {
                let x = self.value(args[0])?;
                let n = self.value(args[1])?;
                let name = if op == G::RotateLeft { "llvm.fshl" } else { "llvm.fshr" };
                self.intrinsic(name, &[x.get_type()], &[x, x, n])
            }
            // Folded by the checker; a constant of the type all the same.
            G::Inf | G::Nan => {
                let t = self.vty(ty)?;
                let v = if op == G::Inf { f64::INFINITY } else { f64::NAN };
                Ok(Some(self.const_of(t, v, 0)))
            }
            G::Prefetch => {
                for &a in args {
                    self.rvalue(a)?;
                }
                Ok(None)
            }
            G::MemCopy { .. } | G::MemSet => {
                let overlap = op == G::MemCopy { overlap: true };
                let (BasicValueEnum::PointerValue(d), x, BasicValueEnum::IntValue(n)) = (self.value(args[0])?, self.value(args[1])?, self.value(args[2])?) else {
                    return ice("memcpy/memset operands of the wrong types");
                };
                match (op, x) {
                    (G::MemSet, BasicValueEnum::IntValue(c)) => {
                        let byte = self.b.build_int_truncate(c, self.ctx.i8_type(), "")?;
                        self.b.build_memset(d, 1, byte, n)?;
                    }
                    // LLVM 22's SPIR-V back end writes `llvm.memmove` as an
                    // OpCopyMemorySized, whose operands may not overlap.
                    (_, BasicValueEnum::PointerValue(s)) if overlap && self.spirv() => self.byte_move(d, s, n)?,
                    (_, BasicValueEnum::PointerValue(s)) if overlap => {
                        self.b.build_memmove(d, 1, s, 1, n)?;
                    }
                    (_, BasicValueEnum::PointerValue(s)) => {
                        self.b.build_memcpy(d, 1, s, 1, n)?;
                    }
                    _ => return ice("memcpy/memset operands of the wrong types"),
                }
                Ok(Some(d.into()))
            }
            G::ConstantP => {
                let t = self.vty(ty)?;
                Ok(Some(self.const_int(t, 0)))
            }
        }
    }

    /// `memmove` a byte at a time: forwards when `d` is below `s`, else
    /// backwards, so that overlapping bytes are read before written.
    fn byte_move(&mut self, d: PointerValue<'ctx>, s: PointerValue<'ctx>, n: IntValue<'ctx>) -> R<()> {
        let f = self.fs().llfn;
        let it = n.get_type();
        let i8t = self.ctx.i8_type();
        let di = self.b.build_ptr_to_int(d, it, "")?;
        let si = self.b.build_ptr_to_int(s, it, "")?;
        let forward = self.b.build_int_compare(IntPredicate::ULE, di, si, "")?;
        let start = self.b.get_insert_block().ok_or_else(|| super::InternalError { function: None, message: "memmove outside a block".into() })?;
        let (fhead, fbody) = (self.ctx.append_basic_block(f, "move.fwd"), self.ctx.append_basic_block(f, "move.fwd.body"));
        let (bhead, bbody) = (self.ctx.append_basic_block(f, "move.back"), self.ctx.append_basic_block(f, "move.back.body"));
        let done = self.ctx.append_basic_block(f, "move.done");
        self.b.build_conditional_branch(forward, fhead, bhead)?;
        let step = |g: &mut Self, at: IntValue<'ctx>| -> R<()> {
            // SAFETY: `at` is below `n`, the bytes the call may touch.
            let (from, to) = unsafe { (g.b.build_in_bounds_gep(i8t, s, &[at], "")?, g.b.build_in_bounds_gep(i8t, d, &[at], "")?) };
            let byte = g.b.build_load(i8t, from, "")?;
            g.b.build_store(to, byte)?;
            Ok(())
        };
        // for (i = 0; i < n; i++) d[i] = s[i];
        self.b.position_at_end(fhead);
        let i = self.b.build_phi(it, "")?;
        let more = self.b.build_int_compare(IntPredicate::ULT, i.as_basic_value().into_int_value(), n, "")?;
        self.b.build_conditional_branch(more, fbody, done)?;
        self.b.position_at_end(fbody);
        step(self, i.as_basic_value().into_int_value())?;
        let next = self.b.build_int_add(i.as_basic_value().into_int_value(), it.const_int(1, false), "")?;
        self.b.build_unconditional_branch(fhead)?;
        i.add_incoming(&[(&it.const_zero(), start), (&next, fbody)]);
        // for (j = n; j > 0; j--) d[j - 1] = s[j - 1];
        self.b.position_at_end(bhead);
        let j = self.b.build_phi(it, "")?;
        let more = self.b.build_int_compare(IntPredicate::NE, j.as_basic_value().into_int_value(), it.const_zero(), "")?;
        self.b.build_conditional_branch(more, bbody, done)?;
        self.b.position_at_end(bbody);
        let prev = self.b.build_int_sub(j.as_basic_value().into_int_value(), it.const_int(1, false), "")?;
        step(self, prev)?;
        self.b.build_unconditional_branch(bhead)?;
        j.add_incoming(&[(&n, start), (&prev, bbody)]);
        self.b.position_at_end(done);
        Ok(())
    }

    /// `llvm.ctlz`, `llvm.cttz` (defined for zero) or `llvm.ctpop` of `x`.
    fn count(&mut self, name: &str, x: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let r = if name == "llvm.ctpop" {
            self.intrinsic(name, &[x.get_type()], &[x])?
        } else {
            let defined = self.ctx.bool_type().const_zero().into();
            self.intrinsic(name, &[x.get_type()], &[x, defined])?
        };
        r.map_or_else(|| ice(format!("{name} gave no value")), Ok)
    }

    /// `v`, an integer, truncated or zero-extended to `ty`.
    fn resize_int(&mut self, v: BasicValueEnum<'ctx>, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let t = self.vty(ty)?;
        let (from, to) = (super::expr::int_bits(v.get_type()), super::expr::int_bits(t));
        Ok(match from.cmp(&to) {
            std::cmp::Ordering::Greater => self.cast(Op::LLVMTrunc, v, t),
            std::cmp::Ordering::Less => self.cast(Op::LLVMZExt, v, t),
            std::cmp::Ordering::Equal => v,
        })
    }
}
