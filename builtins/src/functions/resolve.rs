//! Overload resolution for builtin calls, over [`Ty`].
//!
//! Each argument gets a conversion cost against each parameter; an overload
//! is viable when every argument converts, and the best viable overload is
//! the one no worse than every other in every argument and better in at
//! least one (C++-style, which is what clang does for OpenCL's overloadable
//! builtins). Costs, best first:
//!
//! | cost | conversion |
//! |------|------------|
//! | 0 | exact match (after `size_t` ≡ `ulong`, see [`Ty::canonical`]) |
//! | 1 | pointer gains `const`/`volatile` |
//! | 2, 3 | pointer to a named space becomes `__generic` (3: and gains qualifiers) |
//! | 4–7 | pointer becomes a pointer to `void` (+ the above) |
//! | 8 | promotion: `bool`/`char`/`short` (and unsigned) → `int`; `half` → `float`; `float` → `double` |
//! | 9 | any other scalar conversion; `int` → `memory_order`/`memory_scope`; null pointer constant → pointer; integer constant `0` → `event_t`/`queue_t`/`clk_event_t` |
//!
//! There are no implicit vector conversions, and [`resolve`] does no
//! scalar-to-vector widening: the forms with scalar parameters
//! (`clamp(float4, float, float)`) are overloads of their own.
//! [`resolve_widening`], for a call nothing else accepts, also lets a
//! scalar argument convert to a vector parameter (cost 9: converted to the
//! element type and widened, as OpenCL C converts a scalar operand; clang
//! takes `write_imagef(img, coord, 0.5f)` so). As in clang, a call that converts
//! equally well to several overloads is ambiguous: `sqrt(2)` is ambiguous
//! when `cl_khr_fp64` or `cl_khr_fp16` is enabled and resolves to
//! `sqrt(float)` otherwise, and `max(int, uint)` is ambiguous.
//!
//! Overloads whose requirement the [`Ctx`] does not meet do not take part,
//! except to explain a failure: when an unavailable overload matches better
//! than every available one (`sqrt(double)` without `cl_khr_fp64`), or the
//! name has no available overload at all (`to_global` in OpenCL C 1.2), the
//! error is [`ResolveError::NotAvailable`].

use std::borrow::Cow;
use std::fmt;

use super::table::is_integer;
use super::{AddrSpace, Ctx, Missing, Overload, PointerTy, Requirement, Ty, conversion_names, names, overloads};
use crate::types::Scalar;

/// An argument of a call as sema sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgTy {
    pub ty: Ty,
    /// The value, when the argument is an integer constant expression.
    pub int_constant: Option<i128>,
    /// A null pointer constant (`NULL`, `(void*)0`; a literal `0` is
    /// recognised through `int_constant`).
    pub null_pointer: bool,
    /// A string literal (for `printf`'s format).
    pub string_literal: bool,
}

impl ArgTy {
    /// A plain value of type `ty`.
    pub fn of(ty: Ty) -> ArgTy {
        ArgTy { ty, int_constant: None, null_pointer: false, string_literal: false }
    }

    /// An integer constant expression.
    pub fn int_constant(ty: Ty, value: i128) -> ArgTy {
        ArgTy { int_constant: Some(value), ..ArgTy::of(ty) }
    }

    /// `NULL` (`(void*)0`).
    pub fn null_pointer() -> ArgTy {
        ArgTy { null_pointer: true, ..ArgTy::of(Ty::ptr(Ty::Void, AddrSpace::Private)) }
    }

    /// A string literal: a `__constant char` array.
    pub fn string_literal() -> ArgTy {
        ArgTy { string_literal: true, ..ArgTy::of(Ty::const_ptr(Ty::Scalar(Scalar::Char), AddrSpace::Constant)) }
    }
}

/// The chosen overload: borrowed from the table, or owned when decoded
/// from a `convert_*`/`as_*` name.
pub type Resolved = Cow<'static, Overload>;

/// Why a builtin call does not resolve.
#[derive(Clone, Debug, PartialEq)]
pub enum ResolveError {
    /// No builtin has this name; `suggestions` are the nearest names.
    NoSuchFunction { name: String, suggestions: Vec<String> },
    /// The matching overload exists but not in this version or without an
    /// extension.
    NotAvailable { name: String, requirement: Requirement, missing: Missing },
    /// No overload accepts the arguments; `candidates` are the few closest,
    /// as C prototypes, out of `total` available ones.
    NoMatchingOverload { name: String, candidates: Vec<String>, total: usize },
    /// Several overloads match equally well.
    Ambiguous { name: String, candidates: Vec<String> },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoSuchFunction { name, suggestions } => {
                write!(f, "`{name}` is not a builtin function")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean `{}`?", suggestions.join("`, `"))?;
                }
                Ok(())
            }
            ResolveError::NotAvailable { name, missing, .. } => write!(f, "`{name}` {missing}"),
            ResolveError::NoMatchingOverload { name, candidates, total } => {
                write!(f, "no overload of `{name}` matches these arguments; closest: {}", candidates.join("; "))?;
                if *total > candidates.len() {
                    write!(f, " (and {} more)", total - candidates.len())?;
                }
                Ok(())
            }
            ResolveError::Ambiguous { name, candidates } => {
                write!(f, "call to `{name}` is ambiguous between {}", candidates.join("; "))
            }
        }
    }
}

const EXACT: u8 = 0;
const PROMOTION: u8 = 8;
const CONVERSION: u8 = 9;
/// How many candidates a `NoMatchingOverload` lists.
const SHOWN_CANDIDATES: usize = 4;

/// Resolves a call of builtin `name` with `args` under `ctx`.
pub fn resolve(name: &str, args: &[ArgTy], ctx: &Ctx) -> Result<Resolved, ResolveError> {
    resolve_with(name, args, ctx, false)
}

/// [`resolve`], where a scalar argument may also widen to a vector
/// parameter (see the module documentation).
pub fn resolve_widening(name: &str, args: &[ArgTy], ctx: &Ctx) -> Result<Resolved, ResolveError> {
    resolve_with(name, args, ctx, true)
}

fn resolve_with(name: &str, args: &[ArgTy], ctx: &Ctx, widening: bool) -> Result<Resolved, ResolveError> {
    let Some(all) = overloads(name) else {
        return Err(ResolveError::NoSuchFunction { name: name.to_owned(), suggestions: suggest(name) });
    };
    let mut available = Vec::new();
    let mut unavailable = Vec::new();
    for (i, o) in all.iter().enumerate() {
        let Some(costs) = costs(o, args, widening) else { continue };
        if o.requirement.check(ctx).is_ok() {
            available.push((i, costs));
        } else {
            unavailable.push((i, costs));
        }
    }
    let best_available = best(&available);
    if let Ok(Some(u)) = best(&unavailable) {
        let explains = match &best_available {
            Ok(Some(a)) => dominates(&unavailable[u].1, &available[*a].1),
            Ok(None) => true,
            Err(tied) => tied.iter().all(|t| dominates(&unavailable[u].1, &available[*t].1)),
        };
        if explains {
            return Err(not_available(name, &all[unavailable[u].0], ctx));
        }
    }
    match best_available {
        Ok(Some(a)) => Ok(match all {
            Cow::Borrowed(s) => Cow::Borrowed(&s[available[a].0]),
            Cow::Owned(mut v) => Cow::Owned(v.swap_remove(available[a].0)),
        }),
        Err(tied) => Err(ResolveError::Ambiguous {
            name: name.to_owned(),
            candidates: tied.into_iter().map(|t| all[available[t].0].prototype()).collect(),
        }),
        Ok(None) => {
            let in_ctx: Vec<&Overload> = all.iter().filter(|o| o.requirement.check(ctx).is_ok()).collect();
            if in_ctx.is_empty() {
                let closest = closest(all.iter().collect(), args);
                return Err(not_available(name, closest[0], ctx));
            }
            let total = in_ctx.len();
            let candidates = closest(in_ctx, args).into_iter().take(SHOWN_CANDIDATES).map(Overload::prototype).collect();
            Err(ResolveError::NoMatchingOverload { name: name.to_owned(), candidates, total })
        }
    }
}

fn not_available(name: &str, o: &Overload, ctx: &Ctx) -> ResolveError {
    let missing = o.requirement.check(ctx).expect_err("only called for unavailable overloads");
    ResolveError::NotAvailable { name: name.to_owned(), requirement: o.requirement, missing }
}

/// The per-argument costs, or `None` if the overload is not viable.
fn costs(o: &Overload, args: &[ArgTy], widening: bool) -> Option<Vec<u8>> {
    let arity_ok = if o.variadic { args.len() >= o.params.len() } else { args.len() == o.params.len() };
    if !arity_ok {
        return None;
    }
    let cost = |p: &Ty, a: &ArgTy| match (&a.ty, p) {
        (Ty::Scalar(_), Ty::Vector(..)) if widening => Some(CONVERSION),
        _ => arg_cost(a, p),
    };
    let mut costs: Vec<u8> = o.params.iter().zip(args).map(|(p, a)| cost(p, a)).collect::<Option<_>>()?;
    costs.resize(args.len(), EXACT);
    Some(costs)
}

fn dominates(a: &[u8], b: &[u8]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
}

/// The index (into `viable`) of the best overload, `Ok(None)` if none is
/// viable, `Err(tied)` if several are best.
fn best(viable: &[(usize, Vec<u8>)]) -> Result<Option<usize>, Vec<usize>> {
    let undominated: Vec<usize> = (0..viable.len())
        .filter(|&i| !viable.iter().any(|(_, other)| dominates(other, &viable[i].1)))
        .collect();
    match undominated.len() {
        0 => Ok(None),
        1 => Ok(Some(undominated[0])),
        _ => Err(undominated),
    }
}

/// The cost of passing `arg` for a parameter of type `param`.
pub(super) fn arg_cost(arg: &ArgTy, param: &Ty) -> Option<u8> {
    let a = arg.ty.canonical();
    let p = param.canonical();
    if let Ty::Pointer(pp) = &p {
        if arg.string_literal {
            return (pp.pointee == Ty::Scalar(Scalar::Char) && pp.is_const).then_some(EXACT);
        }
        if arg.null_pointer || arg.int_constant == Some(0) {
            return Some(CONVERSION);
        }
        return match &a {
            Ty::Pointer(ap) => pointer_cost(ap, pp),
            _ => None,
        };
    }
    if a == p {
        return Some(EXACT);
    }
    match (&a, &p) {
        (Ty::Scalar(x), Ty::Scalar(y)) => Some(if is_promotion(*x, *y) { PROMOTION } else { CONVERSION }),
        (Ty::Scalar(x), Ty::MemoryOrder | Ty::MemoryScope) if is_integer(*x) => Some(CONVERSION),
        (Ty::MemoryOrder | Ty::MemoryScope, Ty::Scalar(y)) if is_integer(*y) => {
            Some(if *y == Scalar::Int { PROMOTION } else { CONVERSION })
        }
        (Ty::Scalar(_), Ty::Event | Ty::Queue | Ty::ClkEvent) if arg.int_constant == Some(0) => Some(CONVERSION),
        _ => None,
    }
}

fn is_promotion(from: Scalar, to: Scalar) -> bool {
    use Scalar::*;
    matches!((from, to), (Bool | Char | UChar | Short | UShort, Int) | (Half, Float) | (Float, Double))
}

fn pointer_cost(a: &PointerTy, p: &PointerTy) -> Option<u8> {
    let mut cost = 0;
    if p.pointee == Ty::Void {
        if a.pointee != Ty::Void {
            cost += 4;
        }
    } else if a.pointee != p.pointee {
        return None;
    }
    if a.space != p.space {
        let to_generic = p.space == AddrSpace::Generic
            && matches!(a.space, AddrSpace::Private | AddrSpace::Global | AddrSpace::Local);
        if !to_generic {
            return None;
        }
        cost += 2;
    }
    if (a.is_const && !p.is_const) || (a.is_volatile && !p.is_volatile) {
        return None;
    }
    if a.is_const != p.is_const || a.is_volatile != p.is_volatile {
        cost += 1;
    }
    Some(cost)
}

/// Overloads ordered by how near they come to accepting `args`.
fn closest<'a>(mut overloads: Vec<&'a Overload>, args: &[ArgTy]) -> Vec<&'a Overload> {
    let distance = |o: &Overload| -> u32 {
        let arity = o.params.len().abs_diff(args.len()) as u32 * 10;
        let per_arg: u32 = o
            .params
            .iter()
            .zip(args)
            .map(|(p, a)| match arg_cost(a, p) {
                Some(EXACT) => 0,
                Some(_) => 1,
                None if similar(&a.ty, p) => 2,
                None => 4,
            })
            .sum();
        arity + per_arg
    };
    overloads.sort_by_cached_key(|o| (distance(o), o.params.len(), o.prototype()));
    overloads
}

/// Same shape (width) or same element type: a near miss.
fn similar(a: &Ty, p: &Ty) -> bool {
    (a.width().is_some() && a.width() == p.width())
        || (a.element().is_some() && a.element() == p.element())
        || matches!((a, p), (Ty::Pointer(_), Ty::Pointer(_)))
}

/// The builtin names nearest to a misspelt `name` by edit distance.
fn suggest(name: &str) -> Vec<String> {
    let limit = (name.len() / 3).clamp(1, 4);
    // Decoded names are candidates only for names that look like them.
    let decoded = if name.starts_with("convert_") || name.starts_with("as_") { conversion_names() } else { Vec::new() };
    let mut near: Vec<(usize, &str)> = names()
        .map(|n| -> &str { n })
        .chain(decoded.iter().map(String::as_str))
        .map(|n| (crate::suggest::edit_distance(name, n), n))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    // Only the nearest: `get_globl_id` suggests `get_global_id`, not also
    // `get_group_id`.
    let best = near.first().map_or(0, |(d, _)| *d);
    near.into_iter().take_while(|(d, _)| *d == best).take(3).map(|(_, n)| n.to_owned()).collect()
}

