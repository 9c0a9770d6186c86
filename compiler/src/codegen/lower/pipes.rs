//! OpenCL C 2.0 pipes (§6.13.16): `read_pipe`/`write_pipe`, reservations,
//! their work-group and sub-group forms, and the packet counts. SPIR-V
//! here, the CPU target in `cpu_pipes.rs`.

use clc_builtins::functions::{GroupOp, Lowering};
use inkwell::values::BasicValueEnum;

use super::{Gen, R};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use crate::source::Span;

/// The group functions that are pipe reservations and commits.
pub(super) fn is_pipe_op(op: GroupOp) -> bool {
    matches!(op, GroupOp::ReserveReadPipe | GroupOp::ReserveWritePipe | GroupOp::CommitReadPipe | GroupOp::CommitWritePipe)
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A pipe builtin: `Lowering::Pipe`, or a work-group or sub-group
    /// reservation or commit.
    pub(super) fn pipe_builtin(&mut self, lowering: Lowering, args: &[ExprId], ty: TypeId, span: Span) -> R<Option<BasicValueEnum<'ctx>>> {
        if self.spirv() {
            self.unsupported(span, "a pipe function");
            return self.zero_of(ty);
        }
        self.cpu_pipe(lowering, args, ty, span)
    }
}
