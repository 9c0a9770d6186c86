//! clang's own builtin functions, `__builtin_*` (GCC's, most of them):
//! calls checked as clang-22 checks them.
//!
//! A name with one prototype (`int __builtin_clz(unsigned int)`) is called
//! as a declared C function is: clang's messages for the argument count,
//! its implicit conversions and their warnings. The type-generic ones
//! (`__builtin_isnan`, one overload per floating-point type, and
//! `__builtin_prefetch`, one per address space) go through overload
//! resolution like OpenCL's builtins, after clang's check that their
//! operands are floating point. Then each function's own rules:
//! `__builtin_expect_with_probability`'s probability is a constant in
//! [0, 1], `__builtin_prefetch`'s flags are constants in range,
//! `__builtin_assume` ignores (with clang's -Wassume) a condition that may
//! change anything, and `__builtin_nan` takes a string literal (clang would
//! call the C library's `nan` for another string; OpenCL C has none).
//!
//! Integer calls with constant operands are integer constant expressions
//! ([`consteval`]), `__builtin_inf`/`__builtin_nan` constants of their type
//! ([`Checker::clang_float_constant`]).

use super::*;
use clc_builtins::Overload;
use clc_builtins::functions::{GnuOp, Lowering};

impl Checker<'_> {
    /// A call of `__builtin_…` with the single prototype `o`.
    pub(super) fn clang_builtin_call(&mut self, id: &Ident, o: &'static Overload, args: &[Expr], span: Span) -> Option<Val> {
        if let Err(missing) = o.requirement.check(&self.builtin_ctx(span)) {
            self.diags.push(err("E0328", span, format!("'{}' {missing}", id.name)));
            return None;
        }
        let ret = self.qual_of_builtin(&o.ret)?;
        let mut params = Vec::with_capacity(o.params.len());
        for p in &o.params {
            params.push(self.qual_of_builtin(p)?);
        }
        let v = if o.lowering == Lowering::Gnu(GnuOp::ConstantP) {
            // Any one operand, of any type.
            if args.len() == 1 {
                self.value(&args[0]);
                rv(ret)
            } else {
                let int = QualType::new(self.types.scalar(Scalar::Int), AddrSpace::Private);
                let fty = self.types.intern(TypeKind::Function { ret, params: vec![int], variadic: false });
                self.call_prototype(&id.name, None, fty, args, span, id.span)
            }
        } else {
            let fty = self.types.intern(TypeKind::Function { ret, params, variadic: o.variadic });
            self.call_prototype(&id.name, None, fty, args, span, id.span)
        };
        self.clang_checks(&id.name, o, args, span);
        if self.facts.enabled {
            self.facts.builtins.insert(addr(id), o.clone());
        }
        v
    }

    /// clang's check of a type-generic floating-point function's operands
    /// (before overload resolution, which would convert an integer).
    pub(super) fn floating_operands(&mut self, args: &[Expr]) -> bool {
        let mut ok = true;
        for a in args {
            let Some(v) = self.value(a) else { continue };
            if !self.arith(v.ty).is_some_and(|s| matches!(s, Scalar::Half | Scalar::Float | Scalar::Double)) || !matches!(self.types.kind(v.ty), TypeKind::Scalar(_)) {
                let msg = format!("floating point classification requires argument of floating point type (passed in '{}')", self.rv_name(v.ty));
                self.diags.push(err("E0328", a.span, msg));
                ok = false;
            }
        }
        ok
    }

    /// Whether overload resolution of `name` is clang's type-generic
    /// classification (`__builtin_isnan` and kin).
    pub(super) fn is_classification(name: &str, o: &[Overload]) -> bool {
        name.starts_with("__builtin_") && o.iter().all(|o| matches!(o.lowering, Lowering::Relational(_)))
    }

    /// Each function's own rules for its arguments (see the module docs).
    pub(super) fn clang_checks(&mut self, name: &str, o: &Overload, args: &[Expr], span: Span) {
        match o.lowering {
            Lowering::Gnu(GnuOp::ExpectWithProbability) => {
                let Some(p) = args.get(2) else { return };
                let what = "probability argument to __builtin_expect_with_probability";
                match self.float_constant(p) {
                    None => self.diags.push(err("E0328", p.span, format!("{what} must be constant floating-point expression"))),
                    Some(v) if !(0.0..=1.0).contains(&v) => self.diags.push(err("E0328", p.span, format!("{what} is outside the range [0.0, 1.0]"))),
                    Some(_) => {}
                }
            }
            Lowering::Gnu(GnuOp::Prefetch) => {
                if args.len() > 3 {
                    // At the `)`, the arguments underlined, as clang.
                    let at = Span { lo: span.hi.saturating_sub(1).max(span.lo), ..span };
                    let all = args[0].span.to(args[args.len() - 1].span);
                    self.diags.push(err("E0323", at, format!("too many arguments to function call, expected at most 3, have {}", args.len())).with_range(all));
                    return;
                }
                for (a, max) in args.iter().skip(1).zip([1, 3]) {
                    // At the pointer, the flag underlined, as clang.
                    let d = match consteval::eval(a, self) {
                        Err(_) => err("E0328", args[0].span, format!("argument to '{name}' must be a constant integer")),
                        Ok(c) if !(0..=max).contains(&c.value) => err("E0328", args[0].span, format!("argument value {} is outside the valid range [0, {max}]", c.value)),
                        Ok(_) => continue,
                    };
                    self.diags.push(d.with_range(a.span));
                }
            }
            Lowering::Gnu(GnuOp::Assume) => {
                if let Some(a) = args.first()
                    && self.may_change(a)
                {
                    self.diags.push(Diagnostic::warning("assume", a.span, "assumption is ignored because it contains (potential) side-effects"));
                }
            }
            Lowering::Gnu(GnuOp::Nan) => {
                let Some(a) = args.first() else { return };
                if self.clang_float_constant_of(o, args).is_none() {
                    let msg = format!("'{name}' takes a string literal holding an integer, the NaN's payload");
                    self.diags.push(err("E0328", a.span, msg).with_note("clang calls the C library's 'nan' for other strings; OpenCL C has no such function"));
                }
            }
            _ => {}
        }
    }

    /// Might evaluating `e` change anything (clang's `HasSideEffects`):
    /// an assignment, `++`/`--`, a call of anything but a builtin that only
    /// computes, a statement expression?
    pub(super) fn may_change(&self, e: &Expr) -> bool {
        let pure = |name: &str| {
            self.lookup(name).is_none() && clc_builtins::lookup(name).is_some_and(|os| os.iter().all(|o| o.attrs.purity != clc_builtins::functions::Purity::Effects))
        };
        init::expr_side_effects(e, &pure)
    }

    /// A constant floating-point operand: a literal, negated or in
    /// parentheses, or an integer constant expression.
    fn float_constant(&mut self, e: &Expr) -> Option<f64> {
        fn literal(e: &Expr) -> Option<f64> {
            match &e.kind {
                ExprKind::Paren(x) | ExprKind::Unary(UnOp::Plus, x) => literal(x),
                ExprKind::Unary(UnOp::Neg, x) => literal(x).map(|v| -v),
                ExprKind::FloatLit { value, .. } => Some(*value),
                _ => None,
            }
        }
        literal(e).or_else(|| consteval::eval(e, self).ok().map(|c| c.value as f64))
    }

    /// The value of a call `e` of `__builtin_inf`, `__builtin_huge_val` or
    /// `__builtin_nan` (and their `f` forms) with a literal payload, as
    /// a double (a `float` NaN's payload in the bits that narrowing keeps).
    pub(in crate::sema) fn clang_float_constant(&mut self, e: &Expr) -> Option<f64> {
        let ExprKind::Call(f, args) = &strip_parens(e).kind else { return None };
        let ExprKind::Ident(id) = &f.kind else { return None };
        let o = consteval::Env::clang_builtin(self, &id.name)?;
        self.clang_float_constant_of(o, args)
    }

    fn clang_float_constant_of(&self, o: &Overload, args: &[Expr]) -> Option<f64> {
        let float = o.ret == clc_builtins::Ty::Scalar(Scalar::Float);
        match o.lowering {
            Lowering::Gnu(GnuOp::Inf) => Some(f64::INFINITY),
            Lowering::Gnu(GnuOp::Nan) => {
                let ExprKind::StringLit(bytes) = &strip_parens(args.first()?).kind else { return None };
                let payload = nan_payload(bytes.strip_suffix(&[0]).unwrap_or(bytes))?;
                // Quiet, the payload cut to the significand's other bits; a
                // float's sits where narrowing a double keeps it.
                let bits = if float { 0x7ff8_0000_0000_0000 | ((payload & 0x3f_ffff) << 29) } else { 0x7ff8_0000_0000_0000 | (payload & 0x7_ffff_ffff_ffff) };
                Some(f64::from_bits(bits))
            }
            _ => None,
        }
    }
}

/// The payload `__builtin_nan`'s string spells: an integer as C writes it
/// (`0x` hex, `0b` binary, a leading `0` octal), the empty string 0.
fn nan_payload(text: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(text).ok()?;
    if s.is_empty() {
        return Some(0);
    }
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16u64)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return None;
    }
    // Wider payloads are cut to the significand anyway: the low bits.
    digits.chars().try_fold(0u64, |v, c| Some(v.wrapping_mul(radix).wrapping_add(u64::from(c.to_digit(radix as u32)?))))
}

#[cfg(test)]
mod tests {
    use super::nan_payload;

    #[test]
    fn nan_payloads_read_as_c_integers() {
        assert_eq!(nan_payload(b""), Some(0));
        assert_eq!(nan_payload(b"12"), Some(12));
        assert_eq!(nan_payload(b"0x7fffff"), Some(0x7f_ffff));
        assert_eq!(nan_payload(b"010"), Some(8));
        assert_eq!(nan_payload(b"0b101"), Some(5));
        assert_eq!(nan_payload(b"abc"), None);
        assert_eq!(nan_payload(b"0x"), None);
        assert_eq!(nan_payload(b"08"), None);
        // Past 64 bits: the low ones.
        assert_eq!(nan_payload(b"0x1234567890abcdef1234567890abcdef12"), Some(0x3456_7890_abcd_ef12));
    }
}
