//! The semantic checker: turns the parser's AST into a checked, fully
//! typed program that code generation can lower without re-checking.
//!
//! Built in layers. Present today:
//! - [`types`]: OpenCL C's type system (interned types, address spaces and
//!   their conversion rules, OpenCL layout);
//! - [`specs`]: combining type-specifier words into a base type, with
//!   clang's diagnostics for combinations C does not allow;
//! - [`walk`]: a walk over every declaration-specifier list in the AST.
//!
//! [`check`] runs what exists on a translation unit. Name resolution,
//! expression typing and the OpenCL rules build on these layers.

pub mod memory_model;
pub mod specs;
pub mod types;
pub mod walk;

use crate::diag::Diagnostics;
use crate::parse::ast::TranslationUnit;

/// Checks a translation unit, reporting into `diags`.
pub fn check(tu: &TranslationUnit, diags: &mut Diagnostics) {
    walk::each_specs(tu, &mut |specs| {
        if !specs.items.is_empty() {
            let _ = specs::base_type(specs, diags);
        }
    });
}
