//! The expression layer: gives every expression a type and a value
//! category, following C99 §6.3 and §6.5 and OpenCL C 2.0 §6.2–§6.3,
//! §6.5.5 (address spaces in pointer conversions) and §6.13.11 (atomic
//! objects), and resolves calls of builtin functions through
//! `clc_builtins::resolve`.
//!
//! It is a child of [`super::decls`] (it extends the declaration layer's
//! `Checker`, whose scopes it reads), and it runs inside that layer's single
//! pass, so every name is looked up in the scope it is used in.
//!
//! An expression whose type cannot be formed has already been reported; it
//! types as `None`, and everything built on it stays quiet, so one mistake
//! gives one message.
//!
//! Error codes:
//! - `E0320`: invalid operands (binary and unary operators, indirection,
//!   subscripts, conditions);
//! - `E0321`: assignment to something that is not a modifiable lvalue;
//! - `E0322`: incompatible types in assignment, initialization, argument
//!   passing and return;
//! - `E0323`: calls (non-function callee, argument count);
//! - `E0324`: member access and swizzles;
//! - `E0325`: pointer conversions that change the address space;
//! - `E0326`: vector conversions, widening and vector literals;
//! - `E0327`: invalid casts;
//! - `E0328`: builtin calls (no matching overload, ambiguity, not
//!   available, `printf`'s format);
//! - `E0329`: atomic objects used other than through atomic functions.

use super::*;
use super::consteval::IntTy;
use crate::lex::literal::FloatSuffix;
use clc_builtins::functions::{Ctx as BCtx, ExtSet, Extension, PointerTy, Special, Ty};
use clc_builtins::{ArgTy, ResolveError};

// Builds the typed program from the facts this module records.
#[path = "lower.rs"]
pub(super) mod lower;
// Places the items of braced initializer lists.
#[path = "init.rs"]
pub(super) mod init;
#[path = "clang_builtins.rs"]
mod clang_builtins;
use lower::addr;

/// A typed expression: its type and whether it designates an object.
#[derive(Clone, Copy, Debug)]
pub(super) struct Val {
    pub ty: QualType,
    pub lvalue: bool,
    /// A swizzle that names a component twice (`v.xx`): an lvalue that
    /// cannot be assigned.
    pub dup: bool,
    /// A vector component or swizzle, whose address cannot be taken.
    pub component: bool,
}

/// Where a value is converted to a type, for messages.
#[derive(Clone, Copy)]
pub(super) enum Conv {
    Assign,
    Init,
    Arg,
    Return,
}

/// clang's error for a call `span` with the wrong number of `args` for
/// `expected` parameters (and more when `variadic`): at the `)` when too
/// few, at the first extra argument when too many; `callee` underlined
/// (clang underlines a builtin's name only when too few).
fn arg_count_error(args: &[Expr], expected: usize, variadic: bool, span: Span, callee: Option<Span>) -> Option<Diagnostic> {
    let few = args.len() < expected;
    if !few && (args.len() == expected || variadic) {
        return None;
    }
    let what = if few { "few" } else { "many" };
    let least = if variadic { "at least " } else { "" };
    let at = match args.get(expected) {
        Some(extra) if !few => extra.span.to(args[args.len() - 1].span),
        _ => Span { lo: span.hi.saturating_sub(1).max(span.lo), ..span },
    };
    let d = err("E0323", at, format!("too {what} arguments to function call, expected {least}{expected}, have {}", args.len()));
    Some(match callee {
        Some(c) => d.with_range(c),
        None => d,
    })
}

fn rv(ty: QualType) -> Option<Val> {
    Some(Val { ty, lvalue: false, dup: false, component: false })
}

fn lv(ty: QualType) -> Option<Val> {
    Some(Val { ty, lvalue: true, dup: false, component: false })
}

fn is_int(s: Scalar) -> bool {
    !matches!(s, Scalar::Half | Scalar::Float | Scalar::Double)
}

fn is_signed(s: Scalar) -> bool {
    matches!(s, Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long | Scalar::PtrDiff)
}

/// Integer conversion rank (C99 6.3.1.1), with `size_t`/`ptrdiff_t` as
/// the integer types of their width.
fn rank(s: Scalar, ptr: u64) -> u8 {
    match s {
        Scalar::Bool => 0,
        Scalar::Char | Scalar::UChar => 1,
        Scalar::Short | Scalar::UShort => 2,
        Scalar::Int | Scalar::UInt => 3,
        Scalar::Long | Scalar::ULong => 4,
        Scalar::Size | Scalar::PtrDiff => {
            if ptr == 8 {
                4
            } else {
                3
            }
        }
        Scalar::Half => 5,
        Scalar::Float => 6,
        Scalar::Double => 7,
    }
}

/// `size_t` and `ptrdiff_t` are typedefs: compare them as what they name.
pub(super) fn canon(s: Scalar, ptr: u64) -> Scalar {
    match (s, ptr) {
        (Scalar::Size, 8) => Scalar::ULong,
        (Scalar::PtrDiff, 8) => Scalar::Long,
        (Scalar::Size, _) => Scalar::UInt,
        (Scalar::PtrDiff, _) => Scalar::Int,
        (s, _) => s,
    }
}

fn promote(s: Scalar) -> Scalar {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort => Scalar::Int,
        s => s,
    }
}

/// The signed integer of the same size: what a vector comparison gives.
fn signed_of_size(size: u64) -> Scalar {
    match size {
        1 => Scalar::Char,
        2 => Scalar::Short,
        4 => Scalar::Int,
        _ => Scalar::Long,
    }
}

fn to_unsigned(s: Scalar) -> Scalar {
    match s {
        Scalar::Char => Scalar::UChar,
        Scalar::Short => Scalar::UShort,
        Scalar::Int => Scalar::UInt,
        Scalar::Long => Scalar::ULong,
        Scalar::PtrDiff => Scalar::Size,
        s => s,
    }
}

fn int_size(s: Scalar, ptr: u64) -> u64 {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar => 1,
        Scalar::Short | Scalar::UShort | Scalar::Half => 2,
        Scalar::Int | Scalar::UInt | Scalar::Float => 4,
        Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        Scalar::Size | Scalar::PtrDiff => ptr,
    }
}

/// Usual arithmetic conversions (C99 6.3.1.8), with `half` below `float`
/// and pointer-sized integers of width `ptr` bytes.
fn usual_arith(a: Scalar, b: Scalar, ptr: u64) -> Scalar {
    if a == b && rank(a, ptr) >= 3 {
        return a;
    }
    for f in [Scalar::Double, Scalar::Float, Scalar::Half] {
        if a == f || b == f {
            return f;
        }
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    let (ra, rb) = (rank(a, ptr), rank(b, ptr));
    let (sa, sb) = (is_signed(a), is_signed(b));
    if sa == sb {
        return if ra >= rb { a } else { b };
    }
    let (u, s) = if sa { (b, a) } else { (a, b) };
    if rank(u, ptr) >= rank(s, ptr) {
        u
    } else if int_size(s, ptr) > int_size(u, ptr) {
        s
    } else {
        to_unsigned(s)
    }
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}


/// The value of an integer literal as written (`5`, `-1`, in parentheses;
/// not one a macro wrote, whose span is its expansion's).
fn literal(e: &Expr) -> Option<i128> {
    let e = strip(e);
    match &e.kind {
        ExprKind::IntLit { value, from_macro: false, .. } => Some(*value as i128),
        ExprKind::Unary(UnOp::Neg, x) if x.span != e.span => literal(x).map(|v| -v),
        _ => None,
    }
}

/// Does `e` compute a value and nothing else (names, literals,
/// arithmetic, fields and elements of such; not calls, casts, `?:`,
/// dereferences or anything that assigns)?
fn no_side_effects(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) | ExprKind::StringLit(_) | ExprKind::BoolLit(_) => true,
        ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) => true,
        ExprKind::Offsetof(_, path) => crate::parse::ast::offsetof_indices(path).all(no_side_effects),
        ExprKind::Paren(x) | ExprKind::Member { base: x, .. } => no_side_effects(x),
        ExprKind::Unary(UnOp::Plus | UnOp::Neg | UnOp::BitNot | UnOp::Not | UnOp::AddrOf, x) => no_side_effects(x),
        ExprKind::Binary(op, a, b) => *op != BinOp::Comma && no_side_effects(a) && no_side_effects(b),
        ExprKind::Index(a, b) => no_side_effects(a) && no_side_effects(b),
        _ => false,
    }
}

/// Is `e` what a macro expanded to? Every token of an expansion has the
/// expansion's span, so a part with its whole's span, or two operands
/// with one span, tell (a lone name from a macro does not).
fn from_macro(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => a.span == b.span || a.span == e.span,
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Member { base: x, .. } => x.span == e.span,
        _ => false,
    }
}

/// The variables a statement `e` only assigns (`x = …`, `x op= …`,
/// `x++`, as clang: written bare, not in parentheses): naming them there
/// is no read (-Wunused-but-set-variable).
pub(super) fn assigned_names(e: &Expr) -> Vec<Span> {
    match &e.kind {
        // (Not from one macro's expansion, where every name has the
        // expansion's span: `x = x + 1` would hide its read.)
        ExprKind::Assign(_, l, _) | ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, l) if matches!(l.kind, ExprKind::Ident(_)) && e.op != Some(l.span) => vec![l.span],
        _ => Vec::new(),
    }
}

/// `a`, `a.b`, `a->b.c` as written: names in messages.
fn path_text(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(id) => Some(id.name.to_string()),
        ExprKind::Member { base, arrow, name } => Some(format!("{}{}{}", path_text(base)?, if *arrow { "->" } else { "." }, name.name)),
        _ => None,
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne)
}

/// Is `e` written as a truth value (a comparison, `!`, `&&`, `||`, a
/// boolean literal)? clang's -Wlogical-not-parentheses leaves `!a == !b`
/// and `!a == (b < c)` alone.
fn is_boolean(e: &Expr) -> bool {
    match &strip(e).kind {
        ExprKind::Binary(op, ..) => is_comparison(*op) || matches!(op, BinOp::And | BinOp::Or),
        ExprKind::Unary(UnOp::Not, _) | ExprKind::BoolLit(_) => true,
        _ => false,
    }
}

/// Do `a` and `b` name the same object the same way (variables,
/// subscripts by the same variables or literals, fields; no calls or side
/// effects)?
fn same_operand(a: &Expr, b: &Expr) -> bool {
    let same_index = |i: &Expr, j: &Expr| match (&strip(i).kind, &strip(j).kind) {
        (ExprKind::IntLit { value: x, .. }, ExprKind::IntLit { value: y, .. }) => x == y,
        _ => same_operand(i, j),
    };
    match (&strip(a).kind, &strip(b).kind) {
        (ExprKind::Ident(x), ExprKind::Ident(y)) => x.name == y.name,
        (ExprKind::Index(x, i), ExprKind::Index(y, j)) => same_operand(x, y) && same_index(i, j),
        (ExprKind::Member { base: x, arrow: p, name: m }, ExprKind::Member { base: y, arrow: q, name: n }) => p == q && m.name == n.name && same_operand(x, y),
        (ExprKind::Unary(UnOp::Deref, x), ExprKind::Unary(UnOp::Deref, y)) => same_operand(x, y),
        _ => false,
    }
}

/// The size of a vector element `s`, in bits.
fn vector_element_bits(s: Scalar) -> u32 {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar => 8,
        Scalar::Short | Scalar::UShort | Scalar::Half => 16,
        Scalar::Int | Scalar::UInt | Scalar::Float => 32,
        Scalar::Long | Scalar::ULong | Scalar::Double | Scalar::Size | Scalar::PtrDiff => 64,
    }
}

/// The element size a vector conversion's length modifier names: `hh` 8,
/// `h` 16, `hl` 32, `l` 64; none is `int` (32) or, for floating-point
/// conversions, `double` (64), as clang reads it.
fn format_element_bits(length: &str, float: bool) -> u32 {
    match length {
        "hh" => 8,
        "h" => 16,
        "hl" => 32,
        "l" | "ll" => 64,
        _ if float => 64,
        _ => 32,
    }
}

/// Small enough to try constant evaluation on without making nested
/// expressions quadratic.
fn small(e: &Expr, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    match &e.kind {
        ExprKind::IntLit { .. } | ExprKind::CharLit(_) | ExprKind::BoolLit(_) | ExprKind::Ident(_) => true,
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => small(x, budget),
        ExprKind::Binary(_, a, b) => small(a, budget) && small(b, budget),
        ExprKind::SizeofType(..) => true,
        _ => false,
    }
}

impl Checker<'_> {
    // ----------------------------------------------------------- helpers

    fn int_ty(&mut self) -> QualType {
        QualType::new(self.types.scalar(Scalar::Int), AddrSpace::Private)
    }

    fn sc(&mut self, s: Scalar) -> QualType {
        QualType::new(self.types.scalar(s), AddrSpace::Private)
    }

    fn vec_or_scalar(&mut self, s: Scalar, n: u8) -> QualType {
        let t = if n == 1 { self.types.scalar(s) } else { self.types.vector(s, n) };
        QualType::new(t, AddrSpace::Private)
    }

    /// The scalar an arithmetic type computes as: enums and the
    /// enumeration-like builtin types are integers.
    pub(super) fn arith(&self, t: TypeId) -> Option<Scalar> {
        match self.types.kind(t) {
            TypeKind::Scalar(s) => Some(*s),
            TypeKind::Enum(_) | TypeKind::Opaque(Opaque::MemoryOrder | Opaque::MemoryScope) => Some(Scalar::Int),
            TypeKind::Opaque(Opaque::MemFenceFlags) => Some(Scalar::UInt),
            _ => None,
        }
    }

    fn vector_of(&self, t: TypeId) -> Option<(Scalar, u8)> {
        match self.types.kind(t) {
            TypeKind::Vector(s, n) => Some((*s, *n)),
            _ => None,
        }
    }

    fn is_pointer(&self, t: TypeId) -> bool {
        matches!(self.types.kind(t), TypeKind::Pointer(_))
    }

    fn pointee(&self, t: TypeId) -> Option<QualType> {
        match self.types.kind(t) {
            TypeKind::Pointer(p) => Some(*p),
            _ => None,
        }
    }

    fn is_block(&self, t: TypeId) -> bool {
        matches!(self.types.kind(t), TypeKind::Block { .. })
    }

    fn is_scalar_type(&self, t: TypeId) -> bool {
        self.arith(t).is_some() || self.is_pointer(t) || matches!(self.types.kind(t), TypeKind::Opaque(Opaque::Event | Opaque::ClkEvent | Opaque::Queue))
    }

    /// Diagnostics about all of the operation `e` (since `mark`) point at
    /// its operator, as clang's do, the operation underlined around it.
    fn point_at_operator(&mut self, mark: usize, e: &Expr) {
        if let Some(op) = e.op {
            self.diags.retarget(mark, e.span, op);
        }
    }

    /// How a type is named in messages.
    fn ty_name(&self, q: QualType) -> String {
        self.types.display_qual(q)
    }

    /// A value's type as messages name it. A pointer into the private
    /// space says so (`__private int *`), as clang does: without the
    /// generic space, `int *` is one.
    pub(super) fn rv_name(&self, t: TypeId) -> String {
        match self.types.kind(t) {
            TypeKind::Pointer(p) if p.space == AddrSpace::Private => {
                let inner = self.types.display_qual(*p);
                let inner = match inner.strip_prefix("const ") {
                    Some(rest) => format!("const __private {rest}"),
                    None => format!("__private {inner}"),
                };
                let inner = inner.replacen("__private volatile ", "volatile __private ", 1);
                format!("{inner} *")
            }
            _ => self.types.display(t),
        }
    }

    /// Lvalue conversion (C99 6.3.2.1): arrays decay to a pointer to their
    /// first element, functions to a pointer to themselves, and the value
    /// loses its qualifiers and its object's address space. Reading an
    /// atomic object this way is an error.
    pub(super) fn decay(&mut self, v: Val, span: Span) -> Option<QualType> {
        let t = v.ty.ty;
        let ty = match *self.types.kind(t) {
            // The elements of a const array are const (a block's copy of
            // an array is one).
            TypeKind::Array(elem, _) => self.types.pointer(QualType { quals: Quals { is_const: elem.quals.is_const || v.ty.quals.is_const, ..elem.quals }, ..elem }),
            // OpenCL C has no function pointers (§6.9.a): a function is
            // only ever called (clang says the same of `(void *)f`).
            TypeKind::Function { .. } => {
                self.diags.push(err("E0320", span, "taking address of function is not allowed"));
                return None;
            }
            TypeKind::Atomic(_) => {
                self.atomic_error(span);
                return None;
            }
            // An object of incomplete type has no value to read.
            TypeKind::Record(_) if self.incomplete_record(t) => {
                let d = err("E0320", span, format!("incomplete type '{}' where a complete type is required", self.types.display(t)));
                self.diags.push(self.forward_note(d, t));
                return None;
            }
            _ => t,
        };
        Some(QualType::new(ty, AddrSpace::Private))
    }

    fn atomic_error(&mut self, span: Span) {
        self.diags.push(err("E0329", span, "atomic objects can only be accessed through atomic functions").with_note("use atomic_load, atomic_store or another atomic_* function"));
    }

    /// Is `t` a struct or union declared but not (yet) defined?
    pub(super) fn incomplete_record(&self, t: TypeId) -> bool {
        matches!(self.types.kind(t), TypeKind::Record(r) if self.types.records[*r as usize].fields.is_none())
    }

    /// clang's note at the forward declaration of `t`, an incomplete
    /// record, or at its name while its definition is read (any other
    /// type: `d` as it is).
    pub(super) fn forward_note(&self, d: Diagnostic, t: TypeId) -> Diagnostic {
        let TypeKind::Record(r) = *self.types.kind(t) else { return d };
        let rec = &self.types.records[r as usize];
        match rec.decl {
            Some(at) if self.defining.contains(&r) => d.with_note_at(at, format!("definition of '{}' is not complete until the closing '}}'", self.types.display(t))),
            Some(at) if rec.fields.is_none() => d.with_note_at(at, format!("forward declaration of '{}'", self.types.display(t))),
            _ => d,
        }
    }

    /// Pointer arithmetic needs the pointee's size: not an incomplete
    /// record (`void *` arithmetic is GNU's, which clang allows).
    fn sized_pointee(&mut self, pointee: QualType, span: Span) -> bool {
        if !self.incomplete_record(pointee.ty) {
            return true;
        }
        let d = err("E0320", span, format!("arithmetic on a pointer to an incomplete type '{}'", self.types.display_qual(pointee)));
        self.diags.push(self.forward_note(d, pointee.ty));
        false
    }

    /// Types `e` and converts it to a value.
    pub(super) fn value(&mut self, e: &Expr) -> Option<QualType> {
        let v = self.type_expr(e)?;
        self.decay(v, e.span)
    }

    /// Is `e` a null pointer constant: an integer constant 0, or one cast
    /// to `void *`, or `NULL`?
    fn is_null(&mut self, e: &Expr) -> bool {
        let e = strip(e);
        match &e.kind {
            ExprKind::IntLit { value, .. } => *value == 0,
            ExprKind::CharLit(0) => true,
            ExprKind::Ident(id) if id.name == "NULL" && self.lookup("NULL").is_none() => true,
            ExprKind::Cast(t, x) => {
                let Some(q) = self.type_name_quiet(t) else { return false };
                // `(global void *)0` is a pointer into __global, not a null
                // pointer constant of every address space (clang).
                let void_ptr = self.pointee(q.ty).is_some_and(|p| matches!(self.types.kind(p.ty), TypeKind::Void) && matches!(p.space, AddrSpace::Generic | AddrSpace::Private));
                void_ptr && self.is_null(x)
            }
            _ => {
                let mut budget = 16;
                small(e, &mut budget) && consteval::eval(e, self).is_ok_and(|v| v.value == 0)
            }
        }
    }

    /// The type of `e` (not converted to a value), without reporting:
    /// for `sizeof` in constant expressions, whose operand the walk
    /// types (and reports on) separately.
    pub(super) fn type_expr_quiet(&mut self, e: &Expr) -> Option<TypeId> {
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let v = self.type_expr(e);
        std::mem::swap(self.diags, &mut scratch);
        v.map(|v| v.ty.ty)
    }

    fn type_name_quiet(&mut self, t: &TypeName) -> Option<QualType> {
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let q = self.type_name(t);
        std::mem::swap(self.diags, &mut scratch);
        q
    }

    // ------------------------------------------------------- expressions

    /// Types an expression, recording its type for the typed program.
    pub(super) fn type_expr(&mut self, e: &Expr) -> Option<Val> {
        let v = self.type_expr_inner(e)?;
        if self.facts.enabled {
            self.facts.ty.insert(addr(e), (v.ty, v.lvalue));
        }
        Some(v)
    }

    fn type_expr_inner(&mut self, e: &Expr) -> Option<Val> {
        match &e.kind {
            ExprKind::Error => None,
            ExprKind::Paren(x) => self.type_expr(x),
            ExprKind::Ident(id) => self.ident(id),
            ExprKind::IntLit { value, suffix, radix, .. } => {
                let c = consteval::literal(*value, suffix.unsigned, suffix.long, *radix);
                let s = match (c.ty.bits, c.ty.signed) {
                    (64, true) => Scalar::Long,
                    (64, false) => Scalar::ULong,
                    (_, false) => Scalar::UInt,
                    _ => Scalar::Int,
                };
                rv(self.sc(s))
            }
            ExprKind::CharLit(_) | ExprKind::BoolLit(_) => rv(self.int_ty()),
            ExprKind::FloatLit { suffix, .. } => {
                let s = match suffix {
                    FloatSuffix::F => Scalar::Float,
                    FloatSuffix::H => Scalar::Half,
                    FloatSuffix::None => Scalar::Double,
                };
                if s == Scalar::Half && !self.opts.fp16_at(e.span) {
                    self.diags.push(err("E0314", e.span, "half precision constant requires cl_khr_fp16").with_note(FP16_NOTE));
                    return None;
                }
                rv(self.sc(s))
            }
            ExprKind::StringLit(bytes) => {
                // OpenCL C 2.0 §6.5.3: string literals live in `__constant`.
                let space = AddrSpace::Constant;
                let ch = QualType::new(self.types.scalar(Scalar::Char), space);
                let arr = self.types.intern(TypeKind::Array(ch, Some(bytes.len() as u64 + 1)));
                lv(QualType::new(arr, space))
            }
            ExprKind::Unary(op, x) => {
                let mark = self.diags.mark();
                let v = self.unary(*op, x, e.span);
                self.point_at_operator(mark, e);
                v
            }
            ExprKind::Binary(op, a, b) => {
                let mark = self.diags.mark();
                let v = self.binary(*op, a, b, e.span);
                self.point_at_operator(mark, e);
                v
            }
            ExprKind::Assign(op, l, r) => {
                let mark = self.diags.mark();
                let v = self.assign(*op, l, r, e.span, e.loc());
                self.point_at_operator(mark, e);
                v
            }
            ExprKind::Cond(c, a, b) => {
                let mark = self.diags.mark();
                let v = self.cond(c, a.as_deref(), b, e.span);
                self.point_at_operator(mark, e);
                v
            }
            ExprKind::Cast(t, x) => {
                let to = self.type_name(t);
                let from = self.value(x);
                let to = to?;
                if matches!(self.types.kind(to.ty), TypeKind::Scalar(Scalar::Half)) && !self.opts.fp16_at(e.span) {
                    self.diags.push(err("E0314", x.loc(), "casting to type 'half' is not allowed").with_range(e.span).with_note(FP16_NOTE));
                    return None;
                }
                self.cast(to, from?, x, e.span)
            }
            ExprKind::VectorLiteral(t, xs) => self.vector_literal(t, xs, e.span),
            ExprKind::CompoundLiteral(t, init) => {
                let q = self.type_name(t);
                match q {
                    Some(q) => {
                        self.init_as(init, q);
                        self.missing_braces(init, q);
                        lv(q)
                    }
                    None => {
                        self.init(init);
                        None
                    }
                }
            }
            ExprKind::SizeofExpr(kind, x) => {
                self.unevaluated += 1;
                let v = self.type_expr(x);
                self.unevaluated -= 1;
                if let Some(v) = v {
                    if matches!(self.types.kind(v.ty.ty), TypeKind::Function { .. }) {
                        self.diags.push(err("E0320", x.span, "taking address of function is not allowed"));
                        return None;
                    }
                    if !self.size_operand(*kind, v.ty, x.span) {
                        return None;
                    }
                }
                self.record_const(e);
                if let (Some(v), SizeofKind::VecStep) = (v, kind) {
                    if self.arith(v.ty.ty).is_none() && self.vector_of(v.ty.ty).is_none() {
                        self.diags.push(err("E0320", x.span, format!("invalid operand of type '{}' to vec_step", self.rv_name(v.ty.ty))));
                        return None;
                    }
                }
                rv(self.size_query_type(*kind))
            }
            ExprKind::SizeofType(kind, t) => {
                if let Some(q) = self.type_name(t) {
                    if !self.size_operand(*kind, q, e.span) {
                        return None;
                    }
                }
                self.record_const(e);
                rv(self.size_query_type(*kind))
            }
            ExprKind::Offsetof(t, path) => self.offsetof(e, t, path),
            ExprKind::Index(a, b) => {
                let mark = self.diags.mark();
                let v = self.index(a, b, e.span);
                self.point_at_operator(mark, e);
                v
            }
            ExprKind::Call(callee, args) => self.call(callee, args, e.span, e.loc()),
            ExprKind::Member { base, arrow, name } => self.member(base, *arrow, name),
            ExprKind::BlockLit(b) => self.block_lit(b),
            ExprKind::StmtExpr(b) => self.stmt_expr(b, e.span),
        }
    }

    /// Records the value of a constant expression for the typed program,
    /// while the names it uses are in scope.
    fn record_const(&mut self, e: &Expr) {
        if self.facts.enabled {
            if let Ok(v) = consteval::eval(e, self) {
                self.facts.consts.insert(addr(e), v.value);
            }
        }
    }

    /// An image, a pipe or a sampler: a handle to an object the
    /// implementation owns, which a program passes but does not assign,
    /// take the address of, or return.
    pub(super) fn is_handle(&self, t: TypeId) -> bool {
        matches!(self.types.kind(t), TypeKind::Image(..) | TypeKind::Pipe(..) | TypeKind::Opaque(Opaque::Sampler))
    }

    /// A type's name with a pipe's access, which the type's display
    /// leaves out (`read_only pipe int`).
    pub(super) fn handle_name(&mut self, t: TypeId) -> String {
        match self.types.kind(t).clone() {
            TypeKind::Pipe(e, access) => format!("{} pipe {}", access.keyword(), self.types.display_qual(e)),
            _ => self.rv_name(t),
        }
    }

    /// `sizeof`/`__alignof` need a complete object type (clang makes the
    /// GNU `sizeof(void)` an error in OpenCL C); `vec_step` takes any.
    fn size_operand(&mut self, kind: SizeofKind, q: QualType, span: Span) -> bool {
        let word = match kind {
            SizeofKind::Sizeof => "sizeof",
            SizeofKind::Alignof => "__alignof",
            SizeofKind::VecStep => return true,
        };
        let what = match self.types.kind(q.ty) {
            TypeKind::Void => "a void type".to_string(),
            TypeKind::Function { .. } => "a function type".to_string(),
            TypeKind::Record(r) if self.types.records[*r as usize].fields.is_none() => format!("an incomplete type '{}'", self.ty_name(q)),
            TypeKind::Array(_, None) => format!("an incomplete type '{}'", self.ty_name(q)),
            _ => return true,
        };
        let d = err("E0320", span, format!("invalid application of '{word}' to {what}"));
        self.diags.push(self.forward_note(d, q.ty));
        false
    }

    fn size_query_type(&mut self, kind: SizeofKind) -> QualType {
        match kind {
            SizeofKind::VecStep => self.int_ty(),
            _ => self.sc(Scalar::Size),
        }
    }

    fn ident(&mut self, id: &Ident) -> Option<Val> {
        self.use_name(id, false);
        if let Some(sym) = self.lookup(&id.name) {
            let (kind, ty, decl) = (sym.kind.clone(), sym.ty, sym.decl);
            if self.poisoned.contains(&decl) {
                return None;
            }
            if self.facts.enabled {
                self.facts.names.insert(addr(id), decl);
            }
            if self.track_unused {
                self.referenced.insert(decl);
                if !self.set_only.contains(&id.span) {
                    self.read.insert(decl);
                }
            }
            return match kind {
                SymKind::Var { .. } | SymKind::Param => self.variable_use(id, ty),
                SymKind::Func { .. } => rv(ty),
                SymKind::EnumConst(v) => {
                    if self.facts.enabled {
                        self.facts.consts.insert(addr(id), v);
                    }
                    rv(self.int_ty())
                }
                SymKind::Typedef => None,
            };
        }
        if super::is_predefined_identifier(&id.name) {
            return self.predefined_identifier(id);
        }
        let Some(c) = clc_builtins::constant(&id.name) else {
            if clc_builtins::functions::is_builtin(&id.name) {
                // A builtin function is not a value (there are no function
                // pointers in OpenCL C, and the name is overloaded).
                self.diags.push(
                    err("E0304", id.span, "reference to overloaded function could not be resolved; did you mean to call it?")
                        .with_note(format!("'{}' is a builtin function", id.name)),
                );
            }
            return None;
        };
        let q = self.qual_of_builtin(&c.ty)?;
        rv(q)
    }

    /// A string literal, or a predefined identifier (`__func__`), which
    /// is one to printf's checks as in clang.
    fn is_string_literal(&self, e: &Expr) -> bool {
        match &strip(e).kind {
            ExprKind::StringLit(_) => true,
            ExprKind::Ident(id) => super::is_predefined_identifier(&id.name) && self.lookup(&id.name).is_none(),
            _ => false,
        }
    }

    /// `__func__` and its GNU kin: a `const __constant char` array holding
    /// the enclosing function's name (its signature for
    /// `__PRETTY_FUNCTION__`), as in clang; outside a function an empty
    /// one, with clang's warning.
    fn predefined_identifier(&mut self, id: &Ident) -> Option<Val> {
        let text = match &self.func {
            Some(f) => f.predefined(&id.name),
            None => {
                self.diags.push(Diagnostic::warning("predefined-identifier-outside-function", id.span, "predefined identifier is only valid inside function"));
                String::new()
            }
        };
        let space = AddrSpace::Constant;
        let ch = QualType::new(self.types.scalar(Scalar::Char), space).with_const();
        let arr = self.types.intern(TypeKind::Array(ch, Some(text.len() as u64 + 1)));
        if self.facts.enabled {
            self.facts.strings.insert(addr(id), text.into_bytes());
        }
        lv(QualType::new(arr, space).with_const())
    }

    /// A variable named in an expression. Inside a block literal, a
    /// variable of the enclosing function is the block's copy of it,
    /// made when the block was: read-only (OpenCL C 2.0 §6.12 has no
    /// `__block` variables), and never a block itself (§6.12.5).
    fn variable_use(&mut self, id: &Ident, ty: QualType) -> Option<Val> {
        let is_block = matches!(self.types.kind(ty.ty), TypeKind::Block { .. });
        if self.is_capture(&id.name) {
            if is_block {
                self.diags.push(err("E0333", id.span, "cannot refer to a block inside block").with_note("OpenCL C 2.0 §6.12.5: a block cannot use another block variable of the function around it"));
                return None;
            }
            return lv(QualType { quals: Quals { is_const: true, ..ty.quals }, ..ty });
        }
        // A program-scope block runs where it is called: calls in it are
        // the caller's (for the recursion check).
        if is_block
            && self.lookup_scope(&id.name) == Some(0)
            && let Some(f) = &self.func
        {
            self.calls.push((f.graph_key.clone(), super::global_block_key(&id.name), id.span));
        }
        lv(ty)
    }

    fn block_lit(&mut self, b: &BlockLit) -> Option<Val> {
        let ret = match &b.ret {
            Some(r) => self.type_name(r),
            None => None,
        };
        self.block_floors.push(self.scopes.len());
        if let Some(f) = self.func.as_mut() {
            let next = f.block_numbers.len() as u32 + 1;
            let n = *f.block_numbers.entry(addr(b)).or_insert(next);
            f.open_blocks.push(n);
        }
        self.push_scope();
        let mut ptys = Vec::new();
        let mut complete = true;
        if let Some(ps) = &b.params {
            let (list, all) = self.params(ps);
            ptys.extend(list.iter().map(|p| p.ty));
            self.declare_params(ps, list);
            complete = all;
        }
        // A block's return type is inferred from its returns when not
        // written; its returns are not checked against the enclosing
        // function's.
        let saved = self.ret.replace(match ret {
            Some(r) => Returns::Declared(r),
            None => Returns::Inferred(None),
        });
        // Jumps and case labels in the block's body target its own
        // statements only.
        let outer = self.func.as_mut().map(|f| (std::mem::take(&mut f.loops), std::mem::take(&mut f.switches)));
        for s in &b.body.items {
            self.stmt(s);
        }
        if let (Some(f), Some((loops, switches))) = (self.func.as_mut(), outer) {
            (f.loops, f.switches) = (loops, switches);
        }
        let returns = std::mem::replace(&mut self.ret, saved);
        self.pop_scope();
        self.block_floors.pop();
        if let Some(f) = self.func.as_mut() {
            f.open_blocks.pop();
        }
        if !complete {
            return None; // A parameter was reported; the type is unknown.
        }
        // `void (^)(void)` (a block's parameter list `(void)` is one
        // unnamed void parameter).
        ptys.retain(|p| !matches!(self.types.kind(p.ty), TypeKind::Void));
        let ret = match (ret, returns) {
            (Some(r), _) => r,
            (None, Some(Returns::Inferred(Some((t, _))))) => QualType::new(t, AddrSpace::Private),
            _ => QualType::new(self.types.void(), AddrSpace::Private),
        };
        let t = self.types.intern(TypeKind::Block { ret, params: ptys });
        rv(QualType::new(t, AddrSpace::Private))
    }

    // ------------------------------------------------------------ unary

    fn unary(&mut self, op: UnOp, x: &Expr, span: Span) -> Option<Val> {
        match op {
            UnOp::AddrOf => {
                let outer = self.address_of.replace(strip(x).span);
                let v = self.type_expr(x);
                self.address_of = outer;
                let v = v?;
                if matches!(self.types.kind(v.ty.ty), TypeKind::Block { .. }) {
                    return self.bad_unary(op, v.ty, span);
                }
                if let ExprKind::Ident(id) = &strip(x).kind
                    && self.is_capture(&id.name)
                {
                    self.diags.push(err("E0333", x.loc(), "taking address of a capture is not allowed").with_range(span).with_note(format!("the block has its own copy of '{}', taken when the block literal is evaluated", id.name)));
                    return None;
                }
                if matches!(self.types.kind(v.ty.ty), TypeKind::Function { .. }) {
                    self.diags.push(err("E0320", x.loc(), "taking address of function is not allowed").with_range(span));
                    return None;
                }
                if self.is_handle(v.ty.ty) {
                    let shown = self.handle_name(v.ty.ty);
                    self.diags.push(err("E0320", span, format!("invalid argument type '{shown}' to unary expression")));
                    return None;
                }
                if v.component {
                    self.diags.push(err("E0320", span, "address of vector element requested"));
                    return None;
                }
                if !v.lvalue {
                    self.diags.push(err("E0320", span, format!("cannot take the address of an rvalue of type '{}'", self.rv_name(v.ty.ty))));
                    return None;
                }
                let p = self.types.pointer(v.ty);
                rv(QualType::new(p, AddrSpace::Private))
            }
            UnOp::Deref => {
                let t = self.value(x)?;
                match self.types.kind(t.ty).clone() {
                    TypeKind::Block { .. } => self.bad_unary(op, t, span),
                    TypeKind::Pointer(p) => {
                        if matches!(self.types.kind(p.ty), TypeKind::Void) {
                            return rv(QualType::new(p.ty, AddrSpace::Private));
                        }
                        lv(p)
                    }
                    _ => {
                        self.diags.push(err("E0320", span, format!("indirection requires pointer operand ('{}' invalid)", self.rv_name(t.ty))));
                        None
                    }
                }
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let v = self.type_expr(x)?;
                if matches!(self.types.kind(v.ty.ty), TypeKind::Atomic(_)) {
                    self.atomic_error(span);
                    return None;
                }
                let t = v.ty.ty;
                // Vectors of integers only (clang: OpenCL C §6.3.c).
                let ok = self.arith(t).is_some() || self.vector_of(t).is_some_and(|(s, _)| is_int(s)) || self.is_pointer(t);
                if !ok {
                    let what = if matches!(op, UnOp::PreInc | UnOp::PostInc) { "increment" } else { "decrement" };
                    self.diags.push(err("E0320", span, format!("cannot {what} value of type '{}'", self.rv_name(t))));
                    return None;
                }
                if let Some(p) = self.pointee(t)
                    && !self.sized_pointee(p, span)
                {
                    return None;
                }
                if !self.modifiable(v, x, span) {
                    return None;
                }
                rv(QualType::new(t, AddrSpace::Private))
            }
            UnOp::Plus | UnOp::Neg | UnOp::BitNot | UnOp::Not => {
                let t = self.value(x)?;
                if let Some((s, n)) = self.vector_of(t.ty) {
                    return match op {
                        UnOp::BitNot if !is_int(s) => self.bad_unary(op, t, span),
                        UnOp::Not => {
                            let size = self.types.scalar_size(s);
                            rv(self.vec_or_scalar(signed_of_size(size), n))
                        }
                        _ => rv(t),
                    };
                }
                if op == UnOp::Not {
                    if !self.is_scalar_type(t.ty) {
                        return self.bad_unary(op, t, span);
                    }
                    self.bitwise_or_condition(x);
                    return rv(self.int_ty());
                }
                match self.arith(t.ty) {
                    Some(s) if op != UnOp::BitNot || is_int(s) => {
                        let r = self.sc(promote(s));
                        if op == UnOp::Neg {
                            self.integer_overflow(r, span, |this| this.small_constant(x).map(|v| -v));
                        }
                        rv(r)
                    }
                    _ => self.bad_unary(op, t, span),
                }
            }
        }
    }

    /// clang's -Winteger-overflow: a signed operation on constants whose
    /// exact result (`exact`, `None` unless the operands are constant)
    /// its type `t` cannot hold.
    fn integer_overflow(&mut self, t: QualType, span: Span, exact: impl FnOnce(&mut Self) -> Option<i128>) {
        let Some(s) = self.arith(t.ty).map(|s| canon(s, self.types.pointer_size)) else { return };
        if !is_int(s) || !is_signed(s) {
            return;
        }
        let Some(v) = exact(self) else { return };
        let ty = IntTy { bits: vector_element_bits(s), signed: true };
        let wrapped = ty.wrap(v);
        if wrapped != v {
            let msg = format!("overflow in expression; result is {} with type '{}'", digit_groups(wrapped), self.rv_name(t.ty));
            self.diags.push(Diagnostic::warning("integer-overflow", span, msg));
        }
    }

    fn bad_unary(&mut self, op: UnOp, t: QualType, span: Span) -> Option<Val> {
        self.diags.push(err("E0320", span, format!("invalid argument type '{}' to unary expression", self.rv_name(t.ty))).with_label(format!("operator '{}'", op.text())));
        None
    }

    /// Is `v` (from `e`) a modifiable lvalue? Reports when it is not, at
    /// `span`, the assignment or increment (which its caller points at its
    /// operator, as clang does), `e` underlined.
    fn modifiable(&mut self, v: Val, e: &Expr, span: Span) -> bool {
        let t = v.ty;
        let msg = if !v.lvalue {
            "expression is not assignable".to_string()
        } else if v.dup {
            "vector is not assignable (contains duplicate components)".to_string()
        } else if matches!(self.types.kind(t.ty), TypeKind::Array(..)) {
            format!("array type '{}' is not assignable", self.rv_name(t.ty))
        } else if t.quals.is_const || t.space == AddrSpace::Constant {
            match &strip(e).kind {
                ExprKind::Ident(id) if self.is_capture(&id.name) => {
                    self.diags.push(
                        err("E0321", span, format!("variable '{}' is captured by the block and cannot be assigned", id.name))
                            .with_range(e.span)
                            .with_note("a block works on read-only copies of the variables it uses from the function around it, taken when the block literal is evaluated (OpenCL C has no __block variables)"),
                    );
                    return false;
                }
                ExprKind::Ident(id) if t.quals.is_const => {
                    let d = err("E0321", span, format!("cannot assign to variable '{}' with const-qualified type '{}'", id.name, self.ty_name(t))).with_range(e.span);
                    let d = match self.lookup(&id.name) {
                        Some(s) => d.with_note_at(s.span, format!("variable '{}' declared const here", id.name)),
                        None => d,
                    };
                    self.diags.push(d);
                    return false;
                }
                _ => "read-only variable is not assignable".to_string(),
            }
        } else {
            return true;
        };
        let mut d = err("E0321", span, msg).with_range(e.span);
        if t.space == AddrSpace::Constant && v.lvalue && !v.dup {
            d = d.with_note("objects in the __constant address space are read-only");
        }
        self.diags.push(d);
        false
    }

    // ----------------------------------------------------------- binary

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        if op == BinOp::Comma {
            let l = self.type_expr(a).and_then(|v| self.decay(v, a.span));
            let r = self.value(b)?;
            // Blocks are only named or written (OpenCL C 2.0 §6.12.5).
            if let Some(l) = l
                && (self.is_block(l.ty) || self.is_block(r.ty))
            {
                self.invalid_operands(l, r, span);
                return None;
            }
            // clang's -Wunused-value: a left operand computing a value and
            // nothing else (of `(a, b), c`, `b`: the value `(a, b)` has).
            let mut left = a;
            while let ExprKind::Binary(BinOp::Comma, _, r) = &left.kind {
                left = r;
            }
            if no_side_effects(left) && a.span != b.span && !from_macro(left) {
                self.diags.push(Diagnostic::warning("unused-value", left.loc(), "left operand of comma operator has no effect").with_range(left.span));
            }
            return rv(r);
        }
        let l = self.value(a);
        let r = self.value(b);
        let (l, r) = (l?, r?);
        if self.is_block(l.ty) || self.is_block(r.ty) {
            self.invalid_operands(l, r, span);
            return None;
        }
        // As clang: before the operands' types are judged, for any
        // operands but floating-point ones (NaN) and blocks' ordering.
        let floating = |this: &Self, t: QualType| {
            let s = this.arith(t.ty).or_else(|| this.vector_of(t.ty).map(|v| v.0));
            s.is_some_and(|s| matches!(s, Scalar::Float | Scalar::Double | Scalar::Half))
        };
        if is_comparison(op) && !floating(self, l) && !floating(self, r) && (!self.is_block(l.ty) || matches!(op, BinOp::Eq | BinOp::Ne)) {
            self.self_comparison(op, a, b, span);
        }
        let t = self.binary_types(op, l, r, a, b, span, false)?;
        if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            self.integer_overflow(t, span, |this| {
                let (x, y) = (this.small_constant(a)?, this.small_constant(b)?);
                Some(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    _ => x * y,
                })
            });
        }
        self.division_by_zero(op, l, r, b, span);
        if op == BinOp::Div {
            self.sizeof_division(a, b, span);
        }
        if op == BinOp::Add {
            self.string_plus_int(l, r, a, b, span);
        }
        self.precedence_warnings(op, a, b, span);
        self.nested_operator_warnings(op, a, b);
        if matches!(op, BinOp::And | BinOp::Or) {
            self.constant_logical_operand(op, a, b, l, r, span);
            self.negation_compare(op, a, b, span);
            self.bitwise_or_condition(a);
            self.bitwise_or_condition(b);
        }
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            self.bitwise_compare(op, a, b, span);
        }
        if is_comparison(op) && self.arith(l.ty).is_some_and(is_int) && self.arith(r.ty).is_some_and(is_int) {
            self.out_of_range_comparison(op, a, b, l, r, span);
            if self.unevaluated == 0 && self.diags.policy.enabled("sign-compare") {
                self.sign_compare(op, a, b, l, r, span);
            }
        }
        rv(t)
    }

    /// clang's warnings about operators that bind otherwise than they
    /// read (all on by default in clang, in macro bodies too):
    /// -Wparentheses for a bitwise operator with a comparison as one
    /// operand (`a & b == c`; not where both or neither are, nor where the
    /// other operand is bitwise: eager logic), -Wshift-op-parentheses for
    /// `a << b + c`, -Wlogical-not-parentheses for `!a == b`.
    fn precedence_warnings(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) {
        let bare = |e: &Expr| match &e.kind {
            ExprKind::Binary(o, ..) => Some(*o),
            _ => None,
        };
        let (left, right) = (bare(a), bare(b));
        match op {
            BinOp::BitAnd | BinOp::BitXor | BinOp::BitOr => {
                let bitwise = |o: Option<BinOp>| matches!(o, Some(BinOp::BitAnd | BinOp::BitXor | BinOp::BitOr));
                let comparison = |o: Option<BinOp>| o.is_some_and(is_comparison);
                if comparison(left) == comparison(right) || bitwise(left) || bitwise(right) {
                    return;
                }
                let Some(cmp) = left.filter(|&o| is_comparison(o)).or(right) else { return };
                let (o, c) = (op.text(), cmp.text());
                self.diags.push(
                    Diagnostic::warning("parentheses", span, format!("{o} has lower precedence than {c}; {c} will be evaluated first"))
                        .with_note(format!("place parentheses around the '{c}' expression to silence this warning"))
                        .with_note(format!("place parentheses around the {o} expression to evaluate it first")),
                );
            }
            BinOp::Shl | BinOp::Shr => {
                // clang points at the operator that binds first.
                for (side, e) in [(left, a), (right, b)] {
                    let Some(side) = side.filter(|o| matches!(o, BinOp::Add | BinOp::Sub)) else { continue };
                    let (o, s) = (op.text(), side.text());
                    self.diags.push(
                        Diagnostic::warning("shift-op-parentheses", e.loc(), format!("operator '{o}' has lower precedence than '{s}'; '{s}' will be evaluated first"))
                            .with_range(e.span)
                            .with_note(format!("place parentheses around the '{s}' expression to silence this warning")),
                    );
                }
            }
            _ if is_comparison(op) => {
                if matches!(a.kind, ExprKind::Unary(UnOp::Not, _)) && !is_boolean(b) {
                    self.diags.push(
                        // At the `!`, the comparison underlined.
                        Diagnostic::warning("logical-not-parentheses", Span { hi: a.span.lo + 1, ..a.span }, "logical not is only applied to the left hand side of this comparison")
                            .with_range(span)
                            .with_note("add parentheses after the '!' to evaluate the comparison first")
                            .with_note("add parentheses around left hand side expression to silence this warning"),
                    );
                }
            }
            _ => {}
        }
    }

    /// clang's -Wbitwise-op-parentheses (`a & b | c`: `&` or `^` inside
    /// `|`, `&` inside `^`) and -Wlogical-op-parentheses (`a && b || c`;
    /// not when a string literal makes it an assertion's message), both in
    /// -Wparentheses but off by default, as in clang; not in a macro's
    /// expansion. At the inner operator.
    /// clang's -Wconstant-logical-operand: `x && 4` where `x & 4` was
    /// likely meant (an integer, not a truth value, on the left; a
    /// constant other than 0 and 1 on the right); -Wint-in-bool-context
    /// for an enumerator other than 0 and 1 on either side. Not for an
    /// operator a macro wrote.
    fn constant_logical_operand(&mut self, op: BinOp, a: &Expr, b: &Expr, l: QualType, r: QualType, span: Span) {
        if a.span == b.span || a.span == span {
            return;
        }
        let enumerator = |this: &Self, e: &Expr| match &e.kind {
            ExprKind::Ident(id) => matches!(this.lookup(&id.name), Some(Sym { kind: SymKind::EnumConst(v), .. }) if *v != 0 && *v != 1),
            _ => false,
        };
        if enumerator(self, a) || enumerator(self, b) {
            self.diags.push(Diagnostic::warning("int-in-bool-context", span, "converting the enum constant to a boolean"));
            return;
        }
        let integer = |this: &Self, t: QualType| this.arith(t.ty).is_some_and(|s| is_int(s) && s != Scalar::Bool);
        if !integer(self, l) || !integer(self, r) {
            return;
        }
        if self.small_constant(b).is_none_or(|v| v == 0 || v == 1) {
            return;
        }
        let (name, bitwise) = if op == BinOp::And { ("&&", "&") } else { ("||", "|") };
        let mut d = Diagnostic::warning("constant-logical-operand", span, format!("use of logical '{name}' with constant operand")).with_note_at(span, format!("use '{bitwise}' for a bitwise operation"));
        if op == BinOp::And {
            d = d.with_note_at(span, "remove constant to silence this warning");
        }
        self.diags.push(d);
    }

    /// clang's -Wtautological-negation-compare: `x && !x`, `!x || x`.
    fn negation_compare(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) {
        fn negated(e: &Expr) -> Option<&Expr> {
            match &strip(e).kind {
                ExprKind::Unary(UnOp::Not, x) => Some(strip(x)),
                _ => None,
            }
        }
        let found = negated(b).is_some_and(|x| same_operand(a, x)) || negated(a).is_some_and(|x| same_operand(x, b));
        if found && a.span != b.span {
            let (name, always) = if op == BinOp::And { ("&&", "false") } else { ("||", "true") };
            self.diags.push(Diagnostic::warning("tautological-negation-compare", span, format!("'{name}' of a value and its negation always evaluates to {always}")));
        }
    }

    /// clang's -Wtautological-bitwise-compare: `(x & 8) == 4` or
    /// `(x | 4) == 3`, which no `x` makes true (literals written as such,
    /// not by a macro).
    fn bitwise_compare(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) {
        let (value, other) = match (literal(a), literal(b)) {
            (Some(v), _) => (v, b),
            (_, Some(v)) => (v, a),
            _ => return,
        };
        let ExprKind::Binary(bop @ (BinOp::BitAnd | BinOp::BitOr), x, y) = &strip(other).kind else { return };
        let Some(mask) = literal(x).or_else(|| literal(y)) else { return };
        let never = match bop {
            BinOp::BitAnd => (mask & value) != value,
            _ => (mask | value) != value,
        };
        if never {
            let always = if op == BinOp::Eq { "false" } else { "true" };
            self.diags.push(Diagnostic::warning("tautological-bitwise-compare", span, format!("bitwise comparison always evaluates to {always}")));
        }
    }

    /// clang's -Wtautological-bitwise-compare for a condition (of `if`,
    /// a loop, `?:`, `&&`, `||`, `!`) that is `x | 5`: never zero.
    pub(super) fn bitwise_or_condition(&mut self, e: &Expr) {
        let e = strip(e);
        if let ExprKind::Binary(BinOp::BitOr, x, y) = &e.kind
            && literal(x).or_else(|| literal(y)).is_some_and(|v| v != 0)
        {
            self.diags.push(Diagnostic::warning("tautological-bitwise-compare", e.loc(), "bitwise or with non-zero value always evaluates to true").with_range(e.span));
        }
    }

    fn nested_operator_warnings(&mut self, op: BinOp, a: &Expr, b: &Expr) {
        if !matches!(op, BinOp::BitOr | BinOp::BitXor | BinOp::Or) || a.span == b.span || from_macro(a) || from_macro(b) {
            return;
        }
        fn inner(e: &Expr) -> Option<(BinOp, &Expr, &Expr)> {
            match &e.kind {
                ExprKind::Binary(o, x, y) => Some((*o, x, y)),
                _ => None,
            }
        }
        let warn = |name: &'static str, inner_op: BinOp, e: &Expr| {
            let (i, o) = (inner_op.text(), op.text());
            Diagnostic::warning(name, e.loc(), format!("'{i}' within '{o}'")).with_range(e.span).with_note(format!("place parentheses around the '{i}' expression to silence this warning"))
        };
        if op != BinOp::Or {
            if !self.diags.policy.enabled("bitwise-op-parentheses") {
                return;
            }
            for e in [a, b] {
                if let Some((o, ..)) = inner(e)
                    && (o == BinOp::BitAnd || (op == BinOp::BitOr && o == BinOp::BitXor))
                {
                    self.diags.push(warn("bitwise-op-parentheses", o, e));
                }
            }
            return;
        }
        if !self.diags.policy.enabled("logical-op-parentheses") {
            return;
        }
        // `"why" && x || y`, `x || y && "why"`: a message, the grouping
        // moot.
        let message = |e: &Expr| matches!(strip(e).kind, ExprKind::StringLit(_));
        if let Some((BinOp::And, x, _)) = inner(a)
            && !message(x)
        {
            self.diags.push(warn("logical-op-parentheses", BinOp::And, a));
        }
        if let Some((BinOp::And, _, y)) = inner(b)
            && !message(y)
        {
            self.diags.push(warn("logical-op-parentheses", BinOp::And, b));
        }
    }

    /// An expression statement (or a `for` loop's first clause): checked,
    /// then, where it has no error, whether its value goes unused.
    pub(super) fn expr_statement(&mut self, e: &Expr) {
        let errors = self.diags.error_count();
        if self.track_unused {
            self.set_only = assigned_names(e);
        }
        // `*p;` reads an object: one of incomplete type has no value.
        if let Some(v) = self.type_expr(e)
            && v.lvalue
            && self.incomplete_record(v.ty.ty)
        {
            let _ = self.decay(v, e.span);
        }
        self.set_only.clear();
        if self.diags.error_count() == errors {
            self.unused_result(e);
            self.unsequenced(e);
        }
    }

    /// clang's -Wunused-comparison (a comparison as a statement: often a
    /// mistyped assignment) and -Wunused-value (a statement computing a
    /// value with no side effect); not for what a macro expanded to.
    fn unused_result(&mut self, e: &Expr) {
        // After a syntax error in the function the statements are what
        // recovery made of the text: no warnings about them.
        if from_macro(e) || self.func.as_ref().is_some_and(|f| f.after_syntax_error) {
            return;
        }
        // clang points into parentheses, at the operator.
        let mut inner = e;
        while let ExprKind::Paren(x) = &inner.kind {
            inner = x;
        }
        let at = |d: Diagnostic| d.with_range(inner.span);
        // Parentheses say the comparison is meant (clang then gives only
        // -Wunused-value).
        if let ExprKind::Binary(op, ..) = &e.kind
            && is_comparison(*op)
        {
            let d = match op {
                BinOp::Eq => Diagnostic::warning("unused-comparison", inner.loc(), "equality comparison result unused").with_note("use '=' to turn this equality comparison into an assignment"),
                BinOp::Ne => Diagnostic::warning("unused-comparison", inner.loc(), "inequality comparison result unused").with_note("use '|=' to turn this inequality comparison into an or-assignment"),
                _ => Diagnostic::warning("unused-comparison", inner.loc(), "relational comparison result unused"),
            };
            self.diags.push(at(d));
        } else if no_side_effects(e) {
            // A subscript's at its `]`.
            let loc = match inner.kind {
                ExprKind::Index(..) => Span { lo: inner.span.hi.saturating_sub(1).max(inner.span.lo), ..inner.span },
                _ => inner.loc(),
            };
            self.diags.push(at(Diagnostic::warning("unused-value", loc, "expression result unused")));
        }
    }

    /// clang's -Wtautological-compare: a value compared with itself (the
    /// same variable, element or field, written twice; not in a macro's
    /// expansion, where both operands have the expansion's span).
    fn self_comparison(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) {
        if a.span == b.span || !same_operand(a, b) {
            return;
        }
        let always = if matches!(op, BinOp::Eq | BinOp::Le | BinOp::Ge) { "true" } else { "false" };
        self.diags.push(Diagnostic::warning("tautological-compare", span, format!("self-comparison always evaluates to {always}")));
    }

    /// clang's -Wtautological-constant-out-of-range-compare: an integer
    /// compared with a constant its type cannot hold (`uchar_c > 300`), or
    /// a truth value (`!a == 2`) with a constant other than 0 and 1: the
    /// result does not depend on the operand.
    fn out_of_range_comparison(&mut self, op: BinOp, a: &Expr, b: &Expr, l: QualType, r: QualType, span: Span) {
        let (Some(ls), Some(rs)) = (self.arith(l.ty), self.arith(r.ty)) else { return };
        let (other, other_s, value, constant_right) = match (self.small_constant(a), self.small_constant(b)) {
            (None, Some(v)) => (a, ls, v, true),
            (Some(v), None) => (b, rs, v, false),
            _ => return,
        };
        let p = self.types.pointer_size;
        let boolean = other_s != Scalar::Bool && is_boolean(other);
        let Some(t) = (if boolean { Some(IntTy { bits: 1, signed: false }) } else { int_ty(other_s, p) }) else { return };
        let Some(common) = int_ty(self.usual(ls, rs), p) else { return };
        // In an unsigned comparison a signed operand's negative values
        // wrap (not this warning's business); the constant converts.
        if !common.signed && t.signed {
            return;
        }
        let value = if common.signed { value } else { value.rem_euclid(1i128 << common.bits) };
        let (lo, hi) = if t.signed { (-(1i128 << (t.bits - 1)), (1i128 << (t.bits - 1)) - 1) } else { (0, (1i128 << t.bits) - 1) };
        // `other op value`, turned around when the constant is on the left.
        let op = if constant_right {
            op
        } else {
            match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Gt => BinOp::Lt,
                BinOp::Le => BinOp::Ge,
                BinOp::Ge => BinOp::Le,
                o => o,
            }
        };
        let holds = |x: i128| match op {
            BinOp::Lt => x < value,
            BinOp::Le => x <= value,
            BinOp::Gt => x > value,
            BinOp::Ge => x >= value,
            BinOp::Eq => x == value,
            _ => x != value,
        };
        let name = if (lo..=hi).contains(&value) {
            // In range, a truth value compared with its bound (`!a <= 1`):
            // clang's -Wtautological-constant-compare. Of other types that
            // is off by default in clang (`uc <= 255` is a way of writing
            // a limit that may change).
            if !boolean || matches!(op, BinOp::Eq | BinOp::Ne) || holds(lo) != holds(hi) {
                return;
            }
            "tautological-constant-compare"
        } else {
            "tautological-constant-out-of-range-compare"
        };
        let always = holds(lo);
        let what = if boolean {
            "boolean expression".to_string()
        } else {
            format!("expression of type '{}'", self.operand_type_name(other))
        };
        self.diags.push(Diagnostic::warning(name, span, format!("result of comparison of constant {value} with {what} is always {always}")));
    }

    /// clang's -Wsign-compare (in -Wextra): a comparison made in an
    /// unsigned type of a signed operand that may be negative (it turns
    /// into a large unsigned value) with an unsigned one. Not for `==`/`!=`
    /// with an unsigned constant below the signed range's top (the
    /// reinterpretation cannot change the result).
    fn sign_compare(&mut self, op: BinOp, a: &Expr, b: &Expr, l: QualType, r: QualType, span: Span) {
        let (Some(ls), Some(rs)) = (self.arith(l.ty), self.arith(r.ty)) else { return };
        let p = self.types.pointer_size;
        let (Some(lt), Some(rt), Some(common)) = (int_ty(ls, p), int_ty(rs, p), int_ty(self.usual(ls, rs), p)) else { return };
        if common.signed || lt.signed == rt.signed || ls == Scalar::Bool || rs == Scalar::Bool {
            return;
        }
        let (signed, unsigned) = if lt.signed { (a, b) } else { (b, a) };
        // A constant result, or one against unsigned zero that is always
        // the same (`x < 0u`: -Wtautological-unsigned-zero-compare's):
        // not this warning's, as clang has it.
        let unsigned_value = self.small_constant(unsigned);
        if unsigned_value.is_some() && self.small_constant(signed).is_some() {
            return;
        }
        let zero_on_right = lt.signed;
        if unsigned_value == Some(0) && matches!((op, zero_on_right), (BinOp::Lt | BinOp::Ge, true) | (BinOp::Gt | BinOp::Le, false)) {
            return;
        }
        let non_negative = |this: &mut Self, e: &Expr| match &strip(e).kind {
            ExprKind::Binary(BinOp::BitAnd, x, y) => [x, y].into_iter().any(|m| this.small_constant(m).is_some_and(|v| v >= 0)),
            _ => this.small_constant(e).is_some_and(|v| v >= 0),
        };
        if non_negative(self, signed) {
            return;
        }
        if matches!(op, BinOp::Eq | BinOp::Ne) && self.small_constant(unsigned).is_some_and(|v| v >= 0 && v < 1i128 << (common.bits - 1)) {
            return;
        }
        let (x, y) = (self.operand_type_name(a), self.operand_type_name(b));
        self.diags.push(Diagnostic::warning("sign-compare", span, format!("comparison of integers of different signs: '{x}' and '{y}'")));
    }

    /// An operand's type as clang names it in messages (see
    /// [`Checker::val_type_name`]).
    fn operand_type_name(&mut self, e: &Expr) -> String {
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let v = self.type_expr(strip(e));
        std::mem::swap(self.diags, &mut scratch);
        v.map(|v| self.val_type_name(v)).unwrap_or_default()
    }

    /// A typed expression's type as clang names it in messages: an
    /// object's with its address space (`__private uchar`), a value's
    /// without.
    fn val_type_name(&self, v: Val) -> String {
        match v {
            v if v.lvalue && v.ty.space == AddrSpace::Private => format!("__private {}", self.ty_name(v.ty)),
            v if v.lvalue => self.ty_name(v.ty),
            v => self.rv_name(v.ty.ty),
        }
    }

    /// clang's -Warray-bounds: a constant subscript outside an array of
    /// known size (one past the end is fine when `&` takes its address).
    fn array_bounds(&mut self, a: &Expr, b: &Expr, base: Val, n: u64, taken: bool) {
        let Some(i) = self.small_constant(b) else { return };
        let msg = if i < 0 {
            format!("array index {i} is before the beginning of the array")
        } else if i > n as i128 || (i == n as i128 && !taken) {
            format!("array index {i} is past the end of the array (that has type '{}')", self.val_type_name(base))
        } else {
            return;
        };
        // As clang: a struct's last member may be a flexible array
        // declared with a size; no warning about it.
        if self.is_last_member(a) {
            return;
        }
        // At the array, the subscript underlined.
        let mut d = Diagnostic::warning("array-bounds", strip(a).span, msg).with_range(b.span);
        let mut array = strip(a);
        while let ExprKind::Index(x, _) = &array.kind {
            array = strip(x);
        }
        if let ExprKind::Ident(id) = &array.kind
            && let Some(s) = self.lookup(&id.name)
        {
            d = d.with_note_at(s.span, format!("array '{}' declared here", id.name));
        }
        self.diags.push(d);
    }

    /// Is `e` (`s.m`, `p->m`) the last member of its struct?
    fn is_last_member(&mut self, e: &Expr) -> bool {
        let ExprKind::Member { base, arrow, name } = &strip(e).kind else { return false };
        let Some(t) = self.type_expr_quiet(base) else { return false };
        let t = if *arrow { self.pointee(t).map(|p| p.ty) } else { Some(t) };
        let Some(TypeKind::Record(i)) = t.map(|t| self.types.kind(t).clone()) else { return false };
        let r = &self.types.records[i as usize];
        !r.is_union && r.fields.as_ref().and_then(|f| f.last()).is_some_and(|f| f.name == name.name)
    }

    /// clang's -Wdivision-by-zero: an integer division or remainder by a
    /// constant zero (undefined; the CPU target gives it a value, clang's
    /// code traps on x86-64).
    fn division_by_zero(&mut self, op: BinOp, l: QualType, r: QualType, b: &Expr, span: Span) {
        if !matches!(op, BinOp::Div | BinOp::Rem) || !self.arith(l.ty).is_some_and(is_int) || !self.arith(r.ty).is_some_and(is_int) {
            return;
        }
        if self.small_constant(b) == Some(0) {
            let what = if op == BinOp::Div { "division" } else { "remainder" };
            self.diags.push(Diagnostic::warning("division-by-zero", span, format!("{what} by zero is undefined")));
        }
    }

    /// clang's -Wsizeof-pointer-div (`sizeof(p) / sizeof(*p)`, `p` a
    /// pointer: the size of the pointer, not of an array) and
    /// -Wsizeof-array-div (`sizeof(a) / sizeof(T)`, `T` of another size
    /// than `a`'s elements: not the number of elements).
    fn sizeof_division(&mut self, a: &Expr, b: &Expr, span: Span) {
        // Parentheses around either `sizeof` say the division is meant.
        let (ExprKind::SizeofExpr(SizeofKind::Sizeof, arg), ExprKind::SizeofExpr(SizeofKind::Sizeof, _) | ExprKind::SizeofType(SizeofKind::Sizeof, _)) = (&a.kind, &b.kind) else { return };
        let x = strip(arg);
        let divisor = match &b.kind {
            ExprKind::SizeofExpr(_, y) => self.type_expr_quiet(strip(y)),
            ExprKind::SizeofType(_, t) => self.type_name_quiet(t).map(|q| q.ty),
            _ => None,
        };
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let object = self.type_expr(x);
        std::mem::swap(self.diags, &mut scratch);
        let (Some(object), Some(rt)) = (object, divisor) else { return };
        let declared = |this: &Self| match &x.kind {
            ExprKind::Ident(id) => this.lookup(&id.name).map(|s| (s.span, id.name.clone())),
            _ => None,
        };
        match self.types.kind(object.ty.ty).clone() {
            TypeKind::Pointer(p) if !self.is_pointer(rt) => {
                if !self.same_unqual(p.ty, rt) {
                    return;
                }
                let what = match (path_text(x), matches!(arg.kind, ExprKind::Paren(_))) {
                    (Some(path), true) => format!("'sizeof ({path})'"),
                    (Some(path), false) => format!("'sizeof {path}'"),
                    (None, _) => "this 'sizeof'".to_string(),
                };
                let mut d = Diagnostic::warning("sizeof-pointer-div", span, format!("{what} will return the size of the pointer, not the array itself")).with_range(a.span);
                if let Some((at, name)) = declared(self) {
                    d = d.with_note_at(at, format!("pointer '{name}' declared here"));
                }
                self.diags.push(d);
            }
            TypeKind::Array(elem, _) => {
                // Not for arrays of arrays nor of characters (sizeof(buf) /
                // sizeof(int) counts ints in a byte buffer).
                if matches!(self.types.kind(elem.ty), TypeKind::Array(..) | TypeKind::Scalar(Scalar::Char | Scalar::UChar)) {
                    return;
                }
                let size = |t: TypeId| self.types.size_align(t).map(|(s, _)| s);
                if size(elem.ty).is_none() || size(rt).is_none() || size(elem.ty) == size(rt) {
                    return;
                }
                // The element as clang names it, in the array's space.
                let e = match object.ty.space {
                    AddrSpace::Private => format!("__private {}", self.types.display_qual(elem)),
                    space => self.types.display_qual(QualType { space, ..elem }),
                };
                let r = self.rv_name(rt);
                let mut d = Diagnostic::warning("sizeof-array-div", span, format!("expression does not compute the number of elements in this array; element type is '{e}', not '{r}'")).with_range(a.span);
                if let Some((at, name)) = declared(self) {
                    d = d.with_note_at(at, format!("array '{name}' declared here"));
                }
                self.diags.push(d.with_note(format!("place parentheses around the 'sizeof({r})' expression to silence this warning")));
            }
            _ => {}
        }
    }

    /// clang's -Wstring-plus-int (and -Wstring-plus-char for a character
    /// literal): `"abc" + n` points into the string, it does not append.
    fn string_plus_int(&mut self, l: QualType, r: QualType, a: &Expr, b: &Expr, span: Span) {
        let (int, int_ty) = match (&a.kind, &b.kind) {
            (ExprKind::StringLit(_), _) => (b, r),
            (_, ExprKind::StringLit(_)) => (a, l),
            _ => return,
        };
        if !self.arith(int_ty.ty).is_some_and(is_int) {
            return;
        }
        let note = "use array indexing to silence this warning";
        let name = self.rv_name(int_ty.ty);
        self.diags.push(Diagnostic::warning("string-plus-int", span, format!("adding '{name}' to a string does not append to the string")).with_note(note));
        if matches!(int.kind, ExprKind::CharLit(_)) {
            self.diags.push(Diagnostic::warning("string-plus-char", span, "adding 'char' to a string pointer does not append to the string").with_note(note));
        }
    }

    /// The type of `l op r` for operand types `l` and `r` (values).
    /// `compound`: for `a op= b`, whose operands clang does not check for
    /// integer conversions.
    fn binary_types(&mut self, op: BinOp, l: QualType, r: QualType, a: &Expr, b: &Expr, span: Span, compound: bool) -> Option<QualType> {
        use BinOp::*;
        let lv_ = self.vector_of(l.ty);
        let rv_ = self.vector_of(r.ty);
        if matches!(op, Shl | Shr) && (lv_.is_some() || rv_.is_some()) {
            return self.vector_shift(l, r, span);
        }
        if lv_.is_some() || rv_.is_some() {
            let t = self.vector_binary(op, l, r, span)?;
            // An integer scalar widened to the other operand's floating
            // vector.
            for (x, e, other) in [(l, a, r), (r, b, l)] {
                if let (Some((es, _)), Some(xs)) = (self.vector_of(other.ty), self.arith(x.ty))
                    && is_int(xs)
                {
                    self.int_float_change(x.ty, e, es, other.ty);
                }
            }
            return Some(t);
        }
        let ls = self.arith(l.ty);
        let rs = self.arith(r.ty);
        let lp = self.pointee(l.ty);
        let rp = self.pointee(r.ty);
        match op {
            Mul | Div | Rem | BitAnd | BitOr | BitXor => {
                if let (Some(x), Some(y)) = (ls, rs) {
                    let int_only = matches!(op, Rem | BitAnd | BitOr | BitXor);
                    if !int_only || (is_int(x) && is_int(y)) {
                        let s = self.usual(x, y);
                        self.operand_conversions((x, a), (y, b), s, compound, compound);
                        return Some(self.sc(s));
                    }
                }
            }
            Add | Sub => {
                if let (Some(x), Some(y)) = (ls, rs) {
                    let s = self.usual(x, y);
                    self.operand_conversions((x, a), (y, b), s, compound, compound);
                    return Some(self.sc(s));
                }
                match (lp, rp, ls, rs) {
                    (Some(p), None, _, Some(y)) if is_int(y) => return self.sized_pointee(p, span).then(|| QualType::new(l.ty, AddrSpace::Private)),
                    (None, Some(p), Some(x), _) if is_int(x) && op == Add => return self.sized_pointee(p, span).then(|| QualType::new(r.ty, AddrSpace::Private)),
                    (Some(p), Some(q), _, _) if op == Sub => {
                        if !self.spaces_overlap(p.space, q.space) {
                            self.diags.push(err(
                                "E0325",
                                span,
                                format!("arithmetic operation with operands of type ('{}' and '{}') which are pointers to non-overlapping address spaces", self.rv_name(l.ty), self.rv_name(r.ty)),
                            ));
                            return None;
                        }
                        if !self.same_unqual(p.ty, q.ty) {
                            self.diags.push(err("E0320", span, format!("'{}' and '{}' are not pointers to compatible types", self.rv_name(l.ty), self.rv_name(r.ty))));
                            return None;
                        }
                        if !self.sized_pointee(p, span) {
                            return None;
                        }
                        return Some(self.sc(Scalar::PtrDiff));
                    }
                    _ => {}
                }
            }
            Shl | Shr => {
                if let (Some(x), Some(y)) = (ls, rs) {
                    if is_int(x) && is_int(y) {
                        return Some(self.sc(promote(x)));
                    }
                }
            }
            Lt | Gt | Le | Ge | Eq | Ne => {
                if let (Some(x), Some(y)) = (ls, rs) {
                    let s = self.usual(x, y);
                    self.operand_conversions((x, a), (y, b), s, true, false);
                    return Some(self.int_ty());
                }
                match (lp, rp) {
                    (Some(_), Some(_)) if self.is_null(a) || self.is_null(b) => return Some(self.int_ty()),
                    (Some(p), Some(q)) => {
                        if !self.spaces_overlap(p.space, q.space) {
                            self.diags.push(err(
                                "E0325",
                                span,
                                format!("comparison between ('{}' and '{}') which are pointers to non-overlapping address spaces", self.rv_name(l.ty), self.rv_name(r.ty)),
                            ));
                            return None;
                        }
                        return Some(self.int_ty());
                    }
                    (Some(_), None) if self.is_null(b) => return Some(self.int_ty()),
                    (None, Some(_)) if self.is_null(a) => return Some(self.int_ty()),
                    (Some(_), None) | (None, Some(_)) if ls.is_some_and(is_int) || rs.is_some_and(is_int) => {
                        // A warning in C, as in clang.
                        self.diags.push(Diagnostic::warning(
                            "pointer-integer-compare",
                            span,
                            format!("comparison between pointer and integer ('{}' and '{}')", self.rv_name(l.ty), self.rv_name(r.ty)),
                        ));
                        return Some(self.int_ty());
                    }
                    _ => {
                        // Queues and device-side events compare (§6.13.17);
                        // events, samplers, reservations do not (clang).
                        if matches!(op, Eq | Ne) && l.ty == r.ty && matches!(self.types.kind(l.ty), TypeKind::Opaque(Opaque::Queue | Opaque::ClkEvent)) {
                            return Some(self.int_ty());
                        }
                    }
                }
            }
            And | Or => {
                if self.is_scalar_type(l.ty) && self.is_scalar_type(r.ty) {
                    return Some(self.int_ty());
                }
            }
            Comma => return Some(r),
        }
        self.invalid_operands(l, r, span);
        None
    }

    fn invalid_operands(&mut self, l: QualType, r: QualType, span: Span) {
        self.diags.push(err("E0320", span, format!("invalid operands to binary expression ('{}' and '{}')", self.rv_name(l.ty), self.rv_name(r.ty))));
    }

    /// Do pointers into these spaces point into a common space?
    fn spaces_overlap(&self, a: AddrSpace, b: AddrSpace) -> bool {
        a == b || a.converts_implicitly_to(b) || b.converts_implicitly_to(a)
    }

    /// Are two types the same, after `size_t`/`ptrdiff_t` are resolved
    /// to what they name?
    fn same_unqual(&self, a: TypeId, b: TypeId) -> bool {
        if a == b {
            return true;
        }
        let p = self.types.pointer_size;
        match (self.types.kind(a), self.types.kind(b)) {
            (TypeKind::Scalar(x), TypeKind::Scalar(y)) => canon(*x, p) == canon(*y, p),
            (TypeKind::Vector(x, n), TypeKind::Vector(y, m)) => n == m && canon(*x, p) == canon(*y, p),
            (TypeKind::Enum(_), TypeKind::Scalar(Scalar::Int | Scalar::UInt)) | (TypeKind::Scalar(Scalar::Int | Scalar::UInt), TypeKind::Enum(_)) => true,
            (TypeKind::Pointer(x), TypeKind::Pointer(y)) => x.space == y.space && x.quals == y.quals && self.same_unqual(x.ty, y.ty),
            (TypeKind::Array(x, n), TypeKind::Array(y, m)) => (n == m || n.is_none() || m.is_none()) && self.same_unqual(x.ty, y.ty),
            // Compatible block types: the same return and parameter types.
            (TypeKind::Block { ret: r, params: ps }, TypeKind::Block { ret: s, params: qs }) => {
                self.same_unqual(r.ty, s.ty) && ps.len() == qs.len() && ps.iter().zip(qs).all(|(x, y)| self.same_unqual(x.ty, y.ty))
            }
            _ => false,
        }
    }

    /// Usual arithmetic conversions (C99 6.3.1.8).
    fn usual(&self, a: Scalar, b: Scalar) -> Scalar {
        usual_arith(a, b, self.types.pointer_size)
    }

    /// A binary operator with a vector operand (OpenCL C §6.3): the other
    /// operand is the same vector type or a scalar that widens to it.
    fn vector_binary(&mut self, op: BinOp, l: QualType, r: QualType, span: Span) -> Option<QualType> {
        use BinOp::*;
        let vt = self.vector_operands(l, r, span)?;
        let (s, n) = self.vector_of(vt.ty).expect("a vector");
        match op {
            Rem | BitAnd | BitOr | BitXor | Shl | Shr if !is_int(s) => {
                self.invalid_operands(l, r, span);
                None
            }
            Lt | Gt | Le | Ge | Eq | Ne | And | Or => {
                let size = self.types.scalar_size(s);
                Some(self.vec_or_scalar(signed_of_size(size), n))
            }
            _ => Some(vt),
        }
    }

    /// `v << n`, `v >> w`: the left operand decides the type; the right is
    /// any integer scalar (no rank rule) or an integer vector of the same
    /// width, whatever its element type.
    fn vector_shift(&mut self, l: QualType, r: QualType, span: Span) -> Option<QualType> {
        let Some((ls, ln)) = self.vector_of(l.ty) else {
            self.diags.push(err(
                "E0320",
                span,
                format!("requested shift is a vector of type '{}' but the first operand is not a vector ('{}')", self.rv_name(r.ty), self.rv_name(l.ty)),
            ));
            return None;
        };
        let (rs, rn) = match (self.vector_of(r.ty), self.arith(r.ty)) {
            (Some(v), _) => v,
            (None, Some(s)) => (s, ln),
            (None, None) => {
                self.invalid_operands(l, r, span);
                return None;
            }
        };
        if !is_int(ls) || !is_int(rs) {
            self.invalid_operands(l, r, span);
            return None;
        }
        if rn != ln {
            self.diags.push(err("E0326", span, format!("vector operands do not have the same number of elements ('{}' and '{}')", self.rv_name(l.ty), self.rv_name(r.ty))));
            return None;
        }
        Some(QualType::new(l.ty, AddrSpace::Private))
    }

    /// The common vector type of two operands, one of which is a vector.
    fn vector_operands(&mut self, l: QualType, r: QualType, span: Span) -> Option<QualType> {
        match (self.vector_of(l.ty), self.vector_of(r.ty)) {
            (Some(_), Some(_)) => {
                if self.same_unqual(l.ty, r.ty) {
                    Some(QualType::new(l.ty, AddrSpace::Private))
                } else {
                    self.diags.push(err(
                        "E0326",
                        span,
                        format!("implicit conversions between vector types ('{}' and '{}') are not permitted", self.rv_name(l.ty), self.rv_name(r.ty)),
                    ));
                    None
                }
            }
            (Some((es, _)), None) => self.widen(l, es, r, span),
            (None, Some((es, _))) => self.widen(r, es, l, span),
            (None, None) => None,
        }
    }

    /// Widens scalar `s` to vector `v` with elements `es`: the scalar
    /// converts to the element type, which must not lose range (clang's
    /// rule: the scalar's rank may not exceed the element's).
    fn widen(&mut self, v: QualType, es: Scalar, s: QualType, span: Span) -> Option<QualType> {
        let Some(ss) = self.arith(s.ty) else {
            self.invalid_operands(v, s, span);
            return None;
        };
        let p = self.types.pointer_size;
        let (ce, cs) = (canon(es, p), canon(ss, p));
        let ok = if is_int(ce) && is_int(cs) {
            rank(cs, p) < rank(ce, p) || (rank(cs, p) == rank(ce, p) && (is_signed(cs) || !is_signed(ce))) || cs == Scalar::Bool
        } else if !is_int(ce) && !is_int(cs) {
            rank(cs, p) <= rank(ce, p)
        } else {
            // An integer widens to a floating vector; a floating scalar
            // never widens to an integer vector.
            is_int(cs)
        };
        if !ok {
            self.diags.push(err(
                "E0326",
                span,
                format!("scalar operand type has greater rank than the type of the vector element ('{}' and '{}')", self.rv_name(v.ty), self.rv_name(s.ty)),
            ));
            return None;
        }
        Some(QualType::new(v.ty, AddrSpace::Private))
    }

    // ------------------------------------------------------- assignment

    fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, span: Span, op_at: Span) -> Option<Val> {
        let lhs = self.type_expr(l);
        let rhs = self.value(r);
        let lhs = lhs?;
        if matches!(self.types.kind(lhs.ty.ty), TypeKind::Atomic(_)) {
            self.atomic_error(span);
            return None;
        }
        // Block variables are constants (OpenCL C 2.0 §6.12.5).
        if self.is_block(lhs.ty.ty) {
            if let Some(r) = rhs {
                self.invalid_operands(lhs.ty, r, span);
            }
            return None;
        }
        // An image, pipe or sampler names an object the implementation
        // owns: it is passed, never assigned (clang).
        if self.is_handle(lhs.ty.ty) {
            let shown = self.handle_name(lhs.ty.ty);
            self.diags.push(err("E0321", span, format!("invalid operands to binary expression ('{shown}' and '{shown}')")));
            return None;
        }
        if !self.modifiable(lhs, l, span) {
            return None;
        }
        let target = QualType::new(lhs.ty.ty, AddrSpace::Private);
        let rhs = rhs?;
        match op {
            None => {
                self.convert(rhs, r, lhs.ty, Conv::Assign, r.span);
            }
            Some(op) => {
                // `p += 1` keeps the pointer; `v *= s` keeps the vector;
                // `i += 1.5f` converts back to `int`; `i += p` does not.
                let res = self.binary_types(op, target, rhs, l, r, span, true)?;
                self.division_by_zero(op, target, rhs, r, span);
                // (What converts is the operation's result, not `r`'s
                // value: no warning about `r` as a constant.)
                let ok = self.convert_inner(res, r, lhs.ty, Conv::Assign, span, Some(op_at));
                if ok && self.facts.enabled {
                    self.facts.conv.insert(addr(r), lhs.ty);
                }
            }
        }
        rv(target)
    }

    /// Checks the implicit conversion of value `from` (of expression `e`)
    /// to `to` (C99 6.5.16.1, OpenCL C §6.2.1, §6.5.5). Returns whether it
    /// is allowed; reports when it is not.
    pub(super) fn convert(&mut self, from: QualType, e: &Expr, to: QualType, how: Conv, span: Span) -> bool {
        let ok = self.convert_inner(from, e, to, how, span, None);
        if ok && self.facts.enabled {
            self.facts.conv.insert(addr(e), to);
        }
        ok
    }

    /// `result_at`: a compound assignment's operator, whose result is what
    /// converts (not `e`'s value, [`Self::value_change`]), where clang
    /// reports its conversion.
    fn convert_inner(&mut self, from: QualType, e: &Expr, to: QualType, how: Conv, span: Span, result_at: Option<Span>) -> bool {
        let constant = result_at.is_none();
        let (f, t) = (from.ty, to.ty);
        if f == t {
            return true;
        }
        let tk = self.types.kind(t).clone();
        let fk = self.types.kind(f).clone();
        let incompatible = |this: &mut Self, code: &'static str| {
            let (to_s, from_s) = (this.ty_name(QualType { space: AddrSpace::Private, ..to }), this.rv_name(f));
            let to_s = to_s.trim_start_matches("const ").to_string();
            let msg = match how {
                Conv::Assign => format!("assigning to '{to_s}' from incompatible type '{from_s}'"),
                Conv::Init => format!("initializing '{to_s}' with an expression of incompatible type '{from_s}'"),
                Conv::Arg => format!("passing '{from_s}' to parameter of incompatible type '{to_s}'"),
                Conv::Return => format!("returning '{from_s}' from a function with incompatible result type '{to_s}'"),
            };
            this.diags.push(err(code, span, msg));
            false
        };
        match (&tk, &fk) {
            (TypeKind::Scalar(ts), _) if self.arith(f).is_some() => {
                if constant {
                    self.value_change(f, e, *ts);
                    // clang checks a compound assignment's integer result
                    // for none of these.
                    self.int_change(f, e, *ts);
                    self.int_float_change(f, e, *ts, t);
                }
                self.precision_change(f, e, *ts, result_at);
                true
            }
            (TypeKind::Enum(_), _) if self.arith(f).is_some() => true,
            (TypeKind::Scalar(Scalar::Bool), TypeKind::Pointer(_)) => true,
            (TypeKind::Opaque(_), _) if self.arith(t).is_some() && self.arith(f).is_some() => true,
            (TypeKind::Opaque(Opaque::Sampler), _) if self.arith(f).is_some_and(is_int) => true,
            (TypeKind::Opaque(Opaque::Event | Opaque::ClkEvent | Opaque::Queue), _) if self.is_null(e) => true,
            (TypeKind::Vector(..), TypeKind::Vector(..)) => self.same_unqual(t, f) || incompatible(self, "E0326"),
            (TypeKind::Vector(ts, _), _) if self.arith(f).is_some() => {
                if constant {
                    self.value_change(f, e, *ts);
                    self.int_float_change(f, e, *ts, t);
                }
                true
            }
            (TypeKind::Pointer(_), _) if self.is_null(e) => true,
            (TypeKind::Pointer(tp), TypeKind::Pointer(fp)) => self.pointer_conv(*tp, *fp, to, from, how, span),
            (TypeKind::Pointer(_), _) if self.arith(f).is_some_and(is_int) => {
                let msg = conversion_message(how, "incompatible integer to pointer conversion", &self.rv_name(t), &self.rv_name(f));
                self.diags.push(err("E0322", span, msg));
                false
            }
            (TypeKind::Scalar(_), TypeKind::Pointer(_)) if self.arith(t).is_some_and(is_int) => {
                let msg = conversion_message(how, "incompatible pointer to integer conversion", &self.rv_name(t), &self.rv_name(f));
                self.diags.push(err("E0322", span, msg));
                false
            }
            (TypeKind::Block { .. }, TypeKind::Block { .. }) => {
                if self.same_unqual(t, f) {
                    return true;
                }
                let to_s = self.ty_name(QualType { space: AddrSpace::Private, ..to });
                let msg = conversion_message(how, "incompatible block pointer types", &to_s, &self.rv_name(f));
                self.diags.push(err("E0322", span, msg));
                false
            }
            // Images and pipes convert only to themselves: same kind and
            // access (same element type), as in clang.
            (TypeKind::Image(..), TypeKind::Image(..)) => incompatible(self, "E0322"),
            (TypeKind::Pipe(te, ta), TypeKind::Pipe(fe, fa)) => {
                // (Named with their access, which the type's display
                // leaves out.)
                let _ = (te, ta, fe, fa);
                let (to_s, from_s) = (self.handle_name(t), self.handle_name(f));
                let msg = match how {
                    Conv::Assign => format!("assigning to '{to_s}' from incompatible type '{from_s}'"),
                    Conv::Init => format!("initializing '{to_s}' with an expression of incompatible type '{from_s}'"),
                    Conv::Arg => format!("passing '{from_s}' to parameter of incompatible type '{to_s}'"),
                    Conv::Return => format!("returning '{from_s}' from a function with incompatible result type '{to_s}'"),
                };
                self.diags.push(err("E0322", span, msg));
                false
            }
            _ if self.same_unqual(t, f) => true,
            _ => incompatible(self, "E0322"),
        }
    }

    /// clang's warnings for a constant whose implicit conversion of type
    /// `f` to the scalar `to` changes its value: a floating literal to an
    /// integer (`int x = 1.5f`, -Wliteral-conversion), an integer constant
    /// to a narrower integer it does not fit (`char c = 255`, `uchar u =
    /// 256`, -Wconstant-conversion; `uchar u = -1` is fine), an
    /// integer constant to a floating type that cannot hold it exactly
    /// (-Wimplicit-const-int-float-conversion).
    pub(super) fn value_change(&mut self, f: TypeId, e: &Expr, to: Scalar) {
        let Some(from) = self.arith(f) else { return };
        if from == to || to == Scalar::Bool || from == Scalar::Bool {
            return;
        }
        let p = self.types.pointer_size;
        let (from_s, to_s) = (self.rv_name(f), to.name());
        match (is_int(from), int_ty(to, p)) {
            (false, Some(target)) => {
                let Some((v, shown)) = float_literal(e) else { return };
                let t = v.trunc();
                let (lo, hi) = if target.signed { (-(2f64.powi(target.bits as i32 - 1)), 2f64.powi(target.bits as i32 - 1)) } else { (0.0, 2f64.powi(target.bits as i32)) };
                if !(t > lo - 1.0 && t < hi) {
                    self.diags.push(Diagnostic::warning("literal-conversion", e.loc(), format!("implicit conversion of out of range value from '{from_s}' to '{to_s}' is undefined")).with_range(e.span));
                } else if t != v {
                    self.diags.push(Diagnostic::warning("literal-conversion", e.loc(), format!("implicit conversion from '{from_s}' to '{to_s}' changes value from {shown} to {t}")).with_range(e.span));
                }
            }
            (true, Some(target)) => {
                let Some(source) = int_ty(from, p) else { return };
                if target.bits >= source.bits {
                    return;
                }
                let Some(v) = self.small_constant(e) else { return };
                // A negative value for an unsigned type is only a sign
                // change (clang's -Wsign-conversion, off by default).
                let top = if target.signed { 1i128 << (target.bits - 1) } else { 1i128 << target.bits };
                let fits = v >= -(1i128 << (target.bits - 1)) && v < top;
                if !fits {
                    let w = target.wrap(v);
                    self.diags.push(Diagnostic::warning("constant-conversion", e.loc(), format!("implicit conversion from '{from_s}' to '{to_s}' changes value from {v} to {w}")).with_range(e.span));
                }
            }
            (true, None) if matches!(to, Scalar::Float | Scalar::Double) => {
                let Some(v) = self.small_constant(e) else { return };
                let r = if to == Scalar::Float { v as f32 as f64 } else { v as f64 };
                if r as i128 != v {
                    self.diags.push(Diagnostic::warning(
                        "implicit-const-int-float-conversion",
                        e.loc(),
                        format!("implicit conversion from '{from_s}' to '{to_s}' changes value from {v} to {r}"),
                    )
                    .with_range(e.span));
                }
            }
            _ => {}
        }
    }

    /// clang's warnings for an implicit conversion of a floating value
    /// that changes its precision: to a wider floating type
    /// (-Wdouble-promotion), to an integer (-Wfloat-conversion; a literal
    /// is -Wliteral-conversion's), to a narrower floating type
    /// (-Wimplicit-float-conversion; not a literal the narrower type
    /// holds exactly).
    pub(super) fn precision_change(&mut self, f: TypeId, e: &Expr, to: Scalar, result_at: Option<Span>) {
        let Some(from) = self.arith(f) else { return };
        if is_int(from) || to == Scalar::Bool || from == to {
            return;
        }
        let p = self.types.pointer_size;
        let bits = |s: Scalar| vector_element_bits(canon(s, p));
        // Every implicit conversion of a floating value comes here: which
        // warning first, and nothing more unless it is wanted.
        let (code, what) = if is_int(to) {
            ("float-conversion", "turns floating-point number into integer")
        } else if bits(to) > bits(from) {
            ("double-promotion", "increases floating-point precision")
        } else {
            ("implicit-float-conversion", "loses floating-point precision")
        };
        if !self.diags.policy.enabled(code) {
            return;
        }
        let literal = float_literal(e).map(|(v, _)| v);
        let silent = match code {
            // -Wliteral-conversion's.
            "float-conversion" => literal.is_some(),
            "double-promotion" => false,
            // A literal the narrower type holds exactly.
            _ => literal.is_some_and(|v| match to {
                Scalar::Float => v as f32 as f64 == v,
                Scalar::Half => {
                    // 11 significant bits, exponents from -14 (subnormals below).
                    let m = v.abs();
                    m == 0.0 || m <= 65504.0 && (m / 2f64.powi(m.log2().floor().max(-14.0) as i32 - 10)).fract() == 0.0
                }
                _ => true,
            }),
        };
        if silent {
            return;
        }
        let msg = format!("implicit conversion {what}: '{}' to '{}'", self.rv_name(f), to.name());
        let d = match result_at {
            Some(at) => Diagnostic::warning(code, at, msg),
            None => Diagnostic::warning(code, self.conversion_at(e), msg).with_range(e.span),
        };
        self.diags.push(d);
    }

    /// Where clang reports an implicit conversion of `e` (its
    /// `getExprLoc`): an operation's operator, but inside parentheses, at a
    /// subscript's base, at a call's start, at a member's name (a vector
    /// component's start).
    pub(super) fn conversion_at(&mut self, e: &Expr) -> Span {
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Index(x, _) => self.conversion_at(x),
            ExprKind::Call(..) => e.span.start(),
            ExprKind::Member { base, name, .. } => {
                if self.expr_type(base).is_some_and(|t| matches!(self.types.kind(t), TypeKind::Vector(..))) {
                    e.span.start()
                } else {
                    name.span
                }
            }
            _ => e.loc(),
        }
    }

    /// The operands of a binary operator that the usual arithmetic
    /// conversions convert to `common`: -Wdouble-promotion where they
    /// widen a floating value, [`Self::int_change`] where they convert an
    /// integer (unless `no_int`: a comparison, -Wsign-compare's, or a
    /// compound assignment, whose operands clang does not check), and
    /// [`Self::int_float_change`] where an integer becomes floating (not
    /// the left operand of a compound assignment, `compound`).
    fn operand_conversions(&mut self, l: (Scalar, &Expr), r: (Scalar, &Expr), common: Scalar, no_int: bool, compound: bool) {
        let p = self.types.pointer_size;
        if is_int(common) {
            // An operand the usual arithmetic conversions make unsigned
            // (-Wsign-conversion).
            if !no_int {
                for (x, a) in [l, r] {
                    if x != common && is_int(x) {
                        let t = self.types.scalar(x);
                        self.int_change(t, a, common);
                    }
                }
            }
            return;
        }
        // An integer operand of floating-point arithmetic (of comparisons
        // too; of a compound assignment only the right, as clang).
        for (k, (x, a)) in [l, r].into_iter().enumerate() {
            if is_int(x) && !(compound && k == 0) {
                let t = self.types.scalar(x);
                let to = self.types.scalar(common);
                self.int_float_change(t, a, common, to);
            }
        }
        if !self.diags.policy.enabled("double-promotion") {
            return;
        }
        for (x, a) in [l, r] {
            if is_int(x) || vector_element_bits(canon(common, p)) <= vector_element_bits(canon(x, p)) {
                continue;
            }
            let msg = format!("implicit conversion increases floating-point precision: '{}' to '{}'", x.name(), common.name());
            let at = self.conversion_at(a);
            self.diags.push(Diagnostic::warning("double-promotion", at, msg).with_range(a.span));
        }
    }

    /// The value of `e` if it is a small integer constant expression
    /// (conversions are checked at every level of an expression: a
    /// budget keeps evaluating their operands linear).
    pub(super) fn small_constant(&mut self, e: &Expr) -> Option<i128> {
        let mut budget = 64;
        if !small(e, &mut budget) {
            return None;
        }
        consteval::eval(e, self).ok().map(|v| v.value)
    }

    /// Pointer to pointer conversion: the address space must convert
    /// implicitly (§6.5.5), the pointee types must agree (or one be
    /// `void`), and qualifiers may be added but not dropped.
    fn pointer_conv(&mut self, tp: QualType, fp: QualType, to: QualType, from: QualType, how: Conv, span: Span) -> bool {
        let (ts, fs) = (self.rv_name(to.ty), self.rv_name(from.ty));
        if !fp.space.converts_implicitly_to(tp.space) {
            let msg = match how {
                Conv::Assign => format!("assigning '{fs}' to '{ts}' changes address space of pointer"),
                Conv::Init => format!("initializing '{ts}' with an expression of type '{fs}' changes address space of pointer"),
                Conv::Arg => format!("passing '{fs}' to parameter of type '{ts}' changes address space of pointer"),
                Conv::Return => format!("returning '{fs}' from a function with result type '{ts}' changes address space of pointer"),
            };
            let note = if tp.space == AddrSpace::Generic {
                "pointers to __constant do not convert to __generic".to_string()
            } else if fp.space == AddrSpace::Generic {
                format!("a __generic pointer converts to {} only by an explicit cast", tp.space.keyword())
            } else {
                format!("{} and {} are disjoint address spaces", fp.space.keyword(), tp.space.keyword())
            };
            self.diags.push(err("E0325", span, msg).with_note(note));
            return false;
        }
        let tv = matches!(self.types.kind(tp.ty), TypeKind::Void);
        let fv = matches!(self.types.kind(fp.ty), TypeKind::Void);
        if !tv && !fv && !self.same_unqual(tp.ty, fp.ty) {
            let msg = conversion_message(how, "incompatible pointer types", &ts, &fs);
            self.diags.push(err("E0322", span, msg));
            return false;
        }
        if (fp.quals.is_const && !tp.quals.is_const) || (fp.quals.is_volatile && !tp.quals.is_volatile) {
            let msg = match how {
                Conv::Assign => format!("assigning to '{ts}' from '{fs}' discards qualifiers"),
                Conv::Init => format!("initializing '{ts}' with an expression of type '{fs}' discards qualifiers"),
                Conv::Arg => format!("passing '{fs}' to parameter of type '{ts}' discards qualifiers"),
                _ => format!("returning '{fs}' from a function with result type '{ts}' discards qualifiers"),
            };
            self.diags.push(Diagnostic::warning("incompatible-pointer-types-discards-qualifiers", span, msg));
        }
        true
    }

    // ---------------------------------------------------- conditional

    /// `c ? a : b`, or GNU's `c ?: b` (`a` is `c`, evaluated once).
    fn cond(&mut self, c: &Expr, a: Option<&Expr>, b: &Expr, span: Span) -> Option<Val> {
        let ct = self.value(c);
        self.bitwise_or_condition(c);
        let at = match a {
            Some(a) => self.value(a),
            None => ct,
        };
        let a = a.unwrap_or(c);
        let bt = self.value(b);
        let (ct, at, bt) = (ct?, at?, bt?);
        if self.is_block(at.ty) || self.is_block(bt.ty) {
            for (t, e) in [(at, a), (bt, b)] {
                if self.is_block(t.ty) {
                    self.diags.push(err("E0333", e.span, "block type cannot be used as expression in ternary expression in OpenCL").with_note("OpenCL C 2.0 §6.12.5: a block is called or enqueued by its name or its literal only"));
                }
            }
            return None;
        }
        if let Some((cs, cn)) = self.vector_of(ct.ty) {
            // `select` semantics (§6.3.i): an integer vector condition, and
            // operands of the same width.
            if !is_int(cs) {
                self.diags.push(err("E0320", span, format!("used type '{}' where floating point type is not allowed", self.rv_name(ct.ty))).with_range(c.span));
                return None;
            }
            let rt = if self.vector_of(at.ty).is_some() || self.vector_of(bt.ty).is_some() {
                self.vector_operands(at, bt, span)?
            } else {
                let (Some(x), Some(y)) = (self.arith(at.ty), self.arith(bt.ty)) else {
                    self.invalid_operands(at, bt, span);
                    return None;
                };
                let s = self.usual(x, y);
                self.vec_or_scalar(s, cn)
            };
            let (rs, rn) = self.vector_of(rt.ty).expect("a vector");
            if rn != cn || self.types.scalar_size(rs) != self.types.scalar_size(cs) {
                self.diags.push(err(
                    "E0326",
                    span,
                    format!("vector condition type '{}' and result type '{}' do not have the same number of elements and element size", self.rv_name(ct.ty), self.rv_name(rt.ty)),
                ));
                return None;
            }
            return rv(rt);
        }
        if !self.is_scalar_type(ct.ty) {
            self.diags.push(err("E0320", span, format!("used type '{}' where arithmetic or pointer type is required", self.rv_name(ct.ty))).with_range(c.span));
            return None;
        }
        // §6.3.i: the condition "can be a scalar or vector result except
        // float" (clang reads this as any floating-point type).
        if matches!(self.types.kind(ct.ty), TypeKind::Scalar(Scalar::Float | Scalar::Double | Scalar::Half)) {
            self.diags.push(
                err("E0320", span, format!("used type '{}' where floating point type is not allowed", self.rv_name(ct.ty))).with_range(c.span)
                    .with_note("OpenCL C 2.0 §6.3.i: the condition of ?: may not be a floating-point value; compare it explicitly (x != 0.0f)"),
            );
            return None;
        }
        if self.vector_of(at.ty).is_some() || self.vector_of(bt.ty).is_some() {
            return rv(self.vector_operands(at, bt, span)?);
        }
        if let (Some(x), Some(y)) = (self.arith(at.ty), self.arith(bt.ty)) {
            let s = self.usual(x, y);
            return rv(self.sc(s));
        }
        match (self.pointee(at.ty), self.pointee(bt.ty)) {
            (Some(_), Some(_)) if self.is_null(b) => return rv(at),
            (Some(_), Some(_)) if self.is_null(a) => return rv(bt),
            (Some(p), Some(q)) => {
                if !self.spaces_overlap(p.space, q.space) {
                    self.diags.push(err(
                        "E0325",
                        span,
                        format!(
                            "conditional operator with the second and third operands of type ('{}' and '{}') which are pointers to non-overlapping address spaces",
                            self.rv_name(at.ty),
                            self.rv_name(bt.ty)
                        ),
                    ));
                    return None;
                }
                let space = if p.space == q.space { p.space } else { AddrSpace::Generic };
                let quals = Quals { is_const: p.quals.is_const || q.quals.is_const, is_volatile: p.quals.is_volatile || q.quals.is_volatile, is_restrict: false };
                let pty = if matches!(self.types.kind(p.ty), TypeKind::Void) || !self.same_unqual(p.ty, q.ty) && matches!(self.types.kind(q.ty), TypeKind::Void) {
                    self.types.void()
                } else {
                    p.ty
                };
                let t = self.types.pointer(QualType { ty: pty, quals, space });
                return rv(QualType::new(t, AddrSpace::Private));
            }
            (Some(_), None) if self.is_null(b) => return rv(at),
            (None, Some(_)) if self.is_null(a) => return rv(bt),
            _ => {}
        }
        if self.same_unqual(at.ty, bt.ty) {
            return rv(at);
        }
        self.diags.push(err("E0320", span, format!("incompatible operand types ('{}' and '{}')", self.rv_name(at.ty), self.rv_name(bt.ty))));
        None
    }

    // --------------------------------------------------------------- casts

    fn cast(&mut self, to: QualType, from: QualType, x: &Expr, span: Span) -> Option<Val> {
        let (t, f) = (to.ty, from.ty);
        let res = QualType::new(t, AddrSpace::Private);
        if t == f || matches!(self.types.kind(t), TypeKind::Void) {
            return rv(res);
        }
        let ta = self.arith(t);
        let fa = self.arith(f);
        let tk = self.types.kind(t).clone();
        let fk = self.types.kind(f).clone();
        match (&tk, &fk) {
            _ if ta.is_some() && fa.is_some() => rv(res),
            (TypeKind::Pointer(tp), TypeKind::Pointer(fp)) => {
                if !fp.space.casts_explicitly_to(tp.space) {
                    self.diags.push(
                        err("E0325", span, format!("casting '{}' to type '{}' changes address space of pointer", self.rv_name(f), self.rv_name(t)))
                            .with_note("only a __generic pointer may be cast to a named address space, and never to __constant"),
                    );
                    return None;
                }
                // clang's -Wcast-qual: the pointee loses `const` or
                // `volatile`.
                let dropped = match (fp.quals.is_const && !tp.quals.is_const, fp.quals.is_volatile && !tp.quals.is_volatile) {
                    (true, true) => Some("const and volatile qualifiers"),
                    (true, false) => Some("const qualifier"),
                    (false, true) => Some("volatile qualifier"),
                    (false, false) => None,
                };
                if let Some(what) = dropped {
                    let msg = format!("cast from '{}' to '{}' drops {what}", self.rv_name(f), self.rv_name(t));
                    self.diags.push(Diagnostic::warning("cast-qual", x.loc(), msg));
                }
                rv(res)
            }
            (TypeKind::Pointer(_), _) if fa.is_some_and(is_int) => rv(res),
            (TypeKind::Pointer(_), _) if fa.is_some() => {
                self.diags.push(err("E0327", x.loc(), format!("operand of type '{}' cannot be cast to a pointer type", self.rv_name(f))).with_range(span));
                None
            }
            (_, TypeKind::Pointer(fp)) if ta.is_some_and(is_int) => {
                // clang's -Wpointer-to-int-cast: the address does not fit
                // (`(int)p` with 64-bit pointers); not a truth value.
                let s = ta.map(|s| canon(s, self.types.pointer_size)).unwrap_or(Scalar::Int);
                if s != Scalar::Bool && u64::from(vector_element_bits(s)) < self.types.pointer_size * 8 {
                    let name = if matches!(self.types.kind(fp.ty), TypeKind::Void) { "void-pointer-to-int-cast" } else { "pointer-to-int-cast" };
                    let msg = format!("cast to smaller integer type '{}' from '{}'", self.rv_name(t), self.rv_name(f));
                    self.diags.push(Diagnostic::warning(name, span, msg));
                }
                rv(res)
            }
            (_, TypeKind::Pointer(_)) if ta.is_some() => {
                self.diags.push(err("E0327", x.loc(), format!("pointer cannot be cast to type '{}'", self.rv_name(t))).with_range(span));
                None
            }
            (TypeKind::Vector(..), TypeKind::Vector(..)) => {
                if self.same_unqual(t, f) {
                    return rv(res);
                }
                let name = self.rv_name(t);
                self.diags.push(
                    err("E0326", span, format!("invalid conversion between vector types '{}' and '{}'", self.rv_name(f), name))
                        .with_note(format!("use convert_{name}() to convert the values or as_{name}() to reinterpret the bits")),
                );
                None
            }
            (TypeKind::Vector(..), _) if fa.is_some() => rv(res),
            (_, TypeKind::Vector(..)) if ta.is_some() => {
                self.diags.push(err("E0326", span, format!("invalid conversion between vector type '{}' and scalar type '{}'", self.rv_name(f), self.rv_name(t))));
                None
            }
            // A block is made by a block literal only; a cast may name a
            // compatible block type (OpenCL C 2.0 §6.12.5).
            (TypeKind::Block { .. }, TypeKind::Block { .. }) => {
                if self.same_unqual(t, f) {
                    return rv(res);
                }
                self.diags.push(err("E0327", span, format!("invalid cast between incompatible block types '{}' and '{}'", self.rv_name(f), self.rv_name(t))));
                None
            }
            (TypeKind::Block { .. }, _) => {
                self.diags.push(err("E0327", span, format!("cannot cast '{}' to block type '{}'", self.rv_name(f), self.rv_name(t))).with_note("a block is made by a block literal"));
                None
            }
            // `(event_t)0`, a null event (as clang).
            (TypeKind::Opaque(Opaque::Event), _) if fa.is_some_and(is_int) => match consteval::eval(x, self) {
                Ok(v) if v.value == 0 => rv(res),
                Ok(v) => {
                    self.diags.push(err("E0327", span, format!("cannot cast non-zero value '{}' to 'event_t'", v.value)));
                    None
                }
                Err(_) => {
                    self.diags.push(err("E0327", span, "only the integer constant 0 can be cast to 'event_t'"));
                    None
                }
            },
            (TypeKind::Atomic(_), _) => rv(res),
            (TypeKind::Opaque(_) | TypeKind::Image(..) | TypeKind::Pipe(..), _) => {
                self.diags.push(err("E0327", span, format!("used type '{}' where arithmetic or pointer type is required", self.rv_name(t))));
                None
            }
            (_, TypeKind::Opaque(_) | TypeKind::Image(..) | TypeKind::Pipe(..) | TypeKind::Block { .. }) => {
                self.diags.push(err("E0327", x.loc(), format!("operand of type '{}' where arithmetic or pointer type is required", self.rv_name(f))).with_range(span));
                None
            }
            _ if self.same_unqual(t, f) => rv(res),
            (TypeKind::Record(_) | TypeKind::Array(..), _) => {
                let _ = x;
                self.diags.push(err("E0327", span, format!("used type '{}' where arithmetic or pointer type is required", self.rv_name(t))));
                None
            }
            _ => {
                self.diags.push(err("E0327", x.loc(), format!("operand of type '{}' where arithmetic or pointer type is required", self.rv_name(f))).with_range(span));
                None
            }
        }
    }

    // ------------------------------------------------------ vector literals

    fn vector_literal(&mut self, t: &TypeName, xs: &[Expr], span: Span) -> Option<Val> {
        let to = self.type_name(t);
        let vec = to.and_then(|q| self.vector_of(q.ty));
        let Some((es, n)) = vec else {
            // `(T)(a, b)` for a non-vector `T`: a cast of a comma
            // expression.
            let mut last = None;
            for x in xs {
                last = self.value(x);
            }
            let (to, from) = (to?, last?);
            return self.cast(to, from, xs.last()?, span);
        };
        let to = to?;
        if xs.len() == 1 {
            let from = self.value(&xs[0])?;
            return self.cast(to, from, &xs[0], span);
        }
        let p = self.types.pointer_size;
        let mut count = 0usize;
        let mut bad = false;
        for x in xs {
            let Some(v) = self.value(x) else {
                bad = true;
                continue;
            };
            if self.arith(v.ty).is_some() {
                self.value_change(v.ty, x, es);
                self.int_change(v.ty, x, es);
                let to = self.types.scalar(es);
                self.int_float_change(v.ty, x, es, to);
                count += 1;
            } else if let Some((s, m)) = self.vector_of(v.ty) {
                if canon(s, p) != canon(es, p) {
                    self.incompatible_component(es, x, v.ty);
                    bad = true;
                }
                count += m as usize;
            } else {
                self.incompatible_component(es, x, v.ty);
                bad = true;
            }
            if count > n as usize && !bad {
                self.diags.push(err("E0326", x.span, "excess elements in vector initializer").with_note(format!("'{}' has {n} components", self.rv_name(to.ty))));
                return None;
            }
        }
        if bad {
            return None;
        }
        if count < n as usize {
            self.diags.push(err("E0326", span, format!("too few elements in vector initialization (expected {n} elements, have {count})")));
            return None;
        }
        rv(QualType::new(to.ty, AddrSpace::Private))
    }

    // ----------------------------------------------------- index, members

    fn index(&mut self, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        let taken = self.address_of.take() == Some(span);
        let base = self.type_expr(a);
        let idx = self.value(b);
        let base = base?;
        if self.unevaluated == 0 {
            if let TypeKind::Array(_, Some(n)) = *self.types.kind(base.ty.ty)
                && idx.is_some_and(|i| self.arith(i.ty).is_some_and(is_int))
            {
                self.array_bounds(a, b, base, n, taken);
            } else if self.arith(base.ty.ty).is_some_and(is_int)
                && let ExprKind::Ident(_) = strip(b).kind
            {
                // `4[a]`: the array is the second operand.
                let mut scratch = Diagnostics::default();
                std::mem::swap(self.diags, &mut scratch);
                let array = self.type_expr(b);
                std::mem::swap(self.diags, &mut scratch);
                if let Some(v) = array
                    && let TypeKind::Array(_, Some(n)) = *self.types.kind(v.ty.ty)
                {
                    self.array_bounds(b, a, v, n, taken);
                }
            }
        }
        if let Some((s, _)) = self.vector_of(base.ty.ty) {
            let idx = idx?;
            if !self.arith(idx.ty).is_some_and(is_int) {
                self.diags.push(err("E0320", span, "array subscript is not an integer").with_range(b.span));
                return None;
            }
            let el = QualType { ty: self.types.scalar(s), ..base.ty };
            return Some(Val { ty: el, lvalue: base.lvalue, dup: false, component: true });
        }
        let bt = self.decay(base, a.span)?;
        let it = idx?;
        let (ptr, int) = if self.is_pointer(bt.ty) {
            (bt, it)
        } else if self.is_pointer(it.ty) {
            (it, bt)
        } else {
            self.diags.push(err("E0320", span, format!("subscripted value is not an array, pointer, or vector ('{}' invalid)", self.rv_name(bt.ty))));
            return None;
        };
        if !self.arith(int.ty).is_some_and(is_int) {
            self.diags.push(err("E0320", span, "array subscript is not an integer").with_range(b.span));
            return None;
        }
        let p = self.pointee(ptr.ty).expect("a pointer");
        if matches!(self.types.kind(p.ty), TypeKind::Void | TypeKind::Function { .. }) || self.incomplete_record(p.ty) {
            let d = err("E0320", span, format!("subscript of pointer to incomplete type '{}'", self.types.display_qual(p)));
            self.diags.push(self.forward_note(d, p.ty));
            return None;
        }
        lv(p)
    }

    fn member(&mut self, base: &Expr, arrow: bool, name: &Ident) -> Option<Val> {
        let b = self.type_expr(base)?;
        let (obj, lvalue) = if arrow {
            let t = self.decay(b, base.span)?;
            match self.pointee(t.ty) {
                Some(p) => (p, true),
                None => {
                    self.diags.push(err("E0324", name.span, format!("member reference type '{}' is not a pointer", self.rv_name(t.ty))));
                    return None;
                }
            }
        } else {
            (b.ty, b.lvalue)
        };
        match self.types.kind(obj.ty).clone() {
            TypeKind::Record(i) => {
                let Some(f) = self.find_field(i, &name.name) else {
                    let rec = self.rv_name(obj.ty);
                    if self.types.records[i as usize].fields.is_none() {
                        let shown = if arrow { self.types.display_qual(obj) } else { rec };
                        let d = err("E0324", name.span, format!("incomplete definition of type '{shown}'"));
                        self.diags.push(self.forward_note(d, obj.ty));
                        return None;
                    }
                    if self.broken_records.contains(&i) {
                        return None;
                    }
                    let mut d = err("E0324", name.span, format!("no member named '{}' in '{rec}'", name.name));
                    if let Some(best) = self.suggest_field(i, &name.name) {
                        d = d.with_note(format!("did you mean '{best}'?")).with_fixit(name.span, best);
                    }
                    self.diags.push(d);
                    return None;
                };
                let quals = Quals { is_const: f.quals.is_const || obj.quals.is_const, is_volatile: f.quals.is_volatile || obj.quals.is_volatile, is_restrict: f.quals.is_restrict };
                let ty = self.respace(f.ty, obj.space);
                Some(Val { ty: QualType { ty, quals, space: obj.space }, lvalue, dup: false, component: false })
            }
            TypeKind::Vector(s, n) if !arrow => self.swizzle(obj, lvalue, s, n, name),
            TypeKind::Atomic(_) => {
                self.atomic_error(name.span);
                None
            }
            _ => {
                let shown = if arrow { self.rv_name(obj.ty) + " *" } else { self.rv_name(obj.ty) };
                self.diags.push(err("E0324", base.span, format!("member reference base type '{shown}' is not a structure or union")));
                None
            }
        }
    }

    /// `__builtin_offsetof(T, m.n[i])`: a `size_t`, a constant unless an
    /// index is not (a GNU extension clang has too).
    fn offsetof(&mut self, e: &Expr, t: &TypeName, path: &[Designator]) -> Option<Val> {
        let q = self.type_name(t)?;
        match *self.types.kind(q.ty) {
            TypeKind::Record(_) if self.incomplete_record(q.ty) => {
                let d = err("E0320", e.span, format!("offsetof of incomplete type '{}'", self.rv_name(q.ty))).with_range(t.span);
                self.diags.push(self.forward_note(d, q.ty));
                return None;
            }
            TypeKind::Record(_) => {}
            _ => {
                let d = err("E0320", e.span, format!("offsetof requires struct, union, or class type, '{}' invalid", self.rv_name(q.ty)));
                self.diags.push(d.with_range(t.span));
                return None;
            }
        }
        let mut cur = q.ty;
        let mut ok = true;
        for step in path {
            match step {
                Designator::Field(name) => {
                    let TypeKind::Record(r) = *self.types.kind(cur) else {
                        let what = self.rv_name(cur);
                        self.diags.push(err("E0320", name.span, format!("offsetof requires struct, union, or class type, '{what}' invalid")));
                        return None;
                    };
                    let Some((_, f)) = self.field_offset(r, &name.name) else {
                        if self.broken_records.contains(&r) {
                            return None;
                        }
                        // clang names the record without its tag here.
                        let rec = self.types.records[r as usize].name.clone().unwrap_or_else(|| self.rv_name(cur));
                        let mut d = err("E0324", e.span, format!("no member named '{}' in '{rec}'", name.name)).with_range(name.span);
                        if let Some(best) = self.suggest_field(r, &name.name) {
                            d = d.with_note(format!("did you mean '{best}'?")).with_fixit(name.span, best);
                        }
                        self.diags.push(d);
                        return None;
                    };
                    cur = f.ty;
                }
                // The grammar gives `__builtin_offsetof` no ranges.
                Designator::Range(..) => return None,
                Designator::Index(x, span) => {
                    let i = self.value(x);
                    let TypeKind::Array(elem, _) = *self.types.kind(cur) else {
                        // clang points at the closing bracket.
                        let at = Span { lo: span.hi - 1, ..*span };
                        self.diags.push(err("E0320", at, format!("offsetof requires array type, '{}' invalid", self.rv_name(cur))));
                        return None;
                    };
                    if i.is_some_and(|i| !self.arith(i.ty).is_some_and(is_int)) {
                        self.diags.push(err("E0320", x.span, "array subscript is not an integer"));
                        ok = false;
                    }
                    ok &= i.is_some();
                    cur = elem.ty;
                }
            }
        }
        if !ok {
            return None;
        }
        self.record_const(e);
        rv(self.sc(Scalar::Size))
    }

    /// The byte offset `__builtin_offsetof(T, path)` computes, for a path
    /// the checker accepted: its constant part, and for each index that is
    /// no constant, the index and the size of the element it counts.
    pub(super) fn offsetof_parts<'p>(&mut self, t: &TypeName, path: &'p [Designator]) -> Option<(u64, Vec<(&'p Expr, u64)>)> {
        let mut cur = self.type_name_quiet(t)?.ty;
        let mut offset = 0u64;
        let mut varying = Vec::new();
        for step in path {
            match step {
                Designator::Field(name) => {
                    let TypeKind::Record(r) = *self.types.kind(cur) else { return None };
                    let (at, f) = self.field_offset(r, &name.name)?;
                    offset = offset.wrapping_add(at);
                    cur = f.ty;
                }
                Designator::Range(..) => return None,
                Designator::Index(x, _) => {
                    let TypeKind::Array(elem, _) = *self.types.kind(cur) else { return None };
                    let size = self.types.size_align(elem.ty)?.0;
                    match consteval::eval(x, self) {
                        // Offsets are `size_t` arithmetic: a negative index wraps.
                        Ok(i) => offset = offset.wrapping_add((i.value as u64).wrapping_mul(size)),
                        Err(_) => varying.push((x, size)),
                    }
                    cur = elem.ty;
                }
            }
        }
        Some((offset, varying))
    }

    /// The member positions that lead from record `rec` to its member
    /// `name`, outermost first: more than one for a member of an
    /// anonymous member (C11 6.7.2.1p13).
    pub(crate) fn member_path(&self, rec: u32, name: &str) -> Option<Vec<u32>> {
        let mut path = Vec::new();
        self.member_walk(rec, name, &mut |_, k| path.push(k)).then(|| {
            path.reverse();
            path
        })
    }

    /// Finds member `name` of record `rec` (through anonymous members),
    /// calling `step(record, position)` for each record on the way,
    /// innermost first; no allocation (every member access comes here).
    fn member_walk(&self, rec: u32, name: &str, step: &mut dyn FnMut(u32, u32)) -> bool {
        for (k, f) in self.types.records[rec as usize].fields.iter().flatten().enumerate() {
            let found = f.name == name
                || (f.name.is_empty() && matches!(*self.types.kind(f.ty.ty), TypeKind::Record(j) if self.member_walk(j, name, step)));
            if found {
                step(rec, k as u32);
                return true;
            }
        }
        false
    }

    /// The member of record `r` at position `k`.
    fn member_at(&self, r: u32, k: u32) -> Option<&Field> {
        self.types.records[r as usize].fields.as_ref()?.get(k as usize)
    }

    /// A member's offset in its record and its type.
    fn field_offset(&self, rec: u32, name: &str) -> Option<(u64, QualType)> {
        let mut offset = Some(0u64);
        let mut found = None;
        let known = self.member_walk(rec, name, &mut |r, k| {
            found = found.or_else(|| self.member_at(r, k).map(|f| f.ty));
            offset = offset.zip(self.types.record_layout(r)).map(|(o, l)| o + l.offsets[k as usize]);
        });
        known.then_some(())?;
        Some((offset?, found?))
    }

    /// A member's type (looking into anonymous members).
    pub(super) fn find_field(&self, rec: u32, name: &str) -> Option<QualType> {
        let mut found = None;
        self.member_walk(rec, name, &mut |r, k| found = found.or_else(|| self.member_at(r, k).map(|f| f.ty)));
        found
    }

    fn suggest_field(&self, rec: u32, name: &str) -> Option<String> {
        let mut best = super::Closest::new(name);
        for f in self.types.records[rec as usize].fields.iter().flatten().filter(|f| !f.name.is_empty()) {
            best.consider(&f.name);
        }
        best.found()
    }

    /// A vector component access (OpenCL C §6.1.7).
    fn swizzle(&mut self, obj: QualType, lvalue: bool, s: Scalar, n: u8, name: &Ident) -> Option<Val> {
        let text = name.name.as_str();
        let shown = self.rv_name(obj.ty);
        let mut idx: Vec<u8> = Vec::with_capacity(16);
        let bad = |this: &mut Self, c: char| {
            this.diags.push(err("E0324", name.span, format!("illegal vector component name '{c}'")));
            None
        };
        let half = |n: u8| n.div_ceil(2);
        match text {
            "lo" => idx.extend(0..half(n)),
            "hi" => idx.extend(half(n)..half(n) * 2),
            "even" => idx.extend((0..half(n)).map(|i| i * 2)),
            "odd" => idx.extend((0..half(n)).map(|i| i * 2 + 1)),
            _ if (text.starts_with('s') || text.starts_with('S')) && text.len() > 1 => {
                for c in text[1..].chars() {
                    let Some(d) = c.to_digit(16) else { return bad(self, c) };
                    if d as u8 >= n {
                        self.diags.push(err("E0324", name.span, format!("vector component access exceeds type '{shown}'")));
                        return None;
                    }
                    idx.push(d as u8);
                }
            }
            _ => {
                let mut rgba = None;
                for c in text.chars() {
                    let (i, is_rgba) = match c {
                        'x' => (0, false),
                        'y' => (1, false),
                        'z' => (2, false),
                        'w' => (3, false),
                        'r' => (0, true),
                        'g' => (1, true),
                        'b' => (2, true),
                        'a' => (3, true),
                        _ => return bad(self, c),
                    };
                    if *rgba.get_or_insert(is_rgba) != is_rgba {
                        return bad(self, c);
                    }
                    // The spec allows `.xyzw` on vectors of up to four
                    // components; clang accepts them on any vector whose
                    // width the index is below, and so do we.
                    if i >= n {
                        self.diags.push(err("E0324", name.span, format!("vector component access exceeds type '{shown}'")));
                        return None;
                    }
                    idx.push(i);
                }
                if rgba == Some(true) && self.opts.std < crate::options::ClStd::Cl30 {
                    let c = text.chars().next().unwrap_or('r');
                    self.diags.push(Diagnostic::warning("opencl-unsupported-rgba", name.span, format!("vector component name '{c}' is a feature from OpenCL version 3.0 onwards")));
                }
            }
        }
        let k = idx.len() as u8;
        if !matches!(k, 1 | 2 | 3 | 4 | 8 | 16) {
            self.diags.push(err("E0324", name.span, format!("vector component access has invalid length {k}")).with_note("a swizzle selects 1, 2, 3, 4, 8 or 16 components"));
            return None;
        }
        let mut seen = 0u16;
        let mut dup = false;
        for &i in &idx {
            dup |= seen & (1 << i) != 0;
            seen |= 1 << i;
        }
        let ty = if k == 1 { self.types.scalar(s) } else { self.types.vector(s, k) };
        if self.facts.enabled {
            self.facts.lanes.insert(addr(name), idx);
        }
        Some(Val { ty: QualType { ty, ..obj }, lvalue, dup, component: true })
    }

    // -------------------------------------------------------------- calls

    /// A call `span`, its `(` at `paren`.
    fn call(&mut self, callee: &Expr, args: &[Expr], span: Span, paren: Span) -> Option<Val> {
        if let ExprKind::Ident(id) = &callee.kind {
            let sym = self.lookup(&id.name).map(|s| (s.kind.clone(), s.ty, s.span));
            match sym {
                None if clc_builtins::functions::is_builtin(&id.name) => return self.builtin_call(id, args, span),
                None => {
                    self.use_name(id, true);
                    for a in args {
                        let _ = self.type_expr(a);
                    }
                    return None;
                }
                Some((SymKind::Func { overloadable, .. }, ty, decl_span)) => {
                    self.use_name(id, true);
                    let overloaded = overloadable && self.scopes.iter().filter_map(|s| s.names.get(&id.name)).map(|v| v.len()).sum::<usize>() > 1;
                    if overloaded {
                        return self.overloaded_call(id, args, span);
                    }
                    // A lone `overloadable` function: `use_name` left its
                    // call-graph edge to the overload-aware path.
                    if overloadable {
                        if let Some(f) = &self.func {
                            self.calls.push((f.graph_key.clone(), super::graph_key(&id.name, Some(ty.ty)), id.span));
                        }
                    }
                    if self.facts.enabled {
                        self.facts.callee.insert(addr(id), ty.ty);
                    }
                    return self.call_prototype(&id.name, Some(decl_span), ty.ty, args, span, id.span);
                }
                Some(_) => {}
            }
        }
        let f = self.value(callee);
        let f = f?;
        match self.types.kind(f.ty).clone() {
            TypeKind::Block { .. } => self.call_prototype("block", None, f.ty, args, span, callee.span),
            TypeKind::Pointer(p) if matches!(self.types.kind(p.ty), TypeKind::Function { .. }) => self.call_prototype("function", None, p.ty, args, span, callee.span),
            _ => {
                for a in args {
                    let _ = self.value(a);
                }
                self.diags.push(err("E0323", paren, format!("called object type '{}' is not a function or function pointer", self.rv_name(f.ty))).with_range(callee.span));
                None
            }
        }
    }

    /// A call into a set of user `overloadable` functions: the best of the
    /// overloads the arguments convert to (exact, then promotion, then
    /// conversion, argument by argument). A call no overload accepts, or
    /// several accept equally well, is reported.
    fn overloaded_call(&mut self, id: &Ident, args: &[Expr], span: Span) -> Option<Val> {
        let mut set: Vec<(TypeId, Span)> = Vec::new();
        for s in self.scopes.iter().rev() {
            for sym in s.names.get(&id.name).into_iter().flatten() {
                if matches!(sym.kind, SymKind::Func { .. }) && !set.iter().any(|(t, _)| *t == sym.ty.ty) {
                    set.push((sym.ty.ty, sym.span));
                }
            }
        }
        let vals: Vec<Option<QualType>> = args.iter().map(|a| self.value(a)).collect();
        if vals.iter().any(Option::is_none) {
            return None;
        }
        let vals: Vec<QualType> = vals.into_iter().flatten().collect();
        let mut exact = Vec::new();
        let mut viable = Vec::new();
        let mut all_viable = Vec::new();
        let mut any_viable = false;
        for &(fty, decl) in &set {
            let TypeKind::Function { params, variadic, .. } = self.types.kind(fty).clone() else { continue };
            let params: Vec<QualType> = params.into_iter().filter(|p| !matches!(self.types.kind(p.ty), TypeKind::Void)).collect();
            if vals.len() < params.len() || (vals.len() > params.len() && !variadic) {
                continue;
            }
            if params.iter().zip(&vals).all(|(p, v)| self.same_unqual(p.ty, v.ty)) {
                exact.push((fty, decl));
                continue;
            }
            let mut scratch = Diagnostics::default();
            std::mem::swap(self.diags, &mut scratch);
            let mut kinds_agree = true;
            let converts = params.iter().zip(&vals).zip(args).all(|((p, v), a)| {
                kinds_agree &= self.vector_of(p.ty).is_some() == self.vector_of(v.ty).is_some();
                self.convert(*v, a, *p, Conv::Arg, a.span)
            });
            std::mem::swap(self.diags, &mut scratch);
            if converts && scratch.error_count() == 0 {
                any_viable = true;
                all_viable.push((fty, decl));
                if kinds_agree {
                    viable.push((fty, decl));
                }
            }
        }
        if exact.is_empty() && !any_viable {
            let mut d = err("E0323", span, format!("no matching function for call to '{}'", id.name)).with_label(format!("arguments are ({})", self.arg_list(&vals)));
            for &(fty, decl) in &set {
                d = d.with_note_at(decl, format!("candidate: {}", self.rv_name(fty).replacen(" (", &format!(" {}(", id.name), 1)));
            }
            self.diags.push(d);
            return None;
        }
        // Otherwise rank the candidates as clang does for `overloadable`:
        // per argument an exact match beats a promotion (small integers to
        // `int`, `float` to `double`), which beats any other conversion; a
        // candidate wins when no other is better for any argument.
        let pool = if !exact.is_empty() {
            exact
        } else if !viable.is_empty() {
            viable
        } else {
            all_viable
        };
        let ranks: Vec<Vec<u8>> = pool
            .iter()
            .map(|&(fty, _)| match self.types.kind(fty).clone() {
                TypeKind::Function { params, .. } => params.iter().zip(&vals).map(|(p, v)| self.conversion_rank(*v, *p)).collect(),
                _ => Vec::new(),
            })
            .collect();
        let beats = |a: &Vec<u8>, b: &Vec<u8>| a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y);
        let winner = (0..pool.len()).find(|&i| (0..pool.len()).all(|j| j == i || beats(&ranks[i], &ranks[j])));
        let Some(w) = winner else {
            let mut d = err("E0323", span, format!("call to '{}' is ambiguous", id.name)).with_label(format!("arguments are ({})", self.arg_list(&vals)));
            for &(fty, decl) in &pool {
                d = d.with_note_at(decl, format!("candidate: {}", self.rv_name(fty).replacen(" (", &format!(" {}(", id.name), 1)));
            }
            self.diags.push(d);
            return None;
        };
        let chosen = pool[w];
        if let Some(f) = &self.func {
            self.calls.push((f.graph_key.clone(), super::graph_key(&id.name, Some(chosen.0)), id.span));
        }
        if self.facts.enabled {
            self.facts.callee.insert(addr(id), chosen.0);
        }
        let TypeKind::Function { ret, .. } = self.types.kind(chosen.0).clone() else { return None };
        rv(QualType::new(ret.ty, AddrSpace::Private))
    }

    /// How well a value of type `from` matches a parameter of type `to`:
    /// 0 exactly, 1 by promotion, 2 by another implicit conversion.
    fn conversion_rank(&self, from: QualType, to: QualType) -> u8 {
        if self.same_unqual(from.ty, to.ty) {
            return 0;
        }
        let promotes = matches!(
            (self.types.kind(from.ty), self.types.kind(to.ty)),
            (TypeKind::Scalar(Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort), TypeKind::Scalar(Scalar::Int))
                | (TypeKind::Scalar(Scalar::Float), TypeKind::Scalar(Scalar::Double))
        );
        if promotes { 1 } else { 2 }
    }

    /// A call of a user function (or block) with a prototype.
    fn call_prototype(&mut self, name: &str, decl: Option<Span>, fty: TypeId, args: &[Expr], span: Span, callee: Span) -> Option<Val> {
        let (ret, params, variadic) = match self.types.kind(fty).clone() {
            TypeKind::Function { ret, params, variadic } => (ret, params, variadic),
            TypeKind::Block { ret, params } => (ret, params, false),
            _ => return None,
        };
        let params: Vec<QualType> = params.into_iter().filter(|p| !matches!(self.types.kind(p.ty), TypeKind::Void)).collect();
        let vals: Vec<Option<QualType>> = args.iter().map(|a| self.value(a)).collect();
        let underline = if name.starts_with("__builtin_") && args.len() > params.len() { None } else { Some(callee) };
        if let Some(mut d) = arg_count_error(args, params.len(), variadic, span, underline) {
            if let Some(s) = decl {
                d = d.with_note_at(s, format!("'{name}' declared here"));
            }
            self.diags.push(d);
        } else {
            for ((a, v), p) in args.iter().zip(&vals).zip(&params) {
                if let Some(v) = v {
                    self.convert(*v, a, *p, Conv::Arg, a.span);
                }
            }
        }
        rv(QualType::new(ret.ty, AddrSpace::Private))
    }

    fn builtin_ctx(&self, at: Span) -> BCtx {
        let mut ctx = BCtx::new(self.opts.std.builtin_version());
        for e in ExtSet::all().iter() {
            let on = match e {
                Extension::Fp16 => self.opts.fp16_at(at),
                Extension::Fp64 => self.opts.fp64_at(at),
                _ => true,
            };
            if on {
                ctx = ctx.with(e);
            }
        }
        ctx
    }

    /// A call of a builtin function: overload resolution on the argument
    /// types.
    fn builtin_call(&mut self, id: &Ident, args: &[Expr], span: Span) -> Option<Val> {
        if let Some(all) = clc_builtins::lookup(&id.name) {
            match all {
                [one] if id.name.starts_with("__builtin_") => return self.clang_builtin_call(id, one, args, span),
                // The type-generic ones: clang's count check first.
                [first, ..] if id.name.starts_with("__builtin_") && all.iter().all(|o| o.params.len() == first.params.len()) => {
                    let underline = (args.len() < first.params.len()).then_some(id.span);
                    if let Some(d) = arg_count_error(args, first.params.len(), first.variadic, span, underline) {
                        for a in args {
                            self.value(a);
                        }
                        self.diags.push(d);
                        return None;
                    }
                    if Self::is_classification(&id.name, all) && !self.floating_operands(args) {
                        return None;
                    }
                }
                _ => {}
            }
        }
        let mut arg_tys = Vec::with_capacity(args.len());
        let mut vals = Vec::with_capacity(args.len());
        let mut ok = true;
        for a in args {
            let Some(v) = self.value(a) else {
                ok = false;
                continue;
            };
            vals.push(v);
            let Some(ty) = self.to_ty(v) else {
                ok = false;
                continue;
            };
            let mut at = ArgTy::of(ty);
            if self.is_string_literal(a) {
                at = ArgTy::string_literal();
            } else if self.arith(v.ty).is_some_and(is_int) {
                let mut budget = 16;
                if small(a, &mut budget) {
                    if let Ok(c) = consteval::eval(a, self) {
                        at.int_constant = Some(c.value);
                    }
                }
            } else if self.is_pointer(v.ty) && self.is_null(a) {
                at.null_pointer = true;
            }
            arg_tys.push(at);
        }
        if !ok {
            return None;
        }
        let ctx = self.builtin_ctx(span);
        let mut result = clc_builtins::resolve(&id.name, &arg_tys, &ctx);
        if matches!(result, Err(ResolveError::NoMatchingOverload { .. })) {
            // As in clang, a scalar argument widens to the vector type of
            // the call's vector arguments (`pow(v, 2.0f)`, `rotate(v, 3)`)
            // when the table has no scalar form.
            let vec = arg_tys.iter().find_map(|a| match a.ty {
                Ty::Vector(s, n) => Some((s, n)),
                _ => None,
            });
            if let Some((s, n)) = vec {
                let same_width = arg_tys.iter().all(|a| !matches!(a.ty, Ty::Vector(_, m) if m != n));
                if same_width {
                    let widened: Vec<ArgTy> = arg_tys.iter().map(|a| if matches!(a.ty, Ty::Scalar(_)) { ArgTy::of(Ty::Vector(s, n)) } else { a.clone() }).collect();
                    if let Ok(o) = clc_builtins::resolve(&id.name, &widened, &ctx) {
                        result = Ok(o);
                    }
                }
            }
        }
        if matches!(result, Err(ResolveError::NoMatchingOverload { .. })) {
            // Otherwise a scalar widens to whatever vector parameter takes
            // it, converted to its element type first
            // (`write_imagef(img, coord, 0.5f)`,
            // `write_imageui(img, coord, 1.0f)`), as clang takes them.
            if let Ok(o) = clc_builtins::resolve_widening(&id.name, &arg_tys, &ctx) {
                result = Ok(o);
            }
        }
        match result {
            Ok(o) => {
                // `as_int(c)` reinterprets `c`'s own bits: no conversion
                // may make the sizes match.
                if matches!(o.lowering, clc_builtins::functions::Lowering::AsType) {
                    if let (Some(v), Some(a)) = (vals.first(), args.first()) {
                        let ret = self.qual_of_builtin(&o.ret);
                        let (from, to) = (self.types.size_align(v.ty).map(|s| s.0), ret.and_then(|r| self.types.size_align(r.ty)).map(|s| s.0));
                        if from != to {
                            let to_s = o.ret.to_string();
                            let msg = format!("invalid reinterpretation: sizes of '{to_s}' and '{}' must match", self.rv_name(v.ty));
                            self.diags.push(err("E0326", a.span, msg));
                            return None;
                        }
                    }
                }
                if self.facts.enabled {
                    self.facts.builtins.insert(addr(id), o.clone().into_owned());
                }
                self.clang_checks(&id.name, &o, args, span);
                if o.attrs.special == Special::FormatLiteral && !args.first().is_some_and(|a| self.is_string_literal(a)) {
                    let at = args.first().map_or(span, |a| a.span);
                    self.diags.push(err("E0328", at, format!("format string of '{}' must be a string literal", id.name)).with_note("OpenCL C requires printf's format to be a literal string"));
                } else if o.attrs.special == Special::FormatLiteral {
                    self.check_format(args, &vals);
                }
                if o.attrs.special == Special::PipePacket {
                    self.pipe_packet(&id.name, &vals, args);
                }
                if o.attrs.special == Special::Block && id.name == "enqueue_kernel" {
                    self.enqueue_block(&vals, args);
                }
                let mut ret = self.qual_of_builtin(&o.ret)?;
                if o.attrs.special == Special::KeepPointee {
                    if let (Some(p), Some(arg)) = (self.pointee(ret.ty), vals.first().and_then(|v| self.pointee(v.ty))) {
                        let t = self.types.pointer(QualType { ty: arg.ty, quals: arg.quals, space: p.space });
                        ret = QualType::new(t, AddrSpace::Private);
                    }
                }
                rv(ret)
            }
            Err(ResolveError::NoMatchingOverload { candidates, total, .. }) => {
                let mut d = err("E0328", span, format!("no matching function for call to '{}'", id.name)).with_label(format!("arguments are ({})", self.arg_list(&vals)));
                for c in &candidates {
                    d = d.with_note(format!("candidate: {c}"));
                }
                if total > candidates.len() {
                    d = d.with_note(format!("and {} more overloads", total - candidates.len()));
                }
                self.diags.push(d);
                None
            }
            Err(ResolveError::Ambiguous { candidates, .. }) => {
                let mut d = err("E0328", span, format!("call to '{}' is ambiguous", id.name)).with_label(format!("arguments are ({})", self.arg_list(&vals)));
                for c in &candidates {
                    d = d.with_note(format!("candidate: {c}"));
                }
                self.diags.push(d);
                None
            }
            Err(ResolveError::NotAvailable { missing, .. }) => {
                self.diags.push(err("E0328", span, format!("'{}' with these arguments {missing}", id.name)));
                None
            }
            Err(ResolveError::NoSuchFunction { .. }) => None,
        }
    }

    /// Warnings for a `printf` whose format (a literal) and arguments
    /// disagree, in clang's `-Wformat` groups: unknown conversions, too few
    /// or too many arguments, an integer printed as a floating-point value
    /// or the reverse, vector conversions without a vector of that size
    /// (or a vector without one), and `%s` without a string literal, which
    /// OpenCL C requires.
    fn check_format(&mut self, args: &[Expr], vals: &[QualType]) {
        use clc_builtins::printf::{Piece, invalid_percents, parse};
        let ExprKind::StringLit(fmt) = &strip(&args[0]).kind else { return };
        let fmt = fmt.strip_suffix(&[0]).unwrap_or(fmt);
        let fmt_span = args[0].span;
        for at in invalid_percents(fmt) {
            let shown = fmt.get(at + 1).map_or("end of string".to_string(), |&c| format!("'{}'", c as char));
            self.diags.push(Diagnostic::warning("format-invalid-specifier", fmt_span, format!("invalid conversion specifier {shown} (byte {at} of the format)")));
        }
        let mut next = 1;
        for piece in parse(fmt) {
            let Piece::Conv(c) = piece else { continue };
            let spec = String::from_utf8_lossy(&fmt[c.at..c.at + c.len]).into_owned();
            for k in 0..c.stars {
                // A `*` takes an `int` (the code generator converts
                // another type as C would, but the program meant an int).
                if let Some((arg, val)) = args.get(next).zip(vals.get(next))
                    && !self.arith(val.ty).is_some_and(|s| matches!(promote(s), Scalar::Int | Scalar::UInt))
                {
                    let what = if k + 1 == c.stars && spec.contains(".*") { "precision" } else { "width" };
                    self.diags.push(Diagnostic::warning("format", arg.span, format!("field {what} should have type 'int', but argument has type '{}'", self.rv_name(val.ty))));
                }
                next += 1;
            }
            let Some((arg, val)) = args.get(next).zip(vals.get(next)) else {
                self.diags.push(Diagnostic::warning("format-insufficient-args", fmt_span, format!("more '%' conversions than data arguments ('{spec}' has no argument)")));
                return;
            };
            next += 1;
            let ty = val.ty;
            let (scalar, lanes) = match self.types.kind(ty) {
                TypeKind::Scalar(s) => (Some(*s), None),
                TypeKind::Vector(s, n) => (Some(*s), Some(*n)),
                TypeKind::Enum(_) => (Some(Scalar::Int), None),
                _ => (None, None),
            };
            let name = self.rv_name(ty);
            let mismatch = |what: &str| format!("format '{spec}' expects {what}, but the argument has type '{name}'");
            let warning = match c.conv {
                b's' => (!self.is_string_literal(arg)).then(|| format!("format '{spec}' takes a string literal in OpenCL C; the argument is not one")),
                b'p' => (!matches!(self.types.kind(ty), TypeKind::Pointer(_))).then(|| mismatch("a pointer")),
                conv => {
                    let float_conv = b"fFeEgGaA".contains(&conv);
                    match (c.lanes, lanes, scalar) {
                        (Some(n), Some(m), _) if n != m => Some(mismatch(&format!("a vector of {n} elements"))),
                        (Some(n), None, _) => Some(mismatch(&format!("a vector of {n} elements"))),
                        (None, Some(_), _) => Some(mismatch("a scalar (use a vector specifier such as '%v4hlf' for vectors)")),
                        // The elements' size, from the length modifier
                        // (none: `int`, or `double` for floating point).
                        (Some(n), Some(_), Some(s)) if vector_element_bits(s) != format_element_bits(c.length, b"fFeEgGaA".contains(&conv)) => {
                            let bits = format_element_bits(c.length, b"fFeEgGaA".contains(&conv));
                            let elem = match (b"fFeEgGaA".contains(&conv), bits) {
                                (true, 16) => "half",
                                (true, 32) => "float",
                                (true, _) => "double",
                                (false, 8) => "char",
                                (false, 16) => "short",
                                (false, 32) => "int",
                                (false, _) => "long",
                            };
                            Some(mismatch(&format!("a vector of {n} '{elem}' elements")))
                        }
                        (_, _, None) => Some(mismatch(if float_conv { "a floating-point value" } else { "an integer" })),
                        (_, _, Some(s)) => {
                            let is_float = matches!(s, Scalar::Half | Scalar::Float | Scalar::Double);
                            (is_float != float_conv).then(|| mismatch(if float_conv { "a floating-point value" } else { "an integer" }))
                        }
                    }
                }
            };
            if let Some(message) = warning {
                self.diags.push(Diagnostic::warning("format", arg.span, message));
            }
        }
        if next < args.len() {
            self.diags.push(Diagnostic::warning("format-extra-args", args[next].span, "data argument not used by format string"));
        }
    }

    fn arg_list(&self, vals: &[QualType]) -> String {
        vals.iter().map(|v| self.rv_name(v.ty)).collect::<Vec<_>>().join(", ")
    }

    // --------------------------------------------- builtin type language

    /// The builtins' view of a value type.
    fn to_ty(&self, q: QualType) -> Option<Ty> {
        Some(match self.types.kind(q.ty) {
            TypeKind::Void => Ty::Void,
            TypeKind::Scalar(s) => Ty::Scalar(*s),
            TypeKind::Enum(_) => Ty::INT,
            TypeKind::Vector(s, n) => Ty::Vector(*s, *n),
            TypeKind::Pointer(p) => {
                let pointee = match self.types.kind(p.ty) {
                    // Pointers to aggregates only ever meet `void *`
                    // parameters (`prefetch`, `async_work_group_copy` take
                    // typed pointers): pass them as `char` pointers.
                    TypeKind::Record(_) | TypeKind::Array(..) => Ty::Scalar(Scalar::Char),
                    _ => self.to_ty(QualType::new(p.ty, AddrSpace::Private))?,
                };
                Ty::Pointer(Box::new(PointerTy { pointee, space: p.space, is_const: p.quals.is_const, is_volatile: p.quals.is_volatile }))
            }
            TypeKind::Image(i, a) => Ty::Image(*i, *a),
            TypeKind::Opaque(o) => match o {
                Opaque::Sampler => Ty::Sampler,
                Opaque::Event => Ty::Event,
                Opaque::Queue => Ty::Queue,
                Opaque::NdRange => Ty::NdRange,
                Opaque::ClkEvent => Ty::ClkEvent,
                Opaque::ReserveId => Ty::ReserveId,
                Opaque::MemFenceFlags => Ty::UINT,
                Opaque::MemoryOrder => Ty::MemoryOrder,
                Opaque::MemoryScope => Ty::MemoryScope,
            },
            TypeKind::Pipe(_, a) => Ty::Pipe(*a),
            TypeKind::Atomic(s) => Ty::Atomic(*s),
            TypeKind::Block { .. } => Ty::Block,
            TypeKind::Array(..) | TypeKind::Function { .. } | TypeKind::Record(_) => return None,
        })
    }

    /// A builtin signature's type as a value type.
    fn qual_of_builtin(&mut self, t: &Ty) -> Option<QualType> {
        let id = match t {
            Ty::Void => self.types.void(),
            Ty::Scalar(s) => self.types.scalar(*s),
            Ty::Vector(s, n) => self.types.vector(*s, *n),
            Ty::Pointer(p) => {
                let inner = self.qual_of_builtin(&p.pointee)?;
                let quals = Quals { is_const: p.is_const, is_volatile: p.is_volatile, is_restrict: false };
                self.types.pointer(QualType { ty: inner.ty, quals, space: p.space })
            }
            Ty::Image(i, a) => self.types.intern(TypeKind::Image(*i, *a)),
            Ty::Sampler => self.types.intern(TypeKind::Opaque(Opaque::Sampler)),
            Ty::Event => self.types.intern(TypeKind::Opaque(Opaque::Event)),
            Ty::Queue => self.types.intern(TypeKind::Opaque(Opaque::Queue)),
            Ty::NdRange => self.types.intern(TypeKind::Opaque(Opaque::NdRange)),
            Ty::ClkEvent => self.types.intern(TypeKind::Opaque(Opaque::ClkEvent)),
            Ty::ReserveId => self.types.intern(TypeKind::Opaque(Opaque::ReserveId)),
            Ty::MemoryOrder => self.types.intern(TypeKind::Opaque(Opaque::MemoryOrder)),
            Ty::MemoryScope => self.types.intern(TypeKind::Opaque(Opaque::MemoryScope)),
            Ty::Atomic(s) => self.types.intern(TypeKind::Atomic(*s)),
            Ty::Pipe(_) | Ty::Block | Ty::Named(_) => return None,
        };
        Some(QualType::new(id, AddrSpace::Private))
    }

    /// `read_pipe(p, ptr)` and friends: the pointer must point to the
    /// pipe's packet type (§6.13.16.2), which the builtins table erases.
    fn pipe_packet(&mut self, name: &str, vals: &[QualType], args: &[Expr]) {
        let Some(TypeKind::Pipe(packet, _)) = vals.first().map(|v| self.types.kind(v.ty).clone()) else { return };
        let Some((i, pointee)) = vals.iter().enumerate().rev().find_map(|(i, v)| self.pointee(v.ty).map(|p| (i, p))) else { return };
        if pointee.ty != packet.ty {
            let expected = self.types.display(packet.ty);
            let having = self.rv_name(vals[i].ty);
            self.diags.push(
                err("E0328", args[i].span, format!("invalid argument type to function '{name}' (expecting a pointer to '{expected}', having '{having}')"))
                    .with_note("OpenCL C 2.0 §6.13.16.2: the pointer argument of a pipe function points to the pipe's packet type"),
            );
        }
    }

    /// `enqueue_kernel(…, block[, size0, size1, …])`: the block takes no
    /// parameters, or one `__local void *` per local-size argument
    /// (§6.13.17.2).
    fn enqueue_block(&mut self, vals: &[QualType], args: &[Expr]) {
        let Some(b) = vals.iter().position(|v| matches!(self.types.kind(v.ty), TypeKind::Block { .. })) else { return };
        let TypeKind::Block { params, .. } = self.types.kind(vals[b].ty).clone() else { return };
        let sizes = vals.len() - b - 1;
        let rule = "OpenCL C 2.0 §6.13.17.2: the block takes no parameters, or one 'local void *' parameter per local-size argument";
        if params.len() != sizes {
            self.diags.push(
                err("E0328", args[b].span, format!("the block takes {} but {} passed to enqueue_kernel", plural(params.len(), "parameter", "parameters"), plural(sizes, "local-size argument is", "local-size arguments are")))
                    .with_note(rule),
            );
            return;
        }
        for (k, p) in params.iter().enumerate() {
            let local_void = self.pointee(p.ty).is_some_and(|q| q.space == AddrSpace::Local && matches!(self.types.kind(q.ty), TypeKind::Void));
            if !local_void {
                let shown = self.types.display_qual(*p);
                self.diags.push(err("E0328", args[b].span, format!("block parameter {} has type '{shown}'; enqueue_kernel needs 'local void *'", k + 1)).with_note(rule));
            }
        }
    }

    // ------------------------------------------------------ initializers

    /// Checks an initializer against the type of the object it
    /// initializes.
    /// clang's -Wmissing-braces (in `-Wall`): each array or record member
    /// of a braced initializer that takes its items without braces of its
    /// own (brace elision), unless the whole list is `{0}` or the member
    /// is its record's only one (`struct { int a[3]; } s = {1, 2, 3}`).
    /// Followed while the items are positional and each item meeting a
    /// record member is surely no record value (literals, arithmetic): a
    /// record value initializes the member whole, and telling needs its
    /// type; the rest of a list that cannot be followed is not judged.
    ///
    /// The same walk gives clang's -Wmissing-field-initializers (in
    /// -Wextra): a positional list that ends before a struct's last
    /// member (not `{0}` or `{}`), at the list's `}`, for the first member
    /// left out of each struct it ran out in.
    pub(super) fn missing_braces(&mut self, init: &Initializer, q: QualType) {
        let (braces, fields) = (self.diags.policy.enabled("missing-braces"), self.diags.policy.enabled("missing-field-initializers"));
        if !braces && !fields {
            return;
        }
        if let Initializer::List { items, span } = init {
            let mut found = Vec::new();
            self.braces_list(items, *span, q.ty, &mut found);
            for (span, missing) in found {
                let d = match missing {
                    None if braces => Diagnostic::warning("missing-braces", span, "suggest braces around initialization of subobject"),
                    Some(name) if fields => Diagnostic::warning("missing-field-initializers", span, format!("missing field '{name}' initializer")),
                    _ => continue,
                };
                self.diags.push(d);
            }
        }
    }

    /// An explicit braced list of `items` for an object of type `t`, its
    /// text at `span`.
    fn braces_list(&self, items: &[InitItem], span: Span, t: TypeId, found: &mut Vec<(Span, Option<String>)>) {
        let zero = matches!(items, [InitItem { designators, init: Initializer::Expr(Expr { kind: ExprKind::IntLit { value: 0, .. }, .. }) }] if designators.is_empty());
        let mut idx = 0;
        let mut missing = Vec::new();
        let _ = self.braces_fill(items, &mut idx, t, zero || items.is_empty(), found, &mut missing);
        for name in missing {
            found.push((Span { lo: span.hi.saturating_sub(1).max(span.lo), ..span }, Some(name)));
        }
    }

    /// Fills an object of type `t` from `items[*idx..]`; `None` where the
    /// items cannot be followed.
    /// `missing`: for each struct the list ran out in, the first member
    /// it left out (innermost first).
    fn braces_fill(&self, items: &[InitItem], idx: &mut usize, t: TypeId, zero: bool, found: &mut Vec<(Span, Option<String>)>, missing: &mut Vec<String>) -> Option<()> {
        match self.types.kind(t).clone() {
            TypeKind::Array(el, n) => {
                let mut k = 0;
                while *idx < items.len() && n.is_none_or(|n| k < n) {
                    let before = *idx;
                    self.braces_member(items, idx, el.ty, zero, false, found, missing)?;
                    // An element that takes no item (a record without
                    // members, after an error in it) ends the walk: an
                    // array of unknown size would never end (found by the
                    // fuzzer: a hang with -Wall).
                    if *idx == before {
                        return None;
                    }
                    k += 1;
                }
            }
            TypeKind::Record(r) => {
                let rec = &self.types.records[r as usize];
                let fields = rec.fields.as_deref().unwrap_or(&[]);
                let only = fields.len() == 1;
                let taken = if rec.is_union { &fields[..fields.len().min(1)] } else { fields };
                for f in taken {
                    if *idx >= items.len() {
                        if !zero && !rec.is_union && !f.name.is_empty() {
                            missing.push(f.name.clone());
                        }
                        break;
                    }
                    self.braces_member(items, idx, f.ty.ty, zero, only, found, missing)?;
                }
            }
            _ => *idx += 1,
        }
        Some(())
    }

    /// The member of type `t` that `items[*idx]` starts; `only`: the only
    /// member of its record.
    fn braces_member(&self, items: &[InitItem], idx: &mut usize, t: TypeId, zero: bool, only: bool, found: &mut Vec<(Span, Option<String>)>, missing: &mut Vec<String>) -> Option<()> {
        let item = &items[*idx];
        if !item.designators.is_empty() {
            return None;
        }
        let e = match &item.init {
            Initializer::List { items: inner, span } => {
                *idx += 1;
                self.braces_list(inner, *span, t, found);
                return Some(());
            }
            Initializer::Expr(e) => e,
        };
        let aggregate = match self.types.kind(t) {
            TypeKind::Array(el, _) => {
                // A string fills a character array whole.
                if matches!(strip_parens(e).kind, ExprKind::StringLit(_)) && matches!(self.types.kind(el.ty), TypeKind::Scalar(Scalar::Char | Scalar::UChar)) {
                    *idx += 1;
                    return Some(());
                }
                true
            }
            TypeKind::Record(_) => {
                if !surely_no_record(e) {
                    return None;
                }
                true
            }
            _ => false,
        };
        if !aggregate {
            *idx += 1;
            return Some(());
        }
        let start = *idx;
        self.braces_fill(items, idx, t, zero, found, missing)?;
        if !zero && !only && *idx > start {
            let first = items[start].init.span();
            found.push((Span { hi: items[*idx - 1].init.span().hi.max(first.hi), ..first }, None));
        }
        Some(())
    }

    pub(super) fn init_as(&mut self, init: &Initializer, q: QualType) {
        match init {
            Initializer::Expr(e) => {
                let target_kind = self.types.kind(q.ty).clone();
                match target_kind {
                    // `char s[] = "…"` and `int a[2] = other` (an error C
                    // reports elsewhere); aggregates from expressions are
                    // typed only.
                    TypeKind::Array(el, len) => {
                        let _ = self.type_expr(e);
                        // Only a character array takes an expression (a
                        // string); `char *p[] = "…"` lowered to an internal
                        // error (found by the fuzzer).
                        let is_char = matches!(self.types.kind(el.ty), TypeKind::Scalar(Scalar::Char | Scalar::UChar));
                        let string = matches!(strip(e).kind, ExprKind::StringLit(_));
                        if !(string && is_char) {
                            let msg = if string && self.arith(el.ty).is_some_and(is_int) {
                                "initializing wide char array with non-wide string literal"
                            } else {
                                "array initializer must be an initializer list"
                            };
                            self.diags.push(err("E0330", e.span, msg));
                            return;
                        }
                        // `char s[2] = "abc"`: C allows dropping only the NUL
                        // (clang's -Wunterminated-string-initialization, in
                        // -Wextra, where it is).
                        if let (ExprKind::StringLit(bytes), Some(n)) = (&strip(e).kind, len) {
                            let size = bytes.len() as u64 + 1;
                            if size - 1 > n {
                                self.diags.push(Diagnostic::warning("excess-initializers", e.span, "initializer-string for char array is too long"));
                            } else if size - 1 == n {
                                let msg = format!("initializer-string for character array is too long, array size is {n} but initializer has size {size} (including the null terminating character); did you mean to use the 'nonstring' attribute?");
                                self.diags.push(Diagnostic::warning("unterminated-string-initialization", e.span, msg));
                            }
                        }
                    }
                    // OpenCL C 2.0 §6.13.11.1: an atomic object is
                    // initialized by `ATOMIC_VAR_INIT` at program scope,
                    // and by `atomic_init` everywhere else.
                    TypeKind::Atomic(inner) => {
                        // (`__local` objects take no initializer at all:
                        // the declaration layer reports that.)
                        if q.space != AddrSpace::Global {
                            let _ = self.type_expr(e);
                            if q.space != AddrSpace::Private {
                                return;
                            }
                            self.diags.push(
                                err("E0329", e.span, "an atomic object can be initialized in its declaration only at program scope")
                                    .with_note("OpenCL C 2.0 §6.13.11.1: use ATOMIC_VAR_INIT for program-scope atomics and atomic_init(&object, value) for others"),
                            );
                            return;
                        }
                        let Some(v) = self.value(e) else { return };
                        let scalar = self.types.scalar(inner.unwrap_or(Scalar::Int));
                        self.convert(v, e, QualType { ty: scalar, ..q }, Conv::Init, e.span);
                    }
                    _ => {
                        let Some(v) = self.value(e) else { return };
                        self.convert(v, e, q, Conv::Init, e.span);
                    }
                }
            }
            Initializer::List { items, span } => {
                if let Some((es, n)) = self.vector_of(q.ty) {
                    return self.vector_list(q, es, n, items, *span);
                }
                if let Some(string) = self.braced_string(q.ty, items) {
                    return self.init_as(string, q);
                }
                if self.is_aggregate_type(q.ty) {
                    if let TypeKind::Record(r) = *self.types.kind(q.ty)
                        && (self.types.records[r as usize].fields.is_none() || self.broken_records.contains(&r))
                    {
                        // Reported where the type is used or defined.
                        items.iter().for_each(|i| self.skip_item(i));
                        return;
                    }
                    self.init_list(q, items);
                    return;
                }
                self.scalar_list(q, items, *span);
            }
        }
    }

    /// A braced list for a scalar (`int x = { 1 };`): its first item, in
    /// no more braces; C23's `{}` is zero.
    fn scalar_list(&mut self, q: QualType, items: &[InitItem], span: Span) {
        let Some(first) = items.first() else { return };
        if items.iter().any(|i| !i.designators.is_empty()) {
            let shown = self.types.display(q.ty);
            self.diags.push(err("E0326", span, format!("initialization of non-aggregate type '{shown}' with a designated initializer list")));
            items.iter().for_each(|i| self.skip_item(i));
            return;
        }
        match &first.init {
            Initializer::List { span, .. } => {
                self.diags.push(Diagnostic::warning("many-braces-around-scalar-init", *span, "too many braces around scalar initializer"));
                self.init_as(&first.init, q);
            }
            Initializer::Expr(_) => self.init_as(&first.init, q),
        }
        if let Some(extra) = items.get(1) {
            self.diags.push(Diagnostic::warning("excess-initializers", extra.init.span(), "excess elements in scalar initializer"));
            items[1..].iter().for_each(|i| self.skip_item(i));
        }
    }

    /// The string of a character array's braced list `{ "abc" }` (C99
    /// 6.7.8p14: a string may be in braces), if `items` are that for
    /// type `t`.
    pub(super) fn braced_string<'i>(&self, t: TypeId, items: &'i [InitItem]) -> Option<&'i Initializer> {
        let TypeKind::Array(el, _) = self.types.kind(t) else { return None };
        let chars = matches!(self.types.kind(el.ty), TypeKind::Scalar(Scalar::Char | Scalar::UChar));
        match items {
            [InitItem { designators, init: init @ Initializer::Expr(e) }] if chars && designators.is_empty() && matches!(strip(e).kind, ExprKind::StringLit(_)) => Some(init),
            _ => None,
        }
    }

    /// A vector literal's or vector list's item `x` of type `t` that
    /// cannot give components of element type `es`.
    fn incompatible_component(&mut self, es: Scalar, x: &Expr, t: TypeId) {
        let el = es.name();
        self.diags.push(err("E0326", x.span, format!("initializing '{el}' with an expression of incompatible type '{}'", self.rv_name(t))));
    }

    /// A braced list for a vector of `n` `es` (as clang checks OpenCL C's):
    /// no designators; each item a scalar converted to the element type
    /// (in braces of its own, with clang's warning), or a vector of that
    /// element type giving all its components; exactly `n` components in
    /// all, or none (`{}` is zero).
    fn vector_list(&mut self, q: QualType, es: Scalar, n: u8, items: &[InitItem], span: Span) {
        // After a syntax error in the list, its count is unknown.
        if items.iter().any(|i| matches!(&i.init, Initializer::Expr(e) if matches!(e.kind, ExprKind::Error))) {
            return;
        }
        if items.iter().any(|i| !i.designators.is_empty()) {
            let shown = self.types.display(q.ty);
            self.diags.push(err("E0326", span, format!("initialization of non-aggregate type '{shown}' with a designated initializer list")));
            return;
        }
        let elem = QualType { ty: self.types.scalar(es), ..q };
        let p = self.types.pointer_size;
        let mut count = 0usize;
        let mut bad = false;
        for item in items {
            let e = match &item.init {
                Initializer::Expr(e) => e,
                Initializer::List { items: inner, span: at } => {
                    match inner.get(1) {
                        Some(extra) => self.diags.push(Diagnostic::warning("excess-initializers", extra.init.span(), "excess elements in scalar initializer")),
                        None => self.diags.push(Diagnostic::warning("braced-scalar-init", *at, "braces around scalar initializer")),
                    }
                    match inner.first() {
                        Some(first) => self.init_as(&first.init, elem),
                        None => {
                            self.diags.push(err("E0326", *at, "scalar initializer cannot be empty"));
                            bad = true;
                        }
                    }
                    inner.iter().skip(1).for_each(|i| self.init(&i.init));
                    count += 1;
                    continue;
                }
            };
            let Some(v) = self.value(e) else {
                bad = true;
                continue;
            };
            if let Some((s, m)) = self.vector_of(v.ty) {
                if canon(s, p) != canon(es, p) {
                    self.incompatible_component(es, e, v.ty);
                    bad = true;
                }
                count += m as usize;
            } else {
                bad |= !self.convert(v, e, elem, Conv::Init, e.span);
                count += 1;
            }
            if count > n as usize && !bad {
                self.diags.push(err("E0326", e.span, "excess elements in vector initializer").with_note(format!("'{}' has {n} components", self.rv_name(q.ty))));
                return;
            }
        }
        if !bad && count != 0 && count < n as usize {
            self.diags.push(err("E0326", span, format!("too few elements in vector initialization (expected {n} elements, have {count})")));
        }
    }

    /// Checks `return e;` against the function's return type.
    pub(super) fn return_value(&mut self, e: &Expr) {
        let v = self.value(e);
        let Some(v) = v else { return };
        let ret = match self.ret {
            Some(Returns::Declared(ret)) => ret,
            Some(Returns::Inferred(_)) => return self.infer_return(v.ty, e.span),
            None => return,
        };
        if matches!(self.types.kind(ret.ty), TypeKind::Void) {
            if !matches!(self.types.kind(v.ty), TypeKind::Void) {
                let name = self.func.as_ref().map(|f| f.name.clone()).unwrap_or_default();
                self.diags.push(err("E0322", e.span, format!("void function '{name}' should not return a value")));
            }
            return;
        }
        self.convert(v, e, ret, Conv::Return, e.span);
    }

    /// Checks `return;` in a block literal whose return type is inferred.
    pub(super) fn return_void(&mut self, span: Span) {
        if let Some(Returns::Inferred(_)) = self.ret {
            let void = self.types.void();
            self.infer_return(void, span);
        }
    }

    /// A `return` of type `t` in a block literal without a written return
    /// type: the first gives the block its return type, the others must
    /// repeat it.
    fn infer_return(&mut self, t: TypeId, span: Span) {
        match self.ret {
            Some(Returns::Inferred(None)) => self.ret = Some(Returns::Inferred(Some((t, span)))),
            Some(Returns::Inferred(Some((first, at)))) if !self.same_unqual(first, t) => {
                let (shown, before) = (self.rv_name(t), self.rv_name(first));
                self.diags.push(
                    err("E0333", span, format!("return type '{shown}' must match previous return type '{before}' when block literal has unspecified explicit return type"))
                        .with_note_at(at, format!("the block's return type '{before}' comes from this return")),
                );
            }
            _ => {}
        }
    }

    /// A controlling expression (`if`, loops, `?:`): a scalar; a switch's
    /// (`integer`): an integer, whose types are returned.
    pub(super) fn condition(&mut self, e: &Expr, integer: bool) -> Option<SwitchCond> {
        if !integer && matches!(e.kind, ExprKind::Assign(None, ..)) {
            self.diags.push(
                Diagnostic::warning("parentheses", e.loc(), "using the result of an assignment as a condition without parentheses")
                    .with_range(e.span)
                    .with_note("place parentheses around the assignment to silence this warning")
                    .with_note("use '==' to turn this assignment into an equality comparison"),
            );
        }
        let v = self.value(e)?;
        if !integer {
            self.bitwise_or_condition(e);
        }
        let ok = if integer { self.arith(v.ty).is_some_and(is_int) } else { self.is_scalar_type(v.ty) };
        if !ok {
            let kind = if integer { "integer" } else { "scalar" };
            self.diags.push(err("E0320", e.span, format!("statement requires expression of {kind} type ('{}' invalid)", self.rv_name(v.ty))));
            return None;
        }
        if !integer {
            return None;
        }
        let unpromoted = canon(self.arith(v.ty)?, self.types.pointer_size);
        let s = canon(promote(unpromoted), self.types.pointer_size);
        let bits = match unpromoted {
            Scalar::Bool => 1,
            s => vector_element_bits(s),
        };
        Some(SwitchCond {
            promoted: IntTy { bits: if matches!(s, Scalar::Long | Scalar::ULong) { 64 } else { 32 }, signed: is_signed(s) },
            unpromoted: IntTy { bits, signed: is_signed(unpromoted) },
            enum_: match self.types.kind(v.ty) {
                TypeKind::Enum(i) => Some((*i, v.ty)),
                _ => None,
            },
        })
    }
}

/// A switch's controlling expression, as its case values see it.
#[derive(Clone, Copy, Debug)]
pub(super) struct SwitchCond {
    /// The type case values convert to (C99 6.8.4.2p5).
    pub promoted: IntTy,
    /// Its type before the integer promotions (a value it cannot hold is
    /// clang's "overflow converting case value").
    pub unpromoted: IntTy,
    /// Its enum type (index and type), if it has one (the enumerators
    /// the switch should handle: -Wswitch).
    pub enum_: Option<(u32, TypeId)>,
}

/// clang's words for a refused conversion `how` of a value of type `from`
/// to `to`: `what` ("incompatible pointer types") and the conversion.
fn conversion_message(how: Conv, what: &str, to: &str, from: &str) -> String {
    match how {
        Conv::Assign => format!("{what} assigning to '{to}' from '{from}'"),
        Conv::Init => format!("{what} initializing '{to}' with an expression of type '{from}'"),
        Conv::Arg => format!("{what} passing '{from}' to parameter of type '{to}'"),
        Conv::Return => format!("{what} returning '{from}' from a function with result type '{to}'"),
    }
}

/// `v` as clang-22 prints a value in a diagnostic: its digits in groups of
/// three (`-2'147'483'648`).
fn digit_groups(v: i128) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::from(if v < 0 { "-" } else { "" });
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\'');
        }
        out.push(c);
    }
    out
}

/// `1 parameter`, `2 parameters`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        use Scalar::*;
        assert_eq!(usual_arith(Char, Short, 8), Int);
        assert_eq!(usual_arith(Int, UInt, 8), UInt);
        assert_eq!(usual_arith(UInt, Long, 8), Long);
        assert_eq!(usual_arith(ULong, Long, 8), ULong);
        assert_eq!(usual_arith(Int, Float, 8), Float);
        assert_eq!(usual_arith(Half, Int, 8), Half);
        assert_eq!(usual_arith(Float, Double, 8), Double);
        assert_eq!(usual_arith(Size, Int, 8), Size);
        // 32-bit targets: `size_t` has the rank of `int`.
        assert_eq!(usual_arith(Size, Long, 4), Long);
    }

    #[test]
    fn canonical_pointer_sized_integers() {
        assert_eq!(canon(Scalar::Size, 8), Scalar::ULong);
        assert_eq!(canon(Scalar::PtrDiff, 4), Scalar::Int);
        assert_eq!(signed_of_size(8), Scalar::Long);
    }
}

/// A floating literal, in parentheses or negated: its value, and the value
/// as clang shows it (the shortest decimal that reads back as the
/// literal's type).
fn float_literal(e: &Expr) -> Option<(f64, String)> {
    match &e.kind {
        ExprKind::Paren(x) => float_literal(x),
        ExprKind::Unary(UnOp::Neg, x) => float_literal(x).map(|(v, s)| (-v, format!("-{s}"))),
        ExprKind::FloatLit { value, value_f32, suffix } => Some(match suffix {
            FloatSuffix::None => (*value, value.to_string()),
            _ => (*value_f32 as f64, value_f32.to_string()),
        }),
        _ => None,
    }
}

/// Where `half` values need the extension.
const FP16_NOTE: &str = "half values need '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'; without it, use vload_half/vstore_half";

/// Is `e` surely no value of a record type (so that brace elision applies
/// to a record member it meets)? Literals, arithmetic, casts and vector
/// literals are not; names, calls and member accesses may be.
fn surely_no_record(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) | ExprKind::BoolLit(_) | ExprKind::StringLit(_) => true,
        ExprKind::Cast(..) | ExprKind::VectorLiteral(..) | ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) | ExprKind::Offsetof(..) => true,
        ExprKind::Paren(x) => surely_no_record(x),
        ExprKind::Unary(op, _) => !matches!(op, UnOp::Deref),
        ExprKind::Binary(BinOp::Comma, _, b) => surely_no_record(b),
        ExprKind::Binary(..) => true,
        ExprKind::Cond(c, a, b) => surely_no_record(a.as_deref().unwrap_or(c)) && surely_no_record(b),
        _ => false,
    }
}
