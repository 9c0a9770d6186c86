//! Pipes on the CPU target.

use clc_builtins::functions::Lowering;
use inkwell::values::BasicValueEnum;

use super::{Gen, R};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use crate::source::Span;

impl<'a, 'ctx> Gen<'a, 'ctx> {
    pub(super) fn cpu_pipe(&mut self, _lowering: Lowering, _args: &[ExprId], ty: TypeId, span: Span) -> R<Option<BasicValueEnum<'ctx>>> {
        self.unsupported(span, "a pipe function");
        self.zero_of(ty)
    }
}
