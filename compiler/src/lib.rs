//! clc: an OpenCL C compiler.
//!
//! The pipeline, one module per stage, each with one entry function taking
//! the previous stage's output (see `ARCHITECTURE.md`):
//! [`pp::preprocess`] → [`parse::parse`] → [`sema`] (semantic checking) →
//! [`codegen`]. [`driver`] is the command-line front of it all.

pub mod codegen;
pub mod crash;
pub mod diag;
pub mod driver;
pub mod jit;
pub mod lex;
pub mod options;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;
