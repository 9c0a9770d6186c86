//! Loop unrolling hints: `#pragma unroll`, `#pragma unroll N`, `#pragma
//! nounroll` and OpenCL C 2.0's `__attribute__((opencl_unroll_hint))`,
//! `__attribute__((opencl_unroll_hint(N)))` (§6.11.5).
//!
//! The checker's rules and messages are clang-22's: the attribute stands
//! only on `for`, `while` and `do` statements, with at most one argument,
//! an integer constant that is positive as an `int`; a pragma's count is
//! an integer constant expression from 0 to `INT_MAX` (0 and 1 mean no
//! unrolling), and a loop takes no two pragmas of a kind (`#pragma
//! unroll`, `#pragma nounroll` and counts 0 and 1 are one kind, other
//! counts the other) nor one of each. [`unroll_of`] combines a checked
//! loop's hints into what the typed program asks of code generation, as
//! clang's `CGLoopInfo` does. Nothing here knows LLVM's metadata names.

use super::*;
use crate::sema::hir::Unroll as Hint;

/// Is `a` the `opencl_unroll_hint` attribute? Checked here, not with
/// declarations' attributes.
pub(super) fn is_unroll_hint(a: &Attribute) -> bool {
    a.name.name == "opencl_unroll_hint"
}

/// The hint of a checked loop: `pragmas` are its `#pragma unroll`s
/// (`nounroll`, and the count's value), `attr_counts` its
/// `opencl_unroll_hint`s in source order (0 for one without argument).
///
/// As clang: a pragma makes the attributes count for nothing; the
/// attributes otherwise each set the loop's state (no argument: enable;
/// 1: disable) or its count (more than 1), the last of each winning, and
/// a disabled loop has no count.
pub(super) fn unroll_of(pragmas: &[(bool, Option<i128>)], attr_counts: &[u32]) -> Option<Hint> {
    if let Some(&(nounroll, count)) = pragmas.first() {
        return Some(match count {
            _ if nounroll => Hint::Disable,
            None => Hint::Enable,
            Some(n) if n <= 1 => Hint::Disable,
            Some(n) => Hint::Count { count: u32::try_from(n).ok()?, enable: false },
        });
    }
    let (mut enable, mut count) = (None, None);
    for &n in attr_counts {
        match n {
            0 => enable = Some(true),
            1 => enable = Some(false),
            n => count = Some(n),
        }
    }
    match (enable, count) {
        (Some(false), _) => Some(Hint::Disable),
        (enable, Some(count)) => Some(Hint::Count { count, enable: enable == Some(true) }),
        (Some(true), None) => Some(Hint::Enable),
        (None, None) => None,
    }
}

/// The value an `opencl_unroll_hint` argument stands for: clang reads it
/// as an `int` (so 2^32 + 1 is 1).
pub(super) fn attr_count(v: i128) -> i32 {
    v as i64 as i32
}

impl Checker<'_> {
    /// The unrolling hints on statement `s`: its `opencl_unroll_hint`
    /// attributes and, on a loop, its pragmas.
    pub(super) fn loop_hints(&mut self, s: &Stmt) {
        let pragmas = match &s.kind {
            StmtKind::While { unroll, .. } | StmtKind::DoWhile { unroll, .. } | StmtKind::For { unroll, .. } => Some(&unroll[..]),
            _ => None,
        };
        for a in s.attrs.iter().filter(|a| is_unroll_hint(a)) {
            self.unroll_hint(a, pragmas.is_some(), matches!(s.kind, StmtKind::Label { .. }));
        }
        if let Some(p) = pragmas {
            self.unroll_pragmas(p);
        }
    }

    /// `opencl_unroll_hint` among a declaration's attributes.
    pub(super) fn unroll_hint_on_declaration(&mut self, a: &Attribute) {
        self.diags.push(err("E0315", a.name.span, format!("'{}' attribute cannot be applied to a declaration", a.name.name)));
    }

    /// One `opencl_unroll_hint` attribute, on a loop (`on_loop`) or on
    /// another statement (a labelled one: `label`, which clang takes for
    /// a declaration).
    fn unroll_hint(&mut self, a: &Attribute, on_loop: bool, label: bool) {
        // An argument that does not type (an undeclared name) makes clang
        // drop the attribute.
        let mut types = Vec::new();
        for arg in &a.args {
            if let AttrArg::Expr(e) = arg {
                let Some(v) = self.type_expr(e) else { return };
                types.push(v.ty.ty);
            }
        }
        let name = &a.name.name;
        if !on_loop {
            let msg = if label {
                format!("'{name}' attribute cannot be applied to a declaration")
            } else {
                format!("'{name}' attribute only applies to 'for', 'while', and 'do' statements")
            };
            self.diags.push(err("E0315", a.name.span, msg));
            return;
        }
        let not_constant = |arg: Span| err("E0315", a.name.span, format!("'{name}' attribute requires an integer constant")).with_secondary(arg, "not an integer constant");
        match a.args.as_slice() {
            [] => {}
            [AttrArg::Type(t)] => self.diags.push(not_constant(t.span)),
            [AttrArg::Expr(e)] => {
                let int = types.first().is_some_and(|&t| self.integer_type(t)) && !is_bool_literal(e);
                match consteval::eval(e, self) {
                    Ok(v) if int => {
                        if attr_count(v.value) <= 0 {
                            let msg = format!("'{name}' attribute requires a positive integral compile time constant expression");
                            self.diags.push(err("E0315", a.name.span, msg));
                        }
                    }
                    _ => self.diags.push(not_constant(e.span)),
                }
            }
            _ => self.diags.push(err("E0315", a.name.span, format!("'{name}' attribute takes no more than 1 argument"))),
        }
    }

    /// A loop's `#pragma unroll`s: each count checked, then clang's
    /// duplicate and incompatible pragmas among the valid ones (a count of
    /// 0 or 1 is of `#pragma unroll`'s kind, named without its value).
    fn unroll_pragmas(&mut self, pragmas: &[Unroll]) {
        let (mut state, mut numeric): (Option<String>, Option<String>) = (None, None);
        for p in pragmas {
            let (is_count, name) = match &p.count {
                None => (false, if p.nounroll { "#pragma nounroll" } else { "#pragma unroll" }.to_string()),
                Some(e) => match self.unroll_count(e) {
                    None => continue,
                    Some(v) if v <= 1 => (false, "#pragma unroll".to_string()),
                    Some(v) => (true, format!("#pragma unroll({v})")),
                },
            };
            let slot = if is_count { &mut numeric } else { &mut state };
            if let Some(prev) = slot.replace(name.clone()) {
                self.diags.push(err("E0334", p.name, format!("duplicate directives '{prev}' and '{name}'")));
            }
            if let (Some(s), Some(n)) = (&state, &numeric) {
                self.diags.push(err("E0334", p.name, format!("incompatible directives '{s}' and '{n}'")));
            }
        }
    }

    /// The value of a `#pragma unroll` count, if it is one (else the error
    /// is reported): an integer constant expression of integer type from
    /// 0 to `INT_MAX`.
    fn unroll_count(&mut self, e: &Expr) -> Option<i128> {
        let t = self.type_expr(e)?.ty.ty;
        if is_bool_literal(e) || !self.integer_type(t) {
            let t = if is_bool_literal(e) { "bool".to_string() } else { self.types.display(t) };
            self.diags.push(err("E0334", e.span, format!("invalid argument of type '{t}'; expected an integer type")));
            return None;
        }
        let v = self.ice(e, "the unroll count")?.value;
        if v < 0 {
            self.diags.push(err("E0334", e.span, format!("invalid value '{v}'; must be positive")));
            return None;
        }
        if v > i128::from(i32::MAX) {
            self.diags.push(err("E0334", e.span, format!("value '{v}' is too large")));
            return None;
        }
        Some(v)
    }

    /// Is `t` an integer type (an enumeration's too; not `bool`)?
    fn integer_type(&self, t: TypeId) -> bool {
        match self.types.kind(t) {
            TypeKind::Scalar(s) => !matches!(s, Scalar::Bool | Scalar::Half | Scalar::Float | Scalar::Double),
            TypeKind::Enum(_) => true,
            _ => false,
        }
    }
}

/// `true`/`false` (in parentheses or not), which are `bool` to clang
/// though this checker types them `int`.
fn is_bool_literal(e: &Expr) -> bool {
    let mut e = e;
    while let ExprKind::Paren(i) = &e.kind {
        e = i;
    }
    matches!(e.kind, ExprKind::BoolLit(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_combine_as_clang_combines_them() {
        let count = |count, enable| Some(Hint::Count { count, enable });
        // Pragmas alone; the attributes then count for nothing.
        assert_eq!(unroll_of(&[(false, None)], &[4]), Some(Hint::Enable));
        assert_eq!(unroll_of(&[(true, None)], &[0]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[(false, Some(0))], &[]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[(false, Some(1))], &[]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[(false, Some(4))], &[1]), count(4, false));
        // Attributes: the last state and the last count win; disabled
        // loops have no count.
        assert_eq!(unroll_of(&[], &[]), None);
        assert_eq!(unroll_of(&[], &[0]), Some(Hint::Enable));
        assert_eq!(unroll_of(&[], &[1]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[], &[2, 4]), count(4, false));
        assert_eq!(unroll_of(&[], &[4, 1]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[], &[1, 4]), Some(Hint::Disable));
        assert_eq!(unroll_of(&[], &[0, 4]), count(4, true));
        assert_eq!(unroll_of(&[], &[4, 0]), count(4, true));
        assert_eq!(unroll_of(&[], &[1, 0]), Some(Hint::Enable));
        assert_eq!(attr_count((1 << 32) + 1), 1);
        assert_eq!(attr_count(1 << 31), i32::MIN);
    }
}
