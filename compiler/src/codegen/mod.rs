//! Code generation through LLVM (inkwell). The only module that may use
//! inkwell; version-specific LLVM details live in [`llvm`].
//!
//! [`lower`] turns the typed program (sema's HIR) into an LLVM module for
//! one target; `emit` optimises it and writes LLVM IR, bitcode, assembly,
//! a native object or a SPIR-V binary.

pub mod llvm;
mod lower;

pub use llvm::{llvm_version, target_available};
pub use lower::lower;

use crate::options::{ClStd, FpOptions, Target};

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
    /// `#pragma OPENCL FP_CONTRACT OFF` was given: no `a * b + c`
    /// contraction (it is on by default in OpenCL C).
    pub fp_contract_off: bool,
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
