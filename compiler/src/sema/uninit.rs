//! clang's -Wuninitialized (in `-Wall`, off by default): a local variable
//! declared without an initializer and read before anything stores to it,
//! on every path to the read.
//!
//! clang decides this on the control-flow graph; this is a syntactic
//! version that only reports what is certain and gives up on a variable
//! where it is not: the variable is followed through the statements after
//! its declaration in its block; a branch that stores to it makes it
//! "maybe stored" (no more warnings), a loop or `switch` that stores to it
//! anywhere too (a read in it may follow the store of an earlier
//! iteration); `goto`, labels, blocks capturing it, a declaration
//! shadowing its name, or its address taken end the tracking. Scalars,
//! vectors and pointers in the private space only.

use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::ast::*;
use crate::source::Span;

/// Checks a function body.
pub fn check(body: &Block, diags: &mut Diagnostics) {
    if has_jumps(&body.items) {
        return;
    }
    block(&body.items, diags);
}

/// A tracked variable: its name and where it is declared.
#[derive(Clone)]
struct Var {
    name: String,
    at: Span,
}

/// The variables still certainly unstored.
type Set = Vec<Var>;

fn block(items: &[Stmt], diags: &mut Diagnostics) {
    for (i, s) in items.iter().enumerate() {
        let StmtKind::Decl(d) = &s.kind else { continue };
        for v in uninitialized(d) {
            // A later declaration of the name (here or nested) may be what
            // later uses name: not followed.
            let rest = &items[i + 1..];
            if rest.iter().any(|s| declares(s, &v.name)) {
                continue;
            }
            let mut set = vec![v];
            for s in rest {
                stmt(s, &mut set, diags);
                if set.is_empty() {
                    break;
                }
            }
        }
    }
    // Variables of nested blocks.
    for s in items {
        nested_blocks(s, diags);
    }
}

fn nested_blocks(s: &Stmt, diags: &mut Diagnostics) {
    match &s.kind {
        StmtKind::Compound(b) => block(&b.items, diags),
        _ => sub_statements(s).into_iter().for_each(|c| nested_blocks(c, diags)),
    }
}

/// The statements directly inside `s`.
fn sub_statements(s: &Stmt) -> Vec<&Stmt> {
    match &s.kind {
        StmtKind::Compound(b) => b.items.iter().collect(),
        StmtKind::If { then, else_, .. } => std::iter::once(&**then).chain(else_.as_deref()).collect(),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::For { body, .. } | StmtKind::Switch { body, .. } => vec![body],
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => vec![body],
        _ => Vec::new(),
    }
}

/// The names `d` declares without initializer, of a type this follows.
fn uninitialized(d: &Decl) -> Vec<Var> {
    // Arithmetic types, written with keywords or OpenCL's words for them
    // (`uint`, `float4`, `size_t`); no storage class or address space.
    const WORDS: &[&str] = &["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half", "bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"];
    let arithmetic = |name: &str| WORDS.contains(&name.trim_end_matches(|c: char| c.is_ascii_digit()));
    let plain = d.specs.items.iter().all(|s| match s {
        DeclSpec::Storage(..) | DeclSpec::AddrSpace(..) | DeclSpec::Attr(_) | DeclSpec::Pipe(_) => false,
        DeclSpec::Type(t) => match &t.kind {
            TypeSpecKind::Builtin { name, .. } => arithmetic(name),
            TypeSpecKind::TypedefName(_) | TypeSpecKind::TypeofExpr(_) | TypeSpecKind::TypeofType(_) | TypeSpecKind::Struct(_) | TypeSpecKind::Error => false,
            _ => true,
        },
        _ => true,
    });
    if !plain {
        return Vec::new();
    }
    d.declarators
        .iter()
        .filter(|id| id.init.is_none())
        .filter_map(|id| match &id.declarator.kind {
            DeclaratorKind::Name(Some(n)) => Some(Var { name: n.name.to_string(), at: n.span }),
            DeclaratorKind::Pointer { inner, .. } => match &inner.kind {
                DeclaratorKind::Name(Some(n)) => Some(Var { name: n.name.to_string(), at: n.span }),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// One statement after the declaration, in order.
fn stmt(s: &Stmt, set: &mut Set, diags: &mut Diagnostics) {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr(e, set, diags),
        StmtKind::Decl(d) => decl_inits(d, set, diags),
        StmtKind::Compound(b) => {
            for s in &b.items {
                stmt(s, set, diags);
            }
        }
        StmtKind::If { cond, then, else_ } => {
            expr(cond, set, diags);
            let mut a = set.clone();
            stmt(then, &mut a, diags);
            let mut b = set.clone();
            if let Some(e) = else_ {
                stmt(e, &mut b, diags);
            }
            // Still unstored after the `if` only if unstored on both ways.
            set.retain(|v| a.iter().any(|x| x.name == v.name) && b.iter().any(|x| x.name == v.name));
        }
        StmtKind::While { cond, body, .. } => looped(&[Part::E(cond), Part::S(body)], set, diags),
        StmtKind::DoWhile { body, cond, .. } => looped(&[Part::S(body), Part::E(cond)], set, diags),
        StmtKind::For { init, cond, step, body, .. } => {
            match init {
                ForInit::Expr(e) => expr(e, set, diags),
                ForInit::Decl(d) => decl_inits(d, set, diags),
                ForInit::None => {}
            }
            let mut parts = Vec::new();
            if let Some(c) = cond {
                parts.push(Part::E(c));
            }
            parts.push(Part::S(body));
            if let Some(st) = step {
                parts.push(Part::E(st));
            }
            looped(&parts, set, diags);
        }
        StmtKind::Switch { cond, body } => {
            expr(cond, set, diags);
            looped(&[Part::S(body)], set, diags);
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => stmt(body, set, diags),
        _ => {}
    }
}

enum Part<'a> {
    E(&'a Expr),
    S(&'a Stmt),
}

/// A loop's (or a switch's) parts: a variable stored anywhere in them is
/// given up (a read may follow an earlier iteration's store); the others
/// are read uninitialized wherever they are read.
fn looped(parts: &[Part], set: &mut Set, diags: &mut Diagnostics) {
    set.retain(|v| {
        !parts.iter().any(|p| match p {
            Part::E(e) => stores_expr(e, &v.name),
            Part::S(s) => stores_stmt(s, &v.name),
        })
    });
    for p in parts {
        match p {
            Part::E(e) => expr(e, set, diags),
            Part::S(s) => stmt(s, set, diags),
        }
    }
}

fn decl_inits(d: &Decl, set: &mut Set, diags: &mut Diagnostics) {
    for id in &d.declarators {
        if let Some(init) = &id.init {
            initializer(init, set, diags);
        }
    }
}

fn initializer(init: &Initializer, set: &mut Set, diags: &mut Diagnostics) {
    match init {
        Initializer::Expr(e) => expr(e, set, diags),
        Initializer::List { items, .. } => {
            for i in items {
                initializer(&i.init, set, diags);
            }
        }
    }
}

/// Reports the read of `name` at `at` if it is unstored, once per variable.
fn read(name: &str, at: Span, set: &mut Set, diags: &mut Diagnostics) {
    if let Some(i) = set.iter().position(|v| v.name == name) {
        let v = set.remove(i);
        diags.push(
            Diagnostic::warning("uninitialized", at, format!("variable '{name}' is uninitialized when used here"))
                .with_note_at(v.at, format!("initialize the variable '{name}' to silence this warning")),
        );
    }
}

fn stored(name: &str, set: &mut Set) {
    set.retain(|v| v.name != name);
}

/// An expression, in evaluation order as far as it matters here.
fn expr(e: &Expr, set: &mut Set, diags: &mut Diagnostics) {
    if set.is_empty() {
        return;
    }
    match &e.kind {
        ExprKind::Ident(id) => read(&id.name, e.span, set, diags),
        ExprKind::Paren(x) | ExprKind::Cast(_, x) => expr(x, set, diags),
        ExprKind::Assign(op, l, r) => {
            expr(r, set, diags);
            match &strip(l).kind {
                ExprKind::Ident(id) => {
                    if op.is_some() {
                        read(&id.name, l.span, set, diags);
                    }
                    stored(&id.name, set);
                }
                // A part stored (`v.x = …`, `a[i] = …` of a pointer):
                // given up.
                _ => place(l, set, diags),
            }
        }
        ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, x) => {
            if let ExprKind::Ident(id) = &strip(x).kind {
                read(&id.name, x.span, set, diags);
                stored(&id.name, set);
            } else {
                place(x, set, diags);
            }
        }
        ExprKind::Unary(UnOp::AddrOf, x) => place(x, set, diags),
        ExprKind::Unary(_, x) => expr(x, set, diags),
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            expr(a, set, diags);
            // The right runs only sometimes: what it stores is maybe
            // stored; what it reads first is read uninitialized.
            let mut right = set.clone();
            expr(b, &mut right, diags);
            set.retain(|v| right.iter().any(|x| x.name == v.name));
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            expr(a, set, diags);
            expr(b, set, diags);
        }
        ExprKind::Cond(c, a, b) => {
            expr(c, set, diags);
            let mut x = set.clone();
            expr(a, &mut x, diags);
            let mut y = set.clone();
            expr(b, &mut y, diags);
            set.retain(|v| x.iter().any(|w| w.name == v.name) && y.iter().any(|w| w.name == v.name));
        }
        ExprKind::Call(f, args) => {
            expr(f, set, diags);
            for a in args {
                expr(a, set, diags);
            }
        }
        ExprKind::VectorLiteral(_, xs) => {
            for x in xs {
                expr(x, set, diags);
            }
        }
        ExprKind::Member { base, .. } => expr(base, set, diags),
        ExprKind::CompoundLiteral(_, init) => initializer(init, set, diags),
        // Not evaluated.
        ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) => {}
        // A block captures what it names; a statement expression may do
        // anything: given up.
        _ => set.retain(|v| !mentions(e, &v.name)),
    }
}

/// An lvalue designated, not read: a variable under it is given up (part
/// of it stored, or its address taken); indices are read.
fn place(e: &Expr, set: &mut Set, diags: &mut Diagnostics) {
    match &e.kind {
        ExprKind::Ident(id) => stored(&id.name, set),
        ExprKind::Paren(x) => place(x, set, diags),
        ExprKind::Member { base, arrow: false, .. } => place(base, set, diags),
        ExprKind::Index(a, b) => {
            place(a, set, diags);
            expr(b, set, diags);
        }
        _ => expr(e, set, diags),
    }
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}

/// Does `e` name `name` anywhere?
fn mentions(e: &Expr, name: &str) -> bool {
    let mut found = false;
    visit_expr(e, &mut |x| {
        if let ExprKind::Ident(id) = &x.kind {
            found |= *id.name == *name;
        }
    });
    found
}

/// Might `e` store to `name` (assign it, increment it, take its address,
/// capture it)?
fn stores_expr(e: &Expr, name: &str) -> bool {
    let mut found = false;
    visit_expr(e, &mut |x| {
        let target = match &x.kind {
            ExprKind::Assign(_, l, _) | ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec | UnOp::AddrOf, l) => Some(&**l),
            ExprKind::BlockLit(_) | ExprKind::StmtExpr(_) => Some(x),
            _ => None,
        };
        if let Some(t) = target {
            found |= mentions(t, name);
        }
    });
    found
}

fn stores_stmt(s: &Stmt, name: &str) -> bool {
    let mut found = false;
    visit_stmt(s, &mut |e| found |= stores_expr(e, name), &mut |_| {});
    found
}

/// Does `s` declare `name` (at any depth)?
fn declares(s: &Stmt, name: &str) -> bool {
    let mut found = false;
    visit_stmt(s, &mut |_| {}, &mut |d| found |= d.declarators.iter().any(|id| id.declarator.name().is_some_and(|n| *n.name == *name)));
    found
}

fn has_jumps(items: &[Stmt]) -> bool {
    items.iter().any(|s| {
        let mut found = false;
        visit_stmts(s, &mut |s| found |= matches!(s.kind, StmtKind::Goto(_) | StmtKind::Label { .. }));
        found
    })
}

fn visit_stmts(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    f(s);
    for c in sub_statements(s) {
        visit_stmts(c, f);
    }
}

/// Every expression and declaration in `s`, at any depth.
fn visit_stmt(s: &Stmt, on_expr: &mut dyn FnMut(&Expr), on_decl: &mut dyn FnMut(&Decl)) {
    visit_stmts(s, &mut |s| match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => on_expr(e),
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } | StmtKind::Switch { cond, .. } => on_expr(cond),
        StmtKind::Case { value, .. } => on_expr(value),
        StmtKind::For { init, cond, step, .. } => {
            match init {
                ForInit::Expr(e) => on_expr(e),
                ForInit::Decl(d) => decl_exprs(d, on_expr, on_decl),
                ForInit::None => {}
            }
            cond.iter().for_each(|c| on_expr(c));
            step.iter().for_each(|c| on_expr(c));
        }
        StmtKind::Decl(d) => decl_exprs(d, on_expr, on_decl),
        _ => {}
    });
}

fn decl_exprs(d: &Decl, on_expr: &mut dyn FnMut(&Expr), on_decl: &mut dyn FnMut(&Decl)) {
    on_decl(d);
    fn init(i: &Initializer, on_expr: &mut dyn FnMut(&Expr)) {
        match i {
            Initializer::Expr(e) => on_expr(e),
            Initializer::List { items, .. } => items.iter().for_each(|i| init(&i.init, on_expr)),
        }
    }
    for id in &d.declarators {
        if let Some(i) = &id.init {
            init(i, on_expr);
        }
    }
}

/// `e` and every expression in it (not into blocks' or statement
/// expressions' bodies, which `stores_expr` treats as wholes).
fn visit_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::SizeofExpr(_, x) | ExprKind::Member { base: x, .. } => visit_expr(x, f),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Cond(c, a, b) => {
            visit_expr(c, f);
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Call(c, args) => {
            visit_expr(c, f);
            args.iter().for_each(|a| visit_expr(a, f));
        }
        ExprKind::VectorLiteral(_, xs) => xs.iter().for_each(|x| visit_expr(x, f)),
        ExprKind::BlockLit(b) => {
            // What a block names counts as named here.
            for s in &b.body.items {
                visit_stmt(s, &mut |x| visit_expr(x, f), &mut |_| {});
            }
        }
        ExprKind::StmtExpr(b) => {
            for s in &b.items {
                visit_stmt(s, &mut |x| visit_expr(x, f), &mut |_| {});
            }
        }
        _ => {}
    }
}
