//! Code generation through LLVM (inkwell). The only module that may use
//! inkwell; version-specific LLVM details live in [`llvm`].
//!
//! Lowering the checked program arrives with the code-generation issue;
//! today this module reports the LLVM it was built against and which of
//! clc's targets that LLVM can reach, so the build is proven once.

pub mod llvm;

pub use llvm::{llvm_version, target_available};
