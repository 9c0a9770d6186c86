//! clang's uninitialized-variable warnings (all in `-Wall`, off by
//! default), by clang's analysis (`UninitializedValues.cpp`) on a
//! control-flow graph of the function body:
//!
//! - -Wuninitialized: a local variable declared without an initializer is
//!   read where no path from its declaration stored to it;
//! - -Wsometimes-uninitialized: it is read where some paths stored to it,
//!   and a branch (an `if`, `?:`, `&&`, `||` or loop condition, a `switch`
//!   label) leads to the read on paths that do not: the warning names the
//!   branch;
//! - -Wconditional-uninitialized: some paths stored to it and no branch
//!   can be named (loops).
//!
//! Only the first read of a variable is reported, the most certain kind
//! first, as clang does. Tracked, as clang tracks them: local scalars,
//! vectors, pointers and records without storage class (through a
//! file-scope typedef too; `__local` ones of a kernel included). A read is
//! a load of the whole value: `s.a`, `v.x`, `v[i]` read no variable,
//! `p->a` and `p[i]` read `p`. Taking a variable's address, storing to
//! part of it (`v.x = …`) or capturing it in a block counts as storing
//! it; `int x = x;` leaves `x` uninitialized on purpose (reported at that
//! initializer only where a later read is surely uninitialized).
//!
//! The graph: blocks of events (declaration, store, read) in evaluation
//! order, ended by a terminator with its successors in clang's order (true
//! first); `&&`, `||` and `?:` end blocks, and in a condition jump
//! straight to the condition's targets, as clang's graph does. The edge of
//! a condition that is a constant and never taken is absent (clang prunes
//! it: no `while (1)` exit).

use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::ast::*;
use crate::source::Span;
use rustc_hash::FxHashMap as HashMap;

/// Which of the warnings are wanted (see [`Diagnostics::policy`]).
#[derive(Clone, Copy)]
pub struct Wanted {
    pub always: bool,
    pub sometimes: bool,
    pub maybe: bool,
}

/// What kind of object a variable is, as far as this analysis cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Scalar,
    Pointer,
    Vector,
    Record,
}

/// Checks a function body; `typedef_class` tells what a file-scope
/// typedef name stands for (`None`: not tracked, an array say).
pub fn check(body: &Block, wanted: Wanted, typedef_class: &dyn Fn(&str) -> Option<Class>, diags: &mut Diagnostics) {
    let mut b = Builder { typedef_class: Some(typedef_class), ..Builder::default() };
    b.exit = b.new_block();
    let entry = b.new_block();
    b.cur = entry;
    b.compound(&body.items);
    let exit = b.exit;
    b.goto(exit);
    if b.vars.is_empty() {
        return;
    }
    // The blocks reading each variable, once (not a scan of every block
    // per variable).
    let mut read_in: Vec<Vec<BlockId>> = vec![Vec::new(); b.vars.len()];
    for (i, block) in b.blocks.iter().enumerate() {
        for e in &block.events {
            if let Event::Read(v, ..) = *e
                && read_in[v].last() != Some(&i)
            {
                read_in[v].push(i);
            }
        }
    }
    for base in (0..b.vars.len()).step_by(64) {
        let chunk = &b.vars[base..b.vars.len().min(base + 64)];
        let cfg = Cfg::new(&b.blocks, entry, base, chunk.len());
        for (i, var) in chunk.iter().enumerate() {
            cfg.report(base + i, var, &read_in[base + i], wanted, diags);
        }
    }
}

// ------------------------------------------------------------------ graph

type BlockId = usize;
type VarId = usize;

enum Event {
    /// The variable's declaration: uninitialized from here.
    Decl(VarId),
    Store(VarId),
    /// A read; `true` in the variable's own initializer.
    Read(VarId, Span, bool),
}

#[derive(Default)]
struct Node {
    events: Vec<Event>,
    /// `None`: an edge never taken (a constant condition).
    succs: Vec<Option<BlockId>>,
    preds: Vec<BlockId>,
    term: Option<Term>,
    /// The `case` value or `default` keyword this block starts at.
    label: Option<(Span, bool)>,
}

/// A branch: what the warning says of it, and where.
#[derive(Clone, Copy)]
struct Term {
    kind: TermKind,
    /// `if`, `?:`, `&&`, `||`, `while`, `for`, `do`.
    what: &'static str,
    /// Where the warning points: the condition (the left operand of
    /// `&&`/`||`).
    at: Span,
    /// Per successor (true, false): what to remove (or replace by a
    /// constant) so that the branch is always the other way, for the note.
    remove: [Span; 2],
}

#[derive(Clone, Copy, PartialEq)]
enum TermKind {
    Cond,
    Loop,
    DoLoop,
    Switch,
}

struct Var {
    name: String,
    /// The declarator's name.
    at: Span,
    /// Where its declaration starts.
    decl: Span,
    class: Class,
    has_init: bool,
    /// `int x = x;`: left uninitialized on purpose, at the `x` read.
    self_init: Option<Span>,
}

#[derive(Default)]
struct Builder<'a> {
    blocks: Vec<Node>,
    cur: BlockId,
    exit: BlockId,
    vars: Vec<Var>,
    /// Names in scope, innermost last: a tracked variable or another
    /// declaration hiding one.
    scopes: Vec<Vec<(&'a str, Option<VarId>)>>,
    /// `break` and `continue` targets.
    jumps: Vec<(BlockId, Option<BlockId>)>,
    labels: HashMap<&'a str, BlockId>,
    /// The enclosing switches' blocks, and whether a `default` was seen.
    switches: Vec<(BlockId, bool)>,
    /// The variable whose initializer is being read.
    initializing: Option<VarId>,
    typedef_class: Option<&'a dyn Fn(&str) -> Option<Class>>,
}

impl<'a> Builder<'a> {
    fn new_block(&mut self) -> BlockId {
        self.blocks.push(Node::default());
        self.blocks.len() - 1
    }

    fn edge(&mut self, from: BlockId, to: Option<BlockId>) {
        self.blocks[from].succs.push(to);
        if let Some(t) = to {
            self.blocks[t].preds.push(from);
        }
    }

    /// Ends the current block with a jump to `to`.
    fn goto(&mut self, to: BlockId) {
        let cur = self.cur;
        self.edge(cur, Some(to));
    }

    /// Ends the current block with a jump to `to`; what follows is
    /// unreachable until a label.
    fn jump(&mut self, to: BlockId) {
        self.goto(to);
        self.cur = self.new_block();
    }

    /// Ends the current block with branch `term` to `t` (true) or `f`; a
    /// constant condition `value` leaves the other edge absent.
    fn branch(&mut self, term: Term, value: Option<bool>, t: BlockId, f: BlockId) {
        let cur = self.cur;
        self.blocks[cur].term = Some(term);
        self.edge(cur, (value != Some(false)).then_some(t));
        self.edge(cur, (value != Some(true)).then_some(f));
    }

    fn event(&mut self, e: Event) {
        let cur = self.cur;
        self.blocks[cur].events.push(e);
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| *n == name).and_then(|(_, v)| *v)
    }

    fn declare(&mut self, name: &'a str, var: Option<VarId>) {
        if let Some(s) = self.scopes.last_mut() {
            s.push((name, var));
        }
    }

    // -------------------------------------------------------- statements

    fn compound(&mut self, items: &'a [Stmt]) {
        self.scopes.push(Vec::new());
        for s in items {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Compound(b) => self.compound(&b.items),
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
                let exit = self.exit;
                self.jump(exit);
            }
            StmtKind::If { cond, then, else_ } => {
                let (tb, join) = (self.new_block(), self.new_block());
                let eb = if else_.is_some() { self.new_block() } else { join };
                // Always false: all but the `else` goes; always true: all
                // but the `then`.
                let all_but_else = else_.as_ref().map_or(s.span, |e| Span { hi: e.span.lo, ..s.span });
                let term = Term { kind: TermKind::Cond, what: "if", at: cond.span, remove: [all_but_else, Span { hi: then.span.lo, ..s.span }] };
                self.condition(cond, term, tb, eb);
                self.cur = tb;
                self.stmt(then);
                self.goto(join);
                if let Some(e) = else_ {
                    self.cur = eb;
                    self.stmt(e);
                    self.goto(join);
                }
                self.cur = join;
            }
            StmtKind::While { cond, body, .. } => {
                let (head, bb, end) = (self.new_block(), self.new_block(), self.new_block());
                self.goto(head);
                self.cur = head;
                self.condition(cond, loop_term("while", TermKind::Loop, cond), bb, end);
                self.loop_body(body, bb, end, head);
                self.cur = end;
            }
            StmtKind::DoWhile { body, cond, .. } => {
                let (bb, cb, end) = (self.new_block(), self.new_block(), self.new_block());
                self.goto(bb);
                self.loop_body(body, bb, end, cb);
                self.cur = cb;
                self.condition(cond, loop_term("do", TermKind::DoLoop, cond), bb, end);
                self.cur = end;
            }
            StmtKind::For { init, cond, step, body, .. } => {
                self.scopes.push(Vec::new());
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.decl(d),
                }
                let (head, bb, inc, end) = (self.new_block(), self.new_block(), self.new_block(), self.new_block());
                self.goto(head);
                self.cur = head;
                match cond {
                    Some(c) => {
                        let mut term = loop_term("for", TermKind::Loop, c);
                        // Entered: the condition goes; never: it is `0`.
                        term.remove = [c.span, c.span];
                        self.condition(c, term, bb, end);
                    }
                    None => self.goto(bb),
                }
                self.loop_body(body, bb, end, inc);
                self.cur = inc;
                if let Some(st) = step {
                    self.expr(st);
                }
                self.goto(head);
                self.cur = end;
                self.scopes.pop();
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond);
                let sw = self.cur;
                self.blocks[sw].term = Some(Term { kind: TermKind::Switch, what: "switch", at: cond.span, remove: [cond.span; 2] });
                let end = self.new_block();
                self.switches.push((sw, false));
                self.jumps.push((end, None));
                self.cur = self.new_block();
                self.stmt(body);
                self.jumps.pop();
                self.goto(end);
                if let Some((sw, false)) = self.switches.pop() {
                    // No `default`: no label matched.
                    self.edge(sw, Some(end));
                }
                self.cur = end;
            }
            StmtKind::Case { value, body, .. } => self.case_label(value.span, false, body),
            StmtKind::Default { body } => {
                let at = Span { hi: s.span.lo + "default".len() as u32, ..s.span };
                self.case_label(at, true, body)
            }
            StmtKind::Label { name, body } => {
                let l = self.label(&name.name);
                self.goto(l);
                self.cur = l;
                self.stmt(body);
            }
            StmtKind::Goto(name) => {
                let l = self.label(&name.name);
                self.jump(l);
            }
            StmtKind::Break => {
                if let Some(&(b, _)) = self.jumps.last() {
                    self.jump(b);
                }
            }
            StmtKind::Continue => {
                if let Some(c) = self.jumps.iter().rev().find_map(|j| j.1) {
                    self.jump(c);
                }
            }
            StmtKind::Null | StmtKind::StaticAssert(_) | StmtKind::Error => {}
        }
    }

    fn loop_body(&mut self, body: &'a Stmt, bb: BlockId, brk: BlockId, cont: BlockId) {
        self.cur = bb;
        self.jumps.push((brk, Some(cont)));
        self.stmt(body);
        self.jumps.pop();
        self.goto(cont);
    }

    fn label(&mut self, name: &'a str) -> BlockId {
        if let Some(&b) = self.labels.get(name) {
            return b;
        }
        let b = self.new_block();
        self.labels.insert(name, b);
        b
    }

    /// A `case` (at its value) or `default` label: a block of its own,
    /// reached from the switch and by falling through.
    fn case_label(&mut self, at: Span, default: bool, body: &'a Stmt) {
        let b = self.new_block();
        self.blocks[b].label = Some((at, default));
        self.goto(b);
        if let Some(sw) = self.switches.last_mut() {
            sw.1 |= default;
            let sw = sw.0;
            self.edge(sw, Some(b));
        }
        self.cur = b;
        self.stmt(body);
    }

    fn decl(&mut self, d: &'a Decl) {
        let base = self.base_class(d);
        for id in &d.declarators {
            let Some(name) = id.declarator.name() else { continue };
            let class = match &id.declarator.kind {
                DeclaratorKind::Name(_) => base,
                DeclaratorKind::Pointer { inner, .. } if matches!(inner.kind, DeclaratorKind::Name(_)) && !has_storage_class(d) => Some(Class::Pointer),
                _ => None,
            };
            let Some(class) = class else {
                // Hides an outer variable of the name, in its own
                // initializer too.
                self.declare(&name.name, None);
                if let Some(init) = &id.init {
                    self.initializer(init);
                }
                continue;
            };
            let v = self.vars.len();
            let self_init = match id.init.as_deref() {
                Some(Initializer::Expr(e)) => match &strip(e).kind {
                    ExprKind::Ident(i) if i.name == name.name => Some(strip(e).span),
                    _ => None,
                },
                _ => None,
            };
            self.vars.push(Var { name: name.name.clone(), at: name.span, decl: d.span, class, has_init: id.init.is_some(), self_init });
            // In scope in its own initializer, as C has it.
            self.declare(&name.name, Some(v));
            self.event(Event::Decl(v));
            match &id.init {
                // `int x = x;` leaves `x` uninitialized, read nowhere.
                Some(_) if self_init.is_some() => {}
                Some(init) => {
                    self.initializing = Some(v);
                    self.initializer(init);
                    self.initializing = None;
                    self.event(Event::Store(v));
                }
                None => {}
            }
        }
    }

    /// What the declaration's specifiers make a plain declarator's
    /// variable: `None` for what is not tracked (storage classes, images
    /// and the like, arrays behind typedefs).
    fn base_class(&self, d: &Decl) -> Option<Class> {
        const WORDS: &[&str] = &["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half", "bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"];
        let mut class = None;
        for s in &d.specs.items {
            match s {
                // `__local` variables of a kernel are tracked too, as clang does.
                DeclSpec::Storage(..) | DeclSpec::Pipe(_) => return None,
                DeclSpec::Type(t) => {
                    class = Some(match &t.kind {
                        TypeSpecKind::Builtin { name, .. } => {
                            let word = name.trim_end_matches(|c: char| c.is_ascii_digit());
                            if !WORDS.contains(&word) {
                                return None;
                            }
                            if word.len() < name.len() { Class::Vector } else { Class::Scalar }
                        }
                        TypeSpecKind::TypedefName(n) => self.typedef_class.and_then(|f| f(&n.name))?,
                        TypeSpecKind::Struct(_) => Class::Record,
                        TypeSpecKind::Void | TypeSpecKind::Complex | TypeSpecKind::Imaginary | TypeSpecKind::TypeofExpr(_) | TypeSpecKind::TypeofType(_) | TypeSpecKind::Error => return None,
                        _ => Class::Scalar,
                    })
                }
                _ => {}
            }
        }
        class
    }

    fn initializer(&mut self, init: &'a Initializer) {
        match init {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => {
                for i in items {
                    self.initializer(&i.init);
                }
            }
        }
    }

    // ------------------------------------------------------- expressions

    /// A condition of `term` jumping to `t` or `f`: `&&` and `||` jump
    /// from each operand, ending their own blocks.
    fn condition(&mut self, e: &'a Expr, term: Term, t: BlockId, f: BlockId) {
        match &e.kind {
            ExprKind::Paren(x) => self.condition(x, term, t, f),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let rhs = self.new_block();
                let own = logical_term(e, *op, a);
                if *op == BinOp::And {
                    self.condition(a, own, rhs, f);
                } else {
                    self.condition(a, own, t, rhs);
                }
                self.cur = rhs;
                self.condition(b, term, t, f);
            }
            _ => {
                self.expr(e);
                self.branch(term, constant(e).map(|v| v != 0), t, f);
            }
        }
    }

    /// An expression evaluated for its value or effects.
    fn expr(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Ident(id) => {
                if let Some(v) = self.lookup(&id.name) {
                    self.event(Event::Read(v, e.span, self.initializing == Some(v)));
                }
            }
            // A member or component of a variable reads none of it
            // (`s.a`, `v.x`: no load of the variable's value, as clang
            // has it); through a pointer (`p->a`), the pointer is read.
            ExprKind::Member { base, arrow: false, .. } if self.named_var(base).is_some() => {}
            ExprKind::Paren(x) | ExprKind::Member { base: x, .. } => self.expr(x),
            // `(void)x` reads nothing, as clang has it.
            ExprKind::Cast(t, x) if is_void(t) && matches!(strip(x).kind, ExprKind::Ident(_)) => {}
            ExprKind::Cast(_, x) => self.expr(x),
            ExprKind::Assign(op, l, r) => {
                if op.is_some() {
                    self.expr(l);
                    self.expr(r);
                } else {
                    self.expr(r);
                }
                self.place(l);
            }
            ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, x) => {
                self.expr(x);
                self.place(x);
            }
            ExprKind::Unary(UnOp::AddrOf, x) => self.place(x),
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let (rhs, join) = (self.new_block(), self.new_block());
                let term = logical_term(e, *op, a);
                self.expr(a);
                let value = constant(a).map(|v| v != 0);
                if *op == BinOp::And {
                    self.branch(term, value, rhs, join);
                } else {
                    self.branch(term, value, join, rhs);
                }
                self.cur = rhs;
                self.expr(b);
                self.goto(join);
                self.cur = join;
            }
            ExprKind::Cond(c, a, b) => {
                let (ta, fb, join) = (self.new_block(), self.new_block(), self.new_block());
                let a_lo = a.as_ref().map_or(b.span.lo, |a| a.span.lo);
                let term = Term { kind: TermKind::Cond, what: "?:", at: c.span, remove: [Span { hi: b.span.lo, ..e.span }, Span { hi: a_lo, ..e.span }] };
                self.condition(c, term, ta, fb);
                self.cur = ta;
                if let Some(a) = a {
                    self.expr(a);
                }
                self.goto(join);
                self.cur = fb;
                self.expr(b);
                self.goto(join);
                self.cur = join;
            }
            // A vector variable's component: as a member.
            ExprKind::Index(a, i) if self.named_var(a).is_some_and(|v| self.vars[v].class != Class::Pointer) => self.expr(i),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Call(f, args) => {
                self.expr(f);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::VectorLiteral(_, xs) => {
                for x in xs {
                    self.expr(x);
                }
            }
            ExprKind::CompoundLiteral(_, init) => self.initializer(init),
            // What a block captures counts as stored.
            ExprKind::BlockLit(b) => self.captured(&b.body),
            ExprKind::StmtExpr(b) => self.compound(&b.items),
            ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) => {}
            ExprKind::Offsetof(_, path) => {
                for x in crate::parse::ast::offsetof_indices(path) {
                    self.expr(x);
                }
            }
            ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) | ExprKind::StringLit(_) | ExprKind::BoolLit(_) | ExprKind::Error => {}
        }
    }

    /// An lvalue stored to (or whose address is taken): a variable stored
    /// whole or in part; a pointer it goes through and indices are read.
    fn place(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Ident(id) => {
                if let Some(v) = self.lookup(&id.name) {
                    self.event(Event::Store(v));
                }
            }
            ExprKind::Paren(x) => self.place(x),
            ExprKind::Member { base, arrow: false, .. } => self.place(base),
            ExprKind::Index(a, i) => {
                // Through a pointer variable: the pointer is read.
                match self.named_var(a) {
                    Some(v) if self.vars[v].class == Class::Pointer => self.expr(a),
                    _ => self.place(a),
                }
                self.expr(i);
            }
            _ => self.expr(e),
        }
    }

    /// The tracked variable `e` names (through parentheses).
    fn named_var(&self, e: &Expr) -> Option<VarId> {
        match &strip(e).kind {
            ExprKind::Ident(id) => self.lookup(&id.name),
            _ => None,
        }
    }

    /// Every tracked variable a block literal's body names is stored.
    fn captured(&mut self, body: &'a Block) {
        let mut names = Vec::new();
        for s in &body.items {
            visit_stmt_exprs(s, &mut |x| {
                if let ExprKind::Ident(id) = &x.kind {
                    names.push(id.name.clone());
                }
            });
        }
        for n in names {
            if let Some(v) = self.lookup(&n) {
                self.event(Event::Store(v));
            }
        }
    }
}

fn loop_term(what: &'static str, kind: TermKind, cond: &Expr) -> Term {
    Term { kind, what, at: cond.span, remove: [cond.span; 2] }
}

/// `a && b` or `a || b` as a branch on `a`: always true, `a &&` goes
/// (`a ||` becomes `1`); always false, `a && b` becomes `0` (`a ||`
/// goes).
fn logical_term(e: &Expr, op: BinOp, a: &Expr) -> Term {
    let operand = Span { hi: e.op.map_or(a.span.hi, |o| o.hi), ..e.span };
    let (what, remove) = match op {
        BinOp::And => ("&&", [e.span, operand]),
        _ => ("||", [operand, e.span]),
    };
    Term { kind: TermKind::Cond, what, at: a.span, remove }
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}

fn is_void(t: &TypeName) -> bool {
    t.declarator.is_none() && matches!(&t.specs.items[..], [DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Void, .. })])
}

/// The value of a condition that is an integer constant written with
/// literals, as clang's graph folds it.
fn constant(e: &Expr) -> Option<i128> {
    Some(match &e.kind {
        ExprKind::Paren(x) => constant(x)?,
        ExprKind::IntLit { value, .. } => i128::from(*value),
        ExprKind::CharLit(c) => i128::from(*c),
        ExprKind::BoolLit(b) => i128::from(*b),
        ExprKind::Unary(UnOp::Not, x) => i128::from(constant(x)? == 0),
        ExprKind::Unary(UnOp::Neg, x) => -constant(x)?,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::And => i128::from(a != 0 && b != 0),
                BinOp::Or => i128::from(a != 0 || b != 0),
                BinOp::Eq => i128::from(a == b),
                BinOp::Ne => i128::from(a != b),
                BinOp::Lt => i128::from(a < b),
                BinOp::Gt => i128::from(a > b),
                BinOp::Le => i128::from(a <= b),
                BinOp::Ge => i128::from(a >= b),
                _ => return None,
            }
        }
        _ => return None,
    })
}

fn has_storage_class(d: &Decl) -> bool {
    d.specs.items.iter().any(|s| matches!(s, DeclSpec::Storage(..)))
}

/// Every expression in `s` at any depth, for what blocks capture.
fn visit_stmt_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    let mut e = |x: &Expr| visit_expr(x, f);
    match &s.kind {
        StmtKind::Compound(b) => b.items.iter().for_each(|s| visit_stmt_exprs(s, f)),
        StmtKind::Expr(x) | StmtKind::Return(Some(x)) => e(x),
        StmtKind::Decl(d) => decl_exprs(d, f),
        StmtKind::If { cond, then, else_ } => {
            e(cond);
            visit_stmt_exprs(then, f);
            if let Some(x) = else_ {
                visit_stmt_exprs(x, f);
            }
        }
        StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond, .. } | StmtKind::Switch { cond, body } => {
            e(cond);
            visit_stmt_exprs(body, f);
        }
        StmtKind::For { init, cond, step, body, .. } => {
            match init {
                ForInit::Expr(x) => e(x),
                ForInit::Decl(d) => decl_exprs(d, f),
                ForInit::None => {}
            }
            cond.iter().chain(step).for_each(|x| visit_expr(x, f));
            visit_stmt_exprs(body, f);
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => visit_stmt_exprs(body, f),
        _ => {}
    }
}

fn decl_exprs(d: &Decl, f: &mut dyn FnMut(&Expr)) {
    fn init(i: &Initializer, f: &mut dyn FnMut(&Expr)) {
        match i {
            Initializer::Expr(e) => visit_expr(e, f),
            Initializer::List { items, .. } => items.iter().for_each(|i| init(&i.init, f)),
        }
    }
    for id in &d.declarators {
        if let Some(i) = &id.init {
            init(i, f);
        }
    }
}

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
            if let Some(a) = a {
                visit_expr(a, f);
            }
            visit_expr(b, f);
        }
        ExprKind::Call(c, args) => {
            visit_expr(c, f);
            args.iter().for_each(|a| visit_expr(a, f));
        }
        ExprKind::VectorLiteral(_, xs) => xs.iter().for_each(|x| visit_expr(x, f)),
        ExprKind::Offsetof(_, path) => crate::parse::ast::offsetof_indices(path).for_each(|x| visit_expr(x, f)),
        ExprKind::BlockLit(b) => b.body.items.iter().for_each(|s| visit_stmt_exprs(s, f)),
        ExprKind::StmtExpr(b) => b.items.iter().for_each(|s| visit_stmt_exprs(s, f)),
        _ => {}
    }
}

// --------------------------------------------------------------- analysis

/// A variable's state at a point, a set of what the paths to it did:
/// stored on some ([`INIT`]), not on some ([`UNINIT`]); none: unreachable.
type Value = u8;
const INIT: Value = 1;
const UNINIT: Value = 2;
const MAYBE: Value = INIT | UNINIT;

/// The values of up to 64 variables: bit `i` of each set for the
/// chunk's variable `i`.
#[derive(Clone, Copy, Default, PartialEq)]
struct Values {
    init: u64,
    uninit: u64,
}

impl Values {
    fn get(self, i: usize) -> Value {
        (((self.init >> i) & 1) as Value) * INIT | (((self.uninit >> i) & 1) as Value) * UNINIT
    }

    fn join(self, o: Values) -> Values {
        Values { init: self.init | o.init, uninit: self.uninit | o.uninit }
    }
}

/// The analysis of the variables `base..base + 64`, one chunk at a time
/// (memory: two words per block).
struct Cfg<'g> {
    blocks: &'g [Node],
    entry: BlockId,
    base: VarId,
    /// The chunk's variables at the function's entry: all uninitialized.
    all: u64,
    /// Each block's values at its end.
    out: Vec<Values>,
}

/// How certain an uninitialized read is, least first (clang's
/// `UninitUse::Kind`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Maybe,
    Sometimes,
    AfterDecl,
    AfterCall,
    Always,
}

impl<'g> Cfg<'g> {
    fn new(blocks: &'g [Node], entry: BlockId, base: VarId, count: usize) -> Cfg<'g> {
        let all = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
        let mut cfg = Cfg { blocks, entry, base, all, out: vec![Values::default(); blocks.len()] };
        // Forward to a fixed point: values only grow.
        let mut queued = vec![true; blocks.len()];
        let mut work: std::collections::VecDeque<BlockId> = (0..blocks.len()).collect();
        while let Some(b) = work.pop_front() {
            queued[b] = false;
            let Some(mut vals) = cfg.entry_values(b) else { continue };
            for e in &blocks[b].events {
                match *e {
                    Event::Decl(v) => cfg.set(&mut vals, v, UNINIT),
                    Event::Store(v) => cfg.set(&mut vals, v, INIT),
                    Event::Read(..) => {}
                }
            }
            if cfg.out[b] != vals {
                cfg.out[b] = vals;
                for &s in blocks[b].succs.iter().flatten() {
                    if !queued[s] {
                        queued[s] = true;
                        work.push_back(s);
                    }
                }
            }
        }
        cfg
    }

    /// Sets variable `v`'s value in `vals` if it is of this chunk.
    fn set(&self, vals: &mut Values, v: VarId, to: Value) {
        let Some(i) = v.checked_sub(self.base).filter(|i| *i < 64 && self.all >> i & 1 == 1) else { return };
        let bit = 1u64 << i;
        vals.init = vals.init & !bit | if to & INIT != 0 { bit } else { 0 };
        vals.uninit = vals.uninit & !bit | if to & UNINIT != 0 { bit } else { 0 };
    }

    /// The values at the start of `b` (the join of its predecessors'
    /// ends; at the function's entry, every variable uninitialized), or
    /// `None` where no path reaches it (yet).
    fn entry_values(&self, b: BlockId) -> Option<Values> {
        let start = if b == self.entry { Values { init: 0, uninit: self.all } } else { Values::default() };
        let vals = self.blocks[b].preds.iter().fold(start, |acc, &p| acc.join(self.out[p]));
        // With every variable uninitialized at the entry, a block reached
        // has a value for each.
        (vals.init | vals.uninit == self.all).then_some(vals)
    }

    /// `v`'s value at the end of `b`.
    fn value(&self, b: BlockId, v: VarId) -> Value {
        self.out[b].get(v - self.base)
    }

    /// Reports the first uninitialized read of `v` (read in the blocks
    /// `read_in`), the most certain first.
    fn report(&self, v: VarId, var: &Var, read_in: &[BlockId], wanted: Wanted, diags: &mut Diagnostics) {
        let mut reads: Vec<(Kind, Span, bool, Vec<(Term, usize, Option<(Span, bool)>)>)> = Vec::new();
        for &b in read_in {
            let block = &self.blocks[b];
            let Some(vals) = self.entry_values(b) else { continue };
            let mut state = vals.get(v - self.base);
            for e in &block.events {
                match *e {
                    Event::Decl(x) if x == v => state = UNINIT,
                    Event::Store(x) if x == v => state = INIT,
                    Event::Read(x, at, own) if x == v => match state {
                        UNINIT => reads.push((Kind::Always, at, own, Vec::new())),
                        MAYBE => {
                            let (kind, branches) = self.uninit_use(b, v);
                            reads.push((kind, at, own, branches));
                        }
                        _ => {}
                    },
                    _ => {}
                }
            }
        }
        let name = &var.name;
        // `int x = x;`: a read where `x` is surely uninitialized is
        // reported at that `x`; the others are only "may be".
        if let Some(at) = var.self_init {
            if reads.iter().any(|r| r.0 == Kind::Always) {
                if wanted.always {
                    diags.push(Diagnostic::warning("uninitialized", at, format!("variable '{name}' is uninitialized when used within its own initialization")));
                }
                return;
            }
            for r in &mut reads {
                r.0 = Kind::Maybe;
                r.3.clear();
            }
        }
        reads.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.lo.cmp(&b.1.lo)));
        let Some((kind, at, own, branches)) = reads.into_iter().next() else { return };
        // clang suggests `= 0` where it can (a scalar or pointer without
        // initializer), else shows the declaration.
        let (init_at, init_note) = if matches!(var.class, Class::Scalar | Class::Pointer) && !var.has_init {
            (Span { lo: var.at.hi, ..var.at }, format!("initialize the variable '{name}' to silence this warning"))
        } else {
            (Span { hi: var.decl.lo, ..var.decl }, format!("variable '{name}' is declared here"))
        };
        match kind {
            Kind::Always if own && wanted.always => {
                diags.push(Diagnostic::warning("uninitialized", at, format!("variable '{name}' is uninitialized when used within its own initialization")));
            }
            Kind::Always if wanted.always => diags.push(
                Diagnostic::warning("uninitialized", at, format!("variable '{name}' is uninitialized when used here")).with_note_at(init_at, init_note),
            ),
            Kind::AfterDecl | Kind::AfterCall if wanted.sometimes => {
                let whenever = if kind == Kind::AfterDecl { "its declaration is reached".to_string() } else { "the function is called".to_string() };
                diags.push(
                    Diagnostic::warning("sometimes-uninitialized", var.at, format!("variable '{name}' is used uninitialized whenever {whenever}"))
                        .with_note_at(at, "uninitialized use occurs here")
                        .with_note_at(init_at, init_note),
                );
            }
            Kind::Sometimes if wanted.sometimes => {
                let last = branches.len() - 1;
                for (i, (term, output, label)) in branches.into_iter().enumerate() {
                    let (whenever, at_branch) = match (term.kind, label) {
                        (TermKind::Switch, Some((l, default))) => (format!("switch {} is taken", if default { "default" } else { "case" }), l),
                        (TermKind::Cond, _) => (format!("'{}' condition is {}", term.what, if output == 0 { "true" } else { "false" }), term.at),
                        (TermKind::Loop, _) => (format!("'{}' loop {}", term.what, if output == 0 { "is entered" } else { "exits because its condition is false" }), term.at),
                        (_, _) => (format!("'{}' loop {}", term.what, if output == 0 { "condition is true" } else { "exits because its condition is false" }), term.at),
                    };
                    let mut d = Diagnostic::warning("sometimes-uninitialized", at_branch, format!("variable '{name}' is used uninitialized whenever {whenever}"))
                        .with_note_at(at, "uninitialized use occurs here");
                    let always = if output == 0 { "false" } else { "true" };
                    d = match term.kind {
                        TermKind::Cond => d.with_note_at(term.remove[output], format!("remove the '{}' if its condition is always {always}", term.what)),
                        TermKind::Loop | TermKind::DoLoop => d.with_note_at(term.remove[output], format!("remove the condition if it is always {always}")),
                        TermKind::Switch => d,
                    };
                    if i == last {
                        d = d.with_note_at(init_at, init_note.clone());
                    }
                    diags.push(d);
                }
            }
            Kind::Maybe if wanted.maybe => diags.push(
                Diagnostic::warning("conditional-uninitialized", at, format!("variable '{name}' may be uninitialized when used here")).with_note_at(init_at, init_note),
            ),
            _ => {}
        }
    }

    /// clang's `getUninitUse` for a read in block `use_block` where `v`
    /// may be uninitialized: the blocks from which every path leads to the
    /// read without storing `v`; a branch into them from outside on whose
    /// edge `v` is uninitialized is the reason (a `switch` only through a
    /// label: that no label matches may be impossible). Reaching the
    /// entry, or a block declaring `v` from a path that stored it, makes
    /// the read certain.
    fn uninit_use(&self, use_block: BlockId, v: VarId) -> (Kind, Vec<(Term, usize, Option<(Span, bool)>)>) {
        let n = self.blocks.len();
        let mut kind = Kind::Sometimes;
        let mut visited = vec![0usize; n];
        visited[use_block] = self.blocks[use_block].succs.len();
        let mut queue = vec![use_block];
        while let Some(b) = queue.pop() {
            if b == self.entry {
                kind = kind.max(Kind::AfterCall);
            }
            for &p in &self.blocks[b].preds {
                let at_exit = self.value(p, v);
                if at_exit == INIT {
                    continue;
                }
                // `b` declares `v` and is reached from a store.
                if at_exit == MAYBE && self.value(b, v) == UNINIT {
                    kind = kind.max(Kind::AfterDecl);
                    continue;
                }
                let sv = &mut visited[p];
                if *sv == 0 {
                    *sv += self.blocks[p].succs.iter().filter(|s| s.is_none()).count();
                }
                *sv += 1;
                if *sv == self.blocks[p].succs.len() {
                    queue.push(p);
                }
            }
        }
        let mut branches = Vec::new();
        for (b, block) in self.blocks.iter().enumerate() {
            let Some(term) = block.term else { continue };
            if visited[b] == 0 || visited[b] >= block.succs.len() {
                continue;
            }
            for (output, s) in block.succs.iter().enumerate() {
                let Some(s) = *s else { continue };
                if visited[s] >= self.blocks[s].succs.len() && self.value(b, v) == UNINIT {
                    if term.kind == TermKind::Switch {
                        if let Some(l) = self.blocks[s].label {
                            branches.push((term, output, Some(l)));
                        }
                    } else {
                        branches.push((term, output, None));
                    }
                }
            }
        }
        if kind == Kind::Sometimes && branches.is_empty() {
            kind = Kind::Maybe;
        }
        (kind, branches)
    }
}
