//! Combining type-specifier words into one base type (C99 6.7.2).
//!
//! The parser keeps `unsigned long int` as three words; this module says
//! which combinations name a type (`unsigned long int` → `ulong`), and
//! reports the ones that do not (`int int`, `signed float`, `long long long`)
//! the way clang words them. It does not resolve typedef names, struct tags
//! or enum bodies: it returns them for the layers that do.
//!
//! Errors: `E0301` cannot combine specifiers, `E0302` missing type
//! specifier, `E0303` a C type that OpenCL C does not have (`long long`,
//! `long double`, `_Complex`, `_Imaginary`).

use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::ast::{DeclSpec, DeclSpecs, TypeSpec, TypeSpecKind};
use crate::source::Span;
use clc_builtins::types::{BuiltinType, Scalar};

/// What the specifiers name, before typedefs and tags are looked up.
#[derive(Clone, Debug)]
pub enum BaseType<'a> {
    Void,
    Scalar(Scalar),
    Builtin(BuiltinType),
    /// A typedef name, a `struct`/`union`, or an `enum`: the specifier
    /// itself, for the name-resolution layer.
    Named(&'a TypeSpec),
}

/// Counts of each specifier word in one list.
#[derive(Default)]
struct Words {
    void: u8,
    char: u8,
    short: u8,
    int: u8,
    long: u8,
    float: u8,
    double: u8,
    signed: u8,
    unsigned: u8,
    bool: u8,
    half: u8,
}

/// Combines the type specifiers of `specs`. Returns `None` after reporting
/// an error (the caller treats the declaration's type as an error type).
pub fn base_type<'a>(specs: &'a DeclSpecs, diags: &mut Diagnostics) -> Option<BaseType<'a>> {
    let mut words = Words::default();
    let mut unique: Option<&'a TypeSpec> = None;
    let mut first_word: Option<&'a TypeSpec> = None;
    let mut ok = true;
    for spec in specs.items.iter() {
        let DeclSpec::Type(ts) = spec else { continue };
        let conflict = |diags: &mut Diagnostics, prev: &TypeSpec| {
            diags.push(
                Diagnostic::error("E0301", ts.span, format!("cannot combine with previous '{}' declaration specifier", spelling(prev)))
                    .with_secondary(prev.span, "previous specifier is here"),
            );
        };
        let word = match &ts.kind {
            TypeSpecKind::Builtin { .. }
            | TypeSpecKind::TypedefName(_)
            | TypeSpecKind::TypeofExpr(_)
            | TypeSpecKind::TypeofType(_)
            | TypeSpecKind::Struct(_)
            | TypeSpecKind::Enum(_)
            | TypeSpecKind::Error => {
                if let Some(prev) = unique.or(first_word) {
                    conflict(diags, prev);
                    ok = false;
                } else {
                    unique = Some(ts);
                }
                continue;
            }
            TypeSpecKind::Complex | TypeSpecKind::Imaginary => {
                diags.push(Diagnostic::error("E0303", ts.span, format!("'{}' types are not supported in OpenCL C", spelling(ts))));
                ok = false;
                continue;
            }
            TypeSpecKind::Void => &mut words.void,
            TypeSpecKind::Char => &mut words.char,
            TypeSpecKind::Short => &mut words.short,
            TypeSpecKind::Int => &mut words.int,
            TypeSpecKind::Long => &mut words.long,
            TypeSpecKind::Float => &mut words.float,
            TypeSpecKind::Double => &mut words.double,
            TypeSpecKind::Signed => &mut words.signed,
            TypeSpecKind::Unsigned => &mut words.unsigned,
            TypeSpecKind::Bool => &mut words.bool,
            TypeSpecKind::Half => &mut words.half,
        };
        if let Some(prev) = unique {
            conflict(diags, prev);
            ok = false;
            continue;
        }
        let limit = if matches!(ts.kind, TypeSpecKind::Long) { 2 } else { 1 };
        if *word >= limit {
            if limit == 2 {
                diags.push(Diagnostic::error("E0301", ts.span, "'long long long' is invalid"));
            } else {
                let first = specs.items.iter().find_map(|s| match s {
                    DeclSpec::Type(t) if std::mem::discriminant(&t.kind) == std::mem::discriminant(&ts.kind) => Some(t.span),
                    _ => None,
                });
                // A repeated width or sign (`short short`) is read once
                // with clang's warning; a repeated type (`int int`) is
                // clang's error.
                let repeat = matches!(ts.kind, TypeSpecKind::Short | TypeSpecKind::Signed | TypeSpecKind::Unsigned);
                let mut d = match repeat {
                    true => Diagnostic::warning("duplicate-decl-specifier", ts.span, format!("duplicate '{}' declaration specifier", spelling(ts))),
                    false => Diagnostic::error("E0301", ts.span, format!("cannot combine with previous '{}' declaration specifier", spelling(ts))),
                };
                if let Some(first) = first {
                    d = d.with_secondary(first, format!("'{}' first appears here", spelling(ts)));
                }
                diags.push(d);
                if repeat {
                    continue;
                }
            }
            ok = false;
            continue;
        }
        *word += 1;
        first_word.get_or_insert(ts);
    }
    if !ok {
        return None;
    }
    if let Some(u) = unique {
        return Some(match &u.kind {
            TypeSpecKind::Builtin { ty, .. } => BaseType::Builtin(*ty),
            _ => BaseType::Named(u),
        });
    }
    let Some(first) = first_word else {
        diags.push(
            Diagnostic::error("E0302", specs.span, "type specifier missing; OpenCL C has no implicit 'int'").with_fixit(specs.span.to(specs.span).end(), " int"),
        );
        return None;
    };
    combine(&words, first.span.to(specs.span), diags)
}

fn combine<'a>(w: &Words, span: Span, diags: &mut Diagnostics) -> Option<BaseType<'a>> {
    let sign = w.signed + w.unsigned;
    let size = w.short + w.long;
    let others = w.void + w.char + w.float + w.double + w.bool + w.half;
    let bad = |diags: &mut Diagnostics, msg: String| {
        diags.push(Diagnostic::error("E0301", span, msg));
        None
    };
    if w.signed > 0 && w.unsigned > 0 {
        return bad(diags, "'signed' and 'unsigned' cannot be combined".into());
    }
    if w.short > 0 && w.long > 0 {
        return bad(diags, "'short' and 'long' cannot be combined".into());
    }
    if others > 1 || (others == 1 && w.int > 0) {
        return bad(diags, "more than one base type in the declaration specifiers".into());
    }
    let scalar = if w.void == 1 {
        if sign + size > 0 {
            return bad(diags, "'void' cannot be signed, unsigned, short or long".into());
        }
        return Some(BaseType::Void);
    } else if w.char == 1 {
        if size > 0 {
            return bad(diags, "'char' cannot be short or long".into());
        }
        if w.unsigned > 0 { Scalar::UChar } else { Scalar::Char }
    } else if w.float + w.bool + w.half == 1 {
        if sign + size > 0 {
            let name = if w.float == 1 {
                "float"
            } else if w.bool == 1 {
                "bool"
            } else {
                "half"
            };
            return bad(diags, format!("'{name}' cannot be signed, unsigned, short or long"));
        }
        if w.float == 1 {
            Scalar::Float
        } else if w.bool == 1 {
            Scalar::Bool
        } else {
            Scalar::Half
        }
    } else if w.double == 1 {
        if sign + w.short > 0 {
            return bad(diags, "'double' cannot be signed, unsigned or short".into());
        }
        if w.long > 0 {
            diags.push(Diagnostic::error("E0303", span, "'long double' is not supported in OpenCL C"));
            return None;
        }
        Scalar::Double
    } else if w.long == 2 {
        diags.push(Diagnostic::error("E0303", span, "'long long' is not supported in OpenCL C; 'long' is 64 bits"));
        return None;
    } else if w.long == 1 {
        if w.unsigned > 0 { Scalar::ULong } else { Scalar::Long }
    } else if w.short == 1 {
        if w.unsigned > 0 { Scalar::UShort } else { Scalar::Short }
    } else if w.unsigned > 0 {
        Scalar::UInt
    } else {
        Scalar::Int
    };
    Some(BaseType::Scalar(scalar))
}

/// How a specifier is written, for messages.
fn spelling(ts: &TypeSpec) -> String {
    match &ts.kind {
        TypeSpecKind::Void => "void".into(),
        TypeSpecKind::Char => "char".into(),
        TypeSpecKind::Short => "short".into(),
        TypeSpecKind::Int => "int".into(),
        TypeSpecKind::Long => "long".into(),
        TypeSpecKind::Float => "float".into(),
        TypeSpecKind::Double => "double".into(),
        TypeSpecKind::Signed => "signed".into(),
        TypeSpecKind::Unsigned => "unsigned".into(),
        TypeSpecKind::Bool => "bool".into(),
        TypeSpecKind::Half => "half".into(),
        TypeSpecKind::Complex => "_Complex".into(),
        TypeSpecKind::Imaginary => "_Imaginary".into(),
        TypeSpecKind::Builtin { name, .. } => name.clone(),
        TypeSpecKind::TypedefName(id) => id.name.clone(),
        TypeSpecKind::TypeofExpr(_) | TypeSpecKind::TypeofType(_) => "__typeof__".into(),
        TypeSpecKind::Error => "<error>".into(),
        TypeSpecKind::Struct(s) => {
            let kw = match s.kind {
                crate::parse::ast::StructKind::Struct => "struct",
                crate::parse::ast::StructKind::Union => "union",
            };
            match &s.name {
                Some(n) => format!("{kw} {}", n.name),
                None => kw.into(),
            }
        }
        TypeSpecKind::Enum(e) => match &e.name {
            Some(n) => format!("enum {}", n.name),
            None => "enum".into(),
        },
    }
}
