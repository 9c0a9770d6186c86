//! `printf` on native targets: OpenCL C's format rules on top of the C
//! library's `printf`.
//!
//! OpenCL's format differs from C's: vector conversions (`%v4hlf` prints
//! a `float4` as four comma-separated `%f`s), `hl` for 32-bit vector
//! elements, `float` arguments that are not promoted to `double`, and a
//! return value of 0 on success and -1 on failure. The format is a string
//! literal (the checker makes sure), so it is rewritten here, at compile
//! time, into a C format whose conversions each take one scalar argument
//! of C's promoted type: vectors are split into their elements, `float`
//! and `half` widened to `double`, small integers to `int`. The arguments'
//! own types decide whether a conversion takes `l` (64 bits), so a format
//! that disagrees with its arguments prints something defined instead of
//! reading the wrong registers; the format's `hh` and `h` stay (C prints
//! the `int` converted back to a char or short, as OpenCL asks). (On
//! SPIR-V the format goes to the consumer's `printf` extended instruction
//! untouched.)

use super::expr::{is_float, is_signed};
use super::{Gen, R};
use crate::sema::hir::{ExprId, ExprKind};
use clc_builtins::functions::AddrSpace;
use clc_builtins::printf::{Conversion, Piece, parse};
use clc_builtins::types::Scalar;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum};

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// `printf(format, args...)` through the C library (native targets).
    pub(super) fn native_printf(&mut self, args: &[ExprId]) -> R<Option<BasicValueEnum<'ctx>>> {
        let Some(fmt) = args.first().and_then(|&a| self.literal_bytes(a)) else {
            // The checker requires a literal; without one, print nothing.
            return Ok(Some(self.ctx.i32_type().const_all_ones().into()));
        };
        let mut out: Vec<u8> = Vec::new();
        let mut vals: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
        let mut next = 1;
        for piece in parse(&fmt) {
            match piece {
                Piece::Text(t) => {
                    for b in t {
                        if b == b'%' {
                            out.push(b'%');
                        }
                        out.push(b);
                    }
                }
                Piece::Conv(c) => {
                    if next + c.stars >= args.len() {
                        // Fewer arguments than conversions: the rest is
                        // printed as written.
                        out.extend(format!("%%{}{}", c.head, c.conv as char).bytes());
                        continue;
                    }
                    for _ in 0..c.stars {
                        // A width or precision is an `int`; another type
                        // (-Wformat says so) is converted as C would
                        // convert it to one, or is 0 (a vector, a record).
                        let v = self.value(args[next])?;
                        let i32t = self.ctx.i32_type();
                        let n = match v {
                            BasicValueEnum::IntValue(_) => self.int_resize(v, i32t.into(), true),
                            BasicValueEnum::FloatValue(f) => self.b.build_float_to_signed_int(f, i32t, "star")?.into(),
                            BasicValueEnum::PointerValue(p) => self.b.build_ptr_to_int(p, i32t, "star")?.into(),
                            _ => i32t.const_zero().into(),
                        };
                        vals.push(n.into());
                        next += 1;
                    }
                    let a = args[next];
                    next += 1;
                    self.conversion(&c, a, &mut out, &mut vals)?;
                }
            }
        }
        // Arguments beyond the conversions are evaluated, not printed.
        for &a in args.iter().skip(next) {
            self.value(a)?;
        }
        out.push(0);
        let fmt_ptr = self.string(&out, AddrSpace::Private);
        let mut call_args: Vec<BasicMetadataValueEnum<'ctx>> = vec![fmt_ptr.into()];
        call_args.extend(vals);
        let f = self.c_printf();
        let call = self.b.build_call(f, &call_args, "")?;
        // Not the C library's printf to LLVM: it would make `printf("%s\n",
        // s)` a `puts` call and `printf("x")` a `putchar`, which the CPU
        // runtime does not provide.
        let nobuiltin = inkwell::attributes::Attribute::get_named_enum_kind_id("nobuiltin");
        call.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_enum_attribute(nobuiltin, 0));
        let r = call.try_as_basic_value().basic().expect("printf returns int").into_int_value();
        // OpenCL's result: 0 on success, -1 on failure.
        let i32t = self.ctx.i32_type();
        let failed = self.b.build_int_compare(inkwell::IntPredicate::SLT, r, i32t.const_zero(), "")?;
        Ok(Some(self.b.build_select(failed, i32t.const_all_ones(), i32t.const_zero(), "")?))
    }

    /// Appends the C conversions for one OpenCL conversion of argument
    /// `a` to `out`, and their values to `vals`.
    fn conversion(&mut self, c: &Conversion, a: ExprId, out: &mut Vec<u8>, vals: &mut Vec<BasicMetadataValueEnum<'ctx>>) -> R<()> {
        let ty = self.expr_info(a).ty.ty;
        let v = self.value(a)?;
        if c.conv == b's' || c.conv == b'p' {
            let p = if v.is_pointer_value() { self.cast(Op::LLVMAddrSpaceCast, v, self.ptr_ty(AddrSpace::Private).into()) } else { v };
            out.extend(format!("%{}{}", c.head, c.conv as char).bytes());
            vals.push(p.into());
            return Ok(());
        }
        let scalar = self.elem_scalar(ty).unwrap_or(Scalar::Int);
        let lanes: Vec<BasicValueEnum<'ctx>> = match v {
            BasicValueEnum::VectorValue(vec) => {
                let n = self.lanes_of(ty).map_or(vec.get_type().get_size(), u32::from);
                (0..n).map(|i| self.b.build_extract_element(vec, self.ctx.i32_type().const_int(i as u64, false), "")).collect::<Result<_, _>>()?
            }
            other => vec![other],
        };
        let float_conv = b"fFeEgGaA".contains(&c.conv);
        for (k, lane) in lanes.into_iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            let lane = if lane.is_pointer_value() { self.b.build_ptr_to_int(lane.into_pointer_value(), self.ctx.i64_type(), "")?.into() } else { lane };
            if float_conv {
                let d = self.ctx.f64_type().into();
                let x = if lane.is_float_value() {
                    self.cast(Op::LLVMFPExt, lane, d)
                } else if is_signed(scalar) {
                    self.cast(Op::LLVMSIToFP, lane, d)
                } else {
                    self.cast(Op::LLVMUIToFP, lane, d)
                };
                out.extend(format!("%{}{}", c.head, c.conv as char).bytes());
                vals.push(x.into());
            } else {
                // An integer conversion: `int`, or `long` for 64 bits.
                let x = if lane.is_float_value() {
                    let i64t = self.ctx.i64_type().into();
                    self.cast(if is_float(scalar) && c.conv != b'u' { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, lane, i64t)
                } else {
                    lane
                };
                // 64 bits take `l`; narrower values go as `int`, and the
                // format's `hh` or `h` (not `hl`, OpenCL's 32-bit vector
                // lanes) stays, so that C converts them back as it would
                // (`%hx` of a short -42 is ffd6).
                let bits = x.into_int_value().get_type().get_bit_width();
                let (x, len) = if bits > 32 {
                    (x, "l")
                } else {
                    let i32t = self.ctx.i32_type().into();
                    (self.int_resize(x, i32t, is_signed(scalar)), if matches!(c.length, "hh" | "h") { c.length } else { "" })
                };
                let (len, conv) = if c.conv == b'c' { ("", 'c') } else { (len, c.conv as char) };
                out.extend(format!("%{}{}{}", c.head, len, conv).bytes());
                vals.push(x.into());
            }
        }
        Ok(())
    }

    /// The bytes of a string literal argument (through its conversions).
    fn literal_bytes(&self, mut a: ExprId) -> Option<Vec<u8>> {
        loop {
            match &self.expr_info(a).kind {
                ExprKind::Str(bytes) => return Some(bytes.strip_suffix(&[0]).unwrap_or(bytes).to_vec()),
                ExprKind::Convert { expr, .. } => a = *expr,
                _ => return None,
            }
        }
    }

    fn c_printf(&mut self) -> inkwell::values::FunctionValue<'ctx> {
        let p = self.ptr_ty(AddrSpace::Private);
        self.module.get_function("printf").unwrap_or_else(|| self.module.add_function("printf", self.ctx.i32_type().fn_type(&[p.into()], true), None))
    }
}
