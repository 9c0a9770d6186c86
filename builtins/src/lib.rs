//! The single source of truth for what OpenCL C provides without a
//! declaration: builtin type names ([`types`]), builtin functions with
//! their overloads, requirements and lowerings ([`functions`]), and the
//! constants and macros of clang's OpenCL headers ([`constants`]).
//!
//! This crate knows nothing of LLVM, of spans or of the parser (its one
//! dependency is rustc-hash, for fast name lookups): it maps
//! names to descriptions, and every other crate asks it.

pub mod constants;
pub mod functions;
pub mod mangle;
pub mod printf;
pub mod suggest;
pub mod types;

pub use constants::{ConstValue, Constant, constant};
pub use functions::{
    AddrSpace, ArgTy, Ctx, ExtSet, Extension, Lowering, Overload, Requirement, ResolveError, Resolved, Ty, Version,
    lookup, overloads, resolve, resolve_widening,
};
