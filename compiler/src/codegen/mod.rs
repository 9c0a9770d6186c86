//! Code generation through LLVM (inkwell). The only module that may use
//! inkwell; version-specific LLVM details live in [`llvm`].
//!
//! [`configure`] sets a module's target; [`lower`] turns the typed program
//! (sema's HIR) into an LLVM module for that target; [`verify`],
//! [`optimize`] and [`emit`] (in `emit.rs`) check it, optimise it and write
//! LLVM IR, bitcode, assembly, a native object or a SPIR-V binary.

mod elfmerge;
mod emit;
pub mod llvm;
mod lower;
mod outline;
mod split;
pub(crate) mod spirv_fixup;
pub mod vecmath;

pub use emit::{OutputKind, SPIRV_MAX_MINOR, check_target, configure, emit, emit_final, optimize, target_triple, verify};
pub use llvm::{llvm_version, target_available};
pub use lower::{CType, Prec, is_math, libm_symbol, libm_symbols, lower};
/// The LLVM context modules live in (for embedders calling [`lower`]).
pub use inkwell::context::Context;

use crate::options::{ClStd, FpOptions, Target};
use crate::sema::Program;
use crate::source::SourceMap;

/// What code generation needs to know beyond the program.
#[derive(Clone, Debug, Default)]
pub struct CodegenOptions {
    pub target: Target,
    pub std: ClStd,
    /// 0 to 3.
    pub opt_level: u8,
    pub fp: FpOptions,
    /// `-cl-kernel-arg-info`: kernel argument names in the metadata.
    pub kernel_arg_info: bool,
    /// `-g`: DWARF line tables.
    pub debug_info: bool,
    /// `-fspirv-version=1.x`: the SPIR-V version (minor) to produce; 0 by
    /// default for the widest consumer support.
    pub spirv_minor: u8,
    /// `#pragma OPENCL FP_CONTRACT ON|OFF` in source order: where each
    /// pragma is and whether it enables contraction of `a * b + c` (on by
    /// default in OpenCL C). A pragma applies to the code after it in the
    /// same file.
    pub fp_contract: Vec<(crate::source::Span, bool)>,
    /// Generate for the CPU clc runs on (its features), as the JIT does;
    /// objects otherwise target the baseline of the triple.
    pub host_cpu: bool,
    /// Threads for optimising and generating a native object (see
    /// [`split`]): 0 for the `CLC_JOBS` environment variable or else as
    /// many as the machine has; 1 compiles on the calling thread only.
    pub jobs: usize,
    /// `-Xclang -disable-llvm-passes`: skip LLVM's optimisation pipeline
    /// and write the IR as lowered, for looking at what the front end
    /// gives LLVM. Objects and assembly still go through LLVM's code
    /// generator.
    pub disable_llvm_passes: bool,
}

impl CodegenOptions {
    /// May `a * b + c` at `at` be contracted?
    pub fn contract_at(&self, at: crate::source::Span) -> bool {
        self.fp_contract.iter().rev().find(|(p, _)| p.file == at.file && p.lo <= at.lo).is_none_or(|(_, on)| *on)
    }
}

/// A bug in clc found while generating code (an LLVM verifier failure, a
/// construct the lowering does not know): reported by the driver as an
/// internal compiler error naming the function, never as an abort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalError {
    /// The kernel or function being generated, when known.
    pub function: Option<String>,
    pub message: String,
}

impl std::fmt::Display for InternalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.function {
            Some(name) => write!(f, "in function '{name}': {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The whole back end for one program: lower it, set the module's target
/// ([`configure`]: the lowering may already have done so, with the same
/// result), verify it (always: a module the verifier rejects is a bug in
/// clc and must not reach LLVM's back ends, which may crash on it),
/// optimise it and write it as `kind`. `name` names the module (the input
/// file).
pub fn compile(
    program: &Program,
    sm: &SourceMap,
    name: &str,
    opts: &CodegenOptions,
    kind: OutputKind,
) -> Result<Vec<u8>, InternalError> {
    // Native code at -O1 and above: another thread builds LLVM's x86
    // unfolding table meanwhile ([`split::warm_x86_unfold_table`]), joined
    // on the way out, so no thread outlives the compilation.
    let _warm = JoinOnDrop(
        (kind.is_machine_code() && opts.opt_level > 0 && !opts.disable_llvm_passes && target_triple(opts).starts_with("x86_64") && split::threads(opts) > 1)
            .then(|| std::thread::Builder::new().name("clc-warm".into()).spawn(split::warm_x86_unfold_table).ok())
            .flatten(),
    );
    let ctx = inkwell::context::Context::create();
    let module = lower(&ctx, program, sm, name, opts)?;
    let tm = configure(&module, opts)?;
    verify(&module)?;
    if opts.disable_llvm_passes {
        return emit_final(module, &tm, kind);
    }
    let module = if kind == OutputKind::Object {
        // The split's other threads lower the program again, each in its
        // own context.
        let relower: &split::Relower<'_> = &|ctx| lower(ctx, program, sm, name, opts);
        match split::compile_object(module, opts, Some(relower))? {
            Ok(object) => return Ok(object),
            Err(split::Whole::Module(module)) => module,
            Err(split::Whole::Lower) => {
                let module = lower(&ctx, program, sm, name, opts)?;
                configure(&module, opts)?;
                module
            }
        }
    } else {
        module
    };
    optimize(&module, &tm, opts.opt_level, true)?;
    emit_final(module, &tm, kind)
}

/// A thread joined when this is dropped.
struct JoinOnDrop(Option<std::thread::JoinHandle<()>>);

impl Drop for JoinOnDrop {
    fn drop(&mut self) {
        if let Some(thread) = self.0.take() {
            let _ = thread.join();
        }
    }
}

/// [`optimize`] for the JIT. With `CLC_JIT_OUTLINE=1` in the environment
/// (a developer's switch for testing [`outline`]), the pipeline runs cut
/// after the first half's loop passes with the work-group loops outlined
/// there, as a file's only kernel compiled on two threads is
/// ([`split::Cut::AfterLoops`]), so the JIT's tests check that path's
/// results too.
pub fn optimize_for_jit(module: &inkwell::module::Module<'_>, tm: &inkwell::targets::TargetMachine, opt_level: u8, vector_math: bool) -> Result<(), InternalError> {
    if std::env::var("CLC_JIT_OUTLINE").is_ok_and(|v| v == "1") && emit::phased(tm, opt_level) {
        let (before, after) = split::Cut::AfterLoops.phases();
        emit::optimize_phase(module, tm, opt_level, vector_math, before)?;
        split::outline(module, tm, 2)?;
        return emit::optimize_phase(module, tm, opt_level, vector_math, after);
    }
    optimize(module, tm, opt_level, vector_math)
}

#[cfg(test)]
mod jit_tests;
#[cfg(test)]
mod builtin_tests;
