//! A readable, indented dump of the syntax tree, one node per line with
//! its `line:col`, for snapshot tests and `clc -Xclang -ast-dump`.
//!
//! Declarations show their type in C syntax with the name left out
//! (`__global float *`, `int (*)[3]`); the nodes inside types (array sizes,
//! attribute arguments, struct bodies) follow as children. The format is
//! stable: changing it means re-reviewing every parse snapshot.

use super::ast::*;
use crate::source::{SourceMap, Span};
use std::fmt::Write as _;

/// Subtrees deeper than this are elided, so dumping never overflows the
/// stack (bracket nesting is bounded by the parser, operator chains are not).
const MAX_DUMP_DEPTH: usize = 400;

pub fn dump(sm: &SourceMap, tu: &TranslationUnit) -> String {
    let mut d = Dumper { sm, out: String::new() };
    d.line(0, "", "TranslationUnit", None);
    for item in &tu.items {
        match item {
            ExternalDecl::Decl(decl) => d.decl(1, decl),
            ExternalDecl::FunctionDef(f) => d.function(1, f),
            ExternalDecl::StaticAssert(s) => d.static_assert(1, s),
        }
    }
    d.out
}

struct Dumper<'a> {
    sm: &'a SourceMap,
    out: String,
}

impl Dumper<'_> {
    fn pos(&self, span: Span) -> String {
        if (span.file.0 as usize) >= self.sm.len() {
            return "?:?".into();
        }
        let (l, c) = self.sm.file(span.file).line_col(span.lo);
        format!("{l}:{c}")
    }

    fn line(&mut self, depth: usize, label: &str, text: &str, span: Option<Span>) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(label);
        self.out.push_str(text);
        if let Some(s) = span {
            let _ = write!(self.out, " {}", self.pos(s));
        }
        self.out.push('\n');
    }

    fn too_deep(&mut self, depth: usize) -> bool {
        if depth > MAX_DUMP_DEPTH {
            self.line(depth, "", "… (nested too deep to dump)", None);
            return true;
        }
        false
    }

    // ------------------------------------------------------ declarations

    fn function(&mut self, depth: usize, f: &FunctionDef) {
        let name = f.declarator.name().map_or(String::new(), |n| format!(" `{}`", n.name));
        let ty = type_string(&f.specs, Some(&f.declarator));
        self.line(depth, "", &format!("FunctionDef{name}"), Some(f.span));
        self.out.pop();
        let _ = writeln!(self.out, " {ty}");
        self.specs_children(depth + 1, &f.specs);
        self.declarator_children(depth + 1, &f.declarator, true);
        self.block(depth + 1, "", &f.body);
    }

    fn static_assert(&mut self, depth: usize, s: &StaticAssert) {
        let msg = s.message.as_ref().map_or(String::new(), |m| format!(" {}", quote(m)));
        self.line(depth, "", &format!("StaticAssert{msg}"), Some(s.span));
        self.expr(depth + 1, "", &s.cond);
    }

    fn decl(&mut self, depth: usize, d: &Decl) {
        if d.declarators.is_empty() {
            self.line(depth, "", &format!("Decl {}", type_string(&d.specs, None)), Some(d.span));
            self.specs_children(depth + 1, &d.specs);
            return;
        }
        let kind = if d.is_typedef() { "Typedef" } else { "Decl" };
        for (i, id) in d.declarators.iter().enumerate() {
            let name = id.declarator.name().map_or(String::new(), |n| format!(" `{}`", n.name));
            let span = id.declarator.name().map_or(id.span, |n| n.span);
            self.line(depth, "", &format!("{kind}{name}"), Some(span));
            self.out.pop();
            let _ = writeln!(self.out, " {}", type_string(&d.specs, Some(&id.declarator)));
            if i == 0 {
                self.specs_children(depth + 1, &d.specs);
            }
            self.declarator_children(depth + 1, &id.declarator, false);
            for a in &id.attrs {
                self.attr(depth + 1, a);
            }
            if let Some(init) = &id.init {
                self.init(depth + 1, "Init ", init);
            }
        }
    }

    /// Attributes and struct/enum bodies in specifiers.
    fn specs_children(&mut self, depth: usize, specs: &DeclSpecs) {
        for s in &specs.items {
            match s {
                DeclSpec::Attr(a) => self.attr(depth, a),
                DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Struct(st), .. }) if st.members.is_some() || !st.attrs.is_empty() => {
                    self.struct_def(depth, st)
                }
                DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Enum(e), .. }) if e.enumerators.is_some() => self.enum_def(depth, e),
                _ => {}
            }
        }
    }

    fn struct_def(&mut self, depth: usize, s: &StructSpec) {
        if self.too_deep(depth) {
            return;
        }
        let kw = if s.kind == StructKind::Struct { "Struct" } else { "Union" };
        let name = s.name.as_ref().map_or(String::new(), |n| format!(" `{}`", n.name));
        self.line(depth, "", &format!("{kw}{name}"), Some(s.span));
        for a in &s.attrs {
            self.attr(depth + 1, a);
        }
        for m in s.members.iter().flatten() {
            match m {
                StructMember::Field { specs, declarators, span } => {
                    if declarators.is_empty() {
                        self.line(depth + 1, "", &format!("Field {}", type_string(specs, None)), Some(*span));
                        self.specs_children(depth + 2, specs);
                    }
                    for (i, f) in declarators.iter().enumerate() {
                        let name = f.declarator.as_ref().and_then(|d| d.name()).map_or(String::new(), |n| format!(" `{}`", n.name));
                        self.line(depth + 1, "", &format!("Field{name}"), Some(f.span));
                        self.out.pop();
                        let _ = writeln!(self.out, " {}", type_string(specs, f.declarator.as_ref()));
                        if i == 0 {
                            self.specs_children(depth + 2, specs);
                        }
                        if let Some(d) = &f.declarator {
                            self.declarator_children(depth + 2, d, false);
                        }
                        if let Some(w) = &f.bit_width {
                            self.expr(depth + 2, "BitWidth ", w);
                        }
                        for a in &f.attrs {
                            self.attr(depth + 2, a);
                        }
                    }
                }
                StructMember::StaticAssert(s) => self.static_assert(depth + 1, s),
            }
        }
    }

    fn enum_def(&mut self, depth: usize, e: &EnumSpec) {
        let name = e.name.as_ref().map_or(String::new(), |n| format!(" `{}`", n.name));
        self.line(depth, "", &format!("Enum{name}"), Some(e.span));
        for a in &e.attrs {
            self.attr(depth + 1, a);
        }
        for en in e.enumerators.iter().flatten() {
            self.line(depth + 1, "", &format!("Enumerator `{}`", en.name.name), Some(en.span));
            if let Some(v) = &en.value {
                self.expr(depth + 2, "", v);
            }
        }
    }

    fn attr(&mut self, depth: usize, a: &Attribute) {
        self.line(depth, "", &format!("Attr {}", a.name.name), Some(a.span));
        for arg in &a.args {
            match arg {
                AttrArg::Expr(e) => self.expr(depth + 1, "", e),
                AttrArg::Type(t) => self.type_name(depth + 1, "", t),
            }
        }
    }

    /// Parameters (for a function definition or a declared function) and
    /// array size expressions inside a declarator.
    fn declarator_children(&mut self, depth: usize, d: &Declarator, params: bool) {
        if self.too_deep(depth) {
            return;
        }
        match &d.kind {
            DeclaratorKind::Name(_) => {}
            DeclaratorKind::Pointer { inner, quals, .. } => {
                for q in quals {
                    if let DeclSpec::Attr(a) = q {
                        self.attr(depth, a);
                    }
                }
                self.declarator_children(depth, inner, params)
            }
            DeclaratorKind::Array { inner, size } => {
                if let Some(s) = size {
                    self.expr(depth, "ArraySize ", s);
                }
                self.declarator_children(depth, inner, params);
            }
            DeclaratorKind::Function { inner, params: ps, variadic } => {
                let direct = matches!(inner.kind, DeclaratorKind::Name(_));
                if direct || params {
                    for p in ps {
                        self.param(depth, p);
                    }
                    if *variadic {
                        self.line(depth, "", "Variadic", None);
                    }
                }
                self.declarator_children(depth, inner, params && !direct);
            }
        }
    }

    fn param(&mut self, depth: usize, p: &ParamDecl) {
        let name = p.name().map_or(String::new(), |n| format!(" `{}`", n.name));
        self.line(depth, "", &format!("Param{name}"), Some(p.span));
        self.out.pop();
        let _ = writeln!(self.out, " {}", type_string(&p.specs, p.declarator.as_ref()));
        self.specs_children(depth + 1, &p.specs);
        if let Some(d) = &p.declarator {
            self.declarator_children(depth + 1, d, false);
        }
        for a in &p.attrs {
            self.attr(depth + 1, a);
        }
    }

    fn type_name(&mut self, depth: usize, label: &str, t: &TypeName) {
        self.line(depth, label, &format!("Type {}", type_string(&t.specs, t.declarator.as_ref())), Some(t.span));
        self.specs_children(depth + 1, &t.specs);
        if let Some(d) = &t.declarator {
            self.declarator_children(depth + 1, d, false);
        }
    }

    fn init(&mut self, depth: usize, label: &str, i: &Initializer) {
        if self.too_deep(depth) {
            return;
        }
        match i {
            Initializer::Expr(e) => self.expr(depth, label, e),
            Initializer::List { items, span } => {
                self.line(depth, label, "InitList", Some(*span));
                for it in items {
                    let mut lab = String::new();
                    for d in &it.designators {
                        match d {
                            Designator::Field(n) => {
                                let _ = write!(lab, ".{}", n.name);
                            }
                            Designator::Index(e, _) => {
                                let _ = write!(lab, "[{}]", short_expr(e));
                            }
                            Designator::Range(r, ..) => {
                                let _ = write!(lab, "[{} ... {}]", short_expr(&r.0), short_expr(&r.1));
                            }
                        }
                    }
                    if !lab.is_empty() {
                        lab.push_str(" = ");
                    }
                    self.init(depth + 1, &lab, &it.init);
                }
            }
        }
    }

    // -------------------------------------------------------- statements

    fn block(&mut self, depth: usize, label: &str, b: &Block) {
        self.line(depth, label, "Compound", Some(b.span));
        for s in &b.items {
            self.stmt(depth + 1, "", s);
        }
    }

    /// The counts of a loop's `#pragma unroll N`s.
    fn unroll_counts(&mut self, depth: usize, pragmas: &[Unroll]) {
        for c in pragmas.iter().filter_map(|p| p.count.as_deref()) {
            self.expr(depth, "UnrollCount ", c);
        }
    }

    fn stmt(&mut self, depth: usize, label: &str, s: &Stmt) {
        if self.too_deep(depth) {
            return;
        }
        let unroll = |u: &[Unroll]| u.iter().map(|p| if p.nounroll { " pragma-nounroll" } else { " pragma-unroll" }).collect::<String>();
        let d = depth + 1;
        match &s.kind {
            StmtKind::Compound(b) => self.block(depth, label, b),
            StmtKind::Decl(decl) => {
                if label.is_empty() {
                    self.decl(depth, decl)
                } else {
                    self.line(depth, label, "DeclStmt", Some(s.span));
                    self.decl(d, decl)
                }
            }
            StmtKind::StaticAssert(sa) => self.static_assert(depth, sa),
            StmtKind::Expr(e) => self.expr(depth, label, e),
            StmtKind::Null => self.line(depth, label, "Null", Some(s.span)),
            StmtKind::If { cond, then, else_ } => {
                self.line(depth, label, if else_.is_some() { "If has_else" } else { "If" }, Some(s.span));
                self.attrs_of(d, s);
                self.expr(d, "Cond ", cond);
                self.stmt(d, "Then ", then);
                if let Some(e) = else_ {
                    self.stmt(d, "Else ", e);
                }
            }
            StmtKind::Switch { cond, body } => {
                self.line(depth, label, "Switch", Some(s.span));
                self.attrs_of(d, s);
                self.expr(d, "Cond ", cond);
                self.stmt(d, "", body);
            }
            StmtKind::Case { value, high, body } => {
                self.line(depth, label, "Case", Some(s.span));
                self.expr(d, "Value ", value);
                if let Some(h) = high {
                    self.expr(d, "High ", h);
                }
                self.stmt(d, "", body);
            }
            StmtKind::Default { body } => {
                self.line(depth, label, "Default", Some(s.span));
                self.stmt(d, "", body);
            }
            StmtKind::Label { name, body } => {
                self.line(depth, label, &format!("Label `{}`", name.name), Some(s.span));
                self.stmt(d, "", body);
            }
            StmtKind::While { cond, body, unroll: u } => {
                self.line(depth, label, &format!("While{}", unroll(u)), Some(s.span));
                self.unroll_counts(d, u);
                self.attrs_of(d, s);
                self.expr(d, "Cond ", cond);
                self.stmt(d, "", body);
            }
            StmtKind::DoWhile { body, cond, unroll: u } => {
                self.line(depth, label, &format!("Do{}", unroll(u)), Some(s.span));
                self.unroll_counts(d, u);
                self.attrs_of(d, s);
                self.stmt(d, "", body);
                self.expr(d, "Cond ", cond);
            }
            StmtKind::For { init, cond, step, body, unroll: u } => {
                self.line(depth, label, &format!("For{}", unroll(u)), Some(s.span));
                self.unroll_counts(d, u);
                self.attrs_of(d, s);
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(d, "Init ", e),
                    ForInit::Decl(decl) => self.decl(d, decl),
                }
                if let Some(c) = cond {
                    self.expr(d, "Cond ", c);
                }
                if let Some(st) = step {
                    self.expr(d, "Step ", st);
                }
                self.stmt(d, "", body);
            }
            StmtKind::Goto(n) => self.line(depth, label, &format!("Goto `{}`", n.name), Some(s.span)),
            StmtKind::Break => self.line(depth, label, "Break", Some(s.span)),
            StmtKind::Continue => self.line(depth, label, "Continue", Some(s.span)),
            StmtKind::Return(e) => {
                self.line(depth, label, "Return", Some(s.span));
                if let Some(e) = e {
                    self.expr(d, "", e);
                }
            }
            StmtKind::Error => self.line(depth, label, "ErrorStmt", Some(s.span)),
        }
        if !matches!(s.kind, StmtKind::If { .. } | StmtKind::Switch { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. })
        {
            self.attrs_of(d, s);
        }
    }

    fn attrs_of(&mut self, depth: usize, s: &Stmt) {
        for a in &s.attrs {
            self.attr(depth, a);
        }
    }

    // ------------------------------------------------------- expressions

    fn expr(&mut self, depth: usize, label: &str, e: &Expr) {
        if self.too_deep(depth) {
            return;
        }
        let d = depth + 1;
        let sp = Some(e.span);
        match &e.kind {
            ExprKind::Ident(i) => self.line(depth, label, &format!("Ident `{}`", i.name), sp),
            ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) | ExprKind::StringLit(_) | ExprKind::BoolLit(_) => {
                self.line(depth, label, &literal(e), sp)
            }
            ExprKind::Paren(a) => {
                self.line(depth, label, "Paren", sp);
                self.expr(d, "", a);
            }
            ExprKind::Unary(op, a) => {
                self.line(depth, label, &format!("Unary {}", op.text()), sp);
                self.expr(d, "", a);
            }
            ExprKind::Binary(op, a, b) => {
                self.line(depth, label, &format!("Binary {}", op.text()), sp);
                self.expr(d, "", a);
                self.expr(d, "", b);
            }
            ExprKind::Assign(op, a, b) => {
                let op = op.map_or("=".to_string(), |o| format!("{}=", o.text()));
                self.line(depth, label, &format!("Assign {op}"), sp);
                self.expr(d, "", a);
                self.expr(d, "", b);
            }
            ExprKind::Cond(c, a, b) => {
                self.line(depth, label, if a.is_some() { "Conditional" } else { "Conditional ?:" }, sp);
                self.expr(d, "", c);
                if let Some(a) = a {
                    self.expr(d, "", a);
                }
                self.expr(d, "", b);
            }
            ExprKind::Cast(t, a) => {
                self.line(depth, label, &format!("Cast {}", type_string(&t.specs, t.declarator.as_ref())), sp);
                self.expr(d, "", a);
            }
            ExprKind::VectorLiteral(t, elems) => {
                self.line(depth, label, &format!("VectorLiteral {}", type_string(&t.specs, t.declarator.as_ref())), sp);
                for el in elems {
                    self.expr(d, "", el);
                }
            }
            ExprKind::CompoundLiteral(t, init) => {
                self.line(depth, label, &format!("CompoundLiteral {}", type_string(&t.specs, t.declarator.as_ref())), sp);
                self.init(d, "", init);
            }
            ExprKind::SizeofExpr(k, a) => {
                self.line(depth, label, sizeof_name(*k), sp);
                self.expr(d, "", a);
            }
            ExprKind::SizeofType(k, t) => {
                self.line(depth, label, sizeof_name(*k), sp);
                self.type_name(d, "", t);
            }
            ExprKind::Offsetof(t, path) => {
                let mut steps = String::new();
                for (i, step) in path.iter().enumerate() {
                    match step {
                        Designator::Field(n) if i == 0 => steps.push_str(&n.name),
                        Designator::Field(n) => {
                            let _ = write!(steps, ".{}", n.name);
                        }
                        Designator::Index(e, _) => {
                            let _ = write!(steps, "[{}]", short_expr(e));
                        }
                        Designator::Range(..) => {}
                    }
                }
                self.line(depth, label, &format!("Offsetof {steps}"), sp);
                self.type_name(d, "", t);
            }
            ExprKind::Index(a, i) => {
                self.line(depth, label, "Index", sp);
                self.expr(d, "", a);
                self.expr(d, "", i);
            }
            ExprKind::Call(f, args) => {
                self.line(depth, label, "Call", sp);
                self.expr(d, "", f);
                for a in args {
                    self.expr(d, "", a);
                }
            }
            ExprKind::Member { base, arrow, name } => {
                self.line(depth, label, &format!("Member {}{}", if *arrow { "->" } else { "." }, name.name), sp);
                self.expr(d, "", base);
            }
            ExprKind::BlockLit(b) => {
                let ret = b.ret.as_ref().map_or(String::new(), |t| format!(" returns {}", type_string(&t.specs, None)));
                self.line(depth, label, &format!("BlockLiteral{ret}"), sp);
                for p in b.params.iter().flatten() {
                    self.param(d, p);
                }
                self.block(d, "", &b.body);
            }
            ExprKind::StmtExpr(b) => {
                self.line(depth, label, "StmtExpr", sp);
                self.block(d, "", b);
            }
            ExprKind::Error => self.line(depth, label, "ErrorExpr", sp),
        }
    }
}

fn sizeof_name(k: SizeofKind) -> &'static str {
    match k {
        SizeofKind::Sizeof => "Sizeof",
        SizeofKind::Alignof => "Alignof",
        SizeofKind::VecStep => "VecStep",
    }
}

fn literal(e: &Expr) -> String {
    match &e.kind {
        ExprKind::IntLit { value, suffix, .. } => {
            let s = match (suffix.unsigned, suffix.long) {
                (false, false) => "",
                (true, false) => " u",
                (false, true) => " l",
                (true, true) => " ul",
            };
            format!("IntLit {value}{s}")
        }
        ExprKind::FloatLit { value, suffix, .. } => {
            let s = match suffix {
                crate::lex::literal::FloatSuffix::None => "",
                crate::lex::literal::FloatSuffix::F => " f",
                crate::lex::literal::FloatSuffix::H => " h",
            };
            format!("FloatLit {value:?}{s}")
        }
        ExprKind::CharLit(v) => format!("CharLit {v}"),
        ExprKind::StringLit(b) => format!("StringLit {}", quote(b)),
        ExprKind::BoolLit(b) => format!("BoolLit {b}"),
        _ => String::new(),
    }
}

fn quote(b: &[u8]) -> String {
    format!("\"{}\"", b.escape_ascii())
}

/// A one-line rendering of small expressions, for designators and array
/// sizes inside type strings.
fn short_expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Ident(i) => i.name.clone(),
        ExprKind::IntLit { value, .. } => value.to_string(),
        _ => "…".into(),
    }
}

fn specs_string(specs: &DeclSpecs) -> String {
    let mut words: Vec<String> = Vec::new();
    for s in &specs.items {
        let w: String = match s {
            DeclSpec::Storage(c, _) => format!("{c:?}").to_lowercase(),
            DeclSpec::Qual(q, _) => format!("{q:?}").to_lowercase(),
            DeclSpec::AddrSpace(a, _) => a.keyword().to_string(),
            DeclSpec::Access(a, _) => match a {
                AccessQual::ReadOnly => "__read_only".into(),
                AccessQual::WriteOnly => "__write_only".into(),
                AccessQual::ReadWrite => "__read_write".into(),
            },
            DeclSpec::FnSpec(FnSpec::Inline, _) => "inline".into(),
            DeclSpec::FnSpec(FnSpec::Kernel, _) => "__kernel".into(),
            DeclSpec::Pipe(_) => "pipe".into(),
            DeclSpec::Attr(_) => continue,
            DeclSpec::Type(t) => match &t.kind {
                TypeSpecKind::Builtin { name, .. } => name.clone(),
                TypeSpecKind::TypedefName(i) => i.name.clone(),
                TypeSpecKind::TypeofExpr(_) => "typeof(<expr>)".into(),
                TypeSpecKind::Error => "<error>".into(),
                TypeSpecKind::TypeofType(t) => format!("typeof({})", type_string(&t.specs, t.declarator.as_ref())),
                TypeSpecKind::Struct(s) => {
                    let kw = if s.kind == StructKind::Struct { "struct" } else { "union" };
                    format!("{kw} {}", s.name.as_ref().map_or("<anonymous>", |n| n.name.as_str()))
                }
                TypeSpecKind::Enum(e) => format!("enum {}", e.name.as_ref().map_or("<anonymous>", |n| n.name.as_str())),
                TypeSpecKind::Complex => "_Complex".into(),
                TypeSpecKind::Imaginary => "_Imaginary".into(),
                k => format!("{k:?}").to_lowercase(),
            },
        };
        words.push(w);
    }
    words.join(" ")
}

/// The type a declarator gives, in C syntax without the name.
fn type_string(specs: &DeclSpecs, d: Option<&Declarator>) -> String {
    let base = specs_string(specs);
    let Some(d) = d else { return base };
    let abs = declarator_string(d);
    if abs.is_empty() {
        base
    } else if abs.starts_with(['[', '(']) {
        format!("{base}{abs}")
    } else {
        format!("{base} {abs}")
    }
}

fn declarator_string(d: &Declarator) -> String {
    // Iterative over the nesting (bounded by bracket depth anyway).
    match &d.kind {
        DeclaratorKind::Name(_) => String::new(),
        DeclaratorKind::Pointer { block, quals, inner } => {
            let mut s = String::from(if *block { "^" } else { "*" });
            for q in quals {
                let w = specs_string(&DeclSpecs { items: vec![q.clone()], span: Span::default() });
                if !w.is_empty() {
                    s.push_str(&w);
                    s.push(' ');
                }
            }
            s.push_str(&declarator_string(inner));
            s.trim_end().to_string()
        }
        DeclaratorKind::Array { inner, size } => {
            let inner_s = wrap_postfix(inner);
            let size = size.as_ref().map_or(String::new(), |e| short_expr(e));
            format!("{inner_s}[{size}]")
        }
        DeclaratorKind::Function { inner, params, variadic } => {
            let inner_s = wrap_postfix(inner);
            let mut ps: Vec<String> = params.iter().map(|p| type_string(&p.specs, p.declarator.as_ref())).collect();
            if *variadic {
                ps.push("...".into());
            }
            format!("{inner_s}({})", ps.join(", "))
        }
    }
}

/// A pointer under an array or function suffix needs parentheses.
fn wrap_postfix(inner: &Declarator) -> String {
    let s = declarator_string(inner);
    if matches!(inner.kind, DeclaratorKind::Pointer { .. }) { format!("({s})") } else { s }
}
