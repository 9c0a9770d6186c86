//! HIR → LLVM IR. (Being written: the code-generation issue.)

use super::{CodegenOptions, InternalError};
use crate::sema::Program;
use crate::source::SourceMap;
use inkwell::context::Context;
use inkwell::module::Module;

/// Lowers a checked program (with its typed functions) into a module for
/// `opts.target`.
pub fn lower<'ctx>(ctx: &'ctx Context, program: &Program, sm: &SourceMap, name: &str, opts: &CodegenOptions) -> Result<Module<'ctx>, InternalError> {
    let _ = (program, sm, opts);
    Ok(ctx.create_module(name))
}
