//! Whether control can run off the end of a function body (clang's
//! -Wreturn-type), judged from the statements' structure: a `return` or a
//! `goto` never completes, an `if` completes when a branch does, a loop
//! whose condition is absent or a nonzero literal completes only through
//! a `break`, a `switch` through a `break`, a missing `default` or its
//! last statement; a label makes what follows it reachable again. Only
//! literal conditions are constants here (clang's CFG folds more, so where
//! a condition is a named constant this may warn where clang does not).

use crate::parse::ast::{Expr, ExprKind, Stmt, StmtKind};

/// Can control reach the end of `items` (a function body)?
pub(super) fn falls_off(items: &[Stmt]) -> bool {
    block(items)
}

/// Does `items` hold a `return` anywhere (statements only)?
pub(super) fn has_return(items: &[Stmt]) -> bool {
    items.iter().any(|s| any_stmt(s, &|s| matches!(s.kind, StmtKind::Return(_)), true))
}

/// clang's -Wimplicit-fallthrough: the `case`/`default` labels of a
/// switch body that control reaches from the statements before them
/// (not from a label stacked on them, nor after a
/// `__attribute__((fallthrough));`). Only labels written directly in the
/// body's braces count, as in clang.
pub(super) fn fallthroughs(body: &Stmt) -> Vec<&Stmt> {
    let StmtKind::Compound(b) = &body.kind else { return Vec::new() };
    let mut found = Vec::new();
    let mut reaches = false;
    let mut annotated = false;
    for s in &b.items {
        let label = matches!(s.kind, StmtKind::Case { .. } | StmtKind::Default { .. });
        if label && reaches && !annotated {
            found.push(s);
        }
        annotated = matches!(s.kind, StmtKind::Null) && s.attrs.iter().any(|a| a.name.name == "fallthrough");
        let labelled = any_stmt(s, &|s| matches!(s.kind, StmtKind::Label { .. } | StmtKind::Case { .. } | StmtKind::Default { .. }), true);
        reaches = (reaches || labelled) && completes(s);
    }
    found
}

fn block(items: &[Stmt]) -> bool {
    let mut reaches = true;
    for s in items {
        let labelled = any_stmt(s, &|s| matches!(s.kind, StmtKind::Label { .. } | StmtKind::Case { .. } | StmtKind::Default { .. }), true);
        reaches = (reaches || labelled) && completes(s);
    }
    reaches
}

/// Can control leave `s` to the statement after it?
fn completes(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue => false,
        StmtKind::Compound(b) => block(&b.items),
        StmtKind::If { cond, then, else_ } => match literal(cond) {
            Some(true) => completes(then),
            Some(false) => else_.as_deref().is_none_or(completes),
            None => completes(then) || else_.as_deref().is_none_or(completes),
        },
        StmtKind::While { cond, body, .. } => literal(cond) != Some(true) || breaks(body),
        StmtKind::For { cond, body, .. } => cond.as_deref().is_some_and(|c| literal(c) != Some(true)) || breaks(body),
        StmtKind::DoWhile { body, cond, .. } => match literal(cond) {
            Some(true) => breaks(body),
            _ => completes(body) || continues(body) || breaks(body),
        },
        StmtKind::Switch { body, .. } => breaks(body) || !any_stmt(body, &|s| matches!(s.kind, StmtKind::Default { .. }), false) || completes(body),
        StmtKind::Label { body, .. } | StmtKind::Case { body, .. } | StmtKind::Default { body } => completes(body),
        StmtKind::Expr(e) => !ends_control(e),
        StmtKind::Decl(_) | StmtKind::StaticAssert(_) | StmtKind::Null | StmtKind::Error => true,
    }
}

/// Is `e` a call of `__builtin_unreachable` or `__builtin_trap`, after
/// which control goes nowhere?
fn ends_control(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Paren(x) => ends_control(x),
        ExprKind::Call(f, _) => matches!(&f.kind, ExprKind::Ident(id) if id.name == "__builtin_unreachable" || id.name == "__builtin_trap"),
        _ => false,
    }
}

/// The value of a condition written as a literal.
fn literal(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Paren(x) => literal(x),
        ExprKind::IntLit { value, .. } => Some(*value != 0),
        ExprKind::BoolLit(b) => Some(*b),
        _ => None,
    }
}

/// Does `s` hold a `break` leaving the loop or switch `s` is the body of?
fn breaks(s: &Stmt) -> bool {
    any_stmt(s, &|s| matches!(s.kind, StmtKind::Break), false)
}

/// Does `s` hold a `continue` of the loop `s` is the body of? (Switches
/// pass `continue` on; loops do not.)
fn continues(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => false,
        _ => children(s).any(continues),
    }
}

/// Does `s` or a statement in it satisfy `pred`? Into nested loops and
/// switches only when `nested` (a `break` or `default` there is theirs).
fn any_stmt(s: &Stmt, pred: &dyn Fn(&Stmt) -> bool, nested: bool) -> bool {
    if pred(s) {
        return true;
    }
    if !nested && matches!(s.kind, StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } | StmtKind::Switch { .. }) {
        return false;
    }
    children(s).any(|c| any_stmt(c, pred, nested))
}

/// The statements directly inside `s`.
fn children(s: &Stmt) -> Box<dyn Iterator<Item = &Stmt> + '_> {
    match &s.kind {
        StmtKind::Compound(b) => Box::new(b.items.iter()),
        StmtKind::If { then, else_, .. } => Box::new(std::iter::once(&**then).chain(else_.as_deref())),
        StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => Box::new(std::iter::once(&**body)),
        _ => Box::new(std::iter::empty()),
    }
}
