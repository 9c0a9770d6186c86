//! The semantic checker: turns the parser's AST into a checked, fully
//! typed program that code generation can lower without re-checking.
//!
//! Built in layers. Present today:
//! - [`types`]: OpenCL C's type system (interned types, address spaces and
//!   their conversion rules, OpenCL layout);
//! - [`specs`]: combining type-specifier words into a base type, with
//!   clang's diagnostics for combinations C does not allow;
//! - [`consteval`]: integer constant expressions;
//! - [`decls`]: scopes, name resolution, declarations to types, and
//!   OpenCL C's rules on declarations (address spaces, kernels, storage
//!   classes, restricted types, recursion), with its child `loop_hints`
//!   (`sema/loop_hints.rs`): `#pragma unroll` and `opencl_unroll_hint`;
//! - [`decls`]'s child `expr` (`sema/expr.rs`): the type and value category
//!   of every expression, implicit conversions (C99 §6.3, OpenCL C 2.0
//!   §6.2–§6.3), address spaces in pointer conversions (§6.5.5), vectors
//!   (widening, literals, swizzles, `select`), builtin calls resolved with
//!   `clc_builtins::resolve`, and atomic objects (§6.13.11);
//! - [`memory_model`]: the legality of constant `memory_order`,
//!   `memory_scope` and fence-flag arguments (§6.13.8, §6.13.9, §6.13.11),
//!   rules clang leaves unchecked.
//!
//! - [`hir`]: the typed program code generation takes (every expression
//!   typed, every implicit conversion an explicit node), built by
//!   `expr`'s child `lower` (`sema/lower.rs`) from the facts typing
//!   records, only for a unit without errors.
//!
//! [`check`] runs what exists on a translation unit and returns the
//! [`Program`] table with the typed program.
//!
//! Error codes of this module (stable):
//! - `E0301`–`E0303`: type-specifier combinations ([`specs`]);
//! - `E0304`: use of an undeclared identifier or label-less name misuse
//!   (unknown type name, type name used as a value);
//! - `E0305`: redefinition, conflicting declarations, tag kind mismatch;
//! - `E0306`: goto labels (undeclared, redefined);
//! - `E0307`: not an integer constant expression (and enumerator range);
//! - `E0308`: array sizes (variable length, negative, too large);
//! - `E0309`: `_Static_assert` failed;
//! - `E0310`: address spaces of declarations (OpenCL C 2.0 §6.5);
//! - `E0311`: storage classes OpenCL C forbids;
//! - `E0312`: kernel signatures (return type, parameter types);
//! - `E0313`: bit-fields;
//! - `E0314`: types not allowed where they appear (images, samplers,
//!   events, `half` without `cl_khr_fp16`, `double` without `cl_khr_fp64`,
//!   incomplete types, pointers to images or functions, variadic
//!   prototypes);
//! - `E0315`: attribute arguments (`reqd_work_group_size`,
//!   `work_group_size_hint`, `vec_type_hint`, `aligned`,
//!   `opencl_unroll_hint`) and where attributes stand;
//! - `E0316`: recursion;
//! - `E0317`: struct/union members (duplicates, function members);
//! - `E0320`: invalid operands (operators, indirection, subscripts,
//!   controlling expressions);
//! - `E0321`: assignment to what is not a modifiable lvalue (`const`,
//!   rvalues, arrays, `__constant` objects, swizzles with repeated
//!   components);
//! - `E0322`: incompatible types in assignment, initialization, argument
//!   passing and return;
//! - `E0323`: calls (callee not a function, argument count);
//! - `E0324`: member access and swizzles;
//! - `E0325`: pointer conversions that change the address space;
//! - `E0326`: vector conversions, scalar widening, vector literals;
//! - `E0327`: invalid casts;
//! - `E0328`: builtin calls (no matching overload, ambiguous, not
//!   available, `printf`'s format);
//! - `E0329`: atomic objects used other than through atomic functions;
//! - `E0330`: initializers that are not compile-time constants;
//! - `E0331`: switch labels (duplicate case values, several defaults);
//! - `E0332`: `break`, `continue`, `case` and `default` outside the
//!   statements they belong to;
//! - `E0334`: `#pragma unroll` counts (not an integer, negative, too
//!   large) and pragmas that clash on one loop (`opencl_unroll_hint`'s
//!   errors are attribute errors, `E0315`);
//! - `E0335`: GNU statement expressions where they may not be (at file
//!   scope) and jumps into them (`goto`, `case`/`default` labels);
//! - `E0360`–`E0364`: memory orders, scopes and fence flags
//!   ([`memory_model`]).

pub mod attrs;
pub mod consteval;
pub mod decls;
pub mod hir;
pub mod memory_model;
pub mod specs;
pub mod types;

use crate::diag::Diagnostics;
use crate::options::{ClStd, Target};
use crate::parse::ast::TranslationUnit;
use crate::source::Span;
use types::{QualType, Types};

/// What the checker needs to know about the compilation.
#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// The OpenCL C version. Default: [`ClStd::Cl20`].
    pub std: ClStd,
    /// The target (pointer width). Default: [`Target::Host`].
    pub target: Target,
    /// Is `cl_khr_fp16` enabled at the start of the unit? Default:
    /// `false`; `#pragma OPENCL EXTENSION cl_khr_fp16 : enable` turns it on
    /// from where it appears (see [`SemaOptions::extension_events`]).
    pub fp16: bool,
    /// Is `cl_khr_fp64` enabled at the start of the unit? Default: `true`,
    /// as clang enables it for OpenCL C 1.2 and later (where a `disable`
    /// pragma changes nothing, as in clang); before 1.2 it takes an
    /// `enable` pragma.
    pub fp64: bool,
    /// `#pragma OPENCL EXTENSION` for fp16/fp64 in source order: where,
    /// which (`cl_khr_fp16`, `cl_khr_fp64`, `all`), enable or disable.
    pub extension_events: Vec<(Span, String, bool)>,
    /// Build the typed program ([`Program::functions`], [`Program::globals`])?
    /// Default: `true`. `-fsyntax-only` turns it off: checking is complete
    /// without it, and building it costs about as much as checking.
    pub build_program: bool,
}

impl Default for SemaOptions {
    fn default() -> SemaOptions {
        SemaOptions { std: ClStd::default(), target: Target::default(), fp16: false, fp64: true, extension_events: Vec::new(), build_program: true }
    }
}

impl SemaOptions {
    /// Options for `std` and `target`, with the extension pragmas of the
    /// unit (they take effect from where they appear).
    pub fn new(std: ClStd, target: Target, pragmas: &[crate::pp::Pragma]) -> SemaOptions {
        let mut o = SemaOptions { std, target, fp16: false, fp64: std >= ClStd::Cl12, extension_events: Vec::new(), build_program: true };
        for p in pragmas {
            if let crate::pp::PragmaKind::Extension { name, enable } = &p.kind {
                if matches!(name.as_str(), "cl_khr_fp16" | "cl_khr_fp64" | "all") {
                    o.extension_events.push((p.span, name.clone(), *enable));
                }
            }
        }
        o
    }

    /// Is `cl_khr_fp16` enabled at `at`?
    pub fn fp16_at(&self, at: Span) -> bool {
        self.extension_at("cl_khr_fp16", self.fp16, at)
    }

    /// Is `cl_khr_fp64` enabled at `at`? From OpenCL C 1.2 it cannot be
    /// disabled (as in clang).
    pub fn fp64_at(&self, at: Span) -> bool {
        self.fp64 || self.extension_at("cl_khr_fp64", self.fp64, at)
    }

    /// Replays the pragmas before `at`. A pragma in the same file counts
    /// when it comes earlier; one in another file (a header) cannot be
    /// placed relative to `at` by spans alone, so only its `enable` is
    /// taken, which never makes a valid program invalid.
    fn extension_at(&self, name: &str, start: bool, at: Span) -> bool {
        let mut on = start;
        for (span, ext, enable) in &self.extension_events {
            if ext != name && ext != "all" {
                continue;
            }
            let before = if span.file == at.file { span.lo < at.lo } else { *enable };
            if before {
                on = *enable;
            }
        }
        on
    }
}

/// The checked program, as far as the layers that exist check it: every
/// program-scope entity with its type.
#[derive(Debug)]
pub struct Program {
    pub types: Types,
    pub entities: Vec<Entity>,
    /// The program-scope variables with their initializers, typed
    /// ([`hir`]). Empty when the check found errors.
    pub globals: Vec<hir::Global>,
    /// Every function with a body, typed ([`hir`]): what code generation
    /// lowers. Built only when the check found no errors; empty otherwise
    /// (so a program with errors cannot be lowered).
    pub functions: Vec<hir::Function>,
}

impl Program {
    /// The entity named `name` (the first, for an overload set).
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// The kernels, in declaration order.
    pub fn kernels(&self) -> impl Iterator<Item = &Entity> {
        self.entities.iter().filter(|e| matches!(e.kind, EntityKind::Function { kernel: true, .. }))
    }
}

/// A program-scope variable or function.
#[derive(Clone, Debug)]
pub struct Entity {
    pub name: String,
    /// The defining occurrence of the name (the first declaration until a
    /// definition is seen).
    pub span: Span,
    /// For a function, its `TypeKind::Function` type.
    pub ty: QualType,
    pub kind: EntityKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityKind {
    Global,
    /// `overloadable`: declared with `__attribute__((overloadable))`
    /// (its symbol is Itanium-mangled, even alone).
    Function { kernel: bool, defined: bool, overloadable: bool },
}

/// Checks a translation unit, reporting into `diags`.
pub fn check(tu: &TranslationUnit, opts: &SemaOptions, diags: &mut Diagnostics) -> Program {
    let errors_before = diags.error_count();
    let mut program = decls::check(tu, opts, diags);
    // The memory-model rules read constant arguments through declarations;
    // after a declaration error those may be wrong, and the messages would
    // be noise.
    if diags.error_count() == errors_before {
        memory_model::check(tu, opts.std, diags);
    }
    if diags.error_count() != errors_before {
        program.functions.clear();
        program.globals.clear();
    }
    program
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    /// Runs the front end on `src` and returns the program and the
    /// error messages.
    fn check_src(src: &str) -> (Program, Vec<String>) {
        let mut sm = SourceMap::new();
        let main = sm.add_virtual("t.cl", src.to_string());
        let mut diags = Diagnostics::default();
        let pp_opts = crate::pp::PpOptions::default();
        let out = crate::pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
        let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
        let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
        (p, diags.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn program_records_kernels_globals_and_types() {
        let (p, errs) = check_src("global int g = 1; constant float c[4] = {0}; int f(int); kernel void k(global int *o) { o[0] = f(g); } int f(int x) { return x; }");
        assert!(errs.is_empty(), "{errs:?}");
        let g = p.entity("g").unwrap();
        assert_eq!(p.types.display_qual(g.ty), "__global int");
        assert_eq!(p.types.display_qual(p.entity("c").unwrap().ty), "__constant float[4]");
        let k: Vec<_> = p.kernels().map(|e| e.name.as_str()).collect();
        assert_eq!(k, ["k"]);
        assert_eq!(p.types.display(p.entity("k").unwrap().ty.ty), "void (__global int *)");
        assert_eq!(p.entity("f").unwrap().kind, EntityKind::Function { kernel: false, defined: true, overloadable: false });
    }

    #[test]
    fn unqualified_pointee_is_generic_in_2_0() {
        let (p, errs) = check_src("void f(int *p, local float *q);");
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(p.types.display(p.entity("f").unwrap().ty.ty), "void (__generic int *, __local float *)");
    }

    #[test]
    fn expressions_are_typed() {
        let (_, errs) = check_src(
            "kernel void k(global float4 *o, global int *p) { float4 v = o[0]; int4 m = v < v; o[1] = m ? v : v * 2.0f; \
             float2 h = v.xy + v.s23; _Static_assert(sizeof(v.xyz) == 16, \"\"); _Static_assert(sizeof(p - p) == 8, \"\"); \
             size_t i = get_global_id(0); o[i] = clamp(v, 0.0f, 1.0f); }",
        );
        assert!(errs.is_empty(), "{errs:?}");
    }

    #[test]
    fn expression_errors_name_both_types() {
        let (_, errs) = check_src("kernel void k(global int *g, local int *l) { l = g; float4 f; int4 i = f; g[0] = f + i; }");
        assert_eq!(
            errs,
            [
                "assigning '__global int *' to '__local int *' changes address space of pointer",
                "initializing 'int4' with an expression of incompatible type 'float4'",
                "implicit conversions between vector types ('float4' and 'int4') are not permitted",
            ]
        );
    }

    #[test]
    fn typed_program_makes_conversions_explicit() {
        let (p, errs) = check_src("kernel void k(global float *o, local int *l, int i) { int *g = l; o[0] = i + 1.5f; }");
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(p.functions.len(), 1);
        let f = &p.functions[0];
        assert!(f.kernel);
        assert_eq!(f.params.len(), 3);
        let kinds: Vec<hir::ConvKind> = f
            .exprs
            .iter()
            .filter_map(|e| match e.kind {
                hir::ExprKind::Convert { kind, .. } => Some(kind),
                _ => None,
            })
            .collect();
        assert!(kinds.contains(&hir::ConvKind::AddrSpaceCast), "{kinds:?}");
        assert!(kinds.contains(&hir::ConvKind::IntToFloat { signed: true }), "{kinds:?}");
        let dump = hir::dump(&p);
        assert!(dump.contains("Convert IntToFloat signed (int -> float) : float"), "{dump}");
        assert!(!dump.contains("!!"), "{dump}");
    }

    #[test]
    fn no_typed_program_after_errors() {
        let (p, errs) = check_src("global int g = 1; kernel void k(global int *o) { o[0] = undeclared; }");
        assert!(!errs.is_empty());
        assert!(p.functions.is_empty() && p.globals.is_empty());
        assert!(p.entity("g").is_some());
    }

    #[test]
    fn sizeof_and_enums_feed_array_sizes() {
        let (p, errs) = check_src("enum E { A = 3, B }; typedef struct { char c; int i; } S; constant int a[B * sizeof(S)] = {0};");
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(p.types.display_qual(p.entity("a").unwrap().ty), "__constant int[32]");
    }
}
