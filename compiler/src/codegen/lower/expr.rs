//! Expressions: values, places (lvalues) and conversions.

use super::{Gen, Lanes, Place, R, ice};
use crate::parse::ast::{BinOp, UnOp};
use crate::sema::hir::{ConvKind, ExprId, ExprKind, LaneConv};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::AddrSpace;
use clc_builtins::types::Scalar;
use inkwell::llvm_sys::{self as llvm_sys, LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{AsValueRef, BasicValueEnum, IntValue, PointerValue};

pub(super) fn is_float(s: Scalar) -> bool {
    matches!(s, Scalar::Half | Scalar::Float | Scalar::Double)
}

pub(super) fn is_signed(s: Scalar) -> bool {
    matches!(s, Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long | Scalar::PtrDiff)
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The element scalar of a scalar, vector, enum or atomic type.
    pub(super) fn elem_scalar(&self, t: TypeId) -> Option<Scalar> {
        match self.kind(t) {
            TypeKind::Scalar(s) | TypeKind::Vector(s, _) | TypeKind::Atomic(Some(s)) => Some(*s),
            TypeKind::Enum(_) => Some(Scalar::Int),
            TypeKind::Opaque(_) | TypeKind::Atomic(None) => Some(Scalar::UInt),
            _ => None,
        }
    }

    pub(super) fn lanes_of(&self, t: TypeId) -> Option<u8> {
        match self.kind(t) {
            TypeKind::Vector(_, n) => Some(*n),
            _ => None,
        }
    }

    /// The value of an expression that has one.
    pub(super) fn value(&mut self, id: ExprId) -> R<BasicValueEnum<'ctx>> {
        match self.rvalue(id)? {
            Some(v) => Ok(v),
            None => ice("a void expression used as a value"),
        }
    }

    /// Evaluates an expression; `None` for `void`.
    pub(super) fn rvalue(&mut self, id: ExprId) -> R<Option<BasicValueEnum<'ctx>>> {
        let e = self.expr_info(id);
        let ty = e.ty.ty;
        self.debug_at(e.span);
        let known = self.fs.as_ref().and_then(|f| {
            let g = f.group.as_ref()?;
            (g.index.is_some() && std::ptr::eq(g.known_in, f.exprs.as_ptr())).then(|| g.known.iter().find(|k| k.0 == id).map(|k| k.1))?
        });
        if let Some(value) = known {
            // A comparison known for every work-item of this part of the
            // region (`xsplit`'s `x_parts`).
            let t = self.vty(ty)?;
            return Ok(Some(self.const_int(t, value as i128)));
        }
        if e.lvalue {
            // An lvalue evaluated for its value (only for side effects, or
            // a record/array used whole): its address for aggregates.
            let p = self.place(id)?;
            return match p {
                Place::Mem { ptr, ty, .. } if self.is_record(ty) || matches!(self.kind(ty), TypeKind::Array(..)) => {
                    self.load_aggregate(ptr, ty).map(Some)
                }
                p => self.load_place(&p).map(Some),
            };
        }
        Ok(Some(match &e.kind {
            ExprKind::Int(v) => {
                let t = self.vty(ty)?;
                self.const_int(t, *v)
            }
            ExprKind::Float(v) => {
                let t = self.vty(ty)?;
                self.const_of(t, *v, 0)
            }
            ExprKind::BuiltinConst(name) => self.builtin_const(name, ty)?,
            ExprKind::Func(name) => match self.program.functions.iter().position(|f| &f.name == name) {
                Some(i) => self.funcs[i].as_global_value().as_pointer_value().into(),
                None => return ice(format!("function '{name}' has no body")),
            },
            ExprKind::Load(inner) => {
                if self.const_eval {
                    if let Some(v) = self.fold_load(*inner) {
                        let t = self.expr_info(*inner).ty.ty;
                        if matches!(self.kind(t), TypeKind::Scalar(Scalar::Bool)) {
                            let z = v.get_type().const_zero();
                            return Ok(Some(self.icmp(IP::LLVMIntNE, v, z)));
                        }
                        return Ok(Some(v));
                    }
                }
                if let ExprKind::Global(g) = self.expr_info(*inner).kind {
                    if let Some(&v) = self.samplers.get(&g.0) {
                        let i = self.ctx.i32_type().const_int(v as u64, false).into();
                        return self.translate_sampler(i).map(Some);
                    }
                }
                let p = self.place(*inner)?;
                self.load_place(&p)?
            }
            ExprKind::Convert { kind, expr } => return self.convert_expr(*kind, *expr, ty),
            ExprKind::Unary { op, expr } => self.unary(*op, *expr, ty)?,
            ExprKind::Binary { op, lhs, rhs, op_ty } => self.binary(*op, *lhs, *rhs, op_ty.ty, ty)?,
            ExprKind::PtrOffset { ptr, offset, sub } => {
                let p = self.value(*ptr)?.into_pointer_value();
                let mut o = self.value(*offset)?;
                if *sub {
                    let z = self.const_int(o.get_type(), 0);
                    o = self.binop(Op::LLVMSub, z, o);
                }
                let elem = self.pointee(ty)?;
                self.gep(elem, p, o.into_int_value())?.into()
            }
            ExprKind::PtrDiff { lhs, rhs } => {
                let lt = self.expr_info(*lhs).ty.ty;
                let elem = self.pointee(lt)?;
                let size = self.types.size_align(elem).map_or(1, |s| s.0.max(1));
                let it = self.vty(ty)?;
                let a = self.value(*lhs)?;
                let b = self.value(*rhs)?;
                let a = self.cast(Op::LLVMPtrToInt, a, it);
                let b = self.cast(Op::LLVMPtrToInt, b, it);
                let d = self.binop(Op::LLVMSub, a, b);
                let s = self.const_int(it, size as i128);
                self.binop(Op::LLVMSDiv, d, s)
            }
            ExprKind::Assign { lhs, rhs } => {
                let lt = self.expr_info(*lhs).ty.ty;
                if self.is_record(lt) || matches!(self.kind(lt), TypeKind::Array(..)) {
                    let src = self.aggregate_ptr(*rhs)?;
                    let dst = self.place(*lhs)?;
                    let Place::Mem { ptr, .. } = dst else { return ice("an aggregate assigned to vector lanes") };
                    self.copy_object(ptr, src, lt)?;
                    return Ok(Some(self.load_aggregate(ptr, lt)?));
                }
                let v = self.value(*rhs)?;
                let p = self.place(*lhs)?;
                self.store_place(&p, v)?;
                v
            }
            ExprKind::CompoundAssign { op, lhs, rhs, comp_ty } => self.compound_assign(*op, *lhs, *rhs, comp_ty.ty)?,
            ExprKind::IncDec { inc, prefix, expr } => self.inc_dec(*inc, *prefix, *expr)?,
            ExprKind::Member { base, field } => {
                // A member of an rvalue record (a call's result).
                let bt = self.expr_info(*base).ty.ty;
                let ptr = self.aggregate_ptr(*base)?;
                let fp = self.member_ptr(ptr, bt, *field)?;
                self.load_value(fp, ty, false)?
            }
            ExprKind::Swizzle { base, lanes } => {
                let v = self.value(*base)?;
                self.extract_lanes(v, lanes)?
            }
            ExprKind::Index { base, index } => {
                // An element of a vector rvalue.
                let v = self.value(*base)?.into_vector_value();
                let i = self.value(*index)?.into_int_value();
                self.b.build_extract_element(v, i, "")?
            }
            ExprKind::VectorLiteral(parts) => self.vector_literal(parts, ty)?,
            ExprKind::Call { func, args, name } => {
                // A synchronising function already run for the group.
                if let Some(r) = self.precomputed_call(id)? {
                    return Ok(r);
                }
                let Some(fid) = func else { return self.call_external(name, args, ty) };
                return self.call_user(fid.0 as usize, args, ty);
            }
            ExprKind::BlockLiteral { .. } => self.block_literal(id)?,
            ExprKind::CallValue { callee, args } => return self.call_block(*callee, args, ty),
            ExprKind::BuiltinCall { overload, args, .. } => return self.builtin_call(id, overload, args),
            ExprKind::Cond { cond, then, else_ } => return self.conditional(*cond, *then, *else_, ty),
            ExprKind::Comma { lhs, rhs } => {
                self.rvalue(*lhs)?;
                return self.rvalue(*rhs);
            }
            ExprKind::StmtExpr { body, value } => {
                // Jumps in the body leave the builder in a fresh block
                // (`stmt`), so the value always has one to go in.
                self.stmts(body)?;
                return match value {
                    Some(v) => self.rvalue(*v),
                    None => Ok(None),
                };
            }
            ExprKind::AddrOf(inner) => match self.place(*inner)? {
                Place::Mem { ptr, .. } => ptr.into(),
                Place::Lanes { .. } => return ice("the address of vector lanes"),
            },
            ExprKind::Str(_) | ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::CompoundLiteral(_) => {
                return ice("an lvalue expression marked as an rvalue");
            }
        }))
    }

    /// The type a pointer type points to.
    pub(super) fn pointee(&self, t: TypeId) -> R<TypeId> {
        match self.kind(t) {
            TypeKind::Pointer(p) => Ok(p.ty),
            _ => ice("pointer arithmetic on a non-pointer"),
        }
    }

    /// `&ptr[index]` for elements of `elem`.
    pub(super) fn gep(&mut self, elem: TypeId, ptr: PointerValue<'ctx>, index: IntValue<'ctx>) -> R<PointerValue<'ctx>> {
        let et = if matches!(self.kind(elem), TypeKind::Void | TypeKind::Function { .. }) { self.ctx.i8_type().into() } else { self.mem_ty(elem)? };
        // SAFETY: a GEP computes an address; it does not access memory.
        Ok(unsafe { self.b.build_gep(et, ptr, &[index], "")? })
    }

    // -----------------------------------------------------------------
    // Places
    // -----------------------------------------------------------------

    /// Where an lvalue expression is.
    pub(super) fn place(&mut self, id: ExprId) -> R<Place<'ctx>> {
        let e = self.expr_info(id);
        let ty = e.ty.ty;
        self.debug_at(e.span);
        let volatile = e.ty.quals.is_volatile;
        Ok(match &e.kind {
            ExprKind::Local(l) => {
                let ptr = self.local_ptr(*l)?;
                Place::Mem { ptr, ty, volatile }
            }
            ExprKind::Global(g) => Place::Mem { ptr: self.globals[g.0 as usize].as_pointer_value(), ty, volatile },
            // The literal's array holds its NUL.
            ExprKind::Str(bytes) => {
                let mut z = bytes.clone();
                z.push(0);
                Place::Mem { ptr: self.string(&z, e.ty.space), ty, volatile: false }
            }
            ExprKind::Deref(p) => {
                let ptr = self.value(*p)?.into_pointer_value();
                Place::Mem { ptr, ty, volatile }
            }
            ExprKind::Index { base, index } => {
                let be = self.expr_info(*base);
                if be.lvalue && self.lanes_of(be.ty.ty).is_some() {
                    let i = self.value(*index)?.into_int_value();
                    return match self.place(*base)? {
                        Place::Mem { ptr, ty: vec, .. } => Ok(Place::Lanes { ptr, vec, lanes: Lanes::Dynamic(i) }),
                        Place::Lanes { .. } => ice("an index into a swizzle"),
                    };
                }
                // SPIR-V: an element of an array object is addressed through
                // the array's type. LLVM 22's back end gives a private array
                // of pointers indexed by element GEPs (constant ones only)
                // the type of one element: an OpVariable too small. (Not
                // arrays of event_t: the back end types those as one
                // OpTypeEvent whatever the GEP.)
                if self.spirv()
                    && let ExprKind::Convert { kind: crate::sema::hir::ConvKind::ArrayDecay, expr: arr } = &be.kind
                    && let TypeKind::Array(elem, Some(_)) = self.kind(self.expr_info(*arr).ty.ty)
                    && !matches!(self.kind(elem.ty), TypeKind::Opaque(clc_builtins::types::Opaque::Event))
                    && let Place::Mem { ptr: a, .. } = self.place(*arr)?
                {
                    let at = self.mem_ty(self.expr_info(*arr).ty.ty)?;
                    let i = self.value(*index)?.into_int_value();
                    let zero = i.get_type().const_zero();
                    // SAFETY: a GEP computes an address; it does not access memory.
                    let ptr = unsafe { self.b.build_gep(at, a, &[zero, i], "")? };
                    return Ok(Place::Mem { ptr, ty, volatile });
                }
                let p = self.value(*base)?.into_pointer_value();
                let i = self.value(*index)?.into_int_value();
                Place::Mem { ptr: self.gep(ty, p, i)?, ty, volatile }
            }
            ExprKind::Member { base, field } => {
                let bt = self.expr_info(*base).ty.ty;
                let ptr = if self.expr_info(*base).lvalue {
                    match self.place(*base)? {
                        Place::Mem { ptr, .. } => ptr,
                        Place::Lanes { .. } => return ice("a member of vector lanes"),
                    }
                } else {
                    self.aggregate_ptr(*base)?
                };
                Place::Mem { ptr: self.member_ptr(ptr, bt, *field)?, ty, volatile }
            }
            ExprKind::Swizzle { base, lanes } => match self.place(*base)? {
                Place::Mem { ptr, ty: vec, .. } => Place::Lanes { ptr, vec, lanes: Lanes::Fixed(lanes.clone()) },
                Place::Lanes { ptr, vec, lanes: Lanes::Fixed(outer) } => {
                    let composed = lanes.iter().map(|&l| outer.get(l as usize).copied().unwrap_or(0)).collect();
                    Place::Lanes { ptr, vec, lanes: Lanes::Fixed(composed) }
                }
                Place::Lanes { .. } => return ice("a swizzle of a dynamic lane"),
            },
            ExprKind::CompoundLiteral(init) => {
                let slot = self.alloca(ty, "compoundliteral")?;
                self.init_local(slot, e.ty, init)?;
                Place::Mem { ptr: slot, ty, volatile: false }
            }
            ExprKind::Comma { lhs, rhs } => {
                self.rvalue(*lhs)?;
                return self.place(*rhs);
            }
            _ if self.is_record(ty) => Place::Mem { ptr: self.aggregate_ptr(id)?, ty, volatile: false },
            _ => return ice("an rvalue used as an lvalue"),
        })
    }

    /// The storage of a local: allocated when first seen (a `__local`
    /// variable of a kernel is a module-level variable in the local space).
    pub(super) fn local_ptr(&mut self, l: crate::sema::hir::LocalId) -> R<PointerValue<'ctx>> {
        if self.fs().group.is_some() && matches!(self.local_info(l).ty.space, AddrSpace::Private | AddrSpace::Generic) {
            if let Some(p) = self.group_local(l)? {
                return Ok(p);
            }
        }
        if let Some(p) = self.fs().locals[l.0 as usize] {
            return Ok(p);
        }
        let info = self.local_info(l);
        let ptr = match info.ty.space {
            AddrSpace::Private | AddrSpace::Generic => self.alloca(info.ty.ty, &info.name)?,
            // Per-group storage on the CPU.
            AddrSpace::Local if self.cpu_abi() => self.local_mem_var(l)?,
            space => {
                let t = self.mem_ty(info.ty.ty)?;
                let name = format!("{}.{}", self.fs().name, info.name);
                let gv = self.module.add_global(t, Some(Self::addr_space(space)), &name);
                gv.set_linkage(inkwell::module::Linkage::Internal);
                gv.set_alignment(self.align_of(info.ty.ty));
                if space == AddrSpace::Local {
                    // Local memory starts undefined (OpenCL C 6.5.2).
                    gv.set_initializer(&super::poison(t));
                } else {
                    gv.set_initializer(&t.const_zero());
                    if space == AddrSpace::Constant {
                        gv.set_constant(true);
                    }
                }
                gv.as_pointer_value()
            }
        };
        self.fs_mut().locals[l.0 as usize] = Some(ptr);
        Ok(ptr)
    }

    /// The address of field `field` of the record of type `t` at `ptr`.
    pub(super) fn member_ptr(&mut self, ptr: PointerValue<'ctx>, t: TypeId, field: u32) -> R<PointerValue<'ctx>> {
        let TypeKind::Record(idx) = *self.kind(t) else { return ice("a member of a non-record") };
        if self.types.records[idx as usize].is_union {
            return Ok(ptr);
        }
        if self.spirv() {
            // A byte offset: LLVM 22's SPIR-V back end turns the constant 0
            // struct index of a struct GEP into OpConstantNull, which
            // spirv-val rejects (clang-22 -O0 output has the same problem).
            let off = self.types.record_layout(idx).and_then(|l| l.offsets.get(field as usize).copied()).unwrap_or(0);
            return self.byte_offset(ptr, off);
        }
        let st = self.record_ty(idx)?;
        let i = self.field_index(idx, field);
        Ok(self.b.build_struct_gep(st, ptr, i, "")?)
    }

    /// `ptr + off` bytes.
    pub(super) fn byte_offset(&mut self, ptr: PointerValue<'ctx>, off: u64) -> R<PointerValue<'ctx>> {
        if off == 0 {
            return Ok(ptr);
        }
        let i = self.int_ty(self.size_bits()).const_int(off, false);
        // SAFETY: address arithmetic only.
        Ok(unsafe { self.b.build_in_bounds_gep(self.ctx.i8_type(), ptr, &[i], "")? })
    }

    /// A pointer to an aggregate value: the object itself for lvalues, a
    /// temporary holding the value otherwise.
    pub(super) fn aggregate_ptr(&mut self, id: ExprId) -> R<PointerValue<'ctx>> {
        let e = self.expr_info(id);
        if e.lvalue {
            return match self.place(id)? {
                Place::Mem { ptr, .. } => Ok(ptr),
                Place::Lanes { .. } => ice("vector lanes used as an aggregate"),
            };
        }
        if let ExprKind::Load(inner) = &e.kind {
            return self.aggregate_ptr(*inner);
        }
        if let ExprKind::Call { func: Some(fid), args, .. } = &e.kind {
            if self.is_record(e.ty.ty) {
                let slot = self.alloca(e.ty.ty, "tmp")?;
                self.call_user_into(fid.0 as usize, args, Some(slot))?;
                return Ok(slot);
            }
        }
        let v = self.value(id)?;
        let slot = self.alloca(e.ty.ty, "tmp")?;
        self.b.build_store(slot, v)?;
        Ok(slot)
    }

    /// The whole value of an aggregate object.
    pub(super) fn load_aggregate(&mut self, ptr: PointerValue<'ctx>, t: TypeId) -> R<BasicValueEnum<'ctx>> {
        let lt = self.mem_ty(t)?;
        Ok(self.b.build_load(lt, ptr, "")?)
    }

    pub(super) fn load_place(&mut self, p: &Place<'ctx>) -> R<BasicValueEnum<'ctx>> {
        match p {
            Place::Mem { ptr, ty, volatile } => self.load_value(*ptr, *ty, *volatile),
            Place::Lanes { ptr, vec, lanes } => {
                let v = self.load_value(*ptr, *vec, false)?;
                match lanes {
                    Lanes::Fixed(l) => self.extract_lanes(v, l),
                    Lanes::Dynamic(i) => Ok(self.b.build_extract_element(v.into_vector_value(), *i, "")?),
                }
            }
        }
    }

    pub(super) fn store_place(&mut self, p: &Place<'ctx>, v: BasicValueEnum<'ctx>) -> R<()> {
        match p {
            Place::Mem { ptr, ty, volatile } => self.store_value(*ptr, *ty, v, *volatile),
            Place::Lanes { ptr, vec, lanes } => {
                let old = self.load_value(*ptr, *vec, false)?.into_vector_value();
                let new = match lanes {
                    Lanes::Dynamic(i) => self.b.build_insert_element(old, v, *i, "")?,
                    Lanes::Fixed(l) => {
                        let mut acc = old;
                        for (k, &lane) in l.iter().enumerate() {
                            let x = if l.len() == 1 && !v.is_vector_value() {
                                v
                            } else {
                                let kk = self.ctx.i32_type().const_int(k as u64, false);
                                self.b.build_extract_element(v.into_vector_value(), kk, "")?
                            };
                            let li = self.ctx.i32_type().const_int(lane as u64, false);
                            acc = self.b.build_insert_element(acc, x, li, "")?;
                        }
                        acc
                    }
                };
                self.store_value(*ptr, *vec, new.into(), false)
            }
        }
    }

    /// Lanes of a vector value: a scalar for one lane, else a vector.
    pub(super) fn extract_lanes(&mut self, v: BasicValueEnum<'ctx>, lanes: &[u8]) -> R<BasicValueEnum<'ctx>> {
        let vv = v.into_vector_value();
        if lanes.len() == 1 {
            let i = self.ctx.i32_type().const_int(lanes[0] as u64, false);
            return Ok(self.b.build_extract_element(vv, i, "")?);
        }
        let mask: Vec<_> = lanes.iter().map(|&l| self.ctx.i32_type().const_int(l as u64, false)).collect();
        let mask = inkwell::types::VectorType::const_vector(&mask);
        Ok(self.b.build_shuffle_vector(vv, vv.get_type().get_poison(), mask, "")?.into())
    }

    fn vector_literal(&mut self, parts: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let vt = self.vty(ty)?.into_vector_type();
        let mut acc = vt.get_poison();
        let mut lane = 0u32;
        for &p in parts {
            let v = self.value(p)?;
            let n = self.lanes_of(self.expr_info(p).ty.ty);
            match n {
                None => {
                    let i = self.ctx.i32_type().const_int(lane as u64, false);
                    acc = self.b.build_insert_element(acc, v, i, "")?;
                    lane += 1;
                }
                Some(n) => {
                    for k in 0..n as u64 {
                        let ki = self.ctx.i32_type().const_int(k, false);
                        let x = self.b.build_extract_element(v.into_vector_value(), ki, "")?;
                        let i = self.ctx.i32_type().const_int(lane as u64, false);
                        acc = self.b.build_insert_element(acc, x, i, "")?;
                        lane += 1;
                    }
                }
            }
        }
        // `(float4)(x)`: one scalar fills every lane.
        if lane == 1 && vt.get_size() > 1 {
            let zero = self.ctx.i32_type().const_zero();
            let x = self.b.build_extract_element(acc, zero, "")?;
            return Ok(self.splat(x, vt.get_size()));
        }
        Ok(acc.into())
    }

    pub(super) fn splat(&mut self, x: BasicValueEnum<'ctx>, n: u32) -> BasicValueEnum<'ctx> {
        let vt = match x.get_type() {
            BasicTypeEnum::IntType(i) => i.vec_type(n),
            BasicTypeEnum::FloatType(f) => f.vec_type(n),
            BasicTypeEnum::PointerType(p) => p.vec_type(n),
            _ => return x,
        };
        let zero = self.ctx.i32_type().const_zero();
        let one = self.b.build_insert_element(vt.get_poison(), x, zero, "").expect("positioned builder");
        let mask = inkwell::types::VectorType::const_vector(&vec![self.ctx.i32_type().const_zero(); n as usize]);
        self.b.build_shuffle_vector(one, vt.get_poison(), mask, "").expect("positioned builder").into()
    }

    // -----------------------------------------------------------------
    // Conversions
    // -----------------------------------------------------------------

    fn convert_expr(&mut self, kind: ConvKind, expr: ExprId, to: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let from = self.expr_info(expr).ty.ty;
        if kind == ConvKind::ArrayDecay {
            // With opaque pointers an array's address is its first
            // element's.
            return match self.place(expr)? {
                Place::Mem { ptr, .. } => Ok(Some(ptr.into())),
                Place::Lanes { .. } => ice("array decay of vector lanes"),
            };
        }
        if kind == ConvKind::FuncToPtr {
            return self.rvalue(expr);
        }
        if kind == ConvKind::Bitcast && matches!(self.kind(to), TypeKind::Void) {
            // `(void)x`.
            self.rvalue(expr)?;
            return Ok(None);
        }
        let v = self.value(expr)?;
        self.convert(v, kind, from, to).map(Some)
    }

    /// Applies one conversion.
    pub(super) fn convert(&mut self, v: BasicValueEnum<'ctx>, kind: ConvKind, from: TypeId, to: TypeId) -> R<BasicValueEnum<'ctx>> {
        let tt = self.vty(to)?;
        Ok(match kind {
            ConvKind::IntResize { signed } => self.int_resize(v, tt, signed),
            ConvKind::IntToFloat { signed } => self.cast(if signed { Op::LLVMSIToFP } else { Op::LLVMUIToFP }, v, tt),
            ConvKind::FloatToInt { signed } => self.cast(if signed { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, v, tt),
            ConvKind::FloatResize => self.float_resize(v, tt),
            ConvKind::Lanes(l) => match l {
                LaneConv::IntResize { signed } => self.int_resize(v, tt, signed),
                LaneConv::IntToFloat { signed } => self.cast(if signed { Op::LLVMSIToFP } else { Op::LLVMUIToFP }, v, tt),
                LaneConv::FloatToInt { signed } => self.cast(if signed { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, v, tt),
                LaneConv::FloatResize => self.float_resize(v, tt),
            },
            ConvKind::ToBool => self.is_nonzero(v, from)?,
            ConvKind::Splat => {
                let n = self.lanes_of(to).unwrap_or(1) as u32;
                self.splat(v, n)
            }
            ConvKind::PtrCast => v,
            ConvKind::AddrSpaceCast => self.cast(Op::LLVMAddrSpaceCast, v, tt),
            ConvKind::IntToPtr => {
                let it = self.int_ty(self.size_bits());
                let w = self.int_resize(v, it.into(), true);
                self.cast(Op::LLVMIntToPtr, w, tt)
            }
            ConvKind::PtrToInt => self.cast(Op::LLVMPtrToInt, v, tt),
            ConvKind::NullToPtr => tt.const_zero(),
            ConvKind::IntToOpaque if self.spirv() && matches!(self.kind(to), TypeKind::Opaque(clc_builtins::types::Opaque::Sampler)) => {
                let i = self.int_resize(v, self.ctx.i32_type().into(), false);
                self.translate_sampler(i)?
            }
            ConvKind::IntToOpaque => {
                if tt.is_pointer_type() {
                    tt.const_zero()
                } else {
                    self.int_resize(v, tt, false)
                }
            }
            ConvKind::Bitcast => {
                if v.get_type() == tt {
                    v
                } else if v.get_type().is_pointer_type() || tt.is_pointer_type() {
                    match (v.get_type().is_pointer_type(), tt.is_pointer_type()) {
                        (true, true) => self.cast(Op::LLVMAddrSpaceCast, v, tt),
                        (true, false) => self.cast(Op::LLVMPtrToInt, v, tt),
                        _ => self.cast(Op::LLVMIntToPtr, v, tt),
                    }
                } else {
                    self.cast(Op::LLVMBitCast, v, tt)
                }
            }
            ConvKind::ArrayDecay | ConvKind::FuncToPtr => return ice("aggregate conversion of a value"),
        })
    }

    /// The value of a read-only program-scope object (or an element or
    /// member of one) from its initializer, for constant initializers that
    /// read it (`constant int b = a + 1;`).
    fn fold_load(&mut self, lv: ExprId) -> Option<BasicValueEnum<'ctx>> {
        use inkwell::llvm_sys::core as c;
        let raw = match &self.expr_info(lv).kind {
            ExprKind::Global(g) => {
                let gv = *self.globals.get(g.0 as usize)?;
                gv.get_initializer()?.as_value_ref()
            }
            ExprKind::Index { base, index } => {
                let ExprKind::Convert { kind: ConvKind::ArrayDecay, expr } = self.expr_info(*base).kind else { return None };
                let arr = self.fold_load(expr)?;
                let i = super::int_constant(self.fs().exprs, *index)?;
                // SAFETY: `arr` is a constant aggregate.
                unsafe { c::LLVMGetAggregateElement(arr.as_value_ref(), u32::try_from(i).ok()?) }
            }
            ExprKind::Member { base, field } => {
                let bt = self.expr_info(*base).ty.ty;
                let TypeKind::Record(idx) = *self.kind(bt) else { return None };
                if self.types.records[idx as usize].is_union {
                    return None;
                }
                let rec = self.fold_load(*base)?;
                let i = self.field_index(idx, *field);
                // SAFETY: `rec` is a constant struct.
                unsafe { c::LLVMGetAggregateElement(rec.as_value_ref(), i) }
            }
            _ => return None,
        };
        if raw.is_null() {
            return None;
        }
        // SAFETY: a non-null constant of a first-class type.
        Some(unsafe { BasicValueEnum::new(raw) })
    }

    /// A SPIR-V sampler from its integer encoding.
    fn translate_sampler(&mut self, v: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let pt = self.ptr_ty(AddrSpace::Constant);
        let f = match self.module.get_function("__translate_sampler_initializer") {
            Some(f) => f,
            None => {
                let f = self.module.add_function("__translate_sampler_initializer", pt.fn_type(&[self.ctx.i32_type().into()], false), None);
                f.set_call_conventions(super::CC_SPIR_FUNC);
                f
            }
        };
        let call = self.b.build_call(f, &[v.into()], "")?;
        call.set_call_convention(super::CC_SPIR_FUNC);
        call.try_as_basic_value().basic().ok_or_else(|| super::InternalError { function: None, message: "sampler initializer without a value".into() })
    }

    pub(super) fn int_resize(&mut self, v: BasicValueEnum<'ctx>, to: BasicTypeEnum<'ctx>, signed: bool) -> BasicValueEnum<'ctx> {
        let fb = int_bits(v.get_type());
        let tb = int_bits(to);
        if fb == tb {
            return v;
        }
        let op = if tb < fb {
            Op::LLVMTrunc
        } else if signed && fb != 1 {
            Op::LLVMSExt
        } else {
            Op::LLVMZExt
        };
        self.cast(op, v, to)
    }

    fn float_resize(&mut self, v: BasicValueEnum<'ctx>, to: BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx> {
        let fb = float_bits_of(v.get_type());
        let tb = float_bits_of(to);
        match fb.cmp(&tb) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => self.cast(Op::LLVMFPExt, v, to),
            std::cmp::Ordering::Greater => self.cast(Op::LLVMFPTrunc, v, to),
        }
    }

    /// `v != 0` as `i1` (or a vector of `i1`).
    pub(super) fn is_nonzero(&mut self, v: BasicValueEnum<'ctx>, t: TypeId) -> R<BasicValueEnum<'ctx>> {
        let z = v.get_type().const_zero();
        if v.get_type().is_pointer_type() {
            return Ok(self.icmp(IP::LLVMIntNE, v, z));
        }
        match self.elem_scalar(t) {
            Some(s) if is_float(s) => Ok(self.fcmp(FP::LLVMRealUNE, v, z)),
            _ if int_bits(v.get_type()) == 1 => Ok(v),
            _ => Ok(self.icmp(IP::LLVMIntNE, v, z)),
        }
    }

    /// Converts a value between arithmetic (scalar or vector) types as C's
    /// implicit conversions do.
    pub(super) fn convert_types(&mut self, v: BasicValueEnum<'ctx>, from: TypeId, to: TypeId) -> R<BasicValueEnum<'ctx>> {
        if from == to {
            return Ok(v);
        }
        let tt = self.vty(to)?;
        if v.get_type().is_pointer_type() || tt.is_pointer_type() {
            return self.convert(v, ConvKind::Bitcast, from, to);
        }
        let (Some(fs), Some(ts)) = (self.elem_scalar(from), self.elem_scalar(to)) else {
            return Ok(v);
        };
        let v = match (self.lanes_of(from), self.lanes_of(to)) {
            (None, Some(n)) => {
                let st = self.scalar_ty(ts);
                let s = self.convert_scalar(v, fs, ts, st)?;
                return Ok(self.splat(s, n as u32));
            }
            _ => v,
        };
        self.convert_scalar(v, fs, ts, tt)
    }

    fn convert_scalar(&mut self, v: BasicValueEnum<'ctx>, fs: Scalar, ts: Scalar, tt: BasicTypeEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        Ok(if ts == Scalar::Bool {
            let z = v.get_type().const_zero();
            if is_float(fs) { self.fcmp(FP::LLVMRealUNE, v, z) } else { self.icmp(IP::LLVMIntNE, v, z) }
        } else {
            match (is_float(fs), is_float(ts)) {
                (false, false) => self.int_resize(v, tt, is_signed(fs)),
                (false, true) => self.cast(if is_signed(fs) { Op::LLVMSIToFP } else { Op::LLVMUIToFP }, v, tt),
                (true, false) => self.cast(if is_signed(ts) { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, v, tt),
                (true, true) => self.float_resize(v, tt),
            }
        })
    }

    // -----------------------------------------------------------------
    // Operators
    // -----------------------------------------------------------------

    fn unary(&mut self, op: UnOp, expr: ExprId, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let et = self.expr_info(expr).ty.ty;
        let v = self.value(expr)?;
        let float = self.elem_scalar(et).is_some_and(is_float);
        Ok(match op {
            UnOp::Plus => v,
            UnOp::Neg if float => self.fneg(v),
            UnOp::Neg => {
                let z = v.get_type().const_zero();
                self.binop(Op::LLVMSub, z, v)
            }
            UnOp::BitNot => {
                let ones = self.const_int(v.get_type(), -1);
                self.binop(Op::LLVMXor, v, ones)
            }
            UnOp::Not => {
                let nz = self.is_nonzero(v, et)?;
                let one = self.const_int(nz.get_type(), 1);
                let z = self.binop(Op::LLVMXor, nz, one);
                self.bool_result(z, ty)?
            }
            _ => return ice("an operator that is not a unary value operator"),
        })
    }

    /// An `i1` (vector) truth value as OpenCL's result: `int` 1/0 for a
    /// scalar, all-ones/0 lanes for a vector.
    pub(super) fn bool_result(&mut self, c: BasicValueEnum<'ctx>, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let t = self.vty(ty)?;
        Ok(if self.lanes_of(ty).is_some() { self.cast(Op::LLVMSExt, c, t) } else { self.cast(Op::LLVMZExt, c, t) })
    }

    fn binary(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId, op_ty: TypeId, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        if matches!(op, BinOp::And | BinOp::Or) {
            return self.logical(op, lhs, rhs, op_ty, ty);
        }
        // `a * b + c` in one expression may be contracted (FP_CONTRACT is
        // on by default in OpenCL C): llvm.fmuladd, which LLVM fuses where
        // the target has FMA.
        if matches!(op, BinOp::Add | BinOp::Sub) && self.elem_scalar(op_ty).is_some_and(is_float) && self.opts.contract_at(self.expr_info(lhs).span) {
            if let Some(v) = self.try_fmuladd(op, lhs, rhs)? {
                return Ok(v);
            }
        }
        let a = self.value(lhs)?;
        let b = self.value(rhs)?;
        self.arith(op, a, b, op_ty, ty)
    }

    /// Applies a binary operator to values already converted to `op_ty`.
    pub(super) fn arith(&mut self, op: BinOp, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>, op_ty: TypeId, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let pointer = a.get_type().is_pointer_type();
        let s = if pointer { Scalar::ULong } else { self.elem_scalar(op_ty).unwrap_or(Scalar::Int) };
        let float = is_float(s);
        let signed = is_signed(s);
        let cmp = |int_s: IP, int_u: IP, fl: FP| if float { Err(fl) } else { Ok(if signed { int_s } else { int_u }) };
        let pred = match op {
            BinOp::Lt => Some(cmp(IP::LLVMIntSLT, IP::LLVMIntULT, FP::LLVMRealOLT)),
            BinOp::Gt => Some(cmp(IP::LLVMIntSGT, IP::LLVMIntUGT, FP::LLVMRealOGT)),
            BinOp::Le => Some(cmp(IP::LLVMIntSLE, IP::LLVMIntULE, FP::LLVMRealOLE)),
            BinOp::Ge => Some(cmp(IP::LLVMIntSGE, IP::LLVMIntUGE, FP::LLVMRealOGE)),
            BinOp::Eq => Some(cmp(IP::LLVMIntEQ, IP::LLVMIntEQ, FP::LLVMRealOEQ)),
            // `!=` is true for NaN operands.
            BinOp::Ne => Some(cmp(IP::LLVMIntNE, IP::LLVMIntNE, FP::LLVMRealUNE)),
            _ => None,
        };
        if let Some(p) = pred {
            let c = match p {
                Ok(ip) => self.icmp(ip, a, b),
                Err(fp) => self.fcmp(fp, a, b),
            };
            return self.bool_result(c, ty);
        }
        // Signed overflow is undefined (C99 6.5p5, which OpenCL C keeps):
        // `nsw`, as clang marks it, lets LLVM see `a[i * n + j]` as a
        // consecutive access in `j` through the sign extension.
        let nsw = |v: BasicValueEnum<'ctx>| {
            if signed && !float && !pointer {
                // SAFETY: `v` is a live integer add/sub/mul instruction (or a
                // constant, which the check skips).
                unsafe {
                    if !llvm_sys::core::LLVMIsAInstruction(v.as_value_ref()).is_null() {
                        llvm_sys::core::LLVMSetNSW(v.as_value_ref(), 1);
                    }
                }
            }
            v
        };
        Ok(match op {
            BinOp::Add if !float => nsw(self.binop(Op::LLVMAdd, a, b)),
            BinOp::Sub if !float => nsw(self.binop(Op::LLVMSub, a, b)),
            BinOp::Mul if !float => nsw(self.binop(Op::LLVMMul, a, b)),
            BinOp::Add => self.binop(Op::LLVMFAdd, a, b),
            BinOp::Sub => self.binop(Op::LLVMFSub, a, b),
            BinOp::Mul => self.binop(Op::LLVMFMul, a, b),
            BinOp::Div if float => self.binop(Op::LLVMFDiv, a, b),
            BinOp::Rem if float => self.binop(Op::LLVMFRem, a, b),
            BinOp::Div | BinOp::Rem => {
                let b = self.safe_divisor(a, b, signed);
                let o = match (op, signed) {
                    (BinOp::Div, true) => Op::LLVMSDiv,
                    (BinOp::Div, false) => Op::LLVMUDiv,
                    (_, true) => Op::LLVMSRem,
                    _ => Op::LLVMURem,
                };
                self.binop(o, a, b)
            }
            BinOp::Shl | BinOp::Shr => {
                // OpenCL C 6.3.j: the count is taken modulo the width.
                let bits = int_bits(a.get_type()) as i128;
                let m = self.const_int(b.get_type(), bits - 1);
                let b = self.binop(Op::LLVMAnd, b, m);
                let o = match (op, signed) {
                    (BinOp::Shl, _) => Op::LLVMShl,
                    (_, true) => Op::LLVMAShr,
                    _ => Op::LLVMLShr,
                };
                self.binop(o, a, b)
            }
            BinOp::BitAnd => self.binop(Op::LLVMAnd, a, b),
            BinOp::BitOr => self.binop(Op::LLVMOr, a, b),
            BinOp::BitXor => self.binop(Op::LLVMXor, a, b),
            _ => return ice(format!("binary operator {} on values", op.text())),
        })
    }

    /// Integer division by zero (and `MIN / -1`) is undefined in OpenCL C
    /// but must not trap the host process: on native targets such divisors
    /// are replaced by 1 (x86's `div` would raise SIGFPE).
    fn safe_divisor(&mut self, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>, signed: bool) -> BasicValueEnum<'ctx> {
        if self.spirv() {
            return b;
        }
        let t = b.get_type();
        let zero = t.const_zero();
        let one = self.const_int(t, 1);
        let mut bad = self.icmp(IP::LLVMIntEQ, b, zero);
        if signed {
            let bits = int_bits(t);
            let min = self.const_int(t, if bits >= 128 { i128::MIN } else { -(1i128 << (bits - 1)) });
            let minus_one = self.const_int(t, -1);
            let a_min = self.icmp(IP::LLVMIntEQ, a, min);
            let b_m1 = self.icmp(IP::LLVMIntEQ, b, minus_one);
            let overflow = self.binop(Op::LLVMAnd, a_min, b_m1);
            bad = self.binop(Op::LLVMOr, bad, overflow);
        }
        self.select(bad, one, b)
    }

    fn logical(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId, op_ty: TypeId, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let lt = self.expr_info(lhs).ty.ty;
        let rt = self.expr_info(rhs).ty.ty;
        if self.lanes_of(op_ty).is_some() || self.lanes_of(lt).is_some() {
            // Vector `&&`/`||`: lane by lane, both sides evaluated.
            let a = self.value(lhs)?;
            let b = self.value(rhs)?;
            let a = self.is_nonzero(a, lt)?;
            let b = self.is_nonzero(b, rt)?;
            let c = self.binop(if op == BinOp::And { Op::LLVMAnd } else { Op::LLVMOr }, a, b);
            return self.bool_result(c, ty);
        }
        let a = self.value(lhs)?;
        let a = self.is_nonzero(a, lt)?;
        // A constant left side decides at compile time (and keeps a
        // program-scope initializer such as `1 || 2` a constant).
        if let Some(known) = a.into_int_value().get_zero_extended_constant() {
            if (known != 0) == (op == BinOp::Or) {
                return self.bool_result(a, ty);
            }
            let b = self.value(rhs)?;
            let b = self.is_nonzero(b, rt)?;
            return self.bool_result(b, ty);
        }
        let start = self.b.get_insert_block().expect("positioned");
        let f = self.fs().llfn;
        let rhs_bb = self.ctx.append_basic_block(f, if op == BinOp::And { "land.rhs" } else { "lor.rhs" });
        let end = self.ctx.append_basic_block(f, "logic.end");
        let (t, e) = if op == BinOp::And { (rhs_bb, end) } else { (end, rhs_bb) };
        self.b.build_conditional_branch(a.into_int_value(), t, e)?;
        self.b.position_at_end(rhs_bb);
        let b = self.value(rhs)?;
        let b = self.is_nonzero(b, rt)?;
        let rhs_end = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(end)?;
        self.b.position_at_end(end);
        let phi = self.b.build_phi(self.ctx.bool_type(), "")?;
        let short = self.ctx.bool_type().const_int(u64::from(op == BinOp::Or), false);
        phi.add_incoming(&[(&short, start), (&b.into_int_value(), rhs_end)]);
        self.bool_result(phi.as_basic_value(), ty)
    }

    /// `a * b ± c` or `c + a * b` as `llvm.fmuladd`.
    fn try_fmuladd(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId) -> R<Option<BasicValueEnum<'ctx>>> {
        let mul_of = |g: &Self, id: ExprId| match &g.expr_info(id).kind {
            ExprKind::Binary { op: BinOp::Mul, lhs, rhs, op_ty } => Some((*lhs, *rhs, op_ty.ty)),
            _ => None,
        };
        let (m, other, mul_left) = match (mul_of(self, lhs), mul_of(self, rhs)) {
            (Some(m), _) => (m, rhs, true),
            (None, Some(m)) if op == BinOp::Add => (m, lhs, false),
            _ => return Ok(None),
        };
        let (ma, mb, _) = m;
        let (x, y, c) = if mul_left {
            let x = self.value(ma)?;
            let y = self.value(mb)?;
            let c = self.value(other)?;
            (x, y, c)
        } else {
            let c = self.value(other)?;
            let x = self.value(ma)?;
            let y = self.value(mb)?;
            (x, y, c)
        };
        let c = if op == BinOp::Sub { self.fneg(c) } else { c };
        let r = self.intrinsic("llvm.fmuladd", &[x.get_type()], &[x, y, c])?;
        Ok(r)
    }

    fn compound_assign(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId, comp_ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let lt = self.expr_info(lhs).ty.ty;
        let place = self.place(lhs)?;
        let old = self.load_place(&place)?;
        let r = self.value(rhs)?;
        let new = if old.get_type().is_pointer_type() {
            let elem = self.pointee(lt)?;
            let r = if op == BinOp::Sub {
                let z = self.const_int(r.get_type(), 0);
                self.binop(Op::LLVMSub, z, r)
            } else {
                r
            };
            self.gep(elem, old.into_pointer_value(), r.into_int_value())?.into()
        } else {
            let a = self.convert_types(old, lt, comp_ty)?;
            let v = self.arith(op, a, r, comp_ty, comp_ty)?;
            self.convert_types(v, comp_ty, lt)?
        };
        self.store_place(&place, new)?;
        Ok(new)
    }

    fn inc_dec(&mut self, inc: bool, prefix: bool, expr: ExprId) -> R<BasicValueEnum<'ctx>> {
        let t = self.expr_info(expr).ty.ty;
        let place = self.place(expr)?;
        let old = self.load_place(&place)?;
        let new = if old.get_type().is_pointer_type() {
            let elem = self.pointee(t)?;
            let step = self.int_ty(self.size_bits()).const_int(if inc { 1 } else { u64::MAX }, true);
            self.gep(elem, old.into_pointer_value(), step)?.into()
        } else if self.elem_scalar(t).is_some_and(is_float) {
            let one = self.const_of(old.get_type(), 1.0, 1);
            self.binop(if inc { Op::LLVMFAdd } else { Op::LLVMFSub }, old, one)
        } else if int_bits(old.get_type()) == 1 {
            // `bool`: ++ sets it, -- flips it (C's rules on _Bool).
            if inc { self.const_int(old.get_type(), 1) } else { self.binop(Op::LLVMXor, old, self.const_int(old.get_type(), 1)) }
        } else {
            let one = self.const_int(old.get_type(), 1);
            self.binop(if inc { Op::LLVMAdd } else { Op::LLVMSub }, old, one)
        };
        self.store_place(&place, new)?;
        Ok(if prefix { new } else { old })
    }

    fn conditional(&mut self, cond: ExprId, then: ExprId, else_: ExprId, ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let ct = self.expr_info(cond).ty.ty;
        if self.lanes_of(ct).is_some() {
            // A vector condition selects lane by lane by the lanes' most
            // significant bit (OpenCL C 6.3.i, as `select`).
            let c = self.value(cond)?;
            let a = self.value(then)?;
            let b = self.value(else_)?;
            let z = c.get_type().const_zero();
            let m = self.icmp(IP::LLVMIntSLT, c, z);
            return Ok(Some(self.select(m, a, b)));
        }
        let c = self.value(cond)?;
        let c = self.is_nonzero(c, ct)?;
        let aggregate = self.is_record(ty);
        // A constant condition picks its side at compile time (and keeps a
        // program-scope initializer such as `A > 0 ? B : C` a constant).
        if let Some(known) = c.into_int_value().get_zero_extended_constant().filter(|_| !aggregate) {
            return self.rvalue(if known != 0 { then } else { else_ });
        }
        let f = self.fs().llfn;
        let tb = self.ctx.append_basic_block(f, "cond.true");
        let eb = self.ctx.append_basic_block(f, "cond.false");
        let end = self.ctx.append_basic_block(f, "cond.end");
        self.b.build_conditional_branch(c.into_int_value(), tb, eb)?;
        self.b.position_at_end(tb);
        let a = if aggregate { Some(self.aggregate_ptr(then)?.into()) } else { self.rvalue(then)? };
        let ta = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(end)?;
        self.b.position_at_end(eb);
        let b = if aggregate { Some(self.aggregate_ptr(else_)?.into()) } else { self.rvalue(else_)? };
        let ea = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(end)?;
        self.b.position_at_end(end);
        let (Some(a), Some(b)) = (a, b) else { return Ok(None) };
        let phi = self.b.build_phi(a.get_type(), "")?;
        phi.add_incoming(&[(&a, ta), (&b, ea)]);
        let v = phi.as_basic_value();
        if aggregate {
            return Ok(Some(self.load_aggregate(v.into_pointer_value(), ty)?));
        }
        Ok(Some(v))
    }

    fn builtin_const(&mut self, name: &str, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        use clc_builtins::constants::{ConstValue, constant};
        let t = self.vty(ty)?;
        let Some(c) = constant(name) else { return ice(format!("unknown builtin constant '{name}'")) };
        Ok(match c.value {
            _ if t.is_pointer_type() => t.const_zero(),
            ConstValue::Int(v) => self.const_int(t, v),
            ConstValue::Float(f) => self.const_of(t, f, f as i128),
        })
    }

    /// A string literal: a private constant in the requested space.
    pub(super) fn string(&mut self, bytes: &[u8], space: AddrSpace) -> PointerValue<'ctx> {
        let key = (bytes.to_vec(), space as u16);
        if let Some(g) = self.strings.get(&key) {
            return g.as_pointer_value();
        }
        let init = self.ctx.const_string(bytes, false);
        let gv = self.module.add_global(init.get_type(), Some(Self::addr_space(space)), ".str");
        gv.set_initializer(&init);
        gv.set_constant(true);
        gv.set_linkage(inkwell::module::Linkage::Private);
        gv.set_unnamed_addr(true);
        gv.set_alignment(1);
        self.strings.insert(key, gv);
        gv.as_pointer_value()
    }

    // -----------------------------------------------------------------
    // Calls of user functions
    // -----------------------------------------------------------------

    fn call_user(&mut self, index: usize, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        if self.is_record(ty) {
            let slot = self.alloca(ty, "ret")?;
            self.call_user_into(index, args, Some(slot))?;
            return Ok(Some(self.load_aggregate(slot, ty)?));
        }
        self.call_user_into(index, args, None)
    }

    /// An argument of a call of a function or block: its value, or for a
    /// record a pointer to a copy the callee may change (`byval`).
    pub(super) fn call_arg(&mut self, a: ExprId) -> R<inkwell::values::BasicMetadataValueEnum<'ctx>> {
        let at = self.expr_info(a).ty.ty;
        if !self.is_record(at) {
            return Ok(self.value(a)?.into());
        }
        let src = self.aggregate_ptr(a)?;
        let copy = self.alloca(at, "byval")?;
        self.copy_object(copy, src, at)?;
        Ok(copy.into())
    }

    pub(super) fn call_user_into(&mut self, index: usize, args: &[ExprId], sret: Option<PointerValue<'ctx>>) -> R<Option<BasicValueEnum<'ctx>>> {
        let f = self.funcs[index];
        let mut vals: Vec<inkwell::values::BasicMetadataValueEnum> = Vec::new();
        if let Some(s) = sret {
            vals.push(s.into());
        }
        for &a in args {
            vals.push(self.call_arg(a)?);
        }
        if let Some(wi) = self.fs().wi {
            vals.push(wi.into());
        }
        let call = self.b.build_call(f, &vals, "")?;
        call.set_call_convention(f.get_call_conventions());
        Ok(call.try_as_basic_value().basic())
    }

    /// Calls a function declared but not defined in this program (it may
    /// come from another program linked with this one): an external
    /// declaration named and called as clang does ([`Gen::external_symbol`],
    /// `abi.rs`).
    fn call_external(&mut self, name: &str, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let params: Vec<TypeId> = args.iter().map(|&a| self.expr_info(a).ty.ty).collect();
        let btys: Option<Vec<_>> = params.iter().map(|&p| self.builtin_ty(p)).collect();
        let symbol = self.external_symbol(name, btys);
        self.call_foreign(&symbol, args, ty, &params)
    }

    /// The symbol of the function `name` of the program (or of another),
    /// as clang names it: Itanium-mangled when it is overloadable (the
    /// program declares the name more than once) and its parameters
    /// (`params`, in the builtin library's terms) can be mangled.
    pub(super) fn external_symbol(&self, name: &str, params: Option<Vec<clc_builtins::functions::Ty>>) -> String {
        match params {
            Some(ps) if self.is_overloaded(name) => {
                use clc_builtins::mangle::{PointerWidth, Spaces, itanium_with};
                let width = if self.size_bits() == 32 { PointerWidth::Bits32 } else { PointerWidth::Bits64 };
                // clang writes the address spaces of SPIR targets by
                // number, those of others (x86-64) by name.
                itanium_with(name, &ps, width, if self.spirv() { Spaces::Numbered } else { Spaces::Named })
            }
            _ => name.to_string(),
        }
    }

    /// Is `name` an overloadable function (declared `overloadable`, or
    /// of several types), whose symbol clang mangles?
    pub(super) fn is_overloaded(&self, name: &str) -> bool {
        let mut named = self.program.entities.iter().filter(|e| e.name == name);
        named.clone().any(|e| matches!(e.kind, crate::sema::EntityKind::Function { overloadable: true, .. })) || named.nth(1).is_some()
    }

    /// A parameter type in the builtin library's terms (for mangling;
    /// `None` where clc cannot mangle it: unnamed records, opaque types).
    pub(super) fn builtin_ty(&self, t: TypeId) -> Option<clc_builtins::functions::Ty> {
        use clc_builtins::functions::{PointerTy, Ty};
        Some(match self.kind(t) {
            TypeKind::Scalar(s) => Ty::Scalar(*s),
            TypeKind::Vector(s, n) => Ty::Vector(*s, *n),
            TypeKind::Pointer(p) => Ty::Pointer(Box::new(PointerTy {
                pointee: if matches!(self.kind(p.ty), TypeKind::Void) { Ty::Void } else { self.builtin_ty(p.ty)? },
                space: p.space,
                is_const: p.quals.is_const,
                is_volatile: p.quals.is_volatile,
            })),
            TypeKind::Record(_) | TypeKind::Enum(_) => Ty::Named(self.types.linkage_name(t)?.to_string()),
            _ => return None,
        })
    }

    /// Calls an LLVM intrinsic overloaded on `tys`.
    pub(super) fn intrinsic(&mut self, name: &str, tys: &[BasicTypeEnum<'ctx>], args: &[BasicValueEnum<'ctx>]) -> R<Option<BasicValueEnum<'ctx>>> {
        let Some(intr) = inkwell::intrinsics::Intrinsic::find(name) else { return ice(format!("unknown intrinsic {name}")) };
        let Some(decl) = intr.get_declaration(&self.module, tys) else { return ice(format!("cannot declare {name}")) };
        let vals: Vec<inkwell::values::BasicMetadataValueEnum> = args.iter().map(|a| (*a).into()).collect();
        let call = self.b.build_call(decl, &vals, "")?;
        self.with_fmf(call.as_value_ref());
        Ok(call.try_as_basic_value().basic())
    }
}

pub(super) fn int_bits(t: BasicTypeEnum<'_>) -> u32 {
    match t {
        BasicTypeEnum::IntType(i) => i.get_bit_width(),
        BasicTypeEnum::VectorType(v) => int_bits(v.get_element_type()),
        _ => 0,
    }
}

pub(super) fn float_bits_of(t: BasicTypeEnum<'_>) -> u32 {
    match t {
        BasicTypeEnum::FloatType(f) => {
            let ctx = f.get_context();
            if f == ctx.f16_type() {
                16
            } else if f == ctx.f32_type() {
                32
            } else {
                64
            }
        }
        BasicTypeEnum::VectorType(v) => float_bits_of(v.get_element_type()),
        _ => 0,
    }
}
