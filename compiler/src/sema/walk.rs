//! A read-only walk over the AST that hands every list of declaration
//! specifiers to a callback: declarations at every level, parameters,
//! struct members, and type names inside casts, `sizeof`, compound and
//! vector literals, attributes and blocks.
//!
//! Recursion depth follows the tree's depth; the parser bounds bracket
//! nesting, and the driver runs stages on a large stack for long operator
//! chains.

use crate::parse::ast::*;

/// Calls `f` on every [`DeclSpecs`] in the unit, in source order.
pub fn each_specs(tu: &TranslationUnit, f: &mut dyn FnMut(&DeclSpecs)) {
    let mut w = Walker { f };
    for item in &tu.items {
        match item {
            ExternalDecl::Decl(d) => w.decl(d),
            ExternalDecl::FunctionDef(fd) => {
                w.specs(&fd.specs);
                w.declarator(&fd.declarator);
                w.block(&fd.body);
            }
            ExternalDecl::StaticAssert(sa) => w.expr(&sa.cond),
        }
    }
}

struct Walker<'f> {
    f: &'f mut dyn FnMut(&DeclSpecs),
}

impl Walker<'_> {
    fn specs(&mut self, specs: &DeclSpecs) {
        (self.f)(specs);
        for s in &specs.items {
            match s {
                DeclSpec::Type(ts) => self.type_spec(ts),
                DeclSpec::Attr(a) => self.attr(a),
                _ => {}
            }
        }
    }

    fn type_spec(&mut self, ts: &TypeSpec) {
        match &ts.kind {
            TypeSpecKind::Struct(s) => {
                for a in &s.attrs {
                    self.attr(a);
                }
                for m in s.members.iter().flatten() {
                    match m {
                        StructMember::Field { specs, declarators, .. } => {
                            self.specs(specs);
                            for fd in declarators {
                                if let Some(d) = &fd.declarator {
                                    self.declarator(d);
                                }
                                if let Some(w) = &fd.bit_width {
                                    self.expr(w);
                                }
                                for a in &fd.attrs {
                                    self.attr(a);
                                }
                            }
                        }
                        StructMember::StaticAssert(sa) => self.expr(&sa.cond),
                    }
                }
            }
            TypeSpecKind::Enum(e) => {
                for en in e.enumerators.iter().flatten() {
                    if let Some(v) = &en.value {
                        self.expr(v);
                    }
                }
            }
            _ => {}
        }
    }

    fn attr(&mut self, a: &Attribute) {
        for arg in &a.args {
            match arg {
                AttrArg::Expr(e) => self.expr(e),
                AttrArg::Type(t) => self.type_name(t),
            }
        }
    }

    fn decl(&mut self, d: &Decl) {
        self.specs(&d.specs);
        for id in &d.declarators {
            self.declarator(&id.declarator);
            for a in &id.attrs {
                self.attr(a);
            }
            if let Some(init) = &id.init {
                self.init(init);
            }
        }
    }

    fn declarator(&mut self, d: &Declarator) {
        match &d.kind {
            DeclaratorKind::Name(_) => {}
            DeclaratorKind::Pointer { inner, .. } => self.declarator(inner),
            DeclaratorKind::Array { inner, size } => {
                self.declarator(inner);
                if let Some(s) = size {
                    self.expr(s);
                }
            }
            DeclaratorKind::Function { inner, params, .. } => {
                self.declarator(inner);
                self.params(params);
            }
        }
    }

    fn params(&mut self, params: &[ParamDecl]) {
        for p in params {
            self.specs(&p.specs);
            if let Some(d) = &p.declarator {
                self.declarator(d);
            }
        }
    }

    fn type_name(&mut self, t: &TypeName) {
        self.specs(&t.specs);
        if let Some(d) = &t.declarator {
            self.declarator(d);
        }
    }

    fn init(&mut self, init: &Initializer) {
        match init {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => {
                for item in items {
                    for d in &item.designators {
                        if let Designator::Index(e, _) = d {
                            self.expr(e);
                        }
                    }
                    self.init(&item.init);
                }
            }
        }
    }

    fn block(&mut self, b: &Block) {
        for s in &b.items {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        for a in &s.attrs {
            self.attr(a);
        }
        match &s.kind {
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::StaticAssert(sa) => self.expr(&sa.cond),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::If { cond, then, else_ } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = else_ {
                    self.stmt(e);
                }
            }
            StmtKind::Switch { cond, body } | StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond, .. } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::Case { value, body } => {
                self.expr(value);
                self.stmt(body);
            }
            StmtKind::Default { body } | StmtKind::Label { body, .. } => self.stmt(body),
            StmtKind::For { init, cond, step, body, .. } => {
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.decl(d),
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(s) = step {
                    self.expr(s);
                }
                self.stmt(body);
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Return(None) | StmtKind::Null | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Error => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(_)
            | ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Error => {}
            ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::SizeofExpr(_, x) | ExprKind::Member { base: x, .. } => self.expr(x),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Cast(t, x) => {
                self.type_name(t);
                self.expr(x);
            }
            ExprKind::VectorLiteral(t, xs) => {
                self.type_name(t);
                for x in xs {
                    self.expr(x);
                }
            }
            ExprKind::CompoundLiteral(t, init) => {
                self.type_name(t);
                self.init(init);
            }
            ExprKind::SizeofType(_, t) => self.type_name(t),
            ExprKind::Call(callee, args) => {
                self.expr(callee);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::BlockLit(b) => {
                if let Some(r) = &b.ret {
                    self.type_name(r);
                }
                if let Some(ps) = &b.params {
                    self.params(ps);
                }
                self.block(&b.body);
            }
        }
    }
}
