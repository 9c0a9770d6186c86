//! clang's integer conversion warnings: -Wshorten-64-to-32,
//! -Wimplicit-int-conversion, -Wsign-conversion and
//! -Wimplicit-int-float-conversion (all in -Wconversion, off by default). Whether an implicit conversion loses precision or
//! changes signedness is judged on the range of values the expression can
//! take, as clang's `GetExprRange` approximates it (`uchar s = a + b` with
//! `uchar`s, `uchar m = n & 0xff` and `uchar h = n >> 24` with an unsigned
//! `n` lose nothing), not on its type alone.

use super::consteval::{self, IntTy};
use super::{int_ty, strip_parens, Checker, Sym, SymKind};
use crate::diag::Diagnostic;
use crate::parse::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::types::Scalar;

/// The values an integer expression may take: as many bits as `width`,
/// never negative if `non_negative` (clang's `IntRange`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IntRange {
    width: u32,
    non_negative: bool,
}

impl IntRange {
    fn of(t: IntTy) -> IntRange {
        IntRange { width: t.bits, non_negative: !t.signed }
    }

    fn of_value(v: i128) -> IntRange {
        if v < 0 {
            IntRange { width: 128 - (!v).leading_zeros() + 1, non_negative: false }
        } else {
            IntRange { width: 128 - v.leading_zeros(), non_negative: true }
        }
    }

    const BOOL: IntRange = IntRange { width: 1, non_negative: true };

    fn value_bits(self) -> u32 {
        self.width - u32::from(!self.non_negative && self.width > 0)
    }

    fn join(a: IntRange, b: IntRange) -> IntRange {
        let non_negative = a.non_negative && b.non_negative;
        IntRange { width: a.value_bits().max(b.value_bits()) + u32::from(!non_negative), non_negative }
    }

    fn bit_and(a: IntRange, b: IntRange) -> IntRange {
        let mut r = IntRange { width: a.width.max(b.width), non_negative: false };
        for x in [a, b] {
            if x.non_negative {
                r = IntRange { width: r.width.min(x.width), non_negative: true };
            }
        }
        r
    }

    fn cap(self, max: u32) -> IntRange {
        IntRange { width: self.width.min(max), ..self }
    }
}

impl Checker<'_> {
    /// The integer type of `s`, if it is one (not `bool`).
    fn int_of(&self, s: Scalar) -> Option<IntTy> {
        int_ty(s, self.types.pointer_size).filter(|_| s != Scalar::Bool)
    }

    /// The integer type of a simple expression (a name, member, element,
    /// literal, cast, call of a declared function), if known.
    fn simple_int_type(&mut self, e: &Expr) -> Option<TypeId> {
        if let ExprKind::Call(f, _) = &e.kind {
            let ExprKind::Ident(id) = &f.kind else { return None };
            let Some(Sym { kind: SymKind::Func { .. }, ty, .. }) = self.lookup(&id.name) else { return None };
            let TypeKind::Function { ret, .. } = self.types.kind(ty.ty) else { return None };
            return Some(ret.ty);
        }
        self.expr_type(e)
    }

    /// The integer type of `e` where its operands' types are known: C's
    /// promotions and usual arithmetic conversions over
    /// [`Self::simple_int_type`].
    fn int_type_of(&mut self, e: &Expr, depth: u32) -> Option<IntTy> {
        if depth > 32 {
            return None;
        }
        let usual = |a: IntTy, b: IntTy| consteval::common(a.promoted(), b.promoted());
        match &e.kind {
            ExprKind::Paren(x) => self.int_type_of(x, depth + 1),
            ExprKind::Binary(op, l, r) => match op {
                BinOp::And | BinOp::Or | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => Some(IntTy::INT),
                BinOp::Comma => self.int_type_of(r, depth + 1),
                BinOp::Shl | BinOp::Shr => self.int_type_of(l, depth + 1).map(IntTy::promoted),
                _ => {
                    let a = self.int_type_of(l, depth + 1)?;
                    Some(usual(a, self.int_type_of(r, depth + 1)?))
                }
            },
            ExprKind::Cond(c, a, b) => {
                let a = self.int_type_of(a.as_deref().unwrap_or(c), depth + 1)?;
                Some(usual(a, self.int_type_of(b, depth + 1)?))
            }
            ExprKind::Unary(UnOp::Not, _) => Some(IntTy::INT),
            ExprKind::Unary(UnOp::Neg | UnOp::BitNot | UnOp::Plus, x) => self.int_type_of(x, depth + 1).map(IntTy::promoted),
            ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) | ExprKind::Offsetof(..) => self.int_of(Scalar::Size),
            _ => {
                let t = self.simple_int_type(e)?;
                match self.arith(t)? {
                    Scalar::Bool => Some(IntTy::INT),
                    s => self.int_of(s),
                }
            }
        }
    }

    /// The range of integer expression `e`, whose type holds `max` bits;
    /// `fallback` where nothing better is known (its type's range).
    fn int_range(&mut self, e: &Expr, max: u32, fallback: IntRange, depth: u32) -> IntRange {
        // An enumerator past `int` (clang gives it the enum's unsigned
        // type; its value is what counts).
        if let ExprKind::Ident(id) = &e.kind
            && let Some(Sym { kind: SymKind::EnumConst(v), .. }) = self.lookup(&id.name)
        {
            return IntRange::of_value(*v).cap(max);
        }
        if let Some(v) = self.small_constant(e) {
            return IntRange::of_value(v).cap(max);
        }
        if depth > 32 {
            return fallback;
        }
        let sub = |this: &mut Self, x: &Expr| this.int_range(x, max, fallback, depth + 1);
        // An operand's range once converted to the operation's type `t`
        // (clang's range of an implicit integral cast).
        let operand = |this: &mut Self, x: &Expr, t: Option<IntTy>| {
            let r = sub(this, x);
            match t {
                Some(t) if r.width >= t.bits => IntRange::of(t),
                Some(t) => IntRange { width: r.width, non_negative: r.non_negative || !t.signed },
                None => r,
            }
        };
        let r = match &e.kind {
            ExprKind::Paren(x) => sub(self, x),
            ExprKind::Cond(c, a, b) => {
                let a = sub(self, a.as_deref().unwrap_or(c));
                IntRange::join(a, sub(self, b))
            }
            ExprKind::Binary(op, l, r) => match op {
                BinOp::And | BinOp::Or | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => IntRange::BOOL,
                BinOp::Comma => sub(self, r),
                BinOp::BitAnd => {
                    let t = self.int_type_of(e, depth);
                    let a = operand(self, l, t);
                    IntRange::bit_and(a, operand(self, r, t))
                }
                BinOp::Shr => {
                    let t = self.int_type_of(l, depth + 1).map(IntTy::promoted);
                    let mut a = operand(self, l, t);
                    if let Some(n) = self.small_constant(r).filter(|n| *n >= 0) {
                        a.width = if n >= a.width as i128 { u32::from(!a.non_negative) } else { a.width - n as u32 };
                    }
                    a
                }
                BinOp::Div => {
                    let t = self.int_type_of(e, depth);
                    let mut a = operand(self, l, t);
                    if let Some(n) = self.small_constant(r).filter(|n| *n > 0) {
                        a.width = a.width.saturating_sub(127 - n.leading_zeros());
                    }
                    a
                }
                BinOp::Rem => {
                    let t = self.int_type_of(e, depth);
                    let (a, b) = (operand(self, l, t), operand(self, r, t));
                    IntRange { width: a.width.min(b.width), non_negative: a.non_negative }
                }
                // The approximation clang's conversion warnings use: the
                // narrowest type holding both operands.
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitOr | BinOp::BitXor => {
                    let t = self.int_type_of(e, depth);
                    let a = operand(self, l, t);
                    IntRange::join(a, operand(self, r, t))
                }
                // `1 << n` is taken as non-negative (a bit mask), as clang's.
                BinOp::Shl => {
                    let t = self.int_type_of(e, depth).map_or(fallback, IntRange::of);
                    match &strip_parens(l).kind {
                        ExprKind::IntLit { value: 1, .. } => IntRange { non_negative: true, ..t },
                        _ => t,
                    }
                }
            },
            ExprKind::Unary(UnOp::Not, _) => IntRange::BOOL,
            ExprKind::Unary(UnOp::Plus, x) => sub(self, x),
            ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) | ExprKind::Offsetof(..) => match consteval::eval(e, self) {
                Ok(v) => IntRange::of_value(v.value),
                Err(_) => fallback,
            },
            _ => match self.simple_int_type(e).and_then(|t| self.arith(t)) {
                Some(Scalar::Bool) => IntRange::BOOL,
                Some(s) => self.int_of(s).map_or(fallback, IntRange::of),
                None => fallback,
            },
        };
        r.cap(max)
    }

    /// clang's -Wshorten-64-to-32, -Wimplicit-int-conversion and
    /// -Wsign-conversion for the implicit conversion of integer
    /// expression `e` of type `f` to `to` (constants that change value are
    /// -Wconstant-conversion's, [`Self::value_change`]).
    pub(super) fn int_change(&mut self, f: TypeId, e: &Expr, to: Scalar) {
        let Some(from) = self.arith(f) else { return };
        let (Some(source), Some(target)) = (self.int_of(from), self.int_of(to)) else { return };
        if from == to || !["shorten-64-to-32", "implicit-int-conversion", "sign-conversion"].iter().any(|c| self.diags.policy.enabled(c)) {
            return;
        }
        let range = self.int_range(e, source.bits, IntRange::of(source), 0);
        let at = self.conversion_at(e);
        let names = |this: &Self| (this.rv_name(f), to.name());
        let warn = |this: &mut Self, code: &'static str, msg: String| {
            this.diags.push(Diagnostic::warning(code, at, msg).with_range(e.span));
        };
        if range.width > target.bits {
            // A constant that does not fit is -Wconstant-conversion's; one
            // that fits is no loss (`sizeof(a) / sizeof(a[0])` to `int`).
            if consteval::eval(e, self).is_ok() {
                return;
            }
            let (a, b) = names(self);
            let code = if target.bits == 32 && source.bits == 64 { "shorten-64-to-32" } else { "implicit-int-conversion" };
            return warn(self, code, format!("implicit conversion loses integer precision: '{a}' to '{b}'"));
        }
        if target.bits > source.bits && !source.signed && matches!(strip_parens(e).kind, ExprKind::Unary(UnOp::Neg, _)) {
            return if target.signed {
                warn(self, "sign-conversion", "the resulting value is always non-negative after implicit conversion".to_string())
            } else {
                warn(self, "implicit-int-conversion", "higher order bits are zeroes after implicit conversion".to_string())
            };
        }
        let sign_change = if target.signed { range.non_negative && range.width == target.bits } else { !range.non_negative };
        if sign_change && source.signed != target.signed {
            let (a, b) = names(self);
            warn(self, "sign-conversion", format!("implicit conversion changes signedness: '{a}' to '{b}'"));
        }
    }

    /// clang's -Wimplicit-int-float-conversion: integer expression `e` of
    /// type `f`, implicitly converted to the floating type `to`, may take
    /// values that need more bits than `to`'s significand holds (11 for
    /// `half`, 24 for `float`, 53 for `double`); `shown` is the type
    /// converted to (a vector the scalar widens to). A constant is
    /// -Wimplicit-const-int-float-conversion's ([`Self::value_change`]).
    pub(super) fn int_float_change(&mut self, f: TypeId, e: &Expr, to: Scalar, shown: TypeId) {
        let Some(source) = self.arith(f).and_then(|s| self.int_of(s)) else { return };
        let precision = match to {
            Scalar::Half => 11,
            Scalar::Float => 24,
            Scalar::Double => 53,
            _ => return,
        };
        if source.bits <= precision || !self.diags.policy.enabled("implicit-int-float-conversion") {
            return;
        }
        let range = self.int_range(e, source.bits, IntRange::of(source), 0);
        if range.width <= precision || consteval::eval(e, self).is_ok() {
            return;
        }
        let at = self.conversion_at(e);
        let msg = format!("implicit conversion from '{}' to '{}' may lose precision", self.rv_name(f), self.rv_name(shown));
        self.diags.push(Diagnostic::warning("implicit-int-float-conversion", at, msg).with_range(e.span));
    }
}
