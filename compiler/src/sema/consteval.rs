//! Integer constant expressions (C99 6.6): array sizes, enumerator values,
//! `case` labels, `_Static_assert`, bit-field widths and attribute
//! arguments.
//!
//! The evaluator works on the AST with C's integer semantics: literals take
//! the type C gives them, operands are promoted and converted with the usual
//! arithmetic conversions, results wrap to the width of their type. Names
//! and type sizes come from an [`Env`], so this module knows nothing of
//! scopes: the declaration layer answers for enum constants, builtin
//! constants and `sizeof`.

use crate::parse::ast::{BinOp, Designator, Expr, ExprKind, SizeofKind, TypeName, UnOp};
use crate::source::Span;
use clc_builtins::functions::{GnuOp, Lowering, OpenClStd, Overload, Ty};
use clc_builtins::types::Scalar;

/// An integer type of a constant: its width in bits and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const INT: IntTy = IntTy { bits: 32, signed: true };
    pub const UINT: IntTy = IntTy { bits: 32, signed: false };
    pub const LONG: IntTy = IntTy { bits: 64, signed: true };
    pub const ULONG: IntTy = IntTy { bits: 64, signed: false };

    /// The type after integer promotion: `int` for anything narrower.
    pub fn promoted(self) -> IntTy {
        if self.bits < 32 { IntTy::INT } else { self }
    }

    /// Wraps `v` to this type's range.
    pub fn wrap(self, v: i128) -> i128 {
        let m = v & ((1i128 << self.bits) - 1);
        if self.signed && m >> (self.bits - 1) & 1 == 1 { m - (1i128 << self.bits) } else { m }
    }

    fn fits(self, v: i128) -> bool {
        self.wrap(v) == v
    }
}

/// A constant's value and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CInt {
    pub value: i128,
    pub ty: IntTy,
}

impl CInt {
    pub fn int(v: i128) -> CInt {
        CInt { value: IntTy::INT.wrap(v), ty: IntTy::INT }
    }
}

/// Why an expression is not constant: the offending sub-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotConst {
    pub span: Span,
    /// Extra detail ("division by zero"), or empty.
    pub reason: String,
}

/// What the evaluator asks its caller.
pub trait Env {
    /// The value of a name that is an integer constant (enumerator, builtin
    /// constant); `None` when the name is anything else.
    fn constant(&mut self, name: &str) -> Option<CInt>;
    /// `sizeof`/`_Alignof`/`vec_step` of a type name, if it can be sized.
    fn type_query(&mut self, kind: SizeofKind, t: &TypeName) -> Option<u64>;
    /// `sizeof`/`_Alignof`/`vec_step` of an expression whose type the
    /// caller can tell without typing it fully (`a`, `a[0]`, `*p`, `s.f`).
    fn expr_query(&mut self, kind: SizeofKind, e: &Expr) -> Option<u64>;
    /// The integer type a cast converts to, or `None` if it is not an
    /// integer type.
    fn int_cast(&mut self, t: &TypeName) -> Option<IntTy>;
    /// `__builtin_offsetof(t, path)`, if every index in it is a constant.
    fn offsetof(&mut self, t: &TypeName, path: &[Designator]) -> Option<u64>;
    /// The prototype of clang's builtin function `name` (`__builtin_clz`)
    /// when the name means it (no declaration hides it).
    fn clang_builtin(&mut self, name: &str) -> Option<&'static Overload>;
}

/// Evaluates `e` as an integer constant expression.
pub fn eval(e: &Expr, env: &mut dyn Env) -> Result<CInt, NotConst> {
    let not = |span: Span| Err(NotConst { span, reason: String::new() });
    match &e.kind {
        ExprKind::IntLit { value, suffix, radix, .. } => Ok(literal(*value, suffix.unsigned, suffix.long, *radix)),
        ExprKind::CharLit(c) => Ok(CInt::int(*c as i128)),
        ExprKind::BoolLit(b) => Ok(CInt::int(*b as i128)),
        ExprKind::Paren(x) => eval(x, env),
        ExprKind::Ident(id) => env.constant(&id.name).map_or_else(|| not(e.span), Ok),
        ExprKind::Unary(op, x) => {
            let v = promote(eval(x, env)?);
            let r = match op {
                UnOp::Plus => v.value,
                UnOp::Neg => -v.value,
                UnOp::BitNot => !v.value,
                UnOp::Not => return Ok(CInt::int((v.value == 0) as i128)),
                _ => return not(e.span),
            };
            Ok(CInt { value: v.ty.wrap(r), ty: v.ty })
        }
        ExprKind::Binary(op, a, b) => binary(*op, a, b, e.span, env),
        ExprKind::Cond(c, a, b) => {
            let c = eval(c, env)?;
            let x = match a {
                Some(a) => eval(a, env)?,
                None => c,
            };
            let y = eval(b, env)?;
            let ty = common(promote(x).ty, promote(y).ty);
            let v = if c.value != 0 { x } else { y };
            Ok(CInt { value: ty.wrap(v.value), ty })
        }
        ExprKind::Cast(t, x) => {
            let Some(ty) = env.int_cast(t) else { return not(e.span) };
            let v = match &x.kind {
                ExprKind::FloatLit { value, .. } => {
                    // C 6.6p6: a floating constant cast to an integer type.
                    if !value.is_finite() {
                        return not(x.span);
                    }
                    value.trunc() as i128
                }
                _ => eval(x, env)?.value,
            };
            let value = if ty.bits == 1 { (v != 0) as i128 } else { ty.wrap(v) };
            Ok(CInt { value, ty })
        }
        ExprKind::SizeofType(kind, t) => env.type_query(*kind, t).map(sized).map_or_else(|| not(e.span), Ok),
        ExprKind::SizeofExpr(kind, x) => env.expr_query(*kind, x).map(sized).map_or_else(|| not(e.span), Ok),
        ExprKind::Offsetof(t, path) => env.offsetof(t, path).map(sized).map_or_else(|| not(e.span), Ok),
        ExprKind::Call(f, args) => match &f.kind {
            ExprKind::Ident(id) => match env.clang_builtin(&id.name) {
                Some(o) if o.lowering == Lowering::Gnu(GnuOp::ConstantP) => Ok(CInt::int((args.len() == 1 && is_constant(&args[0], env)) as i128)),
                Some(o) => clang_call(o, args, e.span, env),
                None => not(e.span),
            },
            _ => not(e.span),
        },
        _ => not(e.span),
    }
}

/// `__builtin_constant_p(e)`: is `e` an integer constant expression or a
/// floating-point literal (negated, in parentheses)?
pub fn is_constant(e: &Expr, env: &mut dyn Env) -> bool {
    fn float(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Unary(UnOp::Neg | UnOp::Plus, x) => float(x),
            ExprKind::FloatLit { .. } => true,
            _ => false,
        }
    }
    float(e) || eval(e, env).is_ok()
}

/// The integer type of scalar `s` (`size_t` as wide as a pointer), or
/// `None` for a floating-point type.
pub fn int_ty(s: Scalar, pointer_size: u64) -> Option<IntTy> {
    let (bits, signed) = match s {
        Scalar::Bool => (1, false),
        Scalar::Char => (8, true),
        Scalar::UChar => (8, false),
        Scalar::Short => (16, true),
        Scalar::UShort => (16, false),
        Scalar::Int => (32, true),
        Scalar::UInt => (32, false),
        Scalar::Long => (64, true),
        Scalar::ULong => (64, false),
        Scalar::Size => (pointer_size as u32 * 8, false),
        Scalar::PtrDiff => (pointer_size as u32 * 8, true),
        Scalar::Half | Scalar::Float | Scalar::Double => return None,
    };
    Some(IntTy { bits, signed })
}

/// The integer type of a builtin's scalar parameter or result (those of
/// clang's builtins are never `size_t`).
fn scalar_int(t: &Ty) -> Option<IntTy> {
    let Ty::Scalar(s) = t else { return None };
    int_ty(*s, 8)
}

/// A call of clang's integer builtins folded as clang folds it: each
/// argument converted to its parameter's type; `__builtin_clz(0)` and
/// `__builtin_ctz(0)` (undefined) are no constants.
fn clang_call(o: &Overload, args: &[Expr], span: Span, env: &mut dyn Env) -> Result<CInt, NotConst> {
    let not = || Err(NotConst { span, reason: String::new() });
    let (Some(ret), Some(pt)) = (scalar_int(&o.ret), o.params.first().and_then(scalar_int)) else { return not() };
    if args.len() != o.params.len() {
        return not();
    }
    // Every operand is constant (an expected value with side effects is
    // still evaluated, as in clang), but the probability, a `double` the
    // checker requires to be constant.
    let counted = match o.lowering {
        Lowering::Gnu(GnuOp::ExpectWithProbability) => 2,
        _ => args.len(),
    };
    let mut vals = Vec::with_capacity(counted);
    for (a, p) in args[..counted].iter().zip(&o.params) {
        let Some(t) = scalar_int(p) else { return not() };
        vals.push(t.wrap(eval(a, env)?.value));
    }
    let bits = pt.bits;
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let x = (vals[0] as u128) & mask;
    let v: i128 = match o.lowering {
        Lowering::Gnu(GnuOp::Expect | GnuOp::ExpectWithProbability) => vals[0],
        Lowering::Gnu(GnuOp::Clz) if x != 0 => (x.leading_zeros() - (128 - bits)) as i128,
        Lowering::Gnu(GnuOp::Ctz) if x != 0 => x.trailing_zeros() as i128,
        Lowering::Gnu(GnuOp::Popcount) => x.count_ones() as i128,
        Lowering::Gnu(GnuOp::Parity) => (x.count_ones() & 1) as i128,
        Lowering::Gnu(GnuOp::Ffs) => if x == 0 { 0 } else { x.trailing_zeros() as i128 + 1 },
        Lowering::Gnu(GnuOp::Clrsb) => {
            let flipped = if vals[0] < 0 { !x & mask } else { x };
            (flipped.leading_zeros() - (128 - bits)) as i128 - 1
        }
        Lowering::Gnu(GnuOp::ByteSwap) => (x.swap_bytes() >> (128 - bits)) as i128,
        Lowering::Gnu(GnuOp::BitReverse) => (x.reverse_bits() >> (128 - bits)) as i128,
        Lowering::Gnu(op @ (GnuOp::RotateLeft | GnuOp::RotateRight)) => {
            let n = (vals[1] as u128 % bits as u128) as u32;
            let n = if op == GnuOp::RotateLeft { n } else { (bits - n) % bits };
            (((x << n) | (x >> ((bits - n) % bits))) & mask) as i128
        }
        Lowering::Ext(OpenClStd::SAbs) => vals[0].abs(),
        _ => return not(),
    };
    Ok(CInt { value: ret.wrap(v), ty: ret })
}

/// `sizeof` and friends have type `size_t`; 64-bit here (the value is what
/// matters for array sizes and comparisons).
fn sized(n: u64) -> CInt {
    CInt { value: n as i128, ty: IntTy::ULONG }
}

/// C99 6.4.4.1: the first type in the list for the literal's suffix and
/// radix that can represent the value.
pub fn literal(value: u64, unsigned: bool, long: bool, radix: u32) -> CInt {
    let v = value as i128;
    let candidates: &[IntTy] = match (unsigned, long, radix == 10) {
        (false, false, true) => &[IntTy::INT, IntTy::LONG, IntTy::ULONG],
        (false, false, false) => &[IntTy::INT, IntTy::UINT, IntTy::LONG, IntTy::ULONG],
        (true, false, _) => &[IntTy::UINT, IntTy::ULONG],
        (false, true, true) => &[IntTy::LONG, IntTy::ULONG],
        (false, true, false) => &[IntTy::LONG, IntTy::ULONG],
        (true, true, _) => &[IntTy::ULONG],
    };
    let ty = candidates.iter().copied().find(|t| t.fits(v)).unwrap_or(IntTy::ULONG);
    CInt { value: v, ty }
}

/// Integer promotion: everything narrower than `int` becomes `int`.
fn promote(v: CInt) -> CInt {
    if v.ty.bits < 32 { CInt::int(v.value) } else { v }
}

/// The usual arithmetic conversions on two promoted integer types.
pub(super) fn common(a: IntTy, b: IntTy) -> IntTy {
    if a == b {
        return a;
    }
    if a.bits != b.bits {
        let (wide, narrow) = if a.bits > b.bits { (a, b) } else { (b, a) };
        // The wider type can hold every value of the narrower one, or is
        // unsigned anyway.
        let _ = narrow;
        return wide;
    }
    IntTy { bits: a.bits, signed: false }
}

fn binary(op: BinOp, a: &Expr, b: &Expr, span: Span, env: &mut dyn Env) -> Result<CInt, NotConst> {
    // `&&`, `||` and `,` are not arithmetic; the short-circuit operators
    // still need both sides to be constant in an ICE.
    let x = promote(eval(a, env)?);
    let y = promote(eval(b, env)?);
    let bool_ = |c: bool| Ok(CInt::int(c as i128));
    match op {
        BinOp::And => return bool_(x.value != 0 && y.value != 0),
        BinOp::Or => return bool_(x.value != 0 || y.value != 0),
        BinOp::Comma => return Err(NotConst { span, reason: String::new() }),
        BinOp::Shl | BinOp::Shr => {
            // OpenCL C 6.3.j: the count is taken modulo the left operand's
            // width (`1 << 33` is 2), as at run time.
            let ty = x.ty;
            let count = y.value & (ty.bits as i128 - 1);
            let r = if op == BinOp::Shl { x.value << count } else { x.value >> count };
            return Ok(CInt { value: ty.wrap(r), ty });
        }
        _ => {}
    }
    let ty = common(x.ty, y.ty);
    let (l, r) = (ty.wrap(x.value), ty.wrap(y.value));
    let v = match op {
        BinOp::Mul => l * r,
        BinOp::Div | BinOp::Rem => {
            if r == 0 {
                return Err(NotConst { span: b.span, reason: "division by zero".into() });
            }
            if op == BinOp::Div { l / r } else { l % r }
        }
        BinOp::Add => l + r,
        BinOp::Sub => l - r,
        BinOp::Lt => return bool_(l < r),
        BinOp::Gt => return bool_(l > r),
        BinOp::Le => return bool_(l <= r),
        BinOp::Ge => return bool_(l >= r),
        BinOp::Eq => return bool_(l == r),
        BinOp::Ne => return bool_(l != r),
        BinOp::BitAnd => l & r,
        BinOp::BitXor => l ^ r,
        BinOp::BitOr => l | r,
        BinOp::Shl | BinOp::Shr | BinOp::And | BinOp::Or | BinOp::Comma => unreachable!("handled above"),
    };
    Ok(CInt { value: ty.wrap(v), ty })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex::literal::IntSuffix;

    struct NoNames;
    impl Env for NoNames {
        fn constant(&mut self, name: &str) -> Option<CInt> {
            (name == "TEN").then(|| CInt::int(10))
        }
        fn type_query(&mut self, _: SizeofKind, _: &TypeName) -> Option<u64> {
            Some(4)
        }
        fn expr_query(&mut self, _: SizeofKind, _: &Expr) -> Option<u64> {
            None
        }
        fn int_cast(&mut self, _: &TypeName) -> Option<IntTy> {
            Some(IntTy { bits: 8, signed: false })
        }
        fn offsetof(&mut self, _: &TypeName, _: &[Designator]) -> Option<u64> {
            None
        }
        fn clang_builtin(&mut self, name: &str) -> Option<&'static Overload> {
            clc_builtins::lookup(name).and_then(|o| o.first())
        }
    }

    fn e(kind: ExprKind) -> Box<Expr> {
        Box::new(Expr::new(kind, Span::default()))
    }
    fn lit(v: u64) -> Box<Expr> {
        e(ExprKind::IntLit { value: v, suffix: IntSuffix { unsigned: false, long: false }, radix: 10, from_macro: false })
    }
    fn ulit(v: u64) -> Box<Expr> {
        e(ExprKind::IntLit { value: v, suffix: IntSuffix { unsigned: true, long: false }, radix: 10, from_macro: false })
    }
    fn bin(op: BinOp, a: Box<Expr>, b: Box<Expr>) -> Box<Expr> {
        e(ExprKind::Binary(op, a, b))
    }
    fn val(x: &Expr) -> Result<i128, NotConst> {
        eval(x, &mut NoNames).map(|c| c.value)
    }

    #[test]
    fn arithmetic_and_precedence_free_trees() {
        assert_eq!(val(&bin(BinOp::Add, lit(2), bin(BinOp::Mul, lit(3), lit(4)))), Ok(14));
        assert_eq!(val(&bin(BinOp::Div, e(ExprKind::Unary(UnOp::Neg, lit(7))), lit(2))), Ok(-3));
        assert_eq!(val(&bin(BinOp::Rem, e(ExprKind::Unary(UnOp::Neg, lit(7))), lit(2))), Ok(-1));
        assert_eq!(val(&bin(BinOp::Shl, lit(1), lit(10))), Ok(1024));
        assert_eq!(val(&e(ExprKind::Unary(UnOp::BitNot, lit(0)))), Ok(-1));
        assert_eq!(val(&e(ExprKind::Unary(UnOp::Not, lit(5)))), Ok(0));
        assert_eq!(val(&bin(BinOp::And, lit(1), lit(0))), Ok(0));
        assert_eq!(val(&e(ExprKind::Ident(crate::parse::ast::Ident { name: "TEN".into(), span: Span::default() }))), Ok(10));
    }

    #[test]
    fn unsigned_conversions_follow_c() {
        // -1 < 1u is false: -1 converts to UINT_MAX.
        assert_eq!(val(&bin(BinOp::Lt, e(ExprKind::Unary(UnOp::Neg, lit(1))), ulit(1))), Ok(0));
        assert_eq!(val(&bin(BinOp::Sub, ulit(0), ulit(1))), Ok(u32::MAX as i128));
        // 2147483648 does not fit int: it is long.
        assert_eq!(eval(&lit(2147483648), &mut NoNames).unwrap().ty, IntTy::LONG);
        // 0x80000000 is unsigned int.
        let hex = e(ExprKind::IntLit { value: 0x8000_0000, suffix: IntSuffix { unsigned: false, long: false }, radix: 16, from_macro: false });
        assert_eq!(eval(&hex, &mut NoNames).unwrap().ty, IntTy::UINT);
        // int overflow wraps in the evaluator (clang warns; the value is the wrapped one).
        assert_eq!(val(&bin(BinOp::Mul, lit(65536), lit(65536))), Ok(0));
    }

    fn call(name: &str, args: Vec<Box<Expr>>) -> Box<Expr> {
        let f = e(ExprKind::Ident(crate::parse::ast::Ident { name: name.into(), span: Span::default() }));
        e(ExprKind::Call(f, args.into_iter().map(|a| *a).collect()))
    }

    /// clang's integer builtins fold to GCC's documented values: each
    /// expectation below is worked by hand from the bits.
    #[test]
    fn clang_builtins_fold() {
        let neg = |v: u64| e(ExprKind::Unary(UnOp::Neg, lit(v)));
        assert_eq!(val(&call("__builtin_clz", vec![lit(1)])), Ok(31));
        assert_eq!(val(&call("__builtin_clzl", vec![lit(1)])), Ok(63));
        assert_eq!(val(&call("__builtin_clzs", vec![lit(0x80)])), Ok(8));
        assert!(val(&call("__builtin_clz", vec![lit(0)])).is_err(), "undefined for 0");
        assert!(val(&call("__builtin_ctz", vec![lit(0)])).is_err(), "undefined for 0");
        assert_eq!(val(&call("__builtin_ctz", vec![lit(0x50)])), Ok(4));
        // -1 converts to the parameter's unsigned int: 32 ones.
        assert_eq!(val(&call("__builtin_popcount", vec![neg(1)])), Ok(32));
        assert_eq!(val(&call("__builtin_popcountll", vec![neg(1)])), Ok(64));
        assert_eq!(val(&call("__builtin_parity", vec![lit(7)])), Ok(1));
        assert_eq!(val(&call("__builtin_ffs", vec![lit(0)])), Ok(0));
        assert_eq!(val(&call("__builtin_ffs", vec![lit(12)])), Ok(3));
        assert_eq!(val(&call("__builtin_clrsb", vec![lit(0)])), Ok(31));
        assert_eq!(val(&call("__builtin_clrsb", vec![neg(1)])), Ok(31));
        assert_eq!(val(&call("__builtin_clrsb", vec![lit(1)])), Ok(30));
        assert_eq!(val(&call("__builtin_clrsbl", vec![neg(2)])), Ok(62));
        assert_eq!(val(&call("__builtin_bswap16", vec![lit(0x1234)])), Ok(0x3412));
        assert_eq!(val(&call("__builtin_bswap32", vec![lit(0x1234_5678)])), Ok(0x7856_3412));
        assert_eq!(val(&call("__builtin_bswap64", vec![lit(1)])), Ok(1 << 56));
        assert_eq!(val(&call("__builtin_bitreverse8", vec![lit(1)])), Ok(0x80));
        assert_eq!(val(&call("__builtin_bitreverse32", vec![lit(6)])), Ok(0x6000_0000));
        assert_eq!(val(&call("__builtin_rotateleft8", vec![lit(0x81), lit(1)])), Ok(0x03));
        assert_eq!(val(&call("__builtin_rotateright32", vec![lit(1), lit(1)])), Ok(0x8000_0000));
        assert_eq!(val(&call("__builtin_rotateleft16", vec![lit(0x1234), lit(20)])), Ok(0x2341));
        assert_eq!(val(&call("__builtin_rotateright64", vec![lit(0x10), lit(0)])), Ok(0x10));
        assert_eq!(val(&call("__builtin_abs", vec![neg(5)])), Ok(5));
        // The value of `__builtin_expect` is its first argument, a `long`.
        let x = eval(&call("__builtin_expect", vec![lit(3), lit(0)]), &mut NoNames).unwrap();
        assert_eq!((x.value, x.ty), (3, IntTy::LONG));
        let tn = || e(ExprKind::Ident(crate::parse::ast::Ident { name: "x".into(), span: Span::default() }));
        assert!(val(&call("__builtin_expect", vec![lit(3), tn()])).is_err(), "an expected value that is no constant");
        assert_eq!(val(&call("__builtin_constant_p", vec![tn()])), Ok(0));
        assert_eq!(val(&call("__builtin_constant_p", vec![bin(BinOp::Add, lit(1), lit(2))])), Ok(1));
        // Not foldable: floating-point results, run-time effects.
        assert!(val(&call("__builtin_inff", vec![])).is_err());
        assert!(val(&call("__builtin_trap", vec![])).is_err());
    }

    #[test]
    fn errors_name_the_culprit() {
        assert_eq!(val(&bin(BinOp::Div, lit(1), lit(0))).unwrap_err().reason, "division by zero");
        // OpenCL masks shift counts by the width: no error.
        assert_eq!(val(&bin(BinOp::Shl, lit(1), lit(40))), Ok(256));
        assert_eq!(val(&bin(BinOp::Shr, lit(256), lit(36))), Ok(16));
        assert!(val(&e(ExprKind::Ident(crate::parse::ast::Ident { name: "x".into(), span: Span::default() }))).is_err());
        assert!(val(&e(ExprKind::FloatLit { value: 1.5, value_f32: 1.5, suffix: crate::lex::literal::FloatSuffix::None })).is_err());
    }

    #[test]
    fn casts_and_sizeof() {
        let tn = || {
            Box::new(TypeName {
                specs: crate::parse::ast::DeclSpecs { items: Vec::new(), span: Span::default() },
                declarator: None,
                span: Span::default(),
            })
        };
        assert_eq!(val(&e(ExprKind::Cast(tn(), lit(300)))), Ok(44));
        let f = e(ExprKind::FloatLit { value: 3.9, value_f32: 3.9, suffix: crate::lex::literal::FloatSuffix::None });
        assert_eq!(val(&e(ExprKind::Cast(tn(), f))), Ok(3));
        assert_eq!(val(&bin(BinOp::Mul, e(ExprKind::SizeofType(SizeofKind::Sizeof, tn())), lit(3))), Ok(12));
    }
}
