//! clc: an OpenCL C compiler.
//!
//! The pipeline, one module per stage, each with one entry function taking
//! the previous stage's output (see `ARCHITECTURE.md`):
//! [`pp::preprocess`] → [`parse::parse`] → (semantic checking) → code
//! generation. [`driver`] is the command-line front of it all.

pub mod diag;
pub mod lex;
pub mod options;
pub mod source;
pub mod pp;
pub mod parse;
