//! Builtin function calls, by their [`Lowering`] (never by name).

use super::expr::{int_bits, is_float, is_signed};
use super::{Gen, R, ice};
use crate::sema::hir::{ConvKind, ExprId, ExprKind};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::{AddrSpace, AtomicOp, FenceKind, Group, GroupOp, ImageOp, Lowering, OpenClStd, Overload, Purity, RelOp, Rounding, Ty};
use clc_builtins::mangle::{PointerWidth, mangle_for};
use clc_builtins::types::Scalar;
use inkwell::llvm_sys::core as llvm;
use inkwell::llvm_sys::{LLVMAtomicOrdering as AO, LLVMAtomicRMWBinOp as RMW, LLVMIntPredicate as IP, LLVMOpcode as Op};
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, PointerValue};

/// `memory_order` values (clang's `opencl-c-base.h`).
const ORDERS: [(i128, AO); 5] = [
    (0, AO::LLVMAtomicOrderingMonotonic),
    (2, AO::LLVMAtomicOrderingAcquire),
    (3, AO::LLVMAtomicOrderingRelease),
    (4, AO::LLVMAtomicOrderingAcquireRelease),
    (5, AO::LLVMAtomicOrderingSequentiallyConsistent),
];

/// `memory_scope` values and LLVM's sync-scope names for them (as clang
/// emits them for SPIR; the SPIR-V back end maps them to SPIR-V scopes).
/// OpenCL's first channel data type value (`CLK_SNORM_INT8`).
const CLK_SNORM_INT8: u64 = 0x10D0;
/// OpenCL's first channel order value (`CLK_R`).
const CLK_R: u64 = 0x10B0;
/// `get_fence`'s results.
const CLK_LOCAL_MEM_FENCE: i128 = 1;
const CLK_GLOBAL_MEM_FENCE: i128 = 2;

const SCOPES: [(i128, &str); 5] = [(0, "singlethread"), (1, "workgroup"), (2, "device"), (3, ""), (4, "subgroup")];

/// What an atomic instruction is, apart from its order and scope.
#[derive(Clone, Copy)]
enum AtomicKind {
    Rmw(RMW),
    Load,
    Store,
    CmpXchg { weak: bool },
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    pub(super) fn builtin_call(&mut self, id: ExprId, o: &Overload, args: &[ExprId]) -> R<Option<BasicValueEnum<'ctx>>> {
        let e = self.expr_info(id);
        let ty = e.ty.ty;
        if matches!(o.lowering, Lowering::WorkGroup(_)) {
            if let Some(v) = self.collective_value(id)? {
                return Ok(Some(v));
            }
        }
        if matches!(o.lowering, Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents) {
            if let Some(done) = self.precomputed_call(id)? {
                // Done for the group already: the event (null), or nothing.
                return Ok(match done {
                    Some(v) => Some(v),
                    None => self.value_ty(ty)?.map(|t| t.const_zero()),
                });
            }
        }
        match o.lowering {
            Lowering::WorkItem(f) if self.cpu_abi() => self.work_item(f, args, ty),
            // Outside the region lowering a group has one work-item, which
            // does the whole copy; the copy is done when the call returns.
            Lowering::AsyncCopy { strided } if self.cpu_abi() => {
                self.async_copy(strided, args)?;
                self.zero_of(ty)
            }
            Lowering::WaitGroupEvents if self.cpu_abi() => {
                for &a in args {
                    self.rvalue(a)?;
                }
                self.fence(AO::LLVMAtomicOrderingSequentiallyConsistent, "workgroup");
                Ok(None)
            }
            // A hint: nothing to do on a CPU with caches.
            Lowering::Prefetch if self.cpu_abi() => {
                for &a in args {
                    self.rvalue(a)?;
                }
                Ok(None)
            }
            // Outside the region lowering a work-group has one work-item
            // (the runtime's fallback): each function of its own value.
            Lowering::WorkGroup(op) if self.cpu_abi() && super::regions::is_collective(op) => self.single_item_collective(op, args, ty).map(Some),
            // Outside the region lowering the runtime runs a group's
            // work-items one per thread (or a group of one): the barrier
            // waits for the others, if any, then orders memory.
            Lowering::Barrier(_) if self.cpu_abi() => {
                self.item_barrier()?;
                self.fence(AO::LLVMAtomicOrderingSequentiallyConsistent, "workgroup");
                Ok(None)
            }
            // LLVM 22's SPIR-V back end knows no `sub_group_barrier` (the
            // call would stay an import no consumer resolves).
            Lowering::Barrier(Group::SubGroup) => self.spirv_sub_group_barrier(args),
            Lowering::AsyncCopy { strided } => self.spirv_async_copy(o, strided, args, ty),
            Lowering::AtomicRmw(op) => self.atomic_rmw(o, op, args, ty).map(Some),
            Lowering::AtomicLoad => self.atomic_c11(o, AtomicKind::Load, args, ty),
            Lowering::AtomicStore => self.atomic_c11(o, AtomicKind::Store, args, ty),
            Lowering::AtomicInit => {
                let p = self.value(args[0])?.into_pointer_value();
                let v = self.value(args[1])?;
                let t = self.pointee(self.expr_info(args[0]).ty.ty)?;
                self.store_value(p, t, v, false)?;
                Ok(None)
            }
            Lowering::AtomicCompareExchange { weak } => self.atomic_c11(o, AtomicKind::CmpXchg { weak }, args, ty),
            Lowering::AtomicCmpxchgOld => {
                let p = self.pointer_arg(args[0])?;
                let cmp = self.value(args[1])?;
                let new = self.value(args[2])?;
                let seq = AO::LLVMAtomicOrderingSequentiallyConsistent;
                let pair = self.cmpxchg(p, cmp, new, seq, seq, "device", false);
                Ok(Some(self.b.build_extract_value(pair.into_struct_value(), 0, "")?))
            }
            Lowering::AtomicFlagTestAndSet => {
                let p = self.pointer_arg(args[0])?;
                let (order, scope) = self.order_scope(o, args)?;
                let one = self.ctx.i32_type().const_int(1, false).into();
                let old = self.atomic_dyn(AtomicKind::Rmw(RMW::LLVMAtomicRMWBinOpXchg), p, Some(one), None, order, scope)?;
                let z = self.ctx.i32_type().const_zero().into();
                Ok(Some(self.icmp(IP::LLVMIntNE, old, z)))
            }
            Lowering::AtomicFlagClear => {
                let p = self.pointer_arg(args[0])?;
                let (order, scope) = self.order_scope(o, args)?;
                let z = self.ctx.i32_type().const_zero().into();
                self.atomic_dyn(AtomicKind::Store, p, Some(z), None, order, scope)?;
                Ok(None)
            }
            Lowering::Fence(FenceKind::ReadWrite | FenceKind::Read | FenceKind::Write) if !self.spirv() => {
                // On the CPU every fence orders all memory: a sequentially
                // consistent fence at work-group scope.
                self.fence(AO::LLVMAtomicOrderingSequentiallyConsistent, "workgroup");
                Ok(None)
            }
            Lowering::AsType => {
                let v = self.value(args[0])?;
                self.as_type(v, ty).map(Some)
            }
            Lowering::VecStep => {
                let at = self.expr_info(args[0]).ty.ty;
                let n = match self.lanes_of(at) {
                    Some(3) => 4,
                    Some(n) => n as i128,
                    None => 1,
                };
                let t = self.vty(ty)?;
                Ok(Some(self.const_int(t, n)))
            }
            Lowering::Convert { sat, rounding } => self.convert_builtin(o, args, ty, sat, rounding),
            // LLVM 22's SPIR-V back end writes `vloada_halfn` as OpenCL.std's
            // vload_halfn (clang-22 too), which steps by 3 elements for n = 3
            // where vloada_half3 steps by 4: the address is computed here
            // and loaded from at offset 0.
            Lowering::VLoad { n: 3, half: true, aligned: true } if self.spirv() => {
                let (addr, ..) = self.vector_access(args[0], args[1], 3, true)?;
                let mut plain = o.clone();
                plain.name = "vload_half3".into();
                let name = mangle_for(&plain.name, &plain.params, self.pointer_width());
                let zero = self.int_ty(self.size_bits()).const_zero();
                self.call_named_values(&name, &plain, &[zero.into(), addr.into()], ty, false)
            }
            // On SPIR-V the half forms stay OpenCL.std instructions, which
            // need only the Float16Buffer capability (half arithmetic would
            // need cl_khr_fp16).
            Lowering::VLoad { half: true, .. } | Lowering::VStore { half: true, .. } if self.spirv() => self.mangled_call(o, args, ty),
            Lowering::VLoad { n, half, aligned } => self.vload(args, ty, n, half, aligned),
            Lowering::VStore { n, half, aligned, rounding } => self.vstore(o, args, n, half, aligned, rounding),
            Lowering::Relational(RelOp::Any | RelOp::All) => self.any_all(o, args, ty).map(Some),
            Lowering::Relational(op) if !self.spirv() => self.relational(op, args, ty).map(Some),
            Lowering::Shuffle | Lowering::Shuffle2 => self.shuffle(args, ty).map(Some),
            Lowering::Dot if !self.spirv() => {
                // x·y: the products, added lane by lane.
                let a = self.value(args[0])?;
                let b = self.value(args[1])?;
                let p = self.binop(Op::LLVMFMul, a, b);
                Ok(Some(match p {
                    BasicValueEnum::VectorValue(v) => {
                        let n = v.get_type().get_size();
                        let mut acc = self.b.build_extract_element(v, self.ctx.i32_type().const_zero(), "")?;
                        for i in 1..n {
                            let x = self.b.build_extract_element(v, self.ctx.i32_type().const_int(i as u64, false), "")?;
                            acc = self.binop(Op::LLVMFAdd, acc, x);
                        }
                        acc
                    }
                    scalar => scalar,
                }))
            }
            // `work_group_broadcast(x, i, j[, k])`: OpGroupBroadcast takes
            // the local id as a vector, which LLVM 22 builds with an
            // OpCompositeConstruct; Intel's CPU runtime crashes on that
            // (clang-22's SPIR-V too) unless the ids are constants. The
            // vector is built here (OpCompositeInsert) and given to
            // `__spirv_GroupBroadcast` at work-group scope.
            Lowering::WorkGroup(GroupOp::Broadcast) if self.spirv() && args.len() > 2 => {
                let x = self.value(args[0])?;
                let Ty::Scalar(size) = o.params[1] else { return ice("a local id of work_group_broadcast") };
                let ids = self.arg_values(&args[1..])?;
                let mut id = self.int_ty(self.size_bits()).vec_type(ids.len() as u32).get_poison();
                for (k, v) in ids.iter().enumerate() {
                    id = self.b.build_insert_element(id, v.into_int_value(), self.ctx.i32_type().const_int(k as u64, false), "")?;
                }
                let mut call = o.clone();
                call.params = vec![Ty::Scalar(Scalar::Int), o.params[0].clone(), Ty::Vector(size, ids.len() as u8)];
                let name = clc_builtins::mangle::itanium("__spirv_GroupBroadcast", &call.params, self.pointer_width());
                // SPIR-V's Workgroup scope.
                let scope = self.ctx.i32_type().const_int(2, false).into();
                self.call_named_values(&name, &call, &[scope, x, id.into()], ty, false)
            }
            // A vector function with scalar operands (`clamp(x, lo, hi)`,
            // `fmax(x, y)`, `mix(x, y, a)`, `step(e, x)`, `ldexp(x, k)`...
            // of a vector `x`): OpenCL.std takes vectors throughout, so the
            // vector overload is called with the scalars splat. LLVM 22's
            // SPIR-V back end passes ldexp's scalar as it is (invalid SPIR-V)
            // and splats the others with an OpCompositeConstruct, on which
            // Intel's CPU runtime crashes (as on clang-22's SPIR-V of
            // `clamp(long4, long, long)`); it takes the splat as a shuffle.
            Lowering::Ext(_) if self.spirv() && matches!(o.ret, Ty::Vector(..)) && o.params.iter().any(|p| matches!(p, Ty::Scalar(_))) => {
                let Ty::Vector(_, n) = o.ret else { return ice("a vector result") };
                let mut wide = o.clone();
                let mut values = self.arg_values(args)?;
                for (p, v) in wide.params.iter_mut().zip(&mut values) {
                    if let Ty::Scalar(s) = *p {
                        *p = Ty::Vector(s, n);
                        *v = self.splat(*v, u32::from(n));
                    }
                }
                let name = mangle_for(&wide.name, &wide.params, self.pointer_width());
                self.call_named_values(&name, &wide, &values, ty, false)
            }
            Lowering::Ext(op) if !self.spirv() && super::libint::is_integer_op(op) => self.integer_builtin(op, args, ty).map(Some),
            Lowering::Ext(op) if !self.spirv() && super::libcommon::is_common_op(op) => self.common_builtin(op, args, ty).map(Some),
            Lowering::Ext(op) if !self.spirv() => {
                if let Some(v) = self.math_builtin(op, args, ty)? {
                    return Ok(Some(v));
                }
                match native_intrinsic(op) {
                    Some(name) => self.native_ext(name, args, ty),
                    None => match self.native_composite(op, args, ty)? {
                        Some(v) => Ok(Some(v)),
                        None => self.mangled_call(o, args, ty),
                    },
                }
            }
            Lowering::AddrSpaceCast(space) if !self.spirv() => {
                // One address space on the CPU: the address itself tells
                // (`cpu::points_into`); elsewhere the result is null.
                let v = self.value(args[0])?.into_pointer_value();
                let t = self.vty(ty)?;
                let inside = self.points_into(v, space)?;
                let cast = self.cast(Op::LLVMAddrSpaceCast, v.into(), t);
                Ok(Some(self.select(inside.into(), cast, t.const_zero())))
            }
            // Any fence orders all memory on the CPU; the flags still
            // name the pointer's space, as a program may test them.
            Lowering::GetFence if !self.spirv() => {
                let v = self.value(args[0])?.into_pointer_value();
                let local = self.points_into(v, AddrSpace::Local)?;
                let t = self.vty(ty)?;
                Ok(Some(self.select(local.into(), self.const_int(t, CLK_LOCAL_MEM_FENCE), self.const_int(t, CLK_GLOBAL_MEM_FENCE))))
            }
            Lowering::Fence(FenceKind::AtomicWorkItem) if !self.spirv() => {
                self.rvalue(args[0])?;
                let (order, scope) = self.order_scope(o, args)?;
                // A relaxed fence does nothing (LLVM has none).
                self.atomic_cases(order, scope, |g, ao, sc| {
                    if ao != AO::LLVMAtomicOrderingMonotonic {
                        g.fence(ao, sc);
                    }
                    Ok(g.ctx.i32_type().const_zero().into())
                })?;
                Ok(None)
            }
            Lowering::SubGroup(op) if self.cpu_abi() && super::regions::is_collective(op) => {
                // A sub-group is one work-item on the CPU
                // (`get_sub_group_size` is 1): each function of its own value.
                self.single_item_collective(op, args, ty).map(Some)
            }
            Lowering::Printf if !self.spirv() => self.native_printf(args),
            Lowering::Printf => self.printf(args),
            // LLVM's SPIR-V back end knows `to_global` & co. by their
            // Itanium names (clang's `__to_global` runtime names it does
            // not), and has no `mem_fence`: that is an
            // `atomic_work_item_fence` at work-group scope.
            Lowering::AddrSpaceCast(_) => self.itanium_call(o, args, ty),
            // LLVM 22's SPIR-V back end has no OpGenericPtrMemSemantics:
            // the local fence where `to_local` finds the pointer (an
            // OpGenericCastToPtrExplicit), else the global one.
            Lowering::GetFence => {
                let v = self.value(args[0])?;
                let to_local = [Ty::const_ptr(Ty::Void, AddrSpace::Generic)];
                let name = clc_builtins::mangle::itanium("to_local", &to_local, self.pointer_width());
                let lp = self.ptr_ty(AddrSpace::Local);
                let f = self.declare(&name, Some(lp.into()), &[v.get_type().into()], false, false, Purity::Const);
                let call = self.b.build_call(f, &[v.into()], "")?;
                call.set_call_convention(f.get_call_conventions());
                let Some(BasicValueEnum::PointerValue(l)) = call.try_as_basic_value().basic() else {
                    return ice("to_local gave no pointer");
                };
                let local = self.b.build_is_not_null(l, "")?;
                let t = self.vty(ty)?;
                Ok(Some(self.select(local.into(), self.const_int(t, CLK_LOCAL_MEM_FENCE), self.const_int(t, CLK_GLOBAL_MEM_FENCE))))
            }
            Lowering::Fence(kind @ (FenceKind::ReadWrite | FenceKind::Read | FenceKind::Write)) => {
                let flags = self.value(args[0])?;
                let order = match kind {
                    FenceKind::Read => 2,
                    FenceKind::Write => 3,
                    _ => 4,
                };
                let i32t = self.ctx.i32_type();
                let name = "_Z22atomic_work_item_fencej12memory_order12memory_scope";
                let f = self.declare(name, None, &[i32t.into(), i32t.into(), i32t.into()], false, false, Purity::Effects);
                let args = [flags.into(), i32t.const_int(order, false).into(), i32t.const_int(1, false).into()];
                let call = self.b.build_call(f, &args, "")?;
                call.set_call_convention(f.get_call_conventions());
                Ok(None)
            }
            // LLVM 22's SPIR-V back end has no OpImageQueryOrder: the call
            // stays an import (clang-22's too), which `spirv_fixup` makes
            // an OpImageQueryOrder. Its result is SPIR-V's Image Channel
            // Order enumerant (R = 0, A = 1, ...); OpenCL's values are the
            // same list from CLK_R = 0x10B0, as for the data type below.
            Lowering::Image(ImageOp::ChannelOrder) if self.spirv() => {
                let Some(BasicValueEnum::IntValue(order)) = self.mangled_call(o, args, ty)? else {
                    return ice("get_image_channel_order gave no integer");
                };
                let offset = order.get_type().const_int(CLK_R, false);
                Ok(Some(self.b.build_int_add(order, offset, "channel_order")?.into()))
            }
            // LLVM 22's SPIR-V back end makes this an OpImageQueryFormat
            // alone, whose result is SPIR-V's Image Channel Data Type
            // enumerant (SnormInt8 = 0, UnormInt8 = 2, ...); OpenCL's values
            // are the same list from CLK_SNORM_INT8 = 0x10D0 (the OpenCL
            // SPIR-V environment's mapping; Khronos' SPIR-V translator adds
            // the same offset). Intel's CPU runtime returned 2 for a
            // CL_UNORM_INT8 image (0x10D2) without it (tests/spirv_exec).
            Lowering::Image(ImageOp::ChannelDataType) if self.spirv() => {
                let Some(BasicValueEnum::IntValue(format)) = self.mangled_call(o, args, ty)? else {
                    return ice("get_image_channel_data_type gave no integer");
                };
                let offset = format.get_type().const_int(CLK_SNORM_INT8, false);
                Ok(Some(self.b.build_int_add(format, offset, "channel_data_type")?.into()))
            }
            // LLVM 22's SPIR-V back end knows no `read_imageh` (the call
            // would stay an import, clang-22's too): `read_imagef`, whose
            // texel converts to half as the image's data would.
            Lowering::Image(ImageOp::Read { .. }) if self.spirv() && o.name == "read_imageh" => {
                let mut as_float = o.clone();
                as_float.name = "read_imagef".into();
                let name = mangle_for(&as_float.name, &as_float.params, self.pointer_width());
                let values = self.arg_values(args)?;
                let float4 = self.ctx.f32_type().vec_type(4).into();
                let Some(texel) = self.call_typed(&name, &as_float, &values, Some(float4), false)? else {
                    return ice("read_imagef gave no texel");
                };
                let t = self.vty(ty)?;
                Ok(Some(self.cast(Op::LLVMFPTrunc, texel, t)))
            }
            Lowering::Image(_) if self.spirv() => self.mangled_call(o, args, ty),
            Lowering::Image(op) => self.image_builtin(op, o, args, ty),
            Lowering::Pipe(_) => self.pipe_builtin(o.lowering, args, ty),
            Lowering::WorkGroup(op) | Lowering::SubGroup(op) if super::pipes::is_pipe_op(op) => self.pipe_builtin(o.lowering, args, ty),
            Lowering::Enqueue(op) if self.spirv() => self.spirv_enqueue_builtin(op, args, ty, e.span),
            Lowering::Enqueue(op) => self.enqueue_builtin(op, args, ty, e.span),
            Lowering::Gnu(op) => self.clang_builtin(op, args, ty),
            _ => self.mangled_call(o, args, ty),
        }
    }

    /// `async_work_group[_strided]_copy(dst, src, num, [stride,] event)` on
    /// SPIR-V: always the strided builtin, as for the plain one LLVM 22's
    /// back end makes OpGroupAsyncCopy's stride a 32-bit 1 where a 64-bit
    /// addressing model wants 64 bits. (A null event becomes a null pointer
    /// there; `spirv_fixup` makes it a null event.)
    fn spirv_async_copy(&mut self, o: &Overload, strided: bool, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        if strided {
            return self.mangled_call(o, args, ty);
        }
        let mut values = self.arg_values(args)?;
        let mut wide = o.clone();
        wide.name = "async_work_group_strided_copy".into();
        wide.params.insert(3, Ty::SIZE);
        values.insert(3, self.int_ty(self.size_bits()).const_int(1, false).into());
        let name = mangle_for(&wide.name, &wide.params, self.pointer_width());
        self.call_named_values(&name, &wide, &values, ty, false)
    }

    /// `sub_group_barrier(flags[, scope])` on SPIR-V: OpControlBarrier at
    /// sub-group execution scope, through the `__spirv_ControlBarrier` the
    /// back end knows. Scopes and semantics must be constants there: a
    /// run-time memory scope takes the widest, run-time flags every kind
    /// of memory.
    fn spirv_sub_group_barrier(&mut self, args: &[ExprId]) -> R<Option<BasicValueEnum<'ctx>>> {
        let flags = self.value(args[0])?.into_int_value();
        let scope = match args.get(1) {
            Some(&a) => Some(self.value(a)?.into_int_value().get_zero_extended_constant()),
            None => None,
        };
        // SPIR-V's scopes: CrossDevice 0, Device 1, Workgroup 2,
        // Subgroup 3, Invocation 4; `sub_group_barrier(flags)` is at
        // memory_scope_sub_group.
        let memory_scope = match scope {
            None | Some(Some(4)) => 3,
            Some(Some(0)) => 4,
            Some(Some(1)) => 2,
            Some(Some(2)) => 1,
            _ => 0,
        };
        // CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE, CLK_IMAGE_MEM_FENCE:
        // WorkgroupMemory, CrossWorkgroupMemory, ImageMemory, ordered
        // sequentially consistently (as clang's barriers); no memory,
        // no ordering.
        let f = flags.get_zero_extended_constant().unwrap_or(7);
        let storage = [(1, 0x100), (2, 0x200), (4, 0x800)].iter().filter(|(bit, _)| f & bit != 0).fold(0, |acc, (_, s)| acc | s);
        let semantics = if storage == 0 { 0 } else { storage | 0x10 };
        let i32t = self.ctx.i32_type();
        let f = self.declare("__spirv_ControlBarrier", None, &[i32t.into(), i32t.into(), i32t.into()], false, true, Purity::Effects);
        let args = [i32t.const_int(3, false).into(), i32t.const_int(memory_scope, false).into(), i32t.const_int(semantics, false).into()];
        let call = self.b.build_call(f, &args, "")?;
        call.set_call_convention(f.get_call_conventions());
        Ok(None)
    }

    /// `any(x)`/`all(x)`: is the most significant bit of any/every lane
    /// set? Computed lane by lane (LLVM 22's SPIR-V back end emits `OpAny`
    /// on integer vectors for the library call, which is invalid SPIR-V).
    fn any_all(&mut self, o: &Overload, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let all = o.lowering == Lowering::Relational(RelOp::All);
        let v = self.value(args[0])?;
        // Scalar comparisons only: the SPIR-V back end mishandles vectors
        // of i1 here.
        let acc = match v {
            BasicValueEnum::VectorValue(vv) => {
                let n = vv.get_type().get_size();
                let mut acc: Option<BasicValueEnum<'ctx>> = None;
                for i in 0..n {
                    let lane = self.b.build_extract_element(vv, self.ctx.i32_type().const_int(i as u64, false), "")?;
                    let z = lane.get_type().const_zero();
                    let neg = self.icmp(IP::LLVMIntSLT, lane, z);
                    acc = Some(match acc {
                        Some(a) => self.binop(if all { Op::LLVMAnd } else { Op::LLVMOr }, a, neg),
                        None => neg,
                    });
                }
                acc.unwrap_or_else(|| self.ctx.bool_type().const_zero().into())
            }
            scalar => {
                let z = scalar.get_type().const_zero();
                self.icmp(IP::LLVMIntSLT, scalar, z)
            }
        };
        let t = self.vty(ty)?;
        Ok(self.cast(Op::LLVMZExt, acc, t))
    }

    /// `async_work_group[_strided]_copy(dst, src, num, [stride,] event)`:
    /// an element-by-element copy (strided on the global side: the
    /// source when copying into local memory, else the destination).
    pub(super) fn async_copy(&mut self, strided: bool, args: &[ExprId]) -> R<()> {
        let dst_t = self.expr_info(args[0]).ty.ty;
        let elem = self.pointee(dst_t)?;
        let into_local = matches!(self.kind(dst_t), TypeKind::Pointer(p) if p.space == clc_builtins::functions::AddrSpace::Local);
        let dst = self.value(args[0])?.into_pointer_value();
        let src = self.value(args[1])?.into_pointer_value();
        let n = self.value(args[2])?.into_int_value();
        let stride = if strided { Some(self.value(args[3])?.into_int_value()) } else { None };
        for &a in &args[if strided { 4 } else { 3 }..] {
            self.rvalue(a)?;
        }
        let i64t = self.ctx.i64_type();
        let n = self.b.build_int_z_extend_or_bit_cast(n, i64t, "")?;
        let fnv = self.fs().llfn;
        let pre = self.b.get_insert_block().expect("positioned");
        let head = self.ctx.append_basic_block(fnv, "copy.head");
        let body = self.ctx.append_basic_block(fnv, "copy.body");
        let exit = self.ctx.append_basic_block(fnv, "copy.exit");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let iv = self.b.build_phi(i64t, "i")?;
        iv.add_incoming(&[(&i64t.const_zero(), pre)]);
        let i = iv.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(inkwell::IntPredicate::ULT, i, n, "")?;
        self.b.build_conditional_branch(more, body, exit)?;
        self.b.position_at_end(body);
        let strided_i = match stride {
            Some(s) => {
                let s = self.b.build_int_z_extend_or_bit_cast(s, i64t, "")?;
                self.b.build_int_mul(i, s, "")?
            }
            None => i,
        };
        let (si, di) = if into_local { (strided_i, i) } else { (i, strided_i) };
        let sp = self.gep(elem, src, si)?;
        let dp = self.gep(elem, dst, di)?;
        let v = self.load_value(sp, elem, false)?;
        self.store_value(dp, elem, v, false)?;
        let next = self.b.build_int_add(i, i64t.const_int(1, false), "")?;
        let latch = self.b.get_insert_block().expect("positioned");
        iv.add_incoming(&[(&next, latch)]);
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(exit);
        Ok(())
    }

    pub(super) fn zero_of(&mut self, t: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        Ok(self.value_ty(t)?.map(|t| t.const_zero()))
    }

    /// A pointer argument in the address space it had before sema widened
    /// it to the parameter's `__generic`, so an atomic on a `__global`
    /// object stays a global-memory access.
    fn pointer_arg(&mut self, a: ExprId) -> R<PointerValue<'ctx>> {
        if let ExprKind::Convert { kind: ConvKind::AddrSpaceCast, expr } = &self.expr_info(a).kind {
            return Ok(self.value(*expr)?.into_pointer_value());
        }
        Ok(self.value(a)?.into_pointer_value())
    }

    /// Calls the builtin by its mangled name, declared with the LLVM types
    /// of the (converted) arguments and of the result.
    fn pointer_width(&self) -> PointerWidth {
        if self.size_bits() == 32 { PointerWidth::Bits32 } else { PointerWidth::Bits64 }
    }

    fn mangled_call(&mut self, o: &Overload, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let name = mangle_for(&o.name, &o.params, self.pointer_width());
        self.call_named(&name, o, args, ty, o.variadic)
    }

    /// Calls the builtin as the external function `name`, declared with
    /// the LLVM types of the (converted) arguments and of the result.
    fn call_named(&mut self, name: &str, o: &Overload, args: &[ExprId], ty: TypeId, variadic: bool) -> R<Option<BasicValueEnum<'ctx>>> {
        let values = self.arg_values(args)?;
        self.call_named_values(name, o, &values, ty, variadic)
    }

    /// The values of a call's arguments, in order.
    pub(super) fn arg_values(&mut self, args: &[ExprId]) -> R<Vec<BasicValueEnum<'ctx>>> {
        args.iter().map(|&a| self.value(a)).collect()
    }

    /// As [`Self::call_named`], with the arguments already evaluated.
    fn call_named_values(&mut self, name: &str, o: &Overload, values: &[BasicValueEnum<'ctx>], ty: TypeId, variadic: bool) -> R<Option<BasicValueEnum<'ctx>>> {
        let ret = self.value_ty(ty)?;
        self.call_typed(name, o, values, ret, variadic)
    }

    /// As [`Self::call_named_values`], with the LLVM result type.
    fn call_typed(&mut self, name: &str, o: &Overload, values: &[BasicValueEnum<'ctx>], ret: Option<BasicTypeEnum<'ctx>>, variadic: bool) -> R<Option<BasicValueEnum<'ctx>>> {
        let vals: Vec<BasicMetadataValueEnum> = values.iter().map(|v| (*v).into()).collect();
        let tys: Vec<BasicMetadataTypeEnum> = values.iter().map(|v| v.get_type().into()).collect();
        let f = self.declare(name, ret, &tys, variadic, o.attrs.convergent, o.attrs.purity);
        let call = self.b.build_call(f, &vals, "")?;
        call.set_call_convention(f.get_call_conventions());
        Ok(call.try_as_basic_value().basic())
    }

    /// Calls the builtin by its plain Itanium name.
    fn itanium_call(&mut self, o: &Overload, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let name = clc_builtins::mangle::itanium(&o.name, &o.params, self.pointer_width());
        self.call_named(&name, o, args, ty, false)
    }

    /// Declares an external function once.
    pub(super) fn declare(
        &mut self,
        name: &str,
        ret: Option<BasicTypeEnum<'ctx>>,
        params: &[BasicMetadataTypeEnum<'ctx>],
        variadic: bool,
        convergent: bool,
        purity: Purity,
    ) -> inkwell::values::FunctionValue<'ctx> {
        if let Some(f) = self.declared.get(name) {
            return *f;
        }
        let fty = match ret {
            Some(r) => r.fn_type(params, variadic),
            None => self.ctx.void_type().fn_type(params, variadic),
        };
        let f = self.module.get_function(name).unwrap_or_else(|| self.module.add_function(name, fty, None));
        if self.spirv() {
            f.set_call_conventions(super::CC_SPIR_FUNC);
        }
        self.add_fn_attr(f, "nounwind");
        if convergent {
            self.add_fn_attr(f, "convergent");
        }
        if purity == Purity::Const && !convergent {
            self.add_fn_attr(f, "willreturn");
            let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("memory");
            f.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_enum_attribute(kind, 0));
        }
        self.declared.insert(name.to_string(), f);
        f
    }

    fn native_ext(&mut self, name: &str, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let t = self.vty(ty)?;
        let lanes = self.lanes_of(ty);
        let mut vals = Vec::new();
        for &a in args {
            let v = self.value(a)?;
            // `fmin(float4, float)`: the intrinsic takes the vector type.
            let v = match lanes {
                Some(n) if !v.is_vector_value() => self.splat(v, n as u32),
                _ => v,
            };
            vals.push(v);
        }
        match name {
            "llvm.ctlz" | "llvm.cttz" | "llvm.abs" => {
                let f = self.ctx.bool_type().const_zero().into();
                vals.push(f);
                self.intrinsic(name, &[t], &vals)
            }
            "llvm.fshl" => {
                // rotate(x, n) = fshl(x, x, n)
                let (x, n) = (vals[0], vals[1]);
                self.intrinsic(name, &[t], &[x, x, n])
            }
            _ => self.intrinsic(name, &[t], &vals),
        }
    }

    /// OpenCL functions made of a few instructions on native targets.
    fn native_composite(&mut self, op: OpenClStd, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        use OpenClStd as E;
        let t = self.vty(ty)?;
        Ok(Some(match op {
            E::Fclamp => {
                let v = self.shaped_args(args, ty)?;
                let lo = self.intrinsic("llvm.maxnum", &[t], &[v[0], v[1]])?.expect("a value");
                self.intrinsic("llvm.minnum", &[t], &[lo, v[2]])?.expect("a value")
            }
            E::SClamp | E::UClamp => {
                let v = self.shaped_args(args, ty)?;
                let (mx, mn) = if op == E::SClamp { ("llvm.smax", "llvm.smin") } else { ("llvm.umax", "llvm.umin") };
                let lo = self.intrinsic(mx, &[t], &[v[0], v[1]])?.expect("a value");
                self.intrinsic(mn, &[t], &[lo, v[2]])?.expect("a value")
            }
            E::Mix => {
                // x + (y - x) * a
                let v = self.shaped_args(args, ty)?;
                let d = self.binop(Op::LLVMFSub, v[1], v[0]);
                let m = self.binop(Op::LLVMFMul, d, v[2]);
                self.binop(Op::LLVMFAdd, v[0], m)
            }
            E::Degrees | E::Radians => {
                let v = self.shaped_args(args, ty)?;
                let k = if op == E::Degrees { 180.0 / std::f64::consts::PI } else { std::f64::consts::PI / 180.0 };
                let k = self.const_of(t, k, 0);
                self.binop(Op::LLVMFMul, v[0], k)
            }
            _ => return Ok(None),
        }))
    }

    // -----------------------------------------------------------------
    // Atomics
    // -----------------------------------------------------------------

    /// The order and scope arguments of an atomic call: constants where
    /// the arguments are, else values. C11 forms default to `seq_cst` and
    /// `device`; the 1.x forms (non-atomic pointee) are `seq_cst`.
    fn order_scope(&mut self, o: &Overload, args: &[ExprId]) -> R<(Order<'ctx>, Order<'ctx>)> {
        let mut order = Order::Const(5);
        let mut scope = Order::Const(2);
        let mut seen_order = false;
        for (i, p) in o.params.iter().enumerate() {
            let Some(&a) = args.get(i) else { break };
            match p {
                Ty::MemoryOrder if !seen_order => {
                    order = self.order_arg(a)?;
                    seen_order = true;
                }
                Ty::MemoryScope => scope = self.order_arg(a)?,
                _ => {}
            }
        }
        Ok((order, scope))
    }

    /// The failure order of a compare-exchange (the second order argument),
    /// or the success order when absent.
    fn failure_order(&mut self, o: &Overload, args: &[ExprId], success: Order<'ctx>) -> R<Order<'ctx>> {
        let idx: Vec<usize> = o.params.iter().enumerate().filter(|(_, p)| **p == Ty::MemoryOrder).map(|(i, _)| i).collect();
        match idx.get(1).and_then(|&i| args.get(i)) {
            Some(&a) => self.order_arg(a),
            None => Ok(success),
        }
    }

    fn order_arg(&mut self, a: ExprId) -> R<Order<'ctx>> {
        if let Some(v) = self.const_arg(a) {
            return Ok(Order::Const(v));
        }
        let v = self.value(a)?;
        Ok(Order::Dyn(self.int_resize(v, self.ctx.i32_type().into(), false).into_int_value()))
    }

    /// The value of an argument that is a constant in the typed program.
    fn const_arg(&self, a: ExprId) -> Option<i128> {
        match &self.expr_info(a).kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::BuiltinConst(name) => match clc_builtins::constants::constant(name)?.value {
                clc_builtins::constants::ConstValue::Int(v) => Some(v),
                _ => None,
            },
            ExprKind::Convert { expr, .. } => self.const_arg(*expr),
            _ => None,
        }
    }

    fn atomic_rmw(&mut self, o: &Overload, op: AtomicOp, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let p = self.pointer_arg(args[0])?;
        let (order, scope) = self.order_scope(o, args)?;
        let t = self.vty(ty)?;
        let s = self.elem_scalar(ty).unwrap_or(Scalar::Int);
        let float = is_float(s);
        let signed = is_signed(s);
        let v = match op {
            AtomicOp::Inc | AtomicOp::Dec => self.const_int(t, 1),
            _ => self.value(args[1])?,
        };
        let rmw = match op {
            AtomicOp::Add | AtomicOp::Inc if float => RMW::LLVMAtomicRMWBinOpFAdd,
            AtomicOp::Sub if float => RMW::LLVMAtomicRMWBinOpFSub,
            AtomicOp::Min if float => RMW::LLVMAtomicRMWBinOpFMin,
            AtomicOp::Max if float => RMW::LLVMAtomicRMWBinOpFMax,
            AtomicOp::Add | AtomicOp::Inc => RMW::LLVMAtomicRMWBinOpAdd,
            AtomicOp::Sub | AtomicOp::Dec => RMW::LLVMAtomicRMWBinOpSub,
            AtomicOp::Xchg => RMW::LLVMAtomicRMWBinOpXchg,
            AtomicOp::Min if signed => RMW::LLVMAtomicRMWBinOpMin,
            AtomicOp::Max if signed => RMW::LLVMAtomicRMWBinOpMax,
            AtomicOp::Min => RMW::LLVMAtomicRMWBinOpUMin,
            AtomicOp::Max => RMW::LLVMAtomicRMWBinOpUMax,
            AtomicOp::And => RMW::LLVMAtomicRMWBinOpAnd,
            AtomicOp::Or => RMW::LLVMAtomicRMWBinOpOr,
            AtomicOp::Xor => RMW::LLVMAtomicRMWBinOpXor,
        };
        self.atomic_dyn(AtomicKind::Rmw(rmw), p, Some(v), None, order, scope)
    }

    /// `atomic_load`, `atomic_store`, `atomic_compare_exchange_*`.
    fn atomic_c11(&mut self, o: &Overload, kind: AtomicKind, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let p = self.pointer_arg(args[0])?;
        let (order, scope) = self.order_scope(o, args)?;
        match kind {
            AtomicKind::Load => {
                let t = self.vty(ty)?;
                let v = self.atomic_dyn(AtomicKind::Load, p, None, Some(t), order, scope)?;
                Ok(Some(v))
            }
            AtomicKind::Store => {
                let v = self.value(args[1])?;
                self.atomic_dyn(AtomicKind::Store, p, Some(v), None, order, scope)?;
                Ok(None)
            }
            AtomicKind::CmpXchg { weak } => {
                let expected_ptr = self.value(args[1])?.into_pointer_value();
                let desired = self.value(args[2])?;
                let expected = self.b.build_load(desired.get_type(), expected_ptr, "")?;
                let failure = self.failure_order(o, args, order)?;
                let pair = self.atomic_cases(order, scope, |g, ao, sc| {
                    // A run-time failure order takes the success order's
                    // strongest legal failure order.
                    let fail = match failure {
                        Order::Const(c) => order_of(c),
                        Order::Dyn(_) => ao,
                    };
                    Ok(g.cmpxchg(p, expected, desired, ao, fail, sc, weak))
                })?;
                let pair = pair.into_struct_value();
                let old = self.b.build_extract_value(pair, 0, "")?;
                let ok = self.b.build_extract_value(pair, 1, "")?.into_int_value();
                // On failure C11 writes the value found back to `*expected`.
                let f = self.fs().llfn;
                let store_bb = self.ctx.append_basic_block(f, "cmpxchg.store_expected");
                let end = self.ctx.append_basic_block(f, "cmpxchg.end");
                self.b.build_conditional_branch(ok, end, store_bb)?;
                self.b.position_at_end(store_bb);
                self.b.build_store(expected_ptr, old)?;
                self.b.build_unconditional_branch(end)?;
                self.b.position_at_end(end);
                Ok(Some(ok.into()))
            }
            AtomicKind::Rmw(_) => ice("read-modify-write through atomic_c11"),
        }
    }

    /// Emits an atomic with orders and a scope that may be run-time values:
    /// a switch over the possible values, one instruction per case.
    fn atomic_dyn(
        &mut self,
        kind: AtomicKind,
        p: PointerValue<'ctx>,
        v: Option<BasicValueEnum<'ctx>>,
        load_ty: Option<BasicTypeEnum<'ctx>>,
        order: Order<'ctx>,
        scope: Order<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        self.atomic_cases(order, scope, |g, ao, sc| {
            Ok(match kind {
                AtomicKind::Rmw(op) => g.rmw(op, p, v.expect("rmw value"), ao, sc),
                AtomicKind::Load => g.atomic_load(p, load_ty.expect("load type"), legal_load(ao), sc),
                AtomicKind::Store => g.atomic_store(p, v.expect("store value"), legal_store(ao), sc),
                AtomicKind::CmpXchg { .. } => return ice("compare-exchange has its own path"),
            })
        })
    }

    /// Emits `emit` for the order and scope: once when both are constants,
    /// else under nested switches over their possible values, the results
    /// merged by a phi.
    fn atomic_cases(
        &mut self,
        order: Order<'ctx>,
        scope: Order<'ctx>,
        mut emit: impl FnMut(&mut Self, AO, &str) -> R<BasicValueEnum<'ctx>>,
    ) -> R<BasicValueEnum<'ctx>> {
        let orders: Vec<(i128, AO)> = match order {
            Order::Const(c) => vec![(c, order_of(c))],
            Order::Dyn(_) => ORDERS.to_vec(),
        };
        let scopes: Vec<(i128, &str)> = match scope {
            Order::Const(c) => vec![(c, scope_of(c))],
            Order::Dyn(_) => SCOPES.to_vec(),
        };
        if orders.len() == 1 && scopes.len() == 1 {
            return emit(self, orders[0].1, scopes[0].1);
        }
        let f = self.fs().llfn;
        let end = self.ctx.append_basic_block(f, "atomic.end");
        let mut incoming: Vec<(BasicValueEnum<'ctx>, inkwell::basic_block::BasicBlock<'ctx>)> = Vec::new();
        let order_v = match order {
            Order::Dyn(x) => Some(x),
            Order::Const(_) => None,
        };
        let scope_v = match scope {
            Order::Dyn(x) => Some(x),
            Order::Const(_) => None,
        };
        let order_blocks = self.switch_on(order_v, &orders)?;
        for (ob, ao) in order_blocks {
            self.b.position_at_end(ob);
            let scope_blocks = self.switch_on(scope_v, &scopes)?;
            for (sb, sc) in scope_blocks {
                self.b.position_at_end(sb);
                let r = emit(self, ao, sc)?;
                incoming.push((r, self.b.get_insert_block().expect("positioned")));
                self.b.build_unconditional_branch(end)?;
            }
        }
        self.b.position_at_end(end);
        let phi = self.b.build_phi(incoming[0].0.get_type(), "")?;
        for (v, bb) in &incoming {
            phi.add_incoming(&[(v, *bb)]);
        }
        Ok(phi.as_basic_value())
    }

    /// Branches on `v` to one block per case (the last case is also the
    /// default); returns the blocks with their payloads. With no value,
    /// the current block is the only case.
    fn switch_on<T: Copy>(&mut self, v: Option<inkwell::values::IntValue<'ctx>>, cases: &[(i128, T)]) -> R<Vec<(inkwell::basic_block::BasicBlock<'ctx>, T)>> {
        let here = self.b.get_insert_block().expect("positioned");
        let Some(v) = v else { return Ok(vec![(here, cases[0].1)]) };
        let f = self.fs().llfn;
        let blocks: Vec<_> = cases.iter().map(|(_, t)| (self.ctx.append_basic_block(f, "atomic.case"), *t)).collect();
        let arms: Vec<_> = cases.iter().zip(&blocks).take(cases.len() - 1).map(|((c, _), (bb, _))| (v.get_type().const_int(*c as u64, false), *bb)).collect();
        let default = blocks.last().expect("cases").0;
        self.b.build_switch(v, default, &arms)?;
        Ok(blocks)
    }

    fn ssid(&self, scope: &str) -> u32 {
        // SAFETY: the context is live; the name is a byte string.
        unsafe { llvm::LLVMGetSyncScopeID(llvm::LLVMGetModuleContext(self.module.as_mut_ptr()), scope.as_ptr().cast(), scope.len()) }
    }

    /// Is `p` a pointer into a work-group's local memory on the CPU? A
    /// group runs on one thread there (its work-items one after the
    /// other), and no other group sees its local memory: atomics on it
    /// need no atomic instructions (a locked `xadd` costs twenty times an
    /// add), only their effect.
    fn group_private(&self, p: PointerValue<'ctx>) -> bool {
        self.cpu_abi() && p.get_type().get_address_space() == Self::addr_space(clc_builtins::functions::AddrSpace::Local)
    }

    fn rmw(&mut self, op: RMW, p: PointerValue<'ctx>, v: BasicValueEnum<'ctx>, ao: AO, scope: &str) -> BasicValueEnum<'ctx> {
        if self.group_private(p) {
            return self.plain_rmw(op, p, v);
        }
        let ssid = self.ssid(scope);
        // SAFETY: positioned builder; `p` points to a value of v's type.
        let r = unsafe { llvm::LLVMBuildAtomicRMWSyncScope(self.b.as_mut_ptr(), op, p.as_value_ref(), v.as_value_ref(), ao, ssid) };
        self.raw(r)
    }

    /// [`Self::rmw`] on group-private memory: load, combine, store.
    fn plain_rmw(&mut self, op: RMW, p: PointerValue<'ctx>, v: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op};
        let old = self.b.build_load(v.get_type(), p, "").expect("positioned builder");
        let pick = |g: &mut Self, pred: IP| -> BasicValueEnum<'ctx> {
            // SAFETY: positioned builder; both operands are integers of one type.
            let c = unsafe { inkwell::llvm_sys::core::LLVMBuildICmp(g.b.as_mut_ptr(), pred, old.as_value_ref(), v.as_value_ref(), c"".as_ptr()) };
            let c = g.raw(c).into_int_value();
            g.b.build_select(c, old, v, "").expect("positioned builder")
        };
        let new = match op {
            RMW::LLVMAtomicRMWBinOpXchg => v,
            RMW::LLVMAtomicRMWBinOpAdd => self.binop(Op::LLVMAdd, old, v),
            RMW::LLVMAtomicRMWBinOpSub => self.binop(Op::LLVMSub, old, v),
            RMW::LLVMAtomicRMWBinOpAnd => self.binop(Op::LLVMAnd, old, v),
            RMW::LLVMAtomicRMWBinOpOr => self.binop(Op::LLVMOr, old, v),
            RMW::LLVMAtomicRMWBinOpXor => self.binop(Op::LLVMXor, old, v),
            RMW::LLVMAtomicRMWBinOpFAdd => self.binop(Op::LLVMFAdd, old, v),
            RMW::LLVMAtomicRMWBinOpFSub => self.binop(Op::LLVMFSub, old, v),
            RMW::LLVMAtomicRMWBinOpMin => pick(self, IP::LLVMIntSLT),
            RMW::LLVMAtomicRMWBinOpMax => pick(self, IP::LLVMIntSGT),
            RMW::LLVMAtomicRMWBinOpUMin => pick(self, IP::LLVMIntULT),
            RMW::LLVMAtomicRMWBinOpUMax => pick(self, IP::LLVMIntUGT),
            RMW::LLVMAtomicRMWBinOpFMin | RMW::LLVMAtomicRMWBinOpFMax => {
                let name = if op == RMW::LLVMAtomicRMWBinOpFMin { "llvm.minnum" } else { "llvm.maxnum" };
                match self.intrinsic(name, &[v.get_type()], &[old, v]) {
                    Ok(Some(r)) => r,
                    _ => v,
                }
            }
            // Operations the builtins never ask for: a real atomic.
            // SAFETY: positioned builder; `p` points to a value of v's type.
            _ => return self.raw(unsafe { llvm::LLVMBuildAtomicRMWSyncScope(self.b.as_mut_ptr(), op, p.as_value_ref(), v.as_value_ref(), AO::LLVMAtomicOrderingMonotonic, self.ssid("")) }),
        };
        self.b.build_store(p, new).expect("positioned builder");
        old
    }

    fn cmpxchg(&mut self, p: PointerValue<'ctx>, cmp: BasicValueEnum<'ctx>, new: BasicValueEnum<'ctx>, ok: AO, fail: AO, scope: &str, weak: bool) -> BasicValueEnum<'ctx> {
        if cmp.is_float_value() {
            // `atomic_float`/`atomic_double`: LLVM's cmpxchg takes integers,
            // and C11 compares the value representations (-0 is not +0, a
            // NaN equals its own bits), so it is a compare-exchange of the
            // bits, the old value reinterpreted back.
            let ft = cmp.get_type();
            let it = self.bits_type(ft);
            let (c, n) = (self.cast(Op::LLVMBitCast, cmp, it), self.cast(Op::LLVMBitCast, new, it));
            let pair = self.cmpxchg(p, c, n, ok, fail, scope, weak).into_struct_value();
            let old = self.b.build_extract_value(pair, 0, "").expect("a pair");
            let old = self.cast(Op::LLVMBitCast, old, ft);
            let float_pair = self.ctx.struct_type(&[ft, self.ctx.bool_type().into()], false);
            let agg = self.b.build_insert_value(float_pair.get_undef(), old, 0, "").expect("positioned builder");
            let eq = self.b.build_extract_value(pair, 1, "").expect("a pair");
            let agg = self.b.build_insert_value(agg, eq, 1, "").expect("positioned builder");
            return agg.as_basic_value_enum();
        }
        if self.group_private(p) {
            // { old, old == cmp }, storing `new` when equal (storing `old`
            // back otherwise changes nothing no one else can see).
            let old = self.b.build_load(cmp.get_type(), p, "").expect("positioned builder");
            let eq = if cmp.is_pointer_value() {
                self.b.build_int_compare(inkwell::IntPredicate::EQ, old.into_pointer_value(), cmp.into_pointer_value(), "").expect("positioned builder")
            } else {
                self.b.build_int_compare(inkwell::IntPredicate::EQ, old.into_int_value(), cmp.into_int_value(), "").expect("positioned builder")
            };
            let stored = self.b.build_select(eq, new, old, "").expect("positioned builder");
            self.b.build_store(p, stored).expect("positioned builder");
            let pair = self.ctx.struct_type(&[cmp.get_type(), self.ctx.bool_type().into()], false);
            let agg = self.b.build_insert_value(pair.get_undef(), old, 0, "").expect("positioned builder");
            let agg = self.b.build_insert_value(agg, eq, 1, "").expect("positioned builder");
            return agg.as_basic_value_enum();
        }
        let ssid = self.ssid(scope);
        let fail = legal_failure(ok, fail);
        // SAFETY: as for `rmw`.
        unsafe {
            let r = llvm::LLVMBuildAtomicCmpXchgSyncScope(self.b.as_mut_ptr(), p.as_value_ref(), cmp.as_value_ref(), new.as_value_ref(), ok, fail, ssid);
            llvm::LLVMSetWeak(r, weak as i32);
            self.raw(r)
        }
    }

    fn atomic_load(&mut self, p: PointerValue<'ctx>, t: BasicTypeEnum<'ctx>, ao: AO, scope: &str) -> BasicValueEnum<'ctx> {
        let v = self.b.build_load(t, p, "").expect("positioned builder");
        if self.group_private(p) {
            return v;
        }
        let size = self.type_bytes(t);
        // SAFETY: `v` is a load instruction just built.
        unsafe {
            llvm::LLVMSetOrdering(v.as_value_ref(), ao);
            llvm::LLVMSetAtomicSyncScopeID(v.as_value_ref(), self.ssid(scope));
            llvm::LLVMSetAlignment(v.as_value_ref(), size);
        }
        v
    }

    fn atomic_store(&mut self, p: PointerValue<'ctx>, v: BasicValueEnum<'ctx>, ao: AO, scope: &str) -> BasicValueEnum<'ctx> {
        let s = self.b.build_store(p, v).expect("positioned builder");
        if self.group_private(p) {
            return v;
        }
        let size = self.type_bytes(v.get_type());
        // SAFETY: `s` is a store instruction just built.
        unsafe {
            llvm::LLVMSetOrdering(s.as_value_ref(), ao);
            llvm::LLVMSetAtomicSyncScopeID(s.as_value_ref(), self.ssid(scope));
            llvm::LLVMSetAlignment(s.as_value_ref(), size);
        }
        v
    }

    fn fence(&mut self, ao: AO, scope: &str) {
        let ssid = self.ssid(scope);
        // SAFETY: positioned builder.
        unsafe {
            llvm::LLVMBuildFenceSyncScope(self.b.as_mut_ptr(), ao, ssid, c"".as_ptr());
        }
    }

    fn type_bytes(&self, t: BasicTypeEnum<'ctx>) -> u32 {
        match t {
            BasicTypeEnum::IntType(i) => i.get_bit_width().div_ceil(8),
            BasicTypeEnum::FloatType(_) => match super::expr::float_bits_of(t) {
                16 => 2,
                32 => 4,
                _ => 8,
            },
            BasicTypeEnum::PointerType(_) => self.size_bits() / 8,
            _ => 8,
        }
    }

    // -----------------------------------------------------------------
    // Conversions and reinterpretation
    // -----------------------------------------------------------------

    fn as_type(&mut self, v: BasicValueEnum<'ctx>, to: TypeId) -> R<BasicValueEnum<'ctx>> {
        let tt = self.vty(to)?;
        let from_lanes = match v.get_type() {
            BasicTypeEnum::VectorType(vt) => vt.get_size(),
            _ => 1,
        };
        let to_lanes = self.lanes_of(to).map_or(1, |n| n as u32);
        // A 3-element vector occupies 4 elements' storage: widen it first,
        // or narrow the result (OpenCL C 6.2.4.2). The padding lane of a
        // widened vector is zero, so what the spec leaves implementation
        // defined (`as_int(char3)`, `as_long2(int3)`) is a defined value
        // rather than poison that would spread through the whole result.
        let v = if from_lanes == 3 { self.resize_vector(v, 4)? } else { v };
        if to_lanes == 3 {
            let wide = match tt {
                BasicTypeEnum::VectorType(vt) => match vt.get_element_type() {
                    BasicTypeEnum::IntType(i) => i.vec_type(4).as_basic_type_enum(),
                    BasicTypeEnum::FloatType(f) => f.vec_type(4).as_basic_type_enum(),
                    other => other,
                },
                other => other,
            };
            let w = self.cast(Op::LLVMBitCast, v, wide);
            return self.resize_vector(w, 3);
        }
        Ok(self.cast(Op::LLVMBitCast, v, tt))
    }

    /// Keeps the first lanes of a vector, or pads it with zero lanes, to
    /// `n` lanes.
    fn resize_vector(&mut self, v: BasicValueEnum<'ctx>, n: u32) -> R<BasicValueEnum<'ctx>> {
        let vv = v.into_vector_value();
        let have = vv.get_type().get_size();
        let mask: Vec<_> = (0..n).map(|i| self.ctx.i32_type().const_int(if i < have { i as u64 } else { have as u64 }, false)).collect();
        let mask = inkwell::types::VectorType::const_vector(&mask);
        Ok(self.b.build_shuffle_vector(vv, vv.get_type().const_zero(), mask, "")?.into())
    }

    fn convert_builtin(&mut self, o: &Overload, args: &[ExprId], ty: TypeId, sat: bool, rounding: Option<Rounding>) -> R<Option<BasicValueEnum<'ctx>>> {
        let from = self.expr_info(args[0]).ty.ty;
        let (Some(fs), Some(ts)) = (self.elem_scalar(from), self.elem_scalar(ty)) else { return ice("convert_ of a non-arithmetic type") };
        let (ff, tf) = (is_float(fs), is_float(ts));
        let default_rounding = match rounding {
            None => true,
            // The default of each kind of conversion: to zero for float to
            // integer, to nearest even otherwise.
            Some(Rounding::Rtz) => ff && !tf,
            Some(Rounding::Rte) => tf,
            Some(_) => !ff && !tf,
        };
        let t = self.vty(ty)?;
        let v = self.value(args[0])?;
        match (ff, tf) {
            (false, false) => {
                if !sat {
                    return Ok(Some(self.int_resize(v, t, is_signed(fs))));
                }
                Ok(Some(self.int_saturate(v, fs, ts, t)))
            }
            (true, false) if !self.spirv() || (default_rounding && !sat) => {
                let v = match rounding {
                    Some(Rounding::Rte) => self.intrinsic("llvm.roundeven", &[v.get_type()], &[v])?.expect("value"),
                    Some(Rounding::Rtp) => self.intrinsic("llvm.ceil", &[v.get_type()], &[v])?.expect("value"),
                    Some(Rounding::Rtn) => self.intrinsic("llvm.floor", &[v.get_type()], &[v])?.expect("value"),
                    _ => v,
                };
                if sat {
                    // NaN to 0, out of range clamped (llvm.fpto[su]i.sat).
                    // From `half` on the CPU through `float` (exact): LLVM
                    // 22's x86 lowering with AVX512-FP16 drops the NaN
                    // case of the `half` form (NaN gave 0x8000 for short).
                    let v = if fs == Scalar::Half && !self.spirv() {
                        let ft = match v.get_type() {
                            BasicTypeEnum::VectorType(vt) => self.ctx.f32_type().vec_type(vt.get_size()).into(),
                            _ => self.ctx.f32_type().into(),
                        };
                        self.cast(Op::LLVMFPExt, v, ft)
                    } else {
                        v
                    };
                    let name = if is_signed(ts) { "llvm.fptosi.sat" } else { "llvm.fptoui.sat" };
                    return self.intrinsic(name, &[t, v.get_type()], &[v]);
                }
                Ok(Some(self.cast(if is_signed(ts) { Op::LLVMFPToSI } else { Op::LLVMFPToUI }, v, t)))
            }
            (false, true) if default_rounding => Ok(Some(self.cast(if is_signed(fs) { Op::LLVMSIToFP } else { Op::LLVMUIToFP }, v, t))),
            (true, true) if default_rounding || int_bits(t) == 0 && self.float_widens(v, t) => Ok(Some(self.convert_types(v, from, ty)?)),
            // Directed rounding of int→float and of narrowing float
            // conversions: inline (`convert.rs`), or by the SPIR-V consumer.
            (false, true) if !self.spirv() => Ok(Some(self.int_to_float_rounded(v, is_signed(fs), t, rounding.unwrap_or(Rounding::Rte)))),
            (true, true) if !self.spirv() => Ok(Some(self.float_narrow_rounded(v, t, rounding.unwrap_or(Rounding::Rte)))),
            _ => {
                // The argument is evaluated once, already.
                let width = if self.size_bits() == 32 { PointerWidth::Bits32 } else { PointerWidth::Bits64 };
                let name = mangle_for(&o.name, &o.params, width);
                self.call_named_values(&name, o, &[v], ty, false)
            }
        }
    }

    fn float_widens(&self, v: BasicValueEnum<'ctx>, t: BasicTypeEnum<'ctx>) -> bool {
        super::expr::float_bits_of(v.get_type()) <= super::expr::float_bits_of(t)
    }

    /// Integer conversion with saturation: clamp to the destination's range
    /// in the source type, then resize.
    fn int_saturate(&mut self, v: BasicValueEnum<'ctx>, fs: Scalar, ts: Scalar, t: BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx> {
        let fb = int_bits(v.get_type());
        let tb = int_bits(t);
        let range = |bits: u32, signed: bool| -> (i128, i128) {
            if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) }
        };
        let (slo, shi) = range(fb, is_signed(fs));
        let (dlo, dhi) = range(tb, is_signed(ts));
        let signed = is_signed(fs);
        let mut x = v;
        if dlo > slo {
            let lo = self.const_int(v.get_type(), dlo);
            let below = self.icmp(if signed { IP::LLVMIntSLT } else { IP::LLVMIntULT }, x, lo);
            x = self.select(below, lo, x);
        }
        if dhi < shi {
            let hi = self.const_int(v.get_type(), dhi);
            let above = self.icmp(if signed { IP::LLVMIntSGT } else { IP::LLVMIntUGT }, x, hi);
            x = self.select(above, hi, x);
        }
        self.int_resize(x, t, signed)
    }

    // -----------------------------------------------------------------
    // Vector data
    // -----------------------------------------------------------------

    /// The address `p + offset * n` elements of a `vload`/`vstore` (the
    /// aligned 3-element forms step by 4), the memory type of `n`
    /// elements, and the access's alignment: the element's, also for the
    /// `vloada_half`/`vstorea_half` forms. Those require `p + offset * n`
    /// aligned to the vector's size, but a program that misses it (piglit
    /// stores through a cast `short` array) would fault on x86's aligned
    /// vector moves, and unaligned ones cost nothing on aligned addresses.
    fn vector_access(&mut self, offset: ExprId, ptr: ExprId, n: u8, aligned: bool) -> R<(PointerValue<'ctx>, BasicTypeEnum<'ctx>, u32)> {
        let offset = self.value(offset)?.into_int_value();
        let p = self.value(ptr)?.into_pointer_value();
        let elem = self.pointee(self.expr_info(ptr).ty.ty)?;
        let et = self.mem_ty(elem)?;
        let stride = if aligned && n == 3 { 4 } else { n as u64 };
        let idx = self.b.build_int_mul(offset, offset.get_type().const_int(stride, false), "")?;
        let addr = self.gep(elem, p, idx)?;
        let lt = if n == 1 { et } else { vec_of(et, n as u32) };
        Ok((addr, lt, self.type_bytes(et)))
    }

    /// `vload<n>(offset, p)` and the half forms.
    fn vload(&mut self, args: &[ExprId], ty: TypeId, n: u8, half: bool, aligned: bool) -> R<Option<BasicValueEnum<'ctx>>> {
        let (addr, lt, align) = self.vector_access(args[0], args[1], n, aligned)?;
        let loaded = self.b.build_load(lt, addr, "")?;
        if let Some(i) = loaded.as_instruction_value() {
            self.mark_space(i, addr);
            let _ = i.set_alignment(align);
        }
        if half {
            let t = self.vty(ty)?;
            return Ok(Some(self.cast(Op::LLVMFPExt, loaded, t)));
        }
        Ok(Some(loaded))
    }

    fn vstore(&mut self, o: &Overload, args: &[ExprId], n: u8, half: bool, aligned: bool, rounding: Option<Rounding>) -> R<Option<BasicValueEnum<'ctx>>> {
        if half && self.spirv() && !matches!(rounding, None | Some(Rounding::Rte)) {
            // Directed rounding to half: the consumer's `vstore_half_r`.
            return self.mangled_call(o, args, self.void_type_id());
        }
        let data = self.value(args[0])?;
        let (addr, lt, align) = self.vector_access(args[1], args[2], n, aligned)?;
        let data = if half {
            // Inline, as `convert_half_rt*` (`convert.rs`).
            self.float_narrow_rounded(data, lt, rounding.unwrap_or(Rounding::Rte))
        } else {
            data
        };
        let s = self.b.build_store(addr, data)?;
        self.mark_space(s, addr);
        let _ = s.set_alignment(align);
        Ok(None)
    }

    fn void_type_id(&self) -> TypeId {
        self.program.types.find(&TypeKind::Void).expect("void is interned")
    }

    /// `shuffle(x, mask)`, `shuffle2(x, y, mask)`: lane `i` of the result
    /// is lane `mask[i]` (its low bits only) of `x` (then `y`).
    fn shuffle(&mut self, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let x = self.value(args[0])?.into_vector_value();
        let two = args.len() == 3;
        let y = if two { Some(self.value(args[1])?.into_vector_value()) } else { None };
        let mask = self.value(args[args.len() - 1])?.into_vector_value();
        let n = x.get_type().get_size() as u64;
        let out_lanes = self.lanes_of(ty).unwrap_or(1) as u32;
        let rt = self.vty(ty)?.into_vector_type();
        let mut acc = rt.get_poison();
        let mt = mask.get_type().get_element_type().into_int_type();
        let i32t = self.ctx.i32_type();
        for i in 0..out_lanes {
            let m = self.b.build_extract_element(mask, i32t.const_int(i as u64, false), "")?.into_int_value();
            let total = if two { 2 * n } else { n };
            let m = self.b.build_and(m, mt.const_int(total - 1, false), "")?;
            let lane = match y {
                Some(y) => {
                    let in_x = self.b.build_int_compare(inkwell::IntPredicate::ULT, m, mt.const_int(n, false), "")?;
                    let mx = self.b.build_and(m, mt.const_int(n - 1, false), "")?;
                    let a = self.b.build_extract_element(x, mx, "")?;
                    let b = self.b.build_extract_element(y, mx, "")?;
                    self.select(in_x.into(), a, b)
                }
                None => self.b.build_extract_element(x, m, "")?,
            };
            acc = self.b.build_insert_element(acc, lane, i32t.const_int(i as u64, false), "")?;
        }
        Ok(acc.into())
    }

    // -----------------------------------------------------------------
    // printf
    // -----------------------------------------------------------------

    /// `printf(format, ...)`: the format is a `__constant` string. SPIR-V
    /// consumers implement `printf` from the OpenCL.std instruction; on the
    /// CPU it is the C library's (OpenCL's vector conversions are the
    /// builtin library's business).
    fn printf(&mut self, args: &[ExprId]) -> R<Option<BasicValueEnum<'ctx>>> {
        let mut vals: Vec<BasicMetadataValueEnum> = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let mut v = self.value(a)?;
            if i == 0 && !self.spirv() {
                let p0 = self.ptr_ty(clc_builtins::functions::AddrSpace::Private).into();
                v = self.cast(Op::LLVMAddrSpaceCast, v, p0);
            }
            // A variadic argument gets C's promotions, as clang passes it:
            // `bool`, `char` and `short` as `int` (Intel's CPU runtime reads
            // an `int` for `%hhd`: a `char` printed garbage), `half` as
            // `float`. (`float` stays: doubles would make the module need
            // Float64, which consumers without cl_khr_fp64 refuse, and
            // consumers print a float for `%f`.)
            if i > 0 && self.spirv() {
                let ty = self.expr_info(a).ty.ty;
                if v.is_int_value() && v.into_int_value().get_type().get_bit_width() < 32 {
                    let signed = self.elem_scalar(ty).is_some_and(is_signed);
                    v = self.int_resize(v, self.ctx.i32_type().into(), signed);
                } else if v.is_float_value() && v.into_float_value().get_type() == self.ctx.f16_type() {
                    v = self.cast(Op::LLVMFPExt, v, self.ctx.f32_type().into());
                }
            }
            vals.push(v.into());
        }
        let fmt_space = if self.spirv() { clc_builtins::functions::AddrSpace::Constant } else { clc_builtins::functions::AddrSpace::Private };
        let fmt_ty = self.ptr_ty(fmt_space).into();
        let f = self.declare("printf", Some(self.ctx.i32_type().into()), &[fmt_ty], true, false, Purity::Effects);
        let call = self.b.build_call(f, &vals, "")?;
        call.set_call_convention(f.get_call_conventions());
        Ok(call.try_as_basic_value().basic())
    }
}

/// An order or scope argument.
#[derive(Clone, Copy)]
enum Order<'ctx> {
    Const(i128),
    Dyn(inkwell::values::IntValue<'ctx>),
}

fn order_of(v: i128) -> AO {
    ORDERS.iter().find(|(k, _)| *k == v).map_or(AO::LLVMAtomicOrderingSequentiallyConsistent, |(_, o)| *o)
}

fn scope_of(v: i128) -> &'static str {
    SCOPES.iter().find(|(k, _)| *k == v).map_or("device", |(_, s)| *s)
}

/// A load cannot release: `release` becomes relaxed, `acq_rel` acquire
/// (only reachable with run-time orders, which sema cannot check).
fn legal_load(o: AO) -> AO {
    match o {
        AO::LLVMAtomicOrderingRelease => AO::LLVMAtomicOrderingMonotonic,
        AO::LLVMAtomicOrderingAcquireRelease => AO::LLVMAtomicOrderingAcquire,
        o => o,
    }
}

fn legal_store(o: AO) -> AO {
    match o {
        AO::LLVMAtomicOrderingAcquire => AO::LLVMAtomicOrderingMonotonic,
        AO::LLVMAtomicOrderingAcquireRelease => AO::LLVMAtomicOrderingRelease,
        o => o,
    }
}

/// A compare-exchange failure order may be neither `release` nor
/// `acq_rel` nor stronger than the success order.
fn legal_failure(ok: AO, fail: AO) -> AO {
    let rank = |o: AO| match o {
        AO::LLVMAtomicOrderingMonotonic => 0,
        AO::LLVMAtomicOrderingAcquire => 1,
        AO::LLVMAtomicOrderingSequentiallyConsistent => 2,
        _ => 0,
    };
    let fail = match fail {
        AO::LLVMAtomicOrderingRelease => AO::LLVMAtomicOrderingMonotonic,
        AO::LLVMAtomicOrderingAcquireRelease => AO::LLVMAtomicOrderingAcquire,
        o => o,
    };
    let cap = match ok {
        AO::LLVMAtomicOrderingSequentiallyConsistent => AO::LLVMAtomicOrderingSequentiallyConsistent,
        AO::LLVMAtomicOrderingAcquire | AO::LLVMAtomicOrderingAcquireRelease => AO::LLVMAtomicOrderingAcquire,
        _ => AO::LLVMAtomicOrderingMonotonic,
    };
    if rank(fail) > rank(cap) { cap } else { fail }
}

fn vec_of(t: BasicTypeEnum<'_>, n: u32) -> BasicTypeEnum<'_> {
    match t {
        BasicTypeEnum::IntType(i) => i.vec_type(n).into(),
        BasicTypeEnum::FloatType(f) => f.vec_type(n).into(),
        other => other,
    }
}

/// OpenCL.std functions outside the math table (those are
/// [`super::libmath`]'s) that an LLVM intrinsic computes exactly on native
/// targets.
fn native_intrinsic(op: OpenClStd) -> Option<&'static str> {
    use OpenClStd as E;
    Some(match op {
        E::FminCommon => "llvm.minnum",
        E::FmaxCommon => "llvm.maxnum",
        E::SMax => "llvm.smax",
        E::UMax => "llvm.umax",
        E::SMin => "llvm.smin",
        E::UMin => "llvm.umin",
        E::Popcount => "llvm.ctpop",
        E::Clz => "llvm.ctlz",
        E::Ctz => "llvm.cttz",
        E::SAddSat => "llvm.sadd.sat",
        E::UAddSat => "llvm.uadd.sat",
        E::SSubSat => "llvm.ssub.sat",
        E::USubSat => "llvm.usub.sat",
        E::Rotate => "llvm.fshl",
        E::SAbs => "llvm.abs",
        _ => return None,
    })
}
