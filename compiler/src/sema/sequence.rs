//! clang's -Wunsequenced: a variable modified twice, or modified and
//! read, with no sequence point between (`i = i++`, `a[i] = i++`): the
//! behaviour is undefined (C99 6.5p2).
//!
//! A port of clang's `SequenceChecker` with C's rules (not C++17's),
//! over one full expression of the AST. The objects tracked are
//! variables named directly (as clang does in C). Each use and
//! modification is recorded with the *region* it happened in; regions
//! form a tree, and a region whose evaluation ended at a sequence point
//! (the left of `,`, `&&`, `||`, the condition of `?:`) is merged into
//! its parent, so what happened in it counts as unsequenced only with
//! what its parent's later siblings do.

use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::source::Span;
use rustc_hash::FxHashMap as HashMap;

/// How an object is touched.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Use = 0,
    /// A modification whose value is used (complete at a sequence point).
    ModAsValue = 1,
    /// A modification as a side effect (`i++`, `i = …` in C).
    ModAsSideEffect = 2,
}

#[derive(Clone, Copy)]
struct Usage {
    at: Span,
    region: u32,
}

#[derive(Default)]
struct Info {
    uses: [Option<Usage>; 3],
    diagnosed: bool,
}

/// The tree of sequencing regions.
struct Tree {
    parent: Vec<u32>,
    merged: Vec<bool>,
}

impl Tree {
    fn allocate(&mut self, parent: u32) -> u32 {
        self.parent.push(parent);
        self.merged.push(false);
        self.parent.len() as u32 - 1
    }

    fn representative(&self, mut k: u32) -> u32 {
        while self.merged[k as usize] {
            k = self.parent[k as usize];
        }
        k
    }

    /// Is what happened in `old` unsequenced with what happens in `cur`
    /// (is `old`'s representative `cur` or one of its ancestors)?
    /// Regions are numbered in allocation order, parents first.
    fn unsequenced(&self, cur: u32, old: u32) -> bool {
        let target = self.representative(old);
        let mut c = self.representative(cur);
        loop {
            if c == target {
                return true;
            }
            if c < target || c == 0 {
                return false;
            }
            c = self.parent[c as usize];
        }
    }
}

struct Checker<'a> {
    is_var: &'a dyn Fn(&str) -> bool,
    diags: &'a mut Diagnostics,
    tree: Tree,
    region: u32,
    usages: HashMap<&'a str, Info>,
    /// Inside a sequenced subexpression: the side-effect modifications
    /// it made, with the usage each replaced (see `sequenced`).
    side_effects: Option<Vec<(&'a str, Option<Usage>)>>,
}

/// Checks the full expression `e`; `is_var` says which names are
/// variables.
pub fn check(e: &Expr, is_var: &dyn Fn(&str) -> bool, diags: &mut Diagnostics) {
    // Nothing can be unsequenced without an assignment or an increment,
    // nor with only one that is the whole expression (`x = …`, `a[i] += …`,
    // `i++`): its store comes after its operands' values, and nothing
    // else modifies.
    let count = modifications(e, 2);
    if count == 0 || (count == 1 && matches!(strip(e).kind, ExprKind::Assign(..) | ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, _))) {
        return;
    }
    let mut c = Checker { is_var, diags, tree: Tree { parent: vec![0], merged: vec![false] }, region: 0, usages: HashMap::default(), side_effects: None };
    c.value(e);
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}

/// How many assignments and increments `e` holds, counting up to `limit`.
fn modifications(e: &Expr, limit: u32) -> u32 {
    let mut n = u32::from(matches!(e.kind, ExprKind::Assign(..) | ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, _)));
    let add = |x: &Expr, n: &mut u32| {
        if *n < limit {
            *n += modifications(x, limit - *n);
        }
    };
    match &e.kind {
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Member { base: x, .. } => add(x, &mut n),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Assign(_, a, b) => {
            add(a, &mut n);
            add(b, &mut n);
        }
        ExprKind::Cond(c, a, b) => {
            add(c, &mut n);
            if let Some(a) = a {
                add(a, &mut n);
            }
            add(b, &mut n);
        }
        ExprKind::Call(f, args) => {
            add(f, &mut n);
            for a in args {
                add(a, &mut n);
            }
        }
        ExprKind::VectorLiteral(_, xs) => {
            for x in xs {
                add(x, &mut n);
            }
        }
        _ => {}
    }
    n.min(limit)
}

impl<'a> Checker<'a> {
    /// The variable `e` names (through parentheses).
    fn object(&self, e: &'a Expr) -> Option<&'a str> {
        match &e.kind {
            ExprKind::Paren(x) => self.object(x),
            ExprKind::Ident(id) if (self.is_var)(&id.name) => Some(&id.name),
            _ => None,
        }
    }

    fn check_usage(&mut self, o: &str, at: Span, other: Kind, mod_mod: bool) {
        let region = self.region;
        let Some(info) = self.usages.get_mut(o) else { return };
        if info.diagnosed {
            return;
        }
        let Some(u) = info.uses[other as usize] else { return };
        if !self.tree.unsequenced(region, u.region) {
            return;
        }
        let (m, other_at) = if other == Kind::Use { (at, u.at) } else { (u.at, at) };
        let msg = if mod_mod { format!("multiple unsequenced modifications to '{o}'") } else { format!("unsequenced modification and access to '{o}'") };
        info.diagnosed = true;
        self.diags.push(Diagnostic::warning("unsequenced", m, msg).with_range(other_at));
    }

    fn add_usage(&mut self, o: &'a str, at: Span, kind: Kind) {
        let region = self.region;
        let info = self.usages.entry(o).or_default();
        let old = info.uses[kind as usize];
        if old.is_none_or(|u| !self.tree.unsequenced(region, u.region)) {
            if kind == Kind::ModAsSideEffect
                && let Some(saved) = &mut self.side_effects
            {
                saved.push((o, old));
            }
            info.uses[kind as usize] = Some(Usage { at, region });
        }
    }

    fn pre_mod(&mut self, o: &str, at: Span) {
        self.check_usage(o, at, Kind::ModAsValue, true);
        self.check_usage(o, at, Kind::Use, false);
    }

    fn post_mod(&mut self, o: &'a str, at: Span, kind: Kind) {
        self.check_usage(o, at, Kind::ModAsSideEffect, true);
        self.add_usage(o, at, kind);
    }

    fn read(&mut self, o: &'a str, at: Span) {
        self.check_usage(o, at, Kind::ModAsValue, false);
        self.check_usage(o, at, Kind::ModAsSideEffect, false);
        self.add_usage(o, at, Kind::Use);
    }

    /// Runs `f` as a subexpression complete at a sequence point: its
    /// side-effect modifications are then done, modifications as values
    /// for what follows.
    fn sequenced(&mut self, f: impl FnOnce(&mut Self)) {
        let outer = self.side_effects.replace(Vec::new());
        f(self);
        let done = std::mem::replace(&mut self.side_effects, outer).unwrap_or_default();
        for (o, old) in done.into_iter().rev() {
            let side = self.usages.get(o).and_then(|i| i.uses[Kind::ModAsSideEffect as usize]);
            if let Some(side) = side {
                self.add_usage(o, side.at, Kind::ModAsValue);
            }
            if let Some(info) = self.usages.get_mut(o) {
                info.uses[Kind::ModAsSideEffect as usize] = old;
            }
        }
    }

    /// `a` then `b` with a sequence point between (`,`, `&&`, `||`).
    fn in_order(&mut self, a: &'a Expr, b: &'a Expr) {
        let (first, second, outer) = (self.tree.allocate(self.region), self.tree.allocate(self.region), self.region);
        self.sequenced(|c| {
            c.region = first;
            c.value(a);
        });
        self.region = second;
        self.value(b);
        self.region = outer;
        self.tree.merged[first as usize] = true;
        self.tree.merged[second as usize] = true;
    }

    /// An object designated, not read (the left of `=`, the operand of
    /// `&` or `++`): what its subscripts and pointers read.
    fn place(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Paren(x) => self.place(x),
            ExprKind::Ident(_) => {}
            ExprKind::Member { base, arrow: false, .. } => self.place(base),
            _ => self.value(e),
        }
    }

    fn value(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Paren(x) => self.value(x),
            ExprKind::Ident(id) => {
                if (self.is_var)(&id.name) {
                    self.read(&id.name, e.span);
                }
            }
            ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, x) => match self.object(x) {
                Some(o) => {
                    self.pre_mod(o, e.loc());
                    self.place(x);
                    self.post_mod(o, e.loc(), Kind::ModAsSideEffect);
                }
                None => self.place(x),
            },
            ExprKind::Unary(UnOp::AddrOf, x) => self.place(x),
            ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => self.value(x),
            ExprKind::Member { base, arrow, .. } => {
                if *arrow {
                    self.value(base)
                } else {
                    self.place(base)
                }
            }
            ExprKind::Assign(op, l, r) => {
                let o = self.object(l);
                if let Some(o) = o {
                    self.pre_mod(o, e.loc());
                }
                self.place(l);
                // `x op= y` reads `x` too.
                if let (Some(o), Some(_)) = (o, op) {
                    self.read(o, l.span);
                }
                self.value(r);
                // C: the store is a side effect, sequenced after the
                // operands' values only.
                if let Some(o) = o {
                    self.post_mod(o, e.loc(), Kind::ModAsSideEffect);
                }
            }
            ExprKind::Binary(BinOp::Comma | BinOp::And | BinOp::Or, a, b) => self.in_order(a, b),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.value(a);
                self.value(b);
            }
            ExprKind::Cond(c, a, b) => {
                let parent = self.region;
                let (cond, yes, no) = (self.tree.allocate(parent), self.tree.allocate(parent), self.tree.allocate(parent));
                self.sequenced(|s| {
                    s.region = cond;
                    s.value(c);
                });
                self.region = yes;
                if let Some(a) = a {
                    self.value(a);
                }
                self.region = no;
                self.value(b);
                self.region = parent;
                for r in [cond, yes, no] {
                    self.tree.merged[r as usize] = true;
                }
            }
            // The arguments are unsequenced with one another; all of
            // them before the call.
            ExprKind::Call(f, args) => self.sequenced(|s| {
                s.value(f);
                for a in args {
                    s.value(a);
                }
            }),
            ExprKind::VectorLiteral(_, xs) => {
                for x in xs {
                    self.value(x);
                }
            }
            // Not evaluated, or a scope of its own.
            _ => {}
        }
    }
}
