//! What the feature-test macros answer (`__has_builtin`,
//! `__has_attribute`, `__has_c_attribute`, `__has_feature`,
//! `__has_extension`, `__has_warning`, `__is_identifier`): what clc
//! supports, in clang-22's terms, so that code written to pick its path
//! by asking clang picks the one that works with clc.
//!
//! Where clang says yes for something clc does not do as clang does (an
//! attribute clc rejects, a C11 keyword it lacks), the answer is no: the
//! program would otherwise take a path clc cannot compile. The tokens of
//! the macros' operands are read in `builtin`.

use super::engine::Pp;
use crate::lex::TokenKind;
use crate::options::{ClStd, Target};

/// `__has_feature`/`__has_extension` names that clang-22 answers 1 to
/// for OpenCL C (its `Features.def`), kept where clc does what clang does
/// (checked by compiling a use of each with both): `(name, extension
/// only, first dialect)`. Clang's other names (sanitizers, Objective-C,
/// availability and other attributes clc accepts but ignores, `_Generic`,
/// `_Alignas`, fixed enums, binary literals, `asm`) are 0 here.
const FEATURES: &[(&str, bool, ClStd)] = &[
    ("attribute_ext_vector_type", false, ClStd::Cl10),
    ("attribute_overloadable", false, ClStd::Cl10),
    ("attribute_unused_on_fields", false, ClStd::Cl10),
    // Blocks are OpenCL C 2.0's (clang rejects them before; clc does not,
    // but answers as clang does).
    ("blocks", false, ClStd::Cl20),
    // Accepted and without effect in both: OpenCL C has no complex types.
    ("pragma_stdc_cx_limited_range", false, ClStd::Cl10),
    ("c_alignof", true, ClStd::Cl10),
    ("c_static_assert", true, ClStd::Cl10),
    ("statement_attributes_with_gnu_syntax", true, ClStd::Cl10),
];

/// `__has_feature(name)` (`extension`: `__has_extension(name)`, which is
/// also true of every feature). `__name__` is `name`, as in clang.
pub(super) fn has_feature(name: &str, std: ClStd, extension: bool) -> bool {
    let name = strip_underscores(name);
    FEATURES.iter().any(|&(n, ext_only, from)| n == name && std >= from && (extension || !ext_only))
}

/// GNU attributes clang-22 has for some architectures only (its
/// `__has_attribute` is 0 elsewhere; clc ignores them): for ARM or RISC-V
/// only, so on none of x86-64 and SPIR-V, and for x86 and others but not
/// SPIR-V (read off clang-22 for `x86_64-unknown-linux-gnu` and
/// `spirv64`).
const NOT_X86_NOR_SPIRV: &[&str] = &["clang_arm_mve_strict_polymorphism", "cmse_nonsecure_call", "riscv_vector_cc", "riscv_vls_cc"];
const NOT_SPIRV: &[&str] = &["force_align_arg_pointer", "function_return", "interrupt", "no_caller_saved_registers", "nocf_check", "patchable_function_entry", "preserve_none"];

/// `__has_attribute(name)`: a GNU attribute clc accepts, giving it its
/// meaning or ignoring it as one that changes no program
/// ([`crate::sema::attrs::Handling`]), where clang has it for `target`;
/// not one clc rejects for want of its meaning (`vector_size`, `mode`),
/// though clang has them.
pub(super) fn has_attribute(name: &str, target: &Target) -> bool {
    use crate::sema::attrs::{handling, Handling};
    let name = strip_underscores(name);
    let for_target = if target.is_spirv() {
        !NOT_SPIRV.contains(&name) && !NOT_X86_NOR_SPIRV.contains(&name)
    } else {
        !(target.is_x86_64() && NOT_X86_NOR_SPIRV.contains(&name))
    };
    for_target && matches!(handling(name), Some(Handling::Checked | Handling::Ignored))
}

/// `__is_identifier(word)`, `kind` being how clc's lexer reads it: an
/// identifier to clc, not a keyword (nor a builtin type name, which clc
/// reserves where clang's headers declare typedefs: `uint`, `size_t`), nor
/// one of the names the later stages treat as keywords, the predefined
/// identifiers (`__func__`) and GNU's `__extension__`.
pub(super) fn is_identifier(word: &str, kind: TokenKind) -> bool {
    kind == TokenKind::Ident && !crate::sema::decls::is_predefined_identifier(word) && word != "__extension__"
}

impl Pp<'_> {
    /// `__has_builtin(word)`, `kind` being how clc's lexer reads it: a
    /// keyword of clc's that clang counts as a builtin (those spelt
    /// `__builtin_…`, `__is_…`, `__has_…`: `__builtin_offsetof`), or a
    /// builtin function that clang-22 also has as a builtin
    /// ([`clc_builtins::functions::is_clang_builtin`]) and that this dialect
    /// has (`to_global` from OpenCL C 2.0 on, as in clang).
    pub(super) fn has_builtin(&self, word: &str, kind: TokenKind) -> bool {
        let keyword = kind.is_word() && !matches!(kind, TokenKind::Ident | TokenKind::BuiltinType);
        if keyword {
            return ["__builtin_", "__is_", "__has_"].iter().any(|p| word.starts_with(p));
        }
        clc_builtins::functions::is_clang_builtin(word) && clc_builtins::functions::lookup(word).is_some_and(|o| o.iter().any(|o| self.available(&o.requirement)))
    }
}

/// `__name__` is `name` for features and attributes, as in clang.
fn strip_underscores(name: &str) -> &str {
    match name.strip_prefix("__").and_then(|n| n.strip_suffix("__")) {
        Some(n) if !n.is_empty() => n,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_extensions() {
        assert!(has_feature("attribute_ext_vector_type", ClStd::Cl12, false));
        assert!(has_feature("__attribute_overloadable__", ClStd::Cl12, true));
        assert!(!has_feature("blocks", ClStd::Cl12, true) && has_feature("blocks", ClStd::Cl20, false));
        assert!(!has_feature("c_static_assert", ClStd::Cl20, false) && has_feature("c_static_assert", ClStd::Cl20, true));
        assert!(!has_feature("c_generic_selections", ClStd::Cl30, true));
        assert!(!has_feature("____", ClStd::Cl20, true));
    }

    #[test]
    fn attributes_clc_accepts() {
        let x86 = Target::Native("x86_64-unknown-linux-gnu".into());
        assert!(has_attribute("reqd_work_group_size", &x86) && has_attribute("__packed__", &x86) && has_attribute("noinline", &x86));
        assert!(!has_attribute("vector_size", &x86) && !has_attribute("no_such_attribute", &x86));
        assert!(has_attribute("nocf_check", &x86) && !has_attribute("nocf_check", &Target::Spirv64));
        assert!(!has_attribute("riscv_vector_cc", &x86) && has_attribute("riscv_vector_cc", &Target::Native("riscv64-unknown-linux-gnu".into())));
    }

    #[test]
    fn identifiers_are_what_clc_reads_as_names() {
        assert!(is_identifier("foo", TokenKind::Ident) && is_identifier("_Generic", TokenKind::Ident));
        assert!(!is_identifier("__func__", TokenKind::Ident) && !is_identifier("__extension__", TokenKind::Ident));
        assert!(!is_identifier("int", TokenKind::Int) && !is_identifier("uint", TokenKind::BuiltinType));
    }
}
