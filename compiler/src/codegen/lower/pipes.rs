//! OpenCL C 2.0 pipes (§6.13.16): `read_pipe`/`write_pipe`, reservations,
//! their work-group and sub-group forms, and the packet counts. SPIR-V
//! here, the CPU target in `cpu_pipes.rs`.
//!
//! On SPIR-V the calls are those LLVM 22's back end turns into pipe
//! instructions (clang's names: `__read_pipe_2(pipe, generic packet
//! pointer, size, alignment)`, `__reserve_read_pipe`, …, each with the
//! packet type's size and alignment). clang passes pipes and reservation
//! ids as target types (`target("spirv.Pipe", 0)`), which inkwell cannot
//! represent; clc's IR carries them as pointers, and:
//! - a pipe parameter of a kernel gets `llvm.spv.assign.type` with its
//!   pipe type at the kernel's entry, from which the back end types the
//!   parameter (OpTypePipe with the access qualifier);
//! - functions taking or returning pipes or reservation ids are inlined
//!   on SPIR-V (`alwaysinline`), so only kernel parameters are pipes and
//!   reservation ids never cross a call;
//! - the back end gives reservations a pointer type (and memory holding
//!   them a pointer's), which `spirv_fixup` makes OpTypeReserveId.

use clc_builtins::functions::{Access, AddrSpace, GroupOp, Lowering, PipeOp, Purity};
use inkwell::llvm_sys::core as llvm;
use inkwell::types::{AsTypeRef, BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, BasicValueEnum, PointerValue};

use super::{Gen, R, ice};
use crate::sema::hir::ExprId;
use crate::sema::types::{TypeId, TypeKind};

/// The group functions that are pipe reservations and commits.
pub(super) fn is_pipe_op(op: GroupOp) -> bool {
    matches!(op, GroupOp::ReserveReadPipe | GroupOp::ReserveWritePipe | GroupOp::CommitReadPipe | GroupOp::CommitWritePipe)
}

/// The name of the intrinsic that gives a pipe parameter its SPIR-V type.
const ASSIGN_TYPE: &str = "llvm.spv.assign.type.p1";

/// `is_valid_reserve_id` as the back end knows it (`ocl_reserve_id` is
/// its `opencl.reserve_id_t`; clang's `13ocl_reserveid` is not).
const IS_VALID_RESERVE_ID: &str = "_Z19is_valid_reserve_id14ocl_reserve_id";

/// The pipe builtins' lowerings, for [`is_pipe_function`].
const LOWERINGS: [Lowering; 18] = {
    use GroupOp as G;
    use PipeOp as P;
    [
        Lowering::Pipe(P::Read { reserved: false }),
        Lowering::Pipe(P::Read { reserved: true }),
        Lowering::Pipe(P::Write { reserved: false }),
        Lowering::Pipe(P::Write { reserved: true }),
        Lowering::Pipe(P::ReserveRead),
        Lowering::Pipe(P::ReserveWrite),
        Lowering::Pipe(P::CommitRead),
        Lowering::Pipe(P::CommitWrite),
        Lowering::Pipe(P::NumPackets),
        Lowering::Pipe(P::MaxPackets),
        Lowering::WorkGroup(G::ReserveReadPipe),
        Lowering::WorkGroup(G::ReserveWritePipe),
        Lowering::WorkGroup(G::CommitReadPipe),
        Lowering::WorkGroup(G::CommitWritePipe),
        Lowering::SubGroup(G::ReserveReadPipe),
        Lowering::SubGroup(G::ReserveWritePipe),
        Lowering::SubGroup(G::CommitReadPipe),
        Lowering::SubGroup(G::CommitWritePipe),
    ]
};

/// The function LLVM 22's SPIR-V back end knows a pipe builtin by
/// (clang's name; the packet counts by the pipe's access), and whether it
/// is a group function. `None` for `is_valid_reserve_id` and other
/// lowerings.
fn spirv_name(lowering: Lowering, access: Access) -> Option<(String, bool)> {
    let group = |scope: &str, op: GroupOp| {
        let op = match op {
            GroupOp::ReserveReadPipe => "reserve_read_pipe",
            GroupOp::ReserveWritePipe => "reserve_write_pipe",
            GroupOp::CommitReadPipe => "commit_read_pipe",
            GroupOp::CommitWritePipe => "commit_write_pipe",
            _ => return None,
        };
        Some((format!("__{scope}_{op}"), true))
    };
    let ro_wo = if access == Access::WriteOnly { "wo" } else { "ro" };
    let plain = |name: &str| Some((name.to_string(), false));
    match lowering {
        Lowering::Pipe(PipeOp::Read { reserved }) => plain(if reserved { "__read_pipe_4" } else { "__read_pipe_2" }),
        Lowering::Pipe(PipeOp::Write { reserved }) => plain(if reserved { "__write_pipe_4" } else { "__write_pipe_2" }),
        Lowering::Pipe(PipeOp::ReserveRead) => plain("__reserve_read_pipe"),
        Lowering::Pipe(PipeOp::ReserveWrite) => plain("__reserve_write_pipe"),
        Lowering::Pipe(PipeOp::CommitRead) => plain("__commit_read_pipe"),
        Lowering::Pipe(PipeOp::CommitWrite) => plain("__commit_write_pipe"),
        Lowering::Pipe(PipeOp::NumPackets) => plain(&format!("__get_pipe_num_packets_{ro_wo}")),
        Lowering::Pipe(PipeOp::MaxPackets) => plain(&format!("__get_pipe_max_packets_{ro_wo}")),
        Lowering::WorkGroup(op) => group("work_group", op),
        Lowering::SubGroup(op) => group("sub_group", op),
        _ => None,
    }
}

/// Is `name` a function this lowering declares for SPIR-V pipes (their
/// capability needs SPIR-V 1.1 in LLVM 22, see `emit`)?
pub(crate) fn is_pipe_function(name: &str) -> bool {
    name == ASSIGN_TYPE
        || name == IS_VALID_RESERVE_ID
        || LOWERINGS.iter().any(|&l| [Access::ReadOnly, Access::WriteOnly].iter().any(|&a| spirv_name(l, a).is_some_and(|(n, _)| n == name)))
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A pipe builtin: `Lowering::Pipe`, or a work-group or sub-group
    /// reservation or commit.
    pub(super) fn pipe_builtin(&mut self, lowering: Lowering, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        if self.spirv() {
            return self.spirv_pipe(lowering, args, ty);
        }
        self.cpu_pipe(lowering, args, ty)
    }

    /// The packet type's size and alignment, and the access qualifier, of
    /// the pipe `e`.
    pub(super) fn pipe_packet(&self, e: ExprId) -> R<(u64, u64, Access)> {
        let t = self.expr_info(e).ty.ty;
        let TypeKind::Pipe(packet, access) = self.kind(t) else { return ice("a pipe builtin without a pipe") };
        let Some((size, align)) = self.types.size_align(packet.ty) else { return ice("a pipe packet type without a size") };
        Ok((size, align, *access))
    }

    fn spirv_pipe(&mut self, lowering: Lowering, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let values = self.arg_values(args)?;
        let i32t = self.ctx.i32_type();
        let t = self.value_ty(ty)?;
        if lowering == Lowering::Pipe(PipeOp::IsValidReserveId) {
            return self.pipe_call(IS_VALID_RESERVE_ID, &values, Some(self.ctx.bool_type().into()), Purity::Const, false);
        }
        let (size, align, access) = self.pipe_packet(args[0])?;
        let Some((name, convergent)) = spirv_name(lowering, access) else { return ice("a pipe builtin the SPIR-V lowering does not know") };
        let mut values = values;
        values.push(i32t.const_int(size, false).into());
        values.push(i32t.const_int(align, false).into());
        self.pipe_call(&name, &values, t, Purity::Effects, convergent)
    }

    fn pipe_call(
        &mut self,
        name: &str,
        values: &[BasicValueEnum<'ctx>],
        ret: Option<BasicTypeEnum<'ctx>>,
        purity: Purity,
        convergent: bool,
    ) -> R<Option<BasicValueEnum<'ctx>>> {
        let vals: Vec<BasicMetadataValueEnum> = values.iter().map(|v| (*v).into()).collect();
        let tys: Vec<BasicMetadataTypeEnum> = values.iter().map(|v| v.get_type().into()).collect();
        let f = self.declare(name, ret, &tys, false, convergent, purity);
        let call = self.b.build_call(f, &vals, "")?;
        call.set_call_convention(f.get_call_conventions());
        Ok(call.try_as_basic_value().basic())
    }

    /// `llvm.spv.assign.type(p, target("spirv.Pipe", access) poison)`:
    /// the kernel parameter `p` is a pipe (see the module comment).
    pub(super) fn assign_pipe_type(&mut self, p: PointerValue<'ctx>, access: Access) -> R<()> {
        let qualifier: u32 = match access {
            Access::ReadOnly => 0,
            Access::WriteOnly => 1,
            Access::ReadWrite => 2,
        };
        let ptr1 = self.ptr_ty(AddrSpace::Global);
        let metadata = self.ctx.metadata_type();
        let fty = self.ctx.void_type().fn_type(&[ptr1.into(), metadata.into()], false);
        let f = self.module.get_function(ASSIGN_TYPE).unwrap_or_else(|| self.module.add_function(ASSIGN_TYPE, fty, None));
        // SAFETY: plain LLVM-C calls on this context, module and builder;
        // the target type and its poison value live in the context, and
        // no inkwell wrapper is made of them (inkwell has none).
        unsafe {
            let ctx = llvm::LLVMGetModuleContext(self.module.as_mut_ptr());
            let mut ints = [qualifier];
            let pipe = llvm::LLVMTargetExtTypeInContext(ctx, c"spirv.Pipe".as_ptr(), std::ptr::null_mut(), 0, ints.as_mut_ptr(), 1);
            let md = llvm::LLVMMetadataAsValue(ctx, llvm::LLVMValueAsMetadata(llvm::LLVMGetPoison(pipe)));
            let mut call_args = [p.as_value_ref(), md];
            let call = llvm::LLVMBuildCall2(self.b.as_mut_ptr(), fty.as_type_ref(), f.as_value_ref(), call_args.as_mut_ptr(), 2, c"".as_ptr());
            if call.is_null() {
                return ice("LLVM built no llvm.spv.assign.type call");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_pipe_function;

    #[test]
    fn pipe_functions_are_known_by_name() {
        for name in ["__read_pipe_2", "__write_pipe_4", "__get_pipe_max_packets_wo", "__work_group_commit_write_pipe", "__sub_group_reserve_read_pipe", "llvm.spv.assign.type.p1"] {
            assert!(is_pipe_function(name), "{name}");
        }
        for name in ["__read_pipe_3", "read_pipe", "__work_group_reduce_add", "__sub_group_commit_pipe", "_Z13get_global_idj"] {
            assert!(!is_pipe_function(name), "{name}");
        }
    }
}
