//! The semantic checker: turns the parser's AST into a checked, fully
//! typed program that code generation can lower without re-checking.
//!
//! Built in layers; present today is [`types`], OpenCL C's type system
//! (interned types, address spaces and their conversion rules, OpenCL
//! layout). Name resolution, expression typing and the OpenCL rules build
//! on it.

pub mod types;
