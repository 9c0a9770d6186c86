//! The single source of truth for what OpenCL C provides without a
//! declaration: builtin type names now, builtin functions as the semantic
//! checker arrives.
//!
//! This crate knows nothing of LLVM, of spans or of the parser: it maps
//! names to descriptions, and every other crate asks it.

pub mod types;
