//! The declaration layer: scopes, name resolution, declarations to types,
//! and OpenCL C's rules on declarations.
//!
//! One pass over the translation unit in source order, as C scopes are
//! lexical: every declaration is turned into a [`QualType`] (declarators
//! applied to the base type, typedef names and tags resolved, address
//! spaces defaulted as OpenCL C 2.0 §6.5 says) and entered into the scope it
//! belongs to; every identifier an expression uses is looked up. What the
//! pass learns about program-scope entities goes into the [`Program`].
//!
//! Expressions are typed by the child module `expr` (`sema/expr.rs`) as
//! the pass meets them, so names resolve in the scope of their use; this
//! module records calls (for the recursion check) and evaluates the integer
//! constant expressions that declarations need.

use rustc_hash::FxHashMap as HashMap;

// The expression layer extends this layer's `Checker` and reads its scopes.
#[path = "expr.rs"]
mod expr;

// Whether control runs off the end of a function body (-Wreturn-type), and
// into a switch label (-Wimplicit-fallthrough).
#[path = "flow.rs"]
mod flow;

// -Wshorten-64-to-32, -Wimplicit-int-conversion, -Wsign-conversion.
#[path = "int_range.rs"]
mod int_range;

// -Wunsequenced.
#[path = "sequence.rs"]
mod sequence;

// -Wuninitialized.
#[path = "uninit.rs"]
mod uninit;

// `#pragma unroll` and `opencl_unroll_hint`: their rules, and what a loop's
// hints ask of code generation.
#[path = "loop_hints.rs"]
mod loop_hints;

use super::consteval::{self, CInt, IntTy, NotConst, int_ty};
use super::specs::{self, BaseType};
use expr::lower::{addr, DeclKey};
use super::attrs::{self, Handling};
use super::types::{Access, AddrSpace, EnumDecl, Field, QualType, Quals, Record, TypeId, TypeKind, Types};
use super::{Entity, EntityKind, Program, SemaOptions};
use expr::Val;
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::parse::ast::{self, *};
use crate::source::Span;
use clc_builtins::types::{BuiltinType, Image, Opaque, Scalar};

/// Runs the layer over `tu`.
pub fn check(tu: &TranslationUnit, opts: &SemaOptions, diags: &mut Diagnostics) -> Program {
    let track_unused = ["unused-variable", "unused-but-set-variable", "unused-parameter", "unused-but-set-parameter"].iter().any(|w| diags.policy.enabled(w));
    let mut c = Checker {
        opts: opts.clone(),
        diags,
        types: Types::new(opts.target.pointer_bits()),
        scopes: vec![Scope::default()],
        defining: Vec::new(),
        func: None,
        calls: Vec::new(),
        entities: Vec::new(),
        static_functions: Default::default(),
        undeclared: Default::default(),
        ret: None,
        block_floors: Vec::new(),
        poisoned: Default::default(),
        facts: expr::lower::Facts { enabled: opts.build_program, ..Default::default() },
        lost_names: &tu.lost_names,
        broken_records: Default::default(),
        address_of: None,
        unevaluated: 0,
        referenced: Default::default(),
        read: Default::default(),
        set_only: Vec::new(),
        track_unused,
    };
    for item in &tu.items {
        match item {
            ExternalDecl::Decl(d) => c.decl(d, Ctx::File),
            ExternalDecl::FunctionDef(f) => c.function_def(f),
            ExternalDecl::StaticAssert(sa) => c.static_assert(sa),
        }
    }
    c.check_recursion();
    // The typed program is built only for a unit without errors (see
    // `Program::functions`).
    let wanted = opts.build_program && !c.diags.has_errors();
    let (globals, functions) = if wanted { c.build_hir(tu) } else { (Vec::new(), Vec::new()) };
    Program { types: c.types, entities: c.entities, globals, functions }
}

/// Where a declaration appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    File,
    /// In a function body (or a block literal).
    Local,
    Param,
    Field,
    /// A type name in a cast, `sizeof`, or attribute.
    TypeName,
}

#[derive(Clone, Debug)]
enum SymKind {
    Var { has_init: bool },
    Param,
    Func { overloadable: bool, defined: bool },
    Typedef,
    EnumConst(i128),
}

#[derive(Clone, Debug)]
struct Sym {
    kind: SymKind,
    ty: QualType,
    span: Span,
    /// The declaration (its name's node in the syntax tree).
    decl: DeclKey,
}

#[derive(Clone, Debug)]
struct Tag {
    ty: TypeId,
    span: Span,
    is_enum: bool,
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, Vec<Sym>>,
    tags: HashMap<String, Tag>,
    /// Errors reported before the scope opened: with more when it
    /// closes, its unused variables are not reported (clang's scope error
    /// trap).
    errors: usize,
}

/// A switch being checked: its labels, and the type its case values
/// convert to.
struct SwitchCtx {
    /// The controlling expression's types (`None` after an error in it).
    cond: Option<expr::SwitchCond>,
    /// Where the controlling expression is.
    cond_at: Span,
    /// Case values, converted to the promoted type, and where each is.
    cases: HashMap<i128, Span>,
    /// GNU case ranges `lo ... hi` (converted; not empty), and where
    /// each `lo` is.
    ranges: Vec<(i128, i128, Span)>,
    /// Where the `default` label is.
    default: Option<Span>,
    /// Statement expressions enclosing the switch (its labels may not be
    /// inside one it is not in).
    stmt_exprs: usize,
}

/// The function whose body is being checked.
struct FuncCtx {
    name: String,
    /// The function's node in the call graph: its name, or for an
    /// `overloadable` function its name and type (overloads calling each
    /// other are not recursion).
    graph_key: String,
    kernel: bool,
    /// 0 in the outermost block of the body.
    depth: usize,
    /// Each label, and the statement expressions enclosing it.
    labels: HashMap<String, (Span, Vec<u32>)>,
    /// Each `goto` (its label, the statement's span) and the statement
    /// expressions enclosing it.
    gotos: Vec<(Ident, Span, Vec<u32>)>,
    /// The statement expressions enclosing the statement being checked,
    /// outermost first (their ids: indices into `stmt_expr_spans`).
    stmt_exprs: Vec<u32>,
    /// Where each statement expression of the body is.
    stmt_expr_spans: Vec<Span>,
    /// The switches being checked, innermost last.
    switches: Vec<SwitchCtx>,
    /// Loops enclosing the statement being checked (`break`/`continue`
    /// targets).
    loops: usize,
    /// The body holds what a syntax error left: a declaration may be
    /// missing, so undeclared names are not reported (they would be
    /// noise after the syntax error).
    after_syntax_error: bool,
    /// The signature `__PRETTY_FUNCTION__` gives (the name where there is
    /// none: a program-scope block).
    pretty: String,
    /// The block literals of the body by node address, numbered in
    /// source order from 1 (clang's `<name>_block_invoke_<n>`), and those
    /// being checked, innermost last.
    block_numbers: HashMap<usize, u32>,
    open_blocks: Vec<u32>,
}

impl FuncCtx {
    fn new(name: String, graph_key: String, kernel: bool, after_syntax_error: bool) -> FuncCtx {
        let (labels, gotos, stmt_exprs) = (HashMap::default(), Vec::new(), Vec::new());
        let pretty = name.clone();
        FuncCtx {
            name,
            graph_key,
            kernel,
            depth: 0,
            labels,
            gotos,
            stmt_exprs,
            stmt_expr_spans: Vec::new(),
            switches: Vec::new(),
            loops: 0,
            after_syntax_error,
            pretty,
            block_numbers: HashMap::default(),
            open_blocks: Vec::new(),
        }
    }

    /// The value of the predefined identifier `name` (`__func__`,
    /// `__FUNCTION__`, `__PRETTY_FUNCTION__`) here, as clang gives it: in
    /// a block literal, clang's name for the block's function.
    fn predefined(&self, name: &str) -> String {
        let base = if name == "__PRETTY_FUNCTION__" { &self.pretty } else { &self.name };
        match self.open_blocks.last() {
            None => base.clone(),
            Some(1) => format!("{base}_block_invoke"),
            Some(n) => format!("{base}_block_invoke_{n}"),
        }
    }
}

/// The predefined identifiers of C99 6.4.2.2 and GNU C, which name the
/// enclosing function.
pub(crate) fn is_predefined_identifier(name: &str) -> bool {
    matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
}

/// A type being built from specifiers and declarator layers: the space is
/// `None` until one is written or the context decides.
#[derive(Clone, Copy, Debug)]
struct Partial {
    ty: TypeId,
    quals: Quals,
    space: Option<AddrSpace>,
}

/// What the declaration specifiers say besides the type.
struct Base<'a> {
    ty: Partial,
    space_span: Option<Span>,
    storage: Option<(StorageClass, Span)>,
    kernel: bool,
    attrs: Vec<&'a Attribute>,
}

struct Param {
    name: Option<Ident>,
    /// The name's node in the syntax tree (0 when unnamed).
    decl: DeclKey,
    ty: QualType,
    span: Span,
    /// The builtin type word the parameter was declared with, when it
    /// names its whole type (`intptr_t`, which the type table knows as
    /// `ptrdiff_t`).
    written: Option<String>,
}

/// What `return` statements are checked against.
#[derive(Clone, Copy)]
enum Returns {
    /// The function's return type, or a block literal's written one.
    Declared(QualType),
    /// A block literal without a written return type returns the type of
    /// its first `return` (`void` for `return;`), which every other
    /// `return` must have too (as clang); `None` until one is seen.
    Inferred(Option<(TypeId, Span)>),
}

/// The result of applying a declarator.
struct Declared {
    ty: Partial,
    /// Parameters of the function declarator closest to the name.
    params: Option<Vec<Param>>,
    ret_space: Option<Span>,
    /// False when a parameter's declaration failed (and was reported): the
    /// function's type lacks it, so its callers are not checked against it.
    complete: bool,
}

struct Checker<'d> {
    opts: SemaOptions,
    diags: &'d mut Diagnostics,
    types: Types,
    scopes: Vec<Scope>,
    /// The records whose members are being checked (outermost first).
    defining: Vec<u32>,
    func: Option<FuncCtx>,
    /// Calls of user functions: (caller, callee, call span).
    calls: Vec<(String, String, Span)>,
    entities: Vec<Entity>,
    /// Functions declared `static` at program scope: internal to the
    /// program, so no other program can call them.
    pub(super) static_functions: rustc_hash::FxHashSet<String>,
    /// Where undeclared identifiers were reported, so a constant
    /// expression that fails because of one is not reported again.
    undeclared: rustc_hash::FxHashSet<Span>,
    /// What `return` checks its value against.
    ret: Option<Returns>,
    /// For each block literal being checked (innermost last), how many
    /// scopes were open where it starts: names found in scopes below it
    /// are the enclosing function's, which the block captures.
    block_floors: Vec<usize>,
    /// Names declared after their declaration failed (as `int`, so that
    /// uses resolve): their uses have no type to check.
    poisoned: rustc_hash::FxHashSet<DeclKey>,
    /// What typing learned, for building the typed program.
    facts: expr::lower::Facts,
    /// Names of file-scope declarations a syntax error broke
    /// ([`TranslationUnit::lost_names`]): not reported undeclared.
    lost_names: &'d rustc_hash::FxHashSet<String>,
    /// Records with a member that could not be declared (a syntax error
    /// or an unknown type in it): a name not found in one is not
    /// reported, it may be the lost member's.
    pub(super) broken_records: rustc_hash::FxHashSet<u32>,
    /// The subscript whose address `&` is taking (`&a[n]`: one past the
    /// end of `a` is no -Warray-bounds there).
    address_of: Option<Span>,
    /// Not evaluated at run time: inside `sizeof`, `_Alignof` or
    /// `vec_step`, or a constant expression (a static assertion, an
    /// enumerator, a case value). clang gives no warning about run-time
    /// behaviour there (-Warray-bounds, -Wsign-compare).
    pub(super) unevaluated: u32,
    /// Variables and parameters named in an expression (or marked
    /// `__attribute__((unused))`): the others draw -Wunused-variable and
    /// -Wunused-parameter when their scope closes.
    referenced: rustc_hash::FxHashSet<DeclKey>,
    /// Of those, the ones also read: named other than as the target of an
    /// assignment or increment statement (-Wunused-but-set-variable).
    read: rustc_hash::FxHashSet<DeclKey>,
    /// The names being assigned by the statement being checked (`x = …;`,
    /// `x += …;`, `x++;`, a `for` step): not reads.
    set_only: Vec<Span>,
    /// Whether any of the -Wunused-variable family is on: else neither
    /// `referenced` nor `read` is kept.
    track_unused: bool,
}

/// The note on diagnostics of the rules for blocks.
const BLOCK_RULES: &str = "OpenCL C 2.0 §6.12.5: blocks are constants made by block literals and named by variables; they are not parameters, return values, fields, array elements or pointees";

fn err(code: &'static str, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, span, msg)
}

impl Checker<'_> {
    // ------------------------------------------------------------ scopes

    /// clang's -Wunsequenced over the full expression `e`, checked
    /// already.
    fn unsequenced(&mut self, e: &Expr) {
        let scopes = &self.scopes;
        let is_var = |name: &str| {
            scopes.iter().rev().find_map(|s| s.names.get(name).and_then(|v| v.last())).is_some_and(|s| matches!(s.kind, SymKind::Var { .. } | SymKind::Param))
        };
        sequence::check(e, &is_var, self.diags);
    }

    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.names.get(name).and_then(|v| v.last()))
    }

    /// The index of the scope (0: file scope) declaring `name`.
    fn lookup_scope(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rposition(|s| s.names.get(name).is_some_and(|v| !v.is_empty()))
    }

    /// Is `name`, used in the block literal being checked, a variable of
    /// the function around the block (which the block captures)? Variables
    /// with static storage (`static`, `__local`) are not captured.
    fn is_capture(&self, name: &str) -> bool {
        // Outside block literals (most names), no scope lookup.
        let Some(&floor) = self.block_floors.last() else { return false };
        let Some(i) = self.lookup_scope(name) else { return false };
        (1..floor).contains(&i) && matches!(self.lookup(name), Some(Sym { kind: SymKind::Var { .. } | SymKind::Param, ty, .. }) if ty.space == AddrSpace::Private)
    }

    fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name))
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope { errors: self.diags.hard_error_count(), ..Scope::default() });
        if let Some(f) = &mut self.func {
            f.depth += 1;
        }
    }

    fn pop_scope(&mut self) {
        if let Some(scope) = self.scopes.pop() {
            self.report_unused(&scope);
        }
        if let Some(f) = &mut self.func {
            f.depth = f.depth.saturating_sub(1);
        }
    }

    /// clang's -Wunused-variable and -Wunused-parameter (off unless asked
    /// for, by name, `-Wall` or `-Wextra`) for a function's scope closing:
    /// its variables and parameters no expression named.
    fn report_unused(&mut self, scope: &Scope) {
        if !self.track_unused || self.func.as_ref().is_none_or(|f| f.after_syntax_error) {
            return;
        }
        let on = |w: &str| self.diags.policy.enabled(w);
        let wanted = [on("unused-variable"), on("unused-but-set-variable"), on("unused-parameter"), on("unused-but-set-parameter")];
        if !wanted.iter().any(|&w| w) {
            return;
        }
        // An error since the scope opened: its variables are not reported
        // (clang's scope error trap); parameters still are.
        let trapped = self.diags.hard_error_count() > scope.errors;
        let mut unused: Vec<(Span, &'static str, String)> = Vec::new();
        for (name, syms) in &scope.names {
            for sym in syms {
                if self.read.contains(&sym.decl) || self.poisoned.contains(&sym.decl) {
                    continue;
                }
                let set = self.referenced.contains(&sym.decl);
                let (i, code, msg) = match (&sym.kind, set) {
                    (SymKind::Var { .. }, false) => (0, "unused-variable", format!("unused variable '{name}'")),
                    (SymKind::Var { .. }, true) => (1, "unused-but-set-variable", format!("variable '{name}' set but not used")),
                    (SymKind::Param, false) => (2, "unused-parameter", format!("unused parameter '{name}'")),
                    (SymKind::Param, true) => (3, "unused-but-set-parameter", format!("parameter '{name}' set but not used")),
                    _ => continue,
                };
                if wanted[i] && !(trapped && i < 2) {
                    unused.push((sym.span, code, msg));
                }
            }
        }
        unused.sort_by_key(|u| (u.0.file, u.0.lo));
        for (at, code, msg) in unused {
            self.diags.push(Diagnostic::warning(code, at, msg));
        }
    }

    fn show(&self, q: QualType) -> String {
        let s = self.types.display_qual(q);
        if q.space == AddrSpace::Private { format!("__private {s}").replacen("__private const ", "const __private ", 1) } else { s }
    }

    /// Enters `name` into the innermost scope, reporting redefinitions.
    fn declare(&mut self, name: &Ident, sym: Sym, ctx: Ctx) {
        if matches!(sym.kind, SymKind::Var { .. } | SymKind::Param) && self.facts.enabled {
            self.facts.decls.insert(sym.decl, sym.ty);
        }
        let file_scope = self.scopes.len() == 1;
        if !file_scope && matches!(sym.kind, SymKind::Var { .. } | SymKind::Param | SymKind::EnumConst(_)) && self.diags.policy.enabled("shadow") {
            self.shadow(name);
        }
        let prev = self.scopes.last().and_then(|s| s.names.get(&name.name)).and_then(|v| v.last()).cloned();
        if let Some(prev) = prev {
            let here = |msg: String| err("E0305", name.span, msg).with_note_at(prev.span, "previous definition is here");
            match (&prev.kind, &sym.kind) {
                (SymKind::Func { overloadable: po, defined: pd }, SymKind::Func { overloadable: so, defined: sd }) => {
                    if prev.ty.ty == sym.ty.ty {
                        if *pd && *sd {
                            self.diags.push(here(format!("redefinition of '{}'", name.name)));
                            return;
                        }
                        if let Some(v) = self.scopes.last_mut().and_then(|s| s.names.get_mut(&name.name)) {
                            let defined = *pd || *sd;
                            if let Some(e) = v.iter_mut().rev().find(|e| e.ty.ty == sym.ty.ty) {
                                e.kind = SymKind::Func { overloadable: *po || *so, defined };
                                if *sd {
                                    e.span = sym.span;
                                }
                                return;
                            }
                        }
                    } else if *po && *so {
                        // An overload set: several functions share the name.
                        let v = self.scopes.last_mut().and_then(|s| s.names.get_mut(&name.name)).expect("present");
                        if let Some(e) = v.iter_mut().find(|e| e.ty.ty == sym.ty.ty) {
                            if matches!(e.kind, SymKind::Func { defined: true, .. }) && matches!(sym.kind, SymKind::Func { defined: true, .. }) {
                                self.diags.push(here(format!("redefinition of '{}'", name.name)));
                            } else if matches!(sym.kind, SymKind::Func { defined: true, .. }) {
                                e.kind = sym.kind.clone();
                            }
                            return;
                        }
                        v.push(sym);
                        return;
                    } else {
                        self.diags.push(
                            err("E0305", name.span, format!("conflicting types for '{}'", name.name))
                                .with_note_at(prev.span, "previous declaration is here")
                                .with_note("functions that share a name need __attribute__((overloadable)) on every declaration"),
                        );
                        return;
                    }
                }
                (SymKind::Typedef, SymKind::Typedef) => {
                    if prev.ty != sym.ty {
                        let (a, b) = (self.types.display_qual(sym.ty), self.types.display_qual(prev.ty));
                        self.diags.push(here(format!("typedef redefinition with different types ('{a}' vs '{b}')")));
                    } else {
                        // Allowed from C11 on; OpenCL C is C99 (clang
                        // warns in every OpenCL version).
                        let d = Diagnostic::warning("typedef-redefinition", name.span, format!("redefinition of typedef '{}' is a C11 feature", name.name)).with_note_at(prev.span, "previous definition is here");
                        self.diags.push(d);
                    }
                    return;
                }
                (SymKind::Param, SymKind::Param) => {
                    self.diags.push(
                        err("E0305", name.span, format!("redefinition of parameter '{}'", name.name)).with_note_at(prev.span, "previous declaration is here"),
                    );
                    return;
                }
                (SymKind::Var { has_init: pi }, SymKind::Var { has_init: si }) if file_scope => {
                    // Tentative definitions (C99 6.9.2): `int x; int x = 1;`.
                    if prev.ty.ty != sym.ty.ty {
                        let (a, b) = (self.types.display(sym.ty.ty), self.types.display(prev.ty.ty));
                        self.diags.push(here(format!("redefinition of '{}' with a different type: '{a}' vs '{b}'", name.name)));
                    } else if *pi && *si {
                        self.diags.push(here(format!("redefinition of '{}'", name.name)));
                    }
                    return;
                }
                (a, b) if std::mem::discriminant(a) == std::mem::discriminant(b) || matches!((a, b), (SymKind::Param, SymKind::Var { .. })) => {
                    if prev.ty.ty != sym.ty.ty {
                        let (x, y) = (self.show(sym.ty), self.show(prev.ty));
                        self.diags.push(here(format!("redefinition of '{}' with a different type: '{x}' vs '{y}'", name.name)));
                        return;
                    }
                    self.diags.push(here(format!("redefinition of '{}'", name.name)));
                    return;
                }
                _ => {
                    self.diags.push(here(format!("redefinition of '{}' as different kind of symbol", name.name)));
                    return;
                }
            }
        }
        let _ = ctx;
        self.scopes.last_mut().expect("a scope").names.entry(name.name.clone()).or_default().push(sym);
    }

    // ------------------------------------------------------ declarations

    /// Types a constant expression (see [`Checker::unevaluated`]).
    fn constant_expr(&mut self, e: &Expr) {
        self.unevaluated += 1;
        self.expr(e);
        self.unevaluated -= 1;
    }

    fn static_assert(&mut self, sa: &StaticAssert) {
        self.constant_expr(&sa.cond);
        if let Some(v) = self.ice(&sa.cond, "the static assertion") {
            if v.value == 0 {
                let msg = match &sa.message {
                    Some(m) => format!("static assertion failed: {}", String::from_utf8_lossy(m)),
                    None => "static assertion failed".into(),
                };
                self.diags.push(err("E0309", sa.cond.span, msg));
            }
        }
    }

    /// Evaluates a required integer constant expression, reporting when it
    /// is not one. `what` names the construct for the message.
    fn ice(&mut self, e: &Expr, what: &str) -> Option<CInt> {
        let mut inner = e;
        while let ExprKind::Paren(i) = &inner.kind {
            inner = i;
        }
        if let ExprKind::FloatLit { suffix, .. } = &inner.kind {
            let t = float_literal_type(*suffix);
            self.diags.push(err("E0307", e.span, format!("integer constant expression must have integer type, not '{t}'")).with_label(what.to_string()));
            return None;
        }
        match consteval::eval(e, self) {
            Ok(v) => {
                if self.facts.enabled {
                    self.facts.consts.insert(expr::lower::addr(e), v.value);
                }
                Some(v)
            }
            Err(NotConst { span, .. }) if self.undeclared.contains(&span) => None,
            Err(NotConst { span, reason }) => {
                self.diags.drop_warnings("division-by-zero", e.span);
                let mut d = err("E0307", e.span, "expression is not an integer constant expression").with_label(format!("{what} must be an integer constant"));
                if !reason.is_empty() {
                    d = d.with_secondary(span, reason);
                } else if span != e.span {
                    d = d.with_secondary(span, "this is not a constant");
                }
                self.diags.push(d);
                None
            }
        }
    }

    fn decl(&mut self, d: &Decl, ctx: Ctx) {
        let Some(base) = self.base(&d.specs, ctx) else {
            // Still resolve the names in initializers, and declare the
            // names (as `int`) so their uses do not cascade into more
            // errors.
            for id in &d.declarators {
                if let Some(init) = &id.init {
                    self.init(init);
                }
                self.declare_poisoned(&id.declarator, ctx);
            }
            return;
        };
        self.storage_rules(&base, ctx);
        let typedef = matches!(base.storage, Some((StorageClass::Typedef, _)));
        for id in &d.declarators {
            let Some(decl) = self.declarator(&base, &id.declarator, ctx) else {
                if let Some(init) = &id.init {
                    self.init(init);
                }
                self.declare_poisoned(&id.declarator, ctx);
                continue;
            };
            if !decl.complete {
                self.declare_poisoned(&id.declarator, ctx);
                continue;
            }
            let Some(name_node) = id.declarator.name() else { continue };
            let (name, decl_key) = (name_node.clone(), addr(name_node));
            let mut attrs = base.attrs.clone();
            attrs.extend(id.attrs.iter());
            let mut decl = decl;
            if !matches!(self.types.kind(decl.ty.ty), TypeKind::Function { .. }) {
                let Some(t) = self.vector_attr(decl.ty.ty, &attrs) else {
                    self.declare_poisoned(&id.declarator, ctx);
                    continue;
                };
                decl.ty.ty = t;
            }
            if typedef {
                let ty = self.finish(decl.ty, AddrSpace::Private);
                let ty = QualType { space: decl.ty.space.unwrap_or(AddrSpace::Private), ..ty };
                if let Some(b) = clc_builtins::types::lookup(&name.name) {
                    // `typedef unsigned char uchar;` (the parser reads such
                    // a name only for scalar and vector type words): the
                    // same type again, as clang's headers define it.
                    self.redefined_builtin(&name, b, ty);
                    self.check_attrs(&attrs, false);
                    continue;
                }
                if matches!(self.types.kind(ty.ty), TypeKind::Record(_) | TypeKind::Enum(_)) && self.types.linkage_name(ty.ty).is_none() {
                    self.types.typedef_names.insert(ty.ty, name.name.clone());
                }
                self.declare(&name, Sym { kind: SymKind::Typedef, ty, span: name.span, decl: decl_key }, ctx);
                self.check_attrs(&attrs, false);
                continue;
            }
            if matches!(self.types.kind(decl.ty.ty), TypeKind::Function { .. }) {
                if let Some(init) = &id.init {
                    self.diags.push(err("E0305", init.span(), format!("illegal initializer: '{}' is a function", name.name)));
                }
                self.function_decl(&base, name_node, &decl, &attrs, false, id.declarator.span);
                continue;
            }
            self.check_attrs(&attrs, false);
            // The name is in scope in its own initializer (C99 6.2.1p7).
            let q = self.variable(&base, &name, decl.ty, id.init.is_some(), ctx);
            // `int a[] = {1, 2, 3}` is an `int[3]` (C99 6.7.8p22).
            let q = match &id.init {
                Some(init) => self.complete_from_init(q, init),
                None => q,
            };
            if ctx == Ctx::Local && id.init.is_none() && base.storage.is_none() {
                self.default_const_init(q, name.span);
            }
            self.declare(&name, Sym { kind: SymKind::Var { has_init: id.init.is_some() }, ty: q, span: name.span, decl: decl_key }, ctx);
            if marked_unused(&d.specs, &id.attrs) {
                self.referenced.insert(decl_key);
                self.read.insert(decl_key);
            }
            if ctx == Ctx::File && !self.entities.iter().any(|e| e.name == name.name) {
                self.entities.push(Entity { name: name.name.clone(), span: name.span, ty: q, kind: EntityKind::Global });
            }
            if let Some(init) = &id.init {
                // A program-scope block's literal is checked as a function
                // body of its own (its calls are its callers', see
                // `global_block_key`).
                let block_body = ctx == Ctx::File && matches!(self.types.kind(q.ty), TypeKind::Block { .. });
                if block_body {
                    self.func = Some(FuncCtx::new(name.name.clone(), global_block_key(&name.name), false, false));
                }
                self.init_as(init, q);
                self.missing_braces(init, q);
                if let Initializer::Expr(e) = &**init
                    && ctx == Ctx::Local
                {
                    self.unsequenced(e);
                }
                if block_body {
                    self.end_function();
                }
                // Objects with static storage are initialized before any
                // code runs: from constants only (C99 6.7.8p4). (A
                // function-scope `__global` one that is not `static` is an
                // error of its own.)
                let is_static = matches!(base.storage, Some((StorageClass::Static | StorageClass::Extern, _)));
                if ctx == Ctx::File || q.space == AddrSpace::Constant || (q.space == AddrSpace::Global && is_static) {
                    self.require_constant_init(init);
                    // A sampler's bits are read at compile time: its
                    // initializer is an integer constant expression.
                    if let (TypeKind::Opaque(Opaque::Sampler), Initializer::Expr(e)) = (self.types.kind(q.ty), &**init)
                        && self.is_constant_init(e)
                        && let Err(why) = consteval::eval(e, self)
                    {
                        let mut d = err("E0330", e.span, "initializer element is not a compile-time constant");
                        if !why.reason.is_empty() {
                            d = d.with_note_at(why.span, why.reason);
                        }
                        self.diags.push(d);
                    }
                }
            }
        }
    }

    /// Completes an array type of unknown length from its initializer: the
    /// largest index initialized, plus one (a string: its length with the
    /// NUL).
    pub(super) fn complete_from_init(&mut self, q: QualType, init: &Initializer) -> QualType {
        let TypeKind::Array(el, None) = self.types.kind(q.ty).clone() else { return q };
        let len = match init {
            Initializer::Expr(e) => match &strip_parens(e).kind {
                ExprKind::StringLit(bytes) => bytes.len() as u64 + 1,
                _ => return q,
            },
            Initializer::List { items, .. } => {
                // `char s[] = { "abc" }`.
                if let Some(Initializer::Expr(e)) = self.braced_string(q.ty, items)
                    && let ExprKind::StringLit(bytes) = &strip_parens(e).kind
                {
                    return QualType { ty: self.types.intern(TypeKind::Array(el, Some(bytes.len() as u64 + 1))), ..q };
                }
                // Designators or brace elision: where the items go takes
                // the whole walk; else each item is an element.
                let elided = matches!(self.types.kind(el.ty), TypeKind::Array(..) | TypeKind::Record(_));
                if elided || items.iter().any(|i| !i.designators.is_empty()) {
                    self.list_extent(q, items)
                } else {
                    items.len() as u64
                }
            }
        };
        QualType { ty: self.types.intern(TypeKind::Array(el, Some(len))), ..q }
    }

    /// Reports each initializer element that is not a compile-time
    /// constant (an arithmetic constant or an address constant).
    fn require_constant_init(&mut self, init: &Initializer) {
        match init {
            Initializer::Expr(e) => {
                if !self.is_constant_init(e) {
                    self.diags.push(
                        err("E0330", e.span, "initializer element is not a compile-time constant")
                            .with_note("program-scope and __constant variables are initialized before any kernel runs, from constants and addresses of program-scope objects"),
                    );
                }
            }
            Initializer::List { items, .. } => {
                for item in items {
                    self.require_constant_init(&item.init);
                }
            }
        }
    }

    /// Is `e` an arithmetic or address constant?
    fn is_constant_init(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::SizeofExpr(..)
            | ExprKind::SizeofType(..)
            | ExprKind::Error => true,
            ExprKind::Paren(x) | ExprKind::Cast(_, x) => self.is_constant_init(x),
            ExprKind::Unary(UnOp::AddrOf, x) => self.is_static_lvalue(x),
            ExprKind::Unary(UnOp::Plus | UnOp::Neg | UnOp::BitNot | UnOp::Not, x) => self.is_constant_init(x),
            ExprKind::Unary(..) => false,
            ExprKind::Binary(BinOp::Comma, ..) => false,
            ExprKind::Binary(_, a, b) => self.is_constant_init(a) && self.is_constant_init(b),
            ExprKind::Cond(c, a, b) => self.is_constant_init(c) && a.as_deref().is_none_or(|a| self.is_constant_init(a)) && self.is_constant_init(b),
            ExprKind::VectorLiteral(_, xs) => xs.iter().all(|x| self.is_constant_init(x)),
            ExprKind::Offsetof(_, path) => offsetof_indices(path).all(|x| self.is_constant_init(x)),
            ExprKind::CompoundLiteral(_, init) => self.is_constant_list(init),
            ExprKind::Ident(id) => match self.lookup(&id.name) {
                Some(Sym { kind: SymKind::EnumConst(_) | SymKind::Func { .. }, .. }) => true,
                // An array's name is the address of its first element; a
                // read-only object with a constant initializer is its value
                // (clang folds these too).
                // Another program-scope block.
                Some(Sym { ty, .. }) if matches!(self.types.kind(ty.ty), TypeKind::Block { .. }) => self.lookup_scope(&id.name) == Some(0),
                Some(Sym { kind: SymKind::Var { has_init }, ty, .. }) => {
                    let static_storage = matches!(ty.space, AddrSpace::Global | AddrSpace::Constant);
                    let read_only = ty.space == AddrSpace::Constant || ty.quals.is_const;
                    static_storage && (matches!(self.types.kind(ty.ty), TypeKind::Array(..)) || (read_only && *has_init))
                }
                Some(_) => false,
                // Builtin constants (`CLK_…`, `M_PI_F`); unknown names were
                // reported already.
                None => true,
            },
            // A swizzle of a constant vector, a member or element of a
            // read-only object with a constant initializer.
            ExprKind::Member { base, arrow: false, .. } => self.is_constant_init(base) || self.is_read_only_constant(base),
            ExprKind::Index(a, i) => self.is_read_only_constant(a) && self.is_constant_init(i),
            // A block literal at program scope captures nothing.
            ExprKind::BlockLit(_) => true,
            // At file scope a statement expression is an error of its own.
            ExprKind::StmtExpr(_) => self.func.is_none(),
            // clang's builtins fold: `__builtin_inff()`, `__builtin_clz(8)`.
            // (A NaN's bad payload is an error of its own.)
            ExprKind::Call(f, _) => {
                let nan = matches!(&f.kind, ExprKind::Ident(id) if consteval::Env::clang_builtin(self, &id.name).is_some_and(|o| o.lowering == clc_builtins::Lowering::Gnu(clc_builtins::functions::GnuOp::Nan)));
                nan || consteval::eval(e, self).is_ok() || self.clang_float_constant(e).is_some()
            }
            ExprKind::Member { .. } | ExprKind::Assign(..) => false,
        }
    }

    /// Is `e` (part of) a program-scope read-only object with a constant
    /// initializer, whose value is known at compile time?
    fn is_read_only_constant(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Paren(x) => self.is_read_only_constant(x),
            ExprKind::Ident(id) => matches!(
                self.lookup(&id.name),
                Some(Sym { kind: SymKind::Var { has_init: true }, ty, .. })
                    if matches!(ty.space, AddrSpace::Global | AddrSpace::Constant) && (ty.space == AddrSpace::Constant || ty.quals.is_const)
            ),
            ExprKind::Index(a, i) => self.is_read_only_constant(a) && self.is_constant_init(i),
            ExprKind::Member { base, arrow: false, .. } => self.is_read_only_constant(base),
            _ => false,
        }
    }

    fn is_constant_list(&mut self, init: &Initializer) -> bool {
        match init {
            Initializer::Expr(e) => self.is_constant_init(e),
            Initializer::List { items, .. } => items.iter().all(|i| self.is_constant_list(&i.init)),
        }
    }

    /// Does `e` designate an object with static storage (whose address is
    /// a constant)?
    fn is_static_lvalue(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Paren(x) => self.is_static_lvalue(x),
            ExprKind::Ident(id) => match self.lookup(&id.name) {
                Some(Sym { kind: SymKind::Var { .. }, ty, .. }) => matches!(ty.space, AddrSpace::Global | AddrSpace::Constant),
                Some(Sym { kind: SymKind::Func { .. }, .. }) | None => true,
                Some(_) => false,
            },
            ExprKind::Index(a, i) => (self.is_static_lvalue(a) || self.is_constant_init(a)) && self.is_constant_init(i),
            ExprKind::Member { base, arrow: false, .. } => self.is_static_lvalue(base),
            ExprKind::Member { base, arrow: true, .. } | ExprKind::Unary(UnOp::Deref, base) => self.is_constant_init(base),
            ExprKind::StringLit(_) | ExprKind::CompoundLiteral(..) | ExprKind::Error => true,
            _ => false,
        }
    }

    /// Declares the name of a declaration whose type could not be
    /// formed, as an `int` variable, unless the name is already visible.
    fn declare_poisoned(&mut self, d: &Declarator, ctx: Ctx) {
        let Some(name) = d.name() else { return };
        if self.scopes.last().is_some_and(|s| s.names.contains_key(&name.name)) {
            return;
        }
        let ty = QualType::new(self.types.scalar(Scalar::Int), AddrSpace::Private);
        self.poisoned.insert(addr(name));
        self.declare(name, Sym { kind: SymKind::Var { has_init: true }, ty, span: name.span, decl: addr(name) }, ctx);
    }

    /// clang's -Wshadow: a local declaration (variable, parameter,
    /// enumerator) whose name the nearest enclosing scope that has it
    /// gives to a variable or parameter (a name that was a type, a
    /// function or an enumerator there is no variable shadowed).
    fn shadow(&mut self, name: &Ident) {
        let outer = self.scopes.len() - 1;
        let Some((depth, prev)) = self.scopes[..outer].iter().enumerate().rev().find_map(|(k, s)| s.names.get(&name.name).and_then(|v| v.last()).map(|p| (k, p))) else { return };
        if !matches!(prev.kind, SymKind::Var { .. } | SymKind::Param) {
            return;
        }
        let what = if depth == 0 { "a variable in the global scope" } else { "a local variable" };
        let d = Diagnostic::warning("shadow", name.span, format!("declaration shadows {what}")).with_note_at(prev.span, "previous declaration is here");
        self.diags.push(d);
    }

    /// Declares a function's or block's parameters in its body's scope;
    /// a parameter whose declaration failed (`written` lacks it) is
    /// declared poisoned, so its uses do not cascade.
    fn declare_params(&mut self, written: &[ParamDecl], params: Vec<Param>) {
        for p in written {
            if let (Some(n), Some(d)) = (p.name(), &p.declarator) {
                if !params.iter().any(|q| q.decl == addr(n)) {
                    self.declare_poisoned(d, Ctx::Param);
                }
            }
        }
        for p in params {
            if let Some(n) = &p.name {
                self.declare(n, Sym { kind: SymKind::Param, ty: p.ty, span: n.span, decl: p.decl }, Ctx::Param);
                if written.iter().any(|w| w.name().is_some_and(|wn| addr(wn) == p.decl) && marked_unused(&w.specs, &w.attrs)) {
                    self.referenced.insert(p.decl);
                    self.read.insert(p.decl);
                }
            }
        }
    }

    fn storage_rules(&mut self, base: &Base, ctx: Ctx) {
        let Some((sc, span)) = base.storage else { return };
        let word = match sc {
            StorageClass::Auto => "auto",
            StorageClass::Register => "register",
            StorageClass::Static => "static",
            StorageClass::Extern => "extern",
            StorageClass::Typedef => return,
        };
        if matches!(sc, StorageClass::Auto | StorageClass::Register) {
            let v = self.opts.std.name().trim_start_matches("CL");
            self.diags.push(err("E0311", span, format!("OpenCL C version {v} does not support the '{word}' storage class specifier")));
            return;
        }
        match ctx {
            Ctx::Param => self.diags.push(err("E0311", span, format!("invalid storage class specifier '{word}' in function declarator"))),
            Ctx::Field => self.diags.push(err("E0311", span, format!("type name does not allow storage class '{word}' to be specified"))),
            _ => {}
        }
    }

    /// Finishes a partial type with the space the context gives it.
    /// The elements of an array live where the array does, so array
    /// types are rebuilt with the final space on every element level.
    fn finish(&mut self, p: Partial, default: AddrSpace) -> QualType {
        let space = p.space.unwrap_or(default);
        QualType { ty: self.respace(p.ty, space), quals: p.quals, space }
    }

    fn respace(&mut self, t: TypeId, space: AddrSpace) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Array(elem, len) => {
                let inner = self.respace(elem.ty, space);
                self.types.intern(TypeKind::Array(QualType { ty: inner, quals: elem.quals, space }, len))
            }
            _ => t,
        }
    }

    /// Checks a variable declaration and gives it its type.
    fn variable(&mut self, base: &Base, name: &Ident, p: Partial, has_init: bool, ctx: Ctx) -> QualType {
        let std = self.opts.std;
        let storage = base.storage.map(|s| s.0);
        let span = name.span;
        let is_static = storage == Some(StorageClass::Static);
        let is_extern = storage == Some(StorageClass::Extern);
        // (Written: a program-scope sampler is in `__global` by default
        // in 2.0, and fine.)
        if matches!(self.types.kind(p.ty), TypeKind::Opaque(Opaque::Sampler)) && matches!(p.space, Some(AddrSpace::Local | AddrSpace::Global)) {
            self.diags.push(err("E0314", span, "sampler type cannot be used with the __local and __global address space qualifiers"));
        }
        let q = match ctx {
            Ctx::File => {
                // A const program-scope sampler is a constant (clang puts
                // it in the constant address space), so OpenCL C 1.2 allows
                // it without `__constant`; one not const is an error of its
                // own (`object_type_rules`).
                let sampler = matches!(self.types.kind(p.ty), TypeKind::Opaque(Opaque::Sampler));
                let default = if std.has_generic() {
                    AddrSpace::Global
                } else if sampler && p.quals.is_const {
                    AddrSpace::Constant
                } else {
                    AddrSpace::Private
                };
                let q = self.finish(p, default);
                if std.has_generic() {
                    if !matches!(q.space, AddrSpace::Global | AddrSpace::Constant) {
                        self.diags.push(
                            err("E0310", span, "program scope variable must reside in global or constant address space")
                                .with_label(format!("'{}' is declared in the {} address space", name.name, q.space.keyword())),
                        );
                    }
                } else if q.space != AddrSpace::Constant && !sampler {
                    self.diags.push(err("E0310", span, "program scope variable must reside in constant address space").with_note(format!(
                        "OpenCL C {} has no program-scope variables outside __constant",
                        std.name().trim_start_matches("CL")
                    )));
                }
                q
            }
            Ctx::Local => {
                let default = if (is_static || is_extern) && std.has_generic() { AddrSpace::Global } else { AddrSpace::Private };
                let q = self.finish(p, default);
                if is_static && !std.has_generic() {
                    self.diags.push(err("E0311", span, "variables in function scope cannot be declared static"));
                }
                if is_extern && !std.has_generic() && q.space != AddrSpace::Constant {
                    self.diags.push(err("E0310", span, "extern variable must reside in constant address space"));
                }
                // OpenCL C 2.0 §6.8: they are program-scope objects.
                let program_scope = matches!(q.space, AddrSpace::Global | AddrSpace::Constant);
                if is_static && std.has_generic() && !program_scope {
                    self.diags.push(err("E0310", span, "static local variable must reside in global or constant address space"));
                }
                if is_extern && std.has_generic() && !program_scope {
                    self.diags.push(err("E0310", span, "extern variable must reside in global or constant address space"));
                }
                let kernel = self.func.as_ref().is_some_and(|f| f.kernel);
                let depth = self.func.as_ref().map_or(0, |f| f.depth);
                match q.space {
                    AddrSpace::Local => {
                        if !kernel {
                            self.diags.push(err("E0310", span, "non-kernel function variable cannot be declared in local address space"));
                        } else if depth > 0 {
                            self.diags.push(
                                err("E0310", span, "variables in the local address space can only be declared in the outermost scope of a kernel function")
                                    .with_note("move the declaration to the top level of the kernel body"),
                            );
                        }
                        if has_init {
                            self.diags.push(err("E0310", span, "'__local' variable cannot have an initializer"));
                        }
                    }
                    AddrSpace::Constant if !kernel && !is_static && !is_extern => {
                        self.diags.push(err("E0310", span, "non-kernel function variable cannot be declared in constant address space"))
                    }
                    AddrSpace::Global if !is_static && !is_extern => {
                        self.diags.push(err("E0310", span, "function scope variable cannot be declared in global address space"))
                    }
                    AddrSpace::Generic => self.diags.push(err("E0310", span, "automatic variable qualified with an invalid address space")),
                    _ => {}
                }
                q
            }
            _ => self.finish(p, AddrSpace::Private),
        };
        if q.space == AddrSpace::Constant && !has_init && !is_extern {
            self.diags.push(err("E0310", span, "variable in constant address space must be initialized"));
        }
        if matches!(self.types.kind(q.ty), TypeKind::Block { .. }) {
            if is_extern {
                self.diags.push(err("E0333", span, "invalid block variable declaration - using 'extern' storage class is disallowed").with_note(BLOCK_RULES));
            } else if !has_init {
                self.diags.push(err("E0333", span, "invalid block variable declaration - must be initialized").with_note(BLOCK_RULES));
            }
        }
        self.object_type_rules(q, span, ctx, has_init, "variable");
        // `int a[];` defines nothing to size it.
        if let (TypeKind::Array(el, None), false, false) = (self.types.kind(q.ty).clone(), has_init, is_extern) {
            match ctx {
                Ctx::Local => self.diags.push(err("E0314", span, "definition of variable with array type needs an explicit size or an initializer")),
                // C's tentative definition: one element, as clang makes it.
                Ctx::File => {
                    self.diags.push(Diagnostic::warning("tentative-definition-array", span, "tentative array definition assumed to have one element"));
                    return QualType { ty: self.types.intern(TypeKind::Array(el, Some(1))), ..q };
                }
                _ => {}
            }
        }
        q
    }

    /// Rules on the types objects may have: images, samplers, events,
    /// `half`, `double`, incomplete types.
    fn object_type_rules(&mut self, q: QualType, span: Span, ctx: Ctx, has_init: bool, what: &str) {
        let elem = self.strip_arrays(q.ty);
        match self.types.kind(elem).clone() {
            TypeKind::Image(..) | TypeKind::Pipe(..) if ctx != Ctx::Param => {
                let shown = access_words(&self.show(q));
                self.diags.push(err("E0314", span, format!("type '{shown}' can only be used as a function parameter in OpenCL")));
            }
            TypeKind::Block { .. } if ctx == Ctx::Param => {
                self.diags.push(err("E0333", span, format!("declaring function parameter of type '{}' is not allowed", self.show(q))).with_note(BLOCK_RULES));
            }
            TypeKind::Opaque(Opaque::Sampler) if q.ty != elem => {
                self.diags.push(err("E0314", span, "array of 'sampler_t' type is invalid in OpenCL"));
            }
            TypeKind::Opaque(Opaque::Sampler) if ctx == Ctx::File => {
                if !q.quals.is_const && q.space != AddrSpace::Constant {
                    self.diags.push(err("E0314", span, "global sampler requires a const or constant address space qualifier"));
                } else if !has_init && q.space != AddrSpace::Constant {
                    self.diags.push(err("E0314", span, "program scope sampler must be initialized"));
                }
            }
            TypeKind::Opaque(o @ (Opaque::Event | Opaque::ClkEvent | Opaque::ReserveId | Opaque::Queue)) if ctx == Ctx::File => {
                let _ = o;
                self.diags.push(err("E0314", span, format!("the '{}' type cannot be used to declare a program scope variable", self.types.display_qual(q))));
            }
            // As in clang, only scalar `half` values are refused.
            TypeKind::Scalar(Scalar::Half) if !self.opts.fp16_at(span) => {
                let msg = if ctx == Ctx::Param {
                    format!("declaring function parameter of type '{}' is not allowed; did you forget * ?", self.show(q))
                } else {
                    format!("declaring {what} of type '{}' is not allowed", self.show(q))
                };
                self.diags.push(err("E0314", span, msg).with_note("half values need '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'; pointers to half are always allowed"));
            }
            TypeKind::Void if ctx != Ctx::Param => {
                self.diags.push(err("E0314", span, format!("{what} has incomplete type 'void'")));
            }
            TypeKind::Record(_) if self.incomplete_record(q.ty) && !matches!(ctx, Ctx::Param) && q.ty == elem => {
                let d = if ctx == Ctx::Field { self.types.display(q.ty) } else { self.show(q) };
                let diag = err("E0314", span, format!("{what} has incomplete type '{d}'"));
                self.diags.push(self.forward_note(diag, q.ty));
            }
            _ => {}
        }
        if !self.opts.fp64_at(span) && self.mentions_double(q.ty) {
            self.diags.push(err("E0314", span, "use of type 'double' requires cl_khr_fp64 support"));
        }
    }

    /// clang's -Wdefault-const-init-var-unsafe: a local `const` object
    /// (or array of them) declared without an initializer can never get
    /// a value.
    fn default_const_init(&mut self, q: QualType, at: Span) {
        let mut c = q.quals.is_const;
        let mut t = q.ty;
        while let TypeKind::Array(e, _) = self.types.kind(t) {
            c |= e.quals.is_const;
            t = e.ty;
        }
        if c {
            // As clang writes an object's type: the qualifiers of a
            // pointer object after its `*`, `const` before an address space.
            let space = q.space.keyword();
            let shown = match self.types.kind(q.ty) {
                TypeKind::Pointer(_) => format!("{} *const {space}", self.types.display(q.ty).trim_end_matches(" *").trim_end_matches('*')),
                // (An array's type names its elements' `const`.)
                _ => format!("const {space} {}", self.types.display_qual(QualType { quals: Quals { is_const: false, ..q.quals }, space: AddrSpace::Private, ..q }).trim_start_matches("const ")),
            };
            let msg = format!("default initialization of an object of type '{shown}' leaves the object uninitialized");
            self.diags.push(Diagnostic::warning("default-const-init-var-unsafe", at, msg));
        }
    }

    fn strip_arrays(&self, mut t: TypeId) -> TypeId {
        while let TypeKind::Array(e, _) = self.types.kind(t) {
            t = e.ty;
        }
        t
    }

    fn mentions_double(&self, t: TypeId) -> bool {
        match self.types.kind(t) {
            TypeKind::Scalar(Scalar::Double) | TypeKind::Vector(Scalar::Double, _) => true,
            TypeKind::Pointer(p) | TypeKind::Array(p, _) => self.mentions_double(p.ty),
            _ => false,
        }
    }

    fn function_decl(&mut self, base: &Base, name: &Ident, d: &Declared, attrs: &[&Attribute], defined: bool, _span: Span) {
        let TypeKind::Function { ret, .. } = self.types.kind(d.ty.ty).clone() else { return };
        if let Some(s) = d.ret_space {
            self.diags.push(err("E0310", name.span, "return type cannot be qualified with address space").with_secondary(s, "address space written here"));
        }
        if let Some((sc, s)) = base.storage {
            if matches!(sc, StorageClass::Auto | StorageClass::Register) || self.scopes.len() > 1 && sc == StorageClass::Static {
                self.diags.push(err("E0311", s, "illegal storage class on function"));
            }
        }
        if matches!(self.types.kind(ret.ty), TypeKind::Scalar(Scalar::Half)) && !self.opts.fp16_at(name.span) {
            self.diags.push(err("E0314", name.span, "declaring function return value of type 'half' is not allowed; did you forget * ?"));
        }
        if self.is_handle(ret.ty) {
            let shown = self.handle_name(ret.ty);
            self.diags.push(err("E0312", name.span, format!("declaring function return value of type '{shown}' is not allowed")));
        }
        let overloadable = attrs.iter().any(|a| a.name.name == "overloadable");
        if base.kernel {
            if let Some((StorageClass::Static, s)) = base.storage {
                self.diags.push(err("E0311", s, "kernel functions cannot be declared static").with_note("a kernel is the program's entry point: the host must be able to find it"));
            }
            if name.name == "main" {
                self.diags.push(err("E0312", name.span, "kernel cannot be called 'main'"));
            }
            if !matches!(self.types.kind(ret.ty), TypeKind::Void) {
                self.diags.push(err("E0312", name.span, "kernel must have void return type").with_label(format!("returns '{}'", self.types.display_qual(ret))));
            }
            for p in d.params.iter().flatten() {
                self.kernel_param(p);
            }
            if self.scopes.len() > 1 {
                self.diags.push(err("E0312", name.span, "kernel functions must be declared at program scope"));
            }
        }
        self.check_attrs(attrs, true);
        if !base.kernel {
            for a in attrs {
                if matches!(a.name.name.as_str(), "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint") {
                    self.diags.push(err("E0315", a.name.span, format!("'{}' attribute only applies to kernel functions", a.name.name)));
                }
            }
        }
        let ty = QualType::new(d.ty.ty, AddrSpace::Private);
        self.declare(name, Sym { kind: SymKind::Func { overloadable, defined }, ty, span: name.span, decl: addr(name) }, Ctx::File);
        if self.scopes.len() == 1 {
            // C99 6.2.2: once `static`, every later declaration of the
            // name has internal linkage too.
            if matches!(base.storage, Some((StorageClass::Static, _))) {
                self.static_functions.insert(name.name.clone());
            }
            if let Some(e) = self.entities.iter_mut().find(|e| e.name == name.name && e.ty.ty == d.ty.ty) {
                if let EntityKind::Function { overloadable: o, .. } = &mut e.kind {
                    *o |= overloadable;
                }
                if defined {
                    e.span = name.span;
                    let overloadable = matches!(e.kind, EntityKind::Function { overloadable: true, .. });
                    e.kind = EntityKind::Function { kernel: base.kernel, defined: true, overloadable };
                }
            } else {
                self.entities.push(Entity { name: name.name.clone(), span: name.span, ty, kind: EntityKind::Function { kernel: base.kernel, defined, overloadable } });
            }
        }
    }

    fn kernel_param(&mut self, p: &Param) {
        let span = p.name.as_ref().map_or(p.span, |n| n.span);
        let q = p.ty;
        let bad_diag = |c: &mut Self| {
            let mut shown = c.show(q);
            if let Some(w) = &p.written {
                let canonical = c.types.display(q.ty);
                if *w != canonical {
                    shown = shown.replacen(&canonical, w, 1);
                }
            }
            err("E0312", span, format!("'{shown}' cannot be used as the type of a kernel parameter"))
        };
        let bad = |c: &mut Self| {
            let d = bad_diag(c);
            c.diags.push(d);
        };
        match self.types.kind(q.ty).clone() {
            TypeKind::Scalar(Scalar::Bool | Scalar::Size | Scalar::PtrDiff) => bad(self),
            TypeKind::Opaque(Opaque::Event | Opaque::ClkEvent | Opaque::ReserveId) => bad(self),
            TypeKind::Pointer(pointee) => {
                // Every level: `private int * global *p` reaches private
                // memory too.
                let mut levels = vec![pointee];
                while let TypeKind::Pointer(inner) = self.types.kind(levels[levels.len() - 1].ty) {
                    levels.push(*inner);
                }
                if let Some(at) = levels.iter().find(|l| matches!(l.space, AddrSpace::Private | AddrSpace::Generic)) {
                    self.diags.push(
                        err("E0312", span, "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space")
                            .with_label(format!("'{}' reaches the {} address space", p.name.as_ref().map_or("parameter", |n| n.name.as_str()), at.space.keyword())),
                    );
                } else if let TypeKind::Pointer(_) = self.types.kind(pointee.ty) {
                    if !self.opts.std.has_generic() {
                        self.diags.push(err("E0312", span, "kernel parameter cannot be declared as a pointer to a pointer"));
                    }
                }
            }
            TypeKind::Record(i) => {
                // A host value has no bool, size_t or ptrdiff_t (their size
                // is the device's); OpenCL 1.x passes no pointers in
                // structs, 2.0 only pointers to named address spaces.
                let cl1 = !self.opts.std.has_generic();
                let pointer = |c: &Self, t: TypeId| match c.types.kind(t) {
                    TypeKind::Pointer(p) => cl1 || matches!(p.space, AddrSpace::Private | AddrSpace::Generic),
                    _ => false,
                };
                let host_less = |c: &Self, t: TypeId| matches!(c.types.kind(t), TypeKind::Scalar(Scalar::Bool | Scalar::Size | Scalar::PtrDiff));
                if let Some(f) = self.field_where(i, &pointer) {
                    self.diags.push(err("E0312", span, "struct kernel parameters may not contain pointers").with_note(format!("field '{}' has pointer type", f)));
                } else if let Some(f) = self.field_where(i, &host_less) {
                    let d = bad_diag(self).with_note(format!("field '{f}' has a type whose size the host does not know (bool, size_t, ptrdiff_t)"));
                    self.diags.push(d);
                }
            }
            _ => {}
        }
    }

    /// The name of a field of record `i` (searching nested records and
    /// arrays) whose type `pred` holds for.
    fn field_where(&self, i: u32, pred: &dyn Fn(&Self, TypeId) -> bool) -> Option<String> {
        for f in self.types.records[i as usize].fields.iter().flatten() {
            let t = self.strip_arrays(f.ty.ty);
            if pred(self, t) {
                return Some(f.name.clone());
            }
            if let TypeKind::Record(j) = self.types.kind(t) {
                if let Some(n) = self.field_where(*j, pred) {
                    return Some(if f.name.is_empty() { n } else { format!("{}.{n}", f.name) });
                }
            }
        }
        None
    }

    /// Checks the attributes of a declaration (`function`: of a function),
    /// a type, a record or a statement.
    fn check_attrs(&mut self, attrs: &[&Attribute], function: bool) {
        for a in attrs {
            let kernel_attr = matches!(a.name.name.as_str(), "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint" | "intel_reqd_sub_group_size");
            if kernel_attr && !function {
                self.diags.push(err("E0315", a.name.span, format!("'{}' attribute only applies to functions", a.name.name)));
                continue;
            }
            match a.name.name.as_str() {
                "reqd_work_group_size" | "work_group_size_hint" => {
                    if a.args.len() != 3 {
                        self.diags.push(err("E0315", a.name.span, format!("'{}' attribute requires exactly 3 arguments", a.name.name)));
                        continue;
                    }
                    let mut zero_reported = false;
                    for arg in &a.args {
                        match arg {
                            AttrArg::Expr(e) => {
                                self.expr(e);
                                if let Some(v) = self.ice(e, &format!("an argument of '{}'", a.name.name)) {
                                    if v.value < 0 {
                                        let msg = format!("'{}' attribute requires a non-negative integral compile time constant expression", a.name.name);
                                        self.diags.push(err("E0315", e.span, msg));
                                    } else if v.value == 0 && !zero_reported {
                                        // (Once for the attribute.)
                                        zero_reported = true;
                                        let msg = format!("'{}' attribute must be greater than 0", a.name.name);
                                        self.diags.push(err("E0315", a.name.span, msg).with_secondary(e.span, "this is 0"));
                                    }
                                }
                            }
                            AttrArg::Type(t) => {
                                self.diags.push(err("E0315", t.span, format!("'{}' attribute requires an integer constant", a.name.name)));
                            }
                        }
                    }
                }
                "vec_type_hint" => match a.args.as_slice() {
                    [AttrArg::Type(t)] => {
                        if let Some(q) = self.type_name(t) {
                            let ok = matches!(self.types.kind(q.ty), TypeKind::Scalar(s) | TypeKind::Vector(s, _) if !matches!(s, Scalar::Bool | Scalar::Size | Scalar::PtrDiff));
                            if !ok {
                                let msg = "a non-vector or non-vectorizable scalar type is an invalid argument to attribute 'vec_type_hint'";
                                self.diags.push(err("E0315", a.name.span, msg).with_secondary(t.span, format!("'{}'", self.types.display_qual(q))));
                            }
                        }
                    }
                    _ => self.diags.push(err("E0315", a.name.span, "'vec_type_hint' attribute requires a type argument")),
                },
                "opencl_unroll_hint" => self.unroll_hint_on_declaration(a),
                "aligned" => {
                    for arg in &a.args {
                        if let AttrArg::Expr(e) = arg {
                            self.expr(e);
                            if let Some(v) = self.ice(e, "the 'aligned' argument") {
                                if v.value <= 0 || v.value & (v.value - 1) != 0 {
                                    self.diags.push(err("E0315", a.name.span, "requested alignment is not a power of 2").with_secondary(e.span, format!("alignment {}", v.value)));
                                }
                            }
                        }
                    }
                }
                // Checked where they apply (`vector_attr`, records and
                // overloads).
                "ext_vector_type" | "packed" | "overloadable" => {}
                name => {
                    // As written: `__foo__` was looked up as `foo`.
                    let spelled = if a.name.span.len() == name.len() + 4 { format!("__{name}__") } else { name.to_string() };
                    match attrs::handling(name) {
                        Some(Handling::Checked | Handling::Ignored) => {}
                        Some(Handling::Unsupported(instead)) => {
                            self.diags.push(err("E0315", a.name.span, format!("the '{spelled}' attribute is not supported by clc")).with_note(instead));
                        }
                        // After a type among the arguments, clang's parse
                        // of the attribute failed: no warning.
                        None if !self.unknown_attr_args(&a.args) => {}
                        None => {
                            let mut closest = Closest::new(name);
                            attrs::known_names().for_each(|n| closest.consider(n));
                            let mut d = Diagnostic::warning("unknown-attributes", a.span, format!("unknown attribute '{spelled}' ignored"));
                            if let Some(best) = closest.found() {
                                d = d.with_note(format!("did you mean '{best}'?")).with_fixit(a.name.span, best);
                            }
                            self.diags.push(d);
                        }
                    }
                }
            }
        }
    }

    /// The arguments of an attribute nobody knows, read as clang reads
    /// them: the first may be any identifier (`max_constant_size(MAX)`,
    /// `vec_type_hnit(float4)`: a name clang's headers typedef), the others
    /// are expressions and are checked as such; a type is not an
    /// expression (false after that error).
    fn unknown_attr_args(&mut self, args: &[AttrArg]) -> bool {
        let mut parsed = true;
        for (i, arg) in args.iter().enumerate() {
            match arg {
                AttrArg::Expr(e) if i == 0 && matches!(e.kind, ExprKind::Ident(_)) => {}
                AttrArg::Expr(e) => self.expr(e),
                AttrArg::Type(t) => {
                    // clang's typedef names (scalar, vector and atomic
                    // type words, typedefs) are identifiers to it.
                    let identifier = t.declarator.is_none()
                        && matches!(
                            t.specs.items.as_slice(),
                            [DeclSpec::Type(TypeSpec { kind: TypeSpecKind::TypedefName(_), .. })]
                                | [DeclSpec::Type(TypeSpec {
                                    kind: TypeSpecKind::Builtin { ty: BuiltinType::Scalar(_) | BuiltinType::Vector(..) | BuiltinType::Atomic(_), .. },
                                    ..
                                })]
                        );
                    if !(i == 0 && identifier) {
                        self.diags.push(err("E0315", t.span, "expected expression").with_label("a type, where this attribute's arguments are expressions"));
                        parsed = false;
                    }
                }
            }
        }
        parsed
    }

    /// A typedef of the builtin type name `name` (`uchar`, `float4`): it
    /// must name the type the word does.
    fn redefined_builtin(&mut self, name: &Ident, b: BuiltinType, ty: QualType) {
        let p = self.types.pointer_size;
        let same = match (b, self.types.kind(ty.ty)) {
            (BuiltinType::Scalar(a), TypeKind::Scalar(s)) => expr::canon(a, p) == expr::canon(*s, p),
            (BuiltinType::Vector(a, n), TypeKind::Vector(s, m)) => expr::canon(a, p) == expr::canon(*s, p) && n == *m,
            _ => false,
        };
        if !same || ty.quals != Quals::default() || ty.space != AddrSpace::Private {
            let shown = self.types.display_qual(ty);
            self.diags.push(err("E0305", name.span, format!("typedef redefinition with different types ('{shown}' vs '{}')", name.name)).with_note("OpenCL C defines this type name"));
        }
    }

    /// The type `ext_vector_type(N)` among `attrs` makes of `elem`: the
    /// vector of N of them (clang's extension, in which its headers
    /// define OpenCL's vector types); `elem` itself without the
    /// attribute, `None` after an error.
    fn vector_attr(&mut self, elem: TypeId, attrs: &[&Attribute]) -> Option<TypeId> {
        let Some(a) = attrs.iter().rev().find(|a| a.name.name == "ext_vector_type") else { return Some(elem) };
        let [AttrArg::Expr(e)] = a.args.as_slice() else {
            self.diags.push(err("E0315", a.name.span, "'ext_vector_type' attribute takes one argument"));
            return None;
        };
        self.expr(e);
        let n = self.ice(e, "the 'ext_vector_type' argument")?.value;
        let s = match self.types.kind(elem) {
            TypeKind::Scalar(s) if *s != Scalar::Bool => expr::canon(*s, self.types.pointer_size),
            _ => {
                let shown = self.types.display(elem);
                self.diags.push(err("E0315", e.span, format!("invalid vector element type '{shown}'")));
                return None;
            }
        };
        let msg = match n {
            2 | 3 | 4 | 8 | 16 => return Some(self.types.vector(s, n as u8)),
            0 => "zero vector size".to_string(),
            ..0 => "vector must have non-negative size".to_string(),
            _ => format!("a vector of {n} elements is not supported by clc (OpenCL C vectors have 2, 3, 4, 8 or 16)"),
        };
        self.diags.push(err("E0315", e.span, msg));
        None
    }

    /// clang's -Wmissing-prototypes: a definition of a function with
    /// external linkage (no kernel, not `static` nor `inline`) that no
    /// declaration of the same type came before; the note points where
    /// `static` would go.
    fn missing_prototype(&mut self, f: &FunctionDef, base: &Base, name: &Ident, ty: TypeId) {
        if base.kernel || !self.diags.policy.enabled("missing-prototypes") || self.scopes.len() != 1 {
            return;
        }
        if matches!(base.storage, Some((StorageClass::Static, _))) || self.static_functions.contains(&name.name) {
            return;
        }
        if f.specs.items.iter().any(|i| matches!(i, DeclSpec::FnSpec(FnSpec::Inline, _))) {
            return;
        }
        if self.entities.iter().any(|e| e.name == name.name && e.ty.ty == ty) {
            return;
        }
        let at = f.specs.items.iter().find_map(|i| match i {
            DeclSpec::Type(t) => Some(t.span),
            DeclSpec::Qual(_, s) | DeclSpec::AddrSpace(_, s) => Some(*s),
            _ => None,
        });
        let mut d = Diagnostic::warning("missing-prototypes", name.span, format!("no previous prototype for function '{}'", name.name));
        if let Some(at) = at {
            d = d.with_note_at(at.start(), "declare 'static' if the function is not intended to be used outside of this translation unit");
        }
        self.diags.push(d);
    }

    fn function_def(&mut self, f: &FunctionDef) {
        let Some(base) = self.base(&f.specs, Ctx::File) else { return };
        let Some(decl) = self.declarator(&base, &f.declarator, Ctx::File) else { return };
        let Some(name) = f.declarator.name() else { return };
        if !matches!(self.types.kind(decl.ty.ty), TypeKind::Function { .. }) {
            self.diags.push(err("E0305", name.span, format!("'{}' is defined with a body but is not a function", name.name)));
            return;
        }
        let attrs = base.attrs.clone();
        if decl.complete {
            self.missing_prototype(f, &base, name, decl.ty.ty);
            self.function_decl(&base, name, &decl, &attrs, true, f.declarator.span);
        } else {
            // A parameter was reported: check the body, but not the calls.
            self.declare_poisoned(&f.declarator, Ctx::File);
        }
        self.ret = match self.types.kind(decl.ty.ty) {
            TypeKind::Function { ret, .. } => Some(Returns::Declared(*ret)),
            _ => None,
        };
        let overloadable = attrs.iter().any(|a| a.name.name == "overloadable")
            || matches!(self.lookup(&name.name), Some(Sym { kind: SymKind::Func { overloadable: true, .. }, .. }));
        let graph_key = graph_key(&name.name, overloadable.then_some(decl.ty.ty));
        // A syntax error in the function (in its parameter list, or in a
        // statement expression, which leaves no error statement in the
        // body's own list) may have dropped declarations: names are not
        // reported undeclared in it.
        let body = f.span;
        let syntax_error = block_has_error(&f.body)
            || self.diags.iter().any(|d| {
                let at = d.primary.span;
                d.severity >= Severity::Error && matches!(d.code.as_ref(), "E0201" | "E0202") && at.file == body.file && body.lo <= at.lo && at.hi <= body.hi
            });
        let mut func = FuncCtx::new(name.name.clone(), graph_key, base.kernel, syntax_error);
        func.pretty = self.types.pretty_signature(&name.name, decl.ty.ty);
        self.func = Some(func);
        self.scopes.push(Scope { errors: self.diags.hard_error_count(), ..Scope::default() });
        // A definition needs complete parameter and result types (a
        // declaration does not).
        if let TypeKind::Function { ret, .. } = *self.types.kind(decl.ty.ty)
            && self.incomplete_record(ret.ty)
        {
            let d = err("E0314", name.span, format!("incomplete result type '{}' in function definition", self.types.display(ret.ty)));
            self.diags.push(self.forward_note(d, ret.ty));
        }
        for p in decl.params.iter().flatten() {
            if let Some(n) = &p.name
                && self.incomplete_record(p.ty.ty)
            {
                let d = err("E0314", n.span, format!("variable has incomplete type '{}'", self.show(p.ty)));
                self.diags.push(self.forward_note(d, p.ty.ty));
            }
        }
        self.declare_params(f.declarator.function_params().unwrap_or_default(), decl.params.unwrap_or_default());
        for s in &f.body.items {
            self.stmt(s);
        }
        if let Some(scope) = self.scopes.pop() {
            self.report_unused(&scope);
        }
        let wanted = uninit::Wanted {
            always: self.diags.policy.enabled("uninitialized"),
            sometimes: self.diags.policy.enabled("sometimes-uninitialized"),
            maybe: self.diags.policy.enabled("conditional-uninitialized"),
        };
        // As clang: not after any error in the translation unit.
        if !syntax_error && self.diags.hard_error_count() == 0 && (wanted.always || wanted.sometimes || wanted.maybe) {
            let types = &self.types;
            let globals = self.scopes.first();
            let typedef_class = |name: &str| -> Option<uninit::Class> {
                let sym = globals?.names.get(name)?.iter().rev().find(|s| matches!(s.kind, SymKind::Typedef))?;
                Some(match types.kind(sym.ty.ty) {
                    TypeKind::Scalar(_) | TypeKind::Enum(..) => uninit::Class::Scalar,
                    TypeKind::Pointer(_) => uninit::Class::Pointer,
                    TypeKind::Vector(..) => uninit::Class::Vector,
                    TypeKind::Record(_) => uninit::Class::Record,
                    _ => return None,
                })
            };
            uninit::check(&f.body, wanted, &typedef_class, self.diags);
        }
        // clang's -Wreturn-type, at the body's closing brace.
        let non_void = matches!(self.types.kind(decl.ty.ty), TypeKind::Function { ret, .. } if !matches!(self.types.kind(ret.ty), TypeKind::Void) && !self.incomplete_record(ret.ty));
        if non_void && !base.kernel && !syntax_error && flow::falls_off(&f.body.items) {
            let close = Span { lo: f.body.span.hi.saturating_sub(1), ..f.body.span };
            let msg = if flow::has_return(&f.body.items) { "non-void function does not return a value in all control paths" } else { "non-void function does not return a value" };
            self.diags.push(Diagnostic::warning("return-type", close, msg));
        }
        self.ret = None;
        self.end_function();
    }

    /// Leaves the function body being checked: its `goto`s must name its
    /// labels, and not jump into a statement expression (out of one is
    /// fine, as in GNU C).
    fn end_function(&mut self) {
        let Some(fc) = self.func.take() else { return };
        for (g, span, from) in fc.gotos {
            match fc.labels.get(&g.name) {
                None => self.diags.push(err("E0306", g.span, format!("use of undeclared label '{}'", g.name))),
                Some((_, to)) => {
                    // The outermost statement expression the jump enters.
                    let entered = to.iter().zip(from.iter().map(Some).chain(std::iter::repeat(None))).find(|(t, f)| Some(*t) != *f);
                    if let Some((&id, _)) = entered {
                        let d = err("E0335", span, "cannot jump from this goto statement to its label")
                            .with_note_at(fc.stmt_expr_spans[id as usize], "jump enters a statement expression");
                        self.diags.push(d);
                    }
                }
            }
        }
    }

    /// A GNU statement expression `({ …; value; })`, which clang accepts
    /// in OpenCL C: its statements in a scope of their own, then the value
    /// of the last one when that is an expression statement (converted to
    /// a value: arrays decay), else `void`. `break`, `continue`, `return`
    /// and `goto` may leave it; nothing may jump into it.
    pub(super) fn stmt_expr(&mut self, b: &Block, span: Span) -> Option<Val> {
        let Some(f) = self.func.as_mut() else {
            self.diags.push(err("E0335", span, "statement expression not allowed at file scope"));
            return None;
        };
        f.stmt_exprs.push(f.stmt_expr_spans.len() as u32);
        f.stmt_expr_spans.push(span);
        self.push_scope();
        let (stmts, value) = b.split_value();
        for s in stmts {
            self.stmt(s);
        }
        let v = match value {
            Some(x) => self.type_expr(x).and_then(|v| self.decay(v, x.span)),
            None => Some(QualType::new(self.types.void(), AddrSpace::Private)),
        };
        self.pop_scope();
        if let Some(f) = self.func.as_mut() {
            f.stmt_exprs.pop();
        }
        Some(Val { ty: v?, lvalue: false, dup: false, component: false })
    }

    /// `case`/`default` inside a statement expression its switch is not
    /// in: E0335.
    fn case_enters_stmt_expr(&mut self, at: Span) {
        let Some(f) = &self.func else { return };
        let Some(sw) = f.switches.last() else { return };
        if let Some(&entered) = f.stmt_exprs.get(sw.stmt_exprs) {
            let d = err("E0335", at, "cannot jump from switch statement to this case label").with_note_at(f.stmt_expr_spans[entered as usize], "jump enters a statement expression");
            self.diags.push(d);
        }
    }

    // ------------------------------------------------------------- types

    /// Combines declaration specifiers into a base type, resolving typedef
    /// names and defining tags.
    fn base<'a>(&mut self, specs: &'a DeclSpecs, ctx: Ctx) -> Option<Base<'a>> {
        let mut quals = Quals::default();
        let mut space: Option<(AddrSpace, Span)> = None;
        let mut access: Option<Access> = None;
        let mut access_span: Option<Span> = None;
        let mut storage = None;
        let mut kernel = false;
        let mut pipe = None;
        let mut attrs = Vec::new();
        let mut ok = true;
        for s in &specs.items {
            match s {
                DeclSpec::Storage(sc, sp) => {
                    if let Some((prev, _)) = storage {
                        if prev != *sc {
                            self.diags.push(err("E0311", *sp, "cannot combine with previous storage class specifier"));
                        }
                    }
                    storage = Some((*sc, *sp));
                }
                DeclSpec::Qual(q, sp) => {
                    let (flag, word) = match q {
                        TypeQual::Const => (&mut quals.is_const, "const"),
                        TypeQual::Volatile => (&mut quals.is_volatile, "volatile"),
                        TypeQual::Restrict => (&mut quals.is_restrict, "restrict"),
                    };
                    if std::mem::replace(flag, true) {
                        // Allowed by C99 (6.7.3p4); clang warns.
                        self.diags.push(Diagnostic::warning("duplicate-decl-specifier", *sp, format!("duplicate '{word}' declaration specifier")));
                    }
                }
                DeclSpec::AddrSpace(a, sp) => {
                    let a = *a;
                    if let Some((prev, _)) = space {
                        if prev != a {
                            self.diags.push(err("E0310", *sp, "multiple address spaces specified for type").with_label(format!("{} after {}", a.keyword(), prev.keyword())));
                            ok = false;
                        }
                    }
                    space = Some((a, *sp));
                }
                DeclSpec::Access(a, sp) => {
                    if access_span.is_some() {
                        self.diags.push(err("E0314", *sp, "multiple access qualifiers"));
                        ok = false;
                    }
                    access_span = Some(*sp);
                    access = Some(match a {
                        AccessQual::ReadOnly => Access::ReadOnly,
                        AccessQual::WriteOnly => Access::WriteOnly,
                        AccessQual::ReadWrite => Access::ReadWrite,
                    })
                }
                DeclSpec::FnSpec(FnSpec::Kernel, _) => kernel = true,
                DeclSpec::FnSpec(FnSpec::Inline, _) => {}
                DeclSpec::Pipe(sp) => pipe = Some(*sp),
                DeclSpec::Type(_) => {}
                DeclSpec::Attr(a) => attrs.push(a),
            }
        }
        let bt = specs::base_type(specs, self.diags)?;
        let mut ty = match bt {
            BaseType::Void => Partial { ty: self.types.void(), quals: Quals::default(), space: None },
            BaseType::Scalar(s) => Partial { ty: self.types.scalar(s), quals: Quals::default(), space: None },
            BaseType::Builtin(b) => {
                if !self.opts.std.has_generic() && needs_cl20(b) {
                    let (span, name) = specs
                        .items
                        .iter()
                        .find_map(|s| match s {
                            DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Builtin { name, .. }, span }) => Some((*span, name.as_str())),
                            _ => None,
                        })
                        .unwrap_or((specs.span, "this type"));
                    self.diags.push(
                        err("E0314", span, format!("'{name}' requires OpenCL C 2.0"))
                            .with_note(format!("the program is compiled as OpenCL C {}; use -cl-std=CL2.0 or later", self.opts.std.name().trim_start_matches("CL"))),
                    );
                    return None;
                }
                if let BuiltinType::Image(i @ (Image::I2dMsaa | Image::I2dArrayMsaa | Image::I2dMsaaDepth | Image::I2dArrayMsaaDepth)) = b {
                    let span = specs.items.iter().find_map(|s| if let DeclSpec::Type(t) = s { Some(t.span) } else { None }).unwrap_or(specs.span);
                    self.diags.push(
                        err("E0314", span, format!("use of type '{}' requires cl_khr_gl_msaa_sharing support", i.name()))
                            .with_note("clc's targets have no multi-sample images: its CPU runtime shares no OpenGL images, and SPIR-V for OpenCL forbids them"),
                    );
                }
                let t = match b {
                    BuiltinType::Scalar(s) => TypeKind::Scalar(s),
                    BuiltinType::Vector(s, n) => TypeKind::Vector(s, n),
                    BuiltinType::Image(i) => TypeKind::Image(i, access.unwrap_or(Access::ReadOnly)),
                    BuiltinType::Opaque(o) => TypeKind::Opaque(o),
                    BuiltinType::Atomic(a) => TypeKind::Atomic(a),
                };
                Partial { ty: self.types.intern(t), quals: Quals::default(), space: None }
            }
            BaseType::Named(ts) => self.named(ts, specs, ctx)?,
        };
        ty.quals.is_const |= quals.is_const;
        ty.quals.is_volatile |= quals.is_volatile;
        ty.quals.is_restrict |= quals.is_restrict;
        if let Some((a, sp)) = space {
            if let Some(prev) = ty.space {
                if prev != a {
                    self.diags.push(err("E0310", sp, "multiple address spaces specified for type").with_note(format!("the typedef already gives {}", prev.keyword())));
                    ok = false;
                }
            }
            ty.space = Some(a);
        }
        // §6.6: access qualifiers belong to images and pipes only.
        if let Some(sp) = access_span {
            // A typedef of an image has its access already.
            let typedef = specs.items.iter().any(|s| matches!(s, DeclSpec::Type(TypeSpec { kind: TypeSpecKind::TypedefName(_), .. })));
            if typedef && matches!(self.types.kind(ty.ty), TypeKind::Image(_, a) if Some(*a) != access) {
                self.diags.push(err("E0314", sp, "multiple access qualifiers").with_note("the typedef's image type has its access qualifier already"));
                ok = false;
            }
            if pipe.is_some() && access == Some(Access::ReadWrite) {
                self.diags.push(err("E0314", sp, "access qualifier 'read_write' cannot be used for pipes").with_note("a pipe is read_only or write_only for a kernel"));
                ok = false;
            }
            if pipe.is_none() && !matches!(self.types.kind(ty.ty), TypeKind::Image(..)) {
                self.diags.push(
                    err("E0314", sp, "access qualifier can only be used for pipe and image type")
                        .with_note("OpenCL C 2.0 §6.6: __read_only, __write_only and __read_write qualify image and pipe objects; for a buffer use 'const' (or nothing)"),
                );
                // The declaration is still usable: no follow-on errors.
            }
        }
        if pipe.is_some() {
            let elem = QualType { ty: ty.ty, quals: ty.quals, space: AddrSpace::Private };
            ty = Partial { ty: self.types.intern(TypeKind::Pipe(elem, access.unwrap_or(Access::ReadOnly))), quals: Quals::default(), space: ty.space };
        }
        if !ok {
            return None;
        }
        Some(Base { ty, space_span: space.map(|s| s.1), storage, kernel, attrs })
    }

    fn named(&mut self, ts: &TypeSpec, specs: &DeclSpecs, ctx: Ctx) -> Option<Partial> {
        // A typedef's (or `__typeof__`'s) own space stays only if it is
        // not `__private`, which is what the context decides otherwise.
        let named = |q: QualType| Some(Partial { ty: q.ty, quals: q.quals, space: (q.space != AddrSpace::Private).then_some(q.space) });
        match &ts.kind {
            TypeSpecKind::TypedefName(id) => match self.lookup(&id.name) {
                Some(Sym { kind: SymKind::Typedef, ty, .. }) => named(*ty),
                _ if self.lost_names.contains(&id.name) => None,
                _ => {
                    let mut d = err("E0304", id.span, format!("unknown type name '{}'", id.name));
                    if let Some(best) = self.suggest_type(&id.name) {
                        d = d.with_note(format!("did you mean '{best}'?")).with_fixit(id.span, best);
                    }
                    self.diags.push(d);
                    None
                }
            },
            // An lvalue's object type; an rvalue's type has no qualifiers
            // or space.
            TypeSpecKind::TypeofExpr(e) => {
                let v = self.type_expr(e)?;
                named(if v.lvalue { v.ty } else { QualType::new(v.ty.ty, AddrSpace::Private) })
            }
            TypeSpecKind::TypeofType(t) => named(self.type_name(t)?),
            TypeSpecKind::Struct(s) => Some(Partial { ty: self.record(s, specs, ctx), quals: Quals::default(), space: None }),
            TypeSpecKind::Enum(e) => Some(Partial { ty: self.enumeration(e), quals: Quals::default(), space: None }),
            _ => None,
        }
    }

    fn record(&mut self, s: &StructSpec, specs: &DeclSpecs, _ctx: Ctx) -> TypeId {
        let is_union = s.kind == StructKind::Union;
        let kw = if is_union { "union" } else { "struct" };
        // Find or make the record this specifier names.
        let existing = s.name.as_ref().and_then(|n| {
            if s.members.is_some() {
                self.scopes.last().and_then(|sc| sc.tags.get(&n.name)).cloned()
            } else {
                self.lookup_tag(&n.name).cloned()
            }
        });
        let ty = match (&existing, &s.name) {
            (Some(tag), Some(n)) => {
                let kind_ok = match self.types.kind(tag.ty) {
                    TypeKind::Record(i) => self.types.records[*i as usize].is_union == is_union,
                    _ => false,
                };
                if !kind_ok {
                    self.diags.push(
                        err("E0305", n.span, format!("use of '{}' with tag type that does not match previous declaration", n.name))
                            .with_note_at(tag.span, "previous use is here"),
                    );
                    return self.types.add_record(Record { name: Some(n.name.clone()), is_union, fields: None, packed: false, pack: 0, align: None, decl: Some(n.span) });
                }
                tag.ty
            }
            _ => {
                let ty = self.types.add_record(Record { name: s.name.as_ref().map(|n| n.name.clone()), is_union, fields: None, packed: false, pack: 0, align: None, decl: s.name.as_ref().map(|n| n.span) });
                if let Some(n) = &s.name {
                    self.scopes.last_mut().expect("scope").tags.insert(n.name.clone(), Tag { ty, span: n.span, is_enum: false });
                }
                ty
            }
        };
        let Some(members) = &s.members else { return ty };
        let TypeKind::Record(mut idx) = *self.types.kind(ty) else { return ty };
        let mut ty = ty;
        if self.defining.contains(&idx) {
            // `struct S { struct S { … } in; }`: the inner definition is a
            // record of its own, so that S never contains itself.
            let n = s.name.as_ref().expect("only named records are found again");
            let prev = existing.as_ref().map_or(n.span, |t| t.span);
            self.diags.push(err("E0305", n.span, format!("nested redefinition of '{}'", n.name)).with_note_at(prev, "previous definition is here"));
            ty = self.types.add_record(Record { name: Some(n.name.clone()), is_union, fields: None, packed: false, pack: 0, align: None, decl: Some(n.span) });
            let TypeKind::Record(i) = *self.types.kind(ty) else { return ty };
            idx = i;
        }
        if self.types.records[idx as usize].fields.is_some() {
            let n = s.name.as_ref().expect("only named records are found again");
            let prev = existing.map_or(n.span, |t| t.span);
            self.diags.push(err("E0305", n.span, format!("redefinition of '{kw} {}'", n.name)).with_note_at(prev, "previous definition is here"));
            return ty;
        }
        self.defining.push(idx);
        let mut fields: Vec<Field> = Vec::new();
        let mut spans: HashMap<String, Span> = HashMap::default();
        for m in members {
            match m {
                StructMember::StaticAssert(sa) => self.static_assert(sa),
                StructMember::Field { specs, declarators, span } => {
                    let Some(base) = self.base(specs, Ctx::Field) else {
                        self.broken_records.insert(idx);
                        continue;
                    };
                    self.storage_rules(&base, Ctx::Field);
                    if declarators.is_empty() {
                        // An anonymous struct/union member (C11): an untagged
                        // definition only (`struct S;` declares nothing, and
                        // a record holding itself that way had no end).
                        let untagged = specs.items.iter().any(|i| matches!(i, DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Struct(ss), .. }) if ss.name.is_none() && ss.members.is_some()));
                        if untagged && let TypeKind::Record(_) = self.types.kind(base.ty.ty) {
                            fields.push(Field { name: String::new(), ty: self.finish(base.ty, AddrSpace::Private), align: None });
                        } else {
                            self.diags.push(Diagnostic::warning("missing-declarations", *span, "declaration does not declare anything"));
                        }
                        continue;
                    }
                    for fd in declarators {
                        if let Some(w) = &fd.bit_width {
                            self.expr(w);
                            let at = fd.declarator.as_ref().and_then(|d| d.name()).map_or(fd.span, |n| n.span);
                            self.diags.push(err("E0313", at, "bit-fields are not supported in OpenCL").with_secondary(w.span, "bit-field width"));
                        }
                        let Some(d) = &fd.declarator else { continue };
                        let Some(mut decl) = self.declarator(&base, d, Ctx::Field) else { continue };
                        let Some(name) = d.name() else { continue };
                        let mut fattrs: Vec<&Attribute> = base.attrs.clone();
                        fattrs.extend(fd.attrs.iter());
                        let Some(t) = self.vector_attr(decl.ty.ty, &fattrs) else { continue };
                        decl.ty.ty = t;
                        let q = self.finish(decl.ty, AddrSpace::Private);
                        if decl.ty.space.is_some_and(|s| s != AddrSpace::Private) {
                            self.diags.push(err("E0310", name.span, "field may not be qualified with an address space"));
                        }
                        match self.types.kind(self.strip_arrays(q.ty)).clone() {
                            TypeKind::Opaque(Opaque::Event | Opaque::Sampler | Opaque::ClkEvent | Opaque::Queue | Opaque::ReserveId) | TypeKind::Image(..) | TypeKind::Block { .. } => {
                                let shown = access_words(&self.types.display(q.ty));
                                self.diags.push(err("E0314", name.span, format!("the '{shown}' type cannot be used to declare a structure or union field")));
                            }
                            TypeKind::Function { .. } => {
                                self.diags.push(err("E0317", name.span, format!("field '{}' declared as a function", name.name)));
                            }
                            _ => self.object_type_rules(q, name.span, Ctx::Field, false, "field"),
                        }
                        // A member of an incomplete record type (the record
                        // being defined among them) was refused above: a
                        // record holding itself would have no layout.
                        // Its uses are not reported again.
                        if matches!(self.types.kind(self.strip_arrays(q.ty)), TypeKind::Record(i) if self.types.records[*i as usize].fields.is_none()) {
                            self.broken_records.insert(idx);
                            continue;
                        }
                        if let Some(prev) = spans.get(&name.name) {
                            self.diags.push(err("E0317", name.span, format!("duplicate member '{}'", name.name)).with_note_at(*prev, "previous declaration is here"));
                            continue;
                        }
                        spans.insert(name.name.clone(), name.span);
                        self.check_attrs(&fattrs, false);
                        let align = fattrs.iter().filter(|a| a.name.name == "aligned").filter_map(|a| self.attr_int(a)).max();
                        fields.push(Field { name: name.name.clone(), ty: q, align });
                    }
                }
            }
        }
        // Attributes on the record: inside the specifier or after the
        // closing brace (`struct S {…} __attribute__((packed))`).
        let mut all: Vec<&Attribute> = s.attrs.iter().collect();
        all.extend(specs.items.iter().filter_map(|i| if let DeclSpec::Attr(a) = i { Some(a) } else { None }));
        self.check_attrs(&s.attrs.iter().collect::<Vec<_>>(), false);
        let packed = all.iter().any(|a| a.name.name == "packed");
        let align = all.iter().filter(|a| a.name.name == "aligned").map(|a| self.attr_int(a).unwrap_or(16)).max();
        // A flexible array member (C99 6.7.2.1p16) ends a struct; a struct
        // ending in one may end another (GNU).
        let last = fields.len().saturating_sub(1);
        for (k, f) in fields.iter().enumerate() {
            let at = spans.get(&f.name).copied().unwrap_or(s.span);
            if matches!(self.types.kind(f.ty.ty), TypeKind::Array(_, None)) {
                if k != last && !is_union {
                    let shown = self.types.display(f.ty.ty);
                    self.diags.push(err("E0317", at, format!("flexible array member '{}' with type '{shown}' is not at the end of struct", f.name)));
                }
            } else if k != last && !is_union && self.types.ends_flexible(f.ty.ty) {
                let shown = self.types.display(f.ty.ty);
                let msg = format!("field '{}' with variable sized type '{shown}' not at the end of a struct or class is a GNU extension", f.name);
                self.diags.push(Diagnostic::warning("gnu-variable-sized-type-not-at-end", at, msg));
            }
        }
        // Complete members, and no room: the members' sizes add up past
        // what an object may have.
        let members_sized = fields.iter().enumerate().all(|(k, f)| self.types.size_align(f.ty.ty).is_some() || (k == last && matches!(self.types.kind(f.ty.ty), TypeKind::Array(_, None))));
        self.defining.pop();
        let r = &mut self.types.records[idx as usize];
        r.fields = Some(fields);
        r.packed = packed;
        r.pack = u64::from(s.pack);
        r.align = align;
        if members_sized && self.types.record_layout(idx).is_none() {
            let what = s.name.as_ref().map_or(format!("anonymous {kw}"), |n| format!("{kw} '{}'", n.name));
            let msg = format!("{what} is too large, which exceeds the maximum allowed size of {} bytes", super::types::MAX_OBJECT_SIZE - 1);
            self.diags.push(err("E0308", s.span, msg));
        }
        if let Some(n) = &s.name {
            if let Some(t) = self.scopes.last_mut().expect("scope").tags.get_mut(&n.name) {
                t.span = n.span;
            }
        }
        ty
    }

    /// The integer argument of an attribute like `aligned(16)`, quietly.
    fn attr_int(&mut self, a: &Attribute) -> Option<u64> {
        match a.args.first() {
            Some(AttrArg::Expr(e)) => consteval::eval(e, self).ok().and_then(|v| u64::try_from(v.value).ok()),
            // `aligned` alone is the largest useful alignment.
            None if a.name.name == "aligned" => Some(128),
            _ => None,
        }
    }

    fn enumeration(&mut self, e: &EnumSpec) -> TypeId {
        let Some(list) = &e.enumerators else {
            if let Some(n) = &e.name {
                if let Some(t) = self.lookup_tag(&n.name).cloned() {
                    if !t.is_enum {
                        self.diags.push(
                            err("E0305", n.span, format!("use of '{}' with tag type that does not match previous declaration", n.name))
                                .with_note_at(t.span, "previous use is here"),
                        );
                    }
                    return t.ty;
                }
                self.diags.push(err("E0304", n.span, format!("ISO C forbids forward references to 'enum' types; 'enum {}' is not defined", n.name)));
            }
            return self.types.add_enum(EnumDecl { name: e.name.as_ref().map(|n| n.name.clone()), values: Vec::new() });
        };
        if let Some(n) = &e.name {
            if let Some(t) = self.scopes.last().and_then(|s| s.tags.get(&n.name)).cloned() {
                self.diags.push(err("E0305", n.span, format!("redefinition of 'enum {}'", n.name)).with_note_at(t.span, "previous definition is here"));
            }
        }
        let ty = self.types.add_enum(EnumDecl { name: e.name.as_ref().map(|n| n.name.clone()), values: Vec::new() });
        if let Some(n) = &e.name {
            self.scopes.last_mut().expect("scope").tags.insert(n.name.clone(), Tag { ty, span: n.span, is_enum: true });
        }
        let TypeKind::Enum(idx) = *self.types.kind(ty) else { return ty };
        let mut next: i128 = 0;
        for en in list {
            if let Some(v) = &en.value {
                self.constant_expr(v);
                if let Some(c) = self.ice(v, "the enumerator value") {
                    next = c.value;
                }
            }
            let value = next;
            self.types.enums[idx as usize].values.push((en.name.name.clone(), value as i64));
            let q = QualType::new(self.types.scalar(Scalar::Int), AddrSpace::Private).with_const();
            self.declare(&en.name, Sym { kind: SymKind::EnumConst(value), ty: q, span: en.name.span, decl: addr(&en.name) }, Ctx::Local);
            next = value + 1;
        }
        ty
    }

    /// Applies a declarator to a base type, outermost layer first.
    fn declarator(&mut self, base: &Base, d: &Declarator, ctx: Ctx) -> Option<Declared> {
        let default_pointee = if self.opts.std.has_generic() { AddrSpace::Generic } else { AddrSpace::Private };
        let mut t = base.ty;
        let mut params = None;
        let mut ret_space = None;
        let mut complete = true;
        let mut layer = d;
        let name = d.name().map(|n| n.name.clone()).unwrap_or_default();
        loop {
            match &layer.kind {
                DeclaratorKind::Name(_) => break,
                DeclaratorKind::Pointer { block, quals, inner } => {
                    let pointee = QualType { ty: t.ty, quals: t.quals, space: t.space.unwrap_or(default_pointee) };
                    let kind = self.types.kind(t.ty).clone();
                    let ty = match kind {
                        TypeKind::Function { ret, params, .. } if *block => self.types.intern(TypeKind::Block { ret, params }),
                        TypeKind::Block { .. } => {
                            let shown = self.types.display(t.ty);
                            let at = d.name().map_or(layer.span, |n| n.span);
                            self.diags.push(err("E0333", at, format!("pointer to type '{shown}' is invalid in OpenCL")).with_note(BLOCK_RULES));
                            return None;
                        }
                        TypeKind::Image(..) => {
                            let shown = access_words(&self.types.display_qual(QualType { space: AddrSpace::Private, ..pointee }));
                            let at = d.name().map_or(layer.span, |n| n.span);
                            self.diags.push(err("E0314", at, format!("pointer to type '{shown}' is invalid in OpenCL")));
                            return None;
                        }
                        TypeKind::Function { .. } => {
                            self.diags.push(err("E0314", layer.span, "pointers to functions are not allowed"));
                            return None;
                        }
                        _ => self.types.pointer(pointee),
                    };
                    let mut q = Quals::default();
                    let mut sp = None;
                    for s in quals {
                        match s {
                            DeclSpec::Qual(TypeQual::Const, _) => q.is_const = true,
                            DeclSpec::Qual(TypeQual::Volatile, _) => q.is_volatile = true,
                            DeclSpec::Qual(TypeQual::Restrict, _) => q.is_restrict = true,
                            DeclSpec::AddrSpace(a, span) => {
                                let a = *a;
                                if sp.is_some_and(|p| p != a) {
                                    self.diags.push(err("E0310", *span, "multiple address spaces specified for type"));
                                    return None;
                                }
                                sp = Some(a);
                            }
                            DeclSpec::Attr(a) => self.check_attrs(&[a], false),
                            _ => {}
                        }
                    }
                    t = Partial { ty, quals: q, space: sp };
                    layer = inner;
                }
                DeclaratorKind::Array { inner, size } => {
                    let len = match size {
                        None => None,
                        Some(e) => {
                            self.expr(e);
                            match consteval::eval(e, self) {
                                Ok(v) if v.value < 0 => {
                                    let who = if name.is_empty() { "array".to_string() } else { format!("'{name}'") };
                                    self.diags.push(err("E0308", e.span, format!("{who} declared as an array with a negative size")));
                                    return None;
                                }
                                Ok(v) => Some(v.value as u64),
                                // An undeclared name in the size was reported (clang
                                // says no more).
                                Err(NotConst { span, .. }) if self.undeclared.contains(&span) => return None,
                                Err(_) if ctx == Ctx::Local && !matches!(e.kind, ExprKind::FloatLit { .. }) => {
                                    self.diags.push(
                                        err("E0308", e.span, "variable length arrays are not supported in OpenCL").with_label("the size is not a constant"),
                                    );
                                    return None;
                                }
                                Err(_) => {
                                    if let ExprKind::FloatLit { suffix, .. } = &e.kind {
                                        let t = float_literal_type(*suffix);
                                        self.diags.push(err("E0308", e.span, format!("size of array has non-integer type '{t}'")));
                                    } else {
                                        let _ = self.ice(e, "the array size");
                                    }
                                    return None;
                                }
                            }
                        }
                    };
                    let elem = QualType { ty: t.ty, quals: t.quals, space: t.space.unwrap_or(AddrSpace::Private) };
                    if matches!(self.types.kind(t.ty), TypeKind::Block { .. }) {
                        let shown = self.types.display(t.ty);
                        self.diags.push(err("E0333", layer.span, format!("array of '{shown}' type is invalid in OpenCL")).with_note(BLOCK_RULES));
                        return None;
                    }
                    let incomplete_record = matches!(self.types.kind(t.ty), TypeKind::Record(i) if self.types.records[*i as usize].fields.is_none());
                    if incomplete_record || matches!(self.types.kind(t.ty), TypeKind::Void | TypeKind::Function { .. }) {
                        let d = self.types.display(t.ty);
                        let d = err("E0314", layer.span, format!("array has incomplete element type '{d}'"));
                        self.diags.push(self.forward_note(d, t.ty));
                        return None;
                    }
                    let arr = self.types.intern(TypeKind::Array(elem, len));
                    if let (Some(n), Some(_), None) = (len, self.types.size_align(t.ty), self.types.size_align(arr)) {
                        let at = size.as_ref().map_or(layer.span, |e| e.span);
                        self.diags.push(err("E0308", at, format!("array is too large ({n} elements)")));
                        return None;
                    }
                    t = Partial { ty: arr, quals: Quals::default(), space: t.space };
                    layer = inner;
                }
                DeclaratorKind::Function { inner, params: ps, variadic } => {
                    if t.space.is_some() && ctx != Ctx::Param {
                        ret_space = base.space_span.or(Some(layer.span));
                    }
                    let ret = QualType { ty: t.ty, quals: t.quals, space: AddrSpace::Private };
                    if matches!(self.types.kind(t.ty), TypeKind::Block { .. }) {
                        let shown = self.types.display(t.ty);
                        let at = inner.name().map_or(layer.span, |n| n.span);
                        self.diags.push(err("E0333", at, format!("declaring function return value of type '{shown}' is not allowed")).with_note(BLOCK_RULES));
                    }
                    let (list, all) = self.params(ps);
                    complete &= all;
                    if *variadic {
                        // §6.9(e) bans variadic functions except printf,
                        // which is a builtin: a prototype of it (copied
                        // from C) conflicts with the builtin's.
                        let name = inner.name().map(|n| n.name.as_str());
                        if name == Some("printf") {
                            self.diags.push(
                                err("E0305", layer.span, "conflicting types for 'printf'")
                                    .with_note("printf is a builtin of OpenCL C: int printf(constant char *restrict format, ...); remove this declaration"),
                            );
                        } else {
                            self.diags.push(err("E0314", layer.span, "invalid prototype, variadic arguments are not allowed in OpenCL"));
                        }
                    }
                    // C17 6.7.6.3p15: a function's type has its
                    // parameters' types without their top-level
                    // qualifiers, so `f(const int)` and `f(int)` declare
                    // one function.
                    let tys = list.iter().map(|p| QualType { quals: Quals::default(), ..p.ty }).collect();
                    t = Partial { ty: self.types.intern(TypeKind::Function { ret, params: tys, variadic: *variadic }), quals: Quals::default(), space: None };
                    params = Some(list);
                    layer = inner;
                }
            }
        }
        Some(Declared { ty: t, params, ret_space, complete })
    }

    /// The parameters, and whether every one's declaration could be
    /// formed (the others were reported and left out).
    fn params(&mut self, ps: &[ParamDecl]) -> (Vec<Param>, bool) {
        // `(void)`: no parameters.
        if let [p] = ps {
            if p.declarator.as_ref().is_none_or(|d| matches!(d.kind, DeclaratorKind::Name(None))) {
                if let Some(b) = self.peek_void(&p.specs) {
                    if b {
                        return (Vec::new(), true);
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut all = true;
        let mut seen: HashMap<String, Span> = HashMap::default();
        for p in ps {
            let Some(base) = self.base(&p.specs, Ctx::Param) else {
                all = false;
                continue;
            };
            self.storage_rules(&base, Ctx::Param);
            let decl = match &p.declarator {
                Some(d) => self.declarator(&base, d, Ctx::Param),
                None => Some(Declared { ty: base.ty, params: None, ret_space: None, complete: true }),
            };
            let Some(mut decl) = decl else {
                all = false;
                continue;
            };
            let mut attrs = base.attrs.clone();
            attrs.extend(p.attrs.iter());
            self.check_attrs(&attrs, false);
            let Some(t) = self.vector_attr(decl.ty.ty, &attrs) else {
                all = false;
                continue;
            };
            decl.ty.ty = t;
            let span = p.name().map_or(p.span, |n| n.span);
            // `global uint a[4]` qualifies the elements: the parameter is a
            // `global uint *` after the array adjustment below, so only a
            // value parameter may not carry an address space.
            let is_array = matches!(self.types.kind(decl.ty.ty), TypeKind::Array(..));
            if let Some(sp) = decl.ty.space {
                if sp != AddrSpace::Private && !is_array {
                    self.diags.push(err("E0310", span, "parameter may not be qualified with an address space").with_label(format!("{} on a value parameter", sp.keyword())));
                    // Likely a pointer missing its `*`: its uses would
                    // only repeat the mistake.
                    all = false;
                    continue;
                }
            }
            // Array and function parameters adjust to pointers (C99 6.7.5.3).
            let mut q = self.finish(decl.ty, AddrSpace::Private);
            if let TypeKind::Array(elem, _) = self.types.kind(q.ty).clone() {
                let elem = QualType { space: if decl.ty.space.is_some() { elem.space } else if self.opts.std.has_generic() { AddrSpace::Generic } else { AddrSpace::Private }, ..elem };
                q = QualType::new(self.types.pointer(elem), AddrSpace::Private);
            }
            if matches!(self.types.kind(q.ty), TypeKind::Void) {
                self.diags.push(err("E0314", span, "parameter has incomplete type 'void'"));
                all = false;
                continue;
            }
            self.object_type_rules(q, span, Ctx::Param, false, "parameter");
            if let Some(n) = p.name() {
                if let Some(prev) = seen.get(&n.name) {
                    self.diags.push(err("E0305", n.span, format!("redefinition of parameter '{}'", n.name)).with_note_at(*prev, "previous declaration is here"));
                }
                seen.insert(n.name.clone(), n.span);
            }
            let plain = p.declarator.as_ref().is_none_or(|d| matches!(d.kind, DeclaratorKind::Name(_)));
            let written = p.specs.items.iter().find_map(|s| match s {
                DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Builtin { name, .. }, .. }) if plain => Some(name.clone()),
                _ => None,
            });
            out.push(Param { name: p.name().cloned(), decl: p.name().map_or(0, addr), ty: q, span, written });
        }
        (out, all)
    }

    /// Is this specifier list plain `void` (no diagnostics)?
    fn peek_void(&mut self, specs: &DeclSpecs) -> Option<bool> {
        let mut scratch = Diagnostics::default();
        let b = specs::base_type(specs, &mut scratch)?;
        Some(match b {
            BaseType::Void => true,
            BaseType::Named(TypeSpec { kind: TypeSpecKind::TypedefName(id), .. }) => {
                matches!(self.lookup(&id.name), Some(Sym { kind: SymKind::Typedef, ty, .. }) if matches!(self.types.kind(ty.ty), TypeKind::Void))
            }
            _ => false,
        })
    }

    fn type_name(&mut self, t: &TypeName) -> Option<QualType> {
        let base = self.base(&t.specs, Ctx::TypeName)?;
        let d = match &t.declarator {
            Some(d) => self.declarator(&base, d, Ctx::TypeName)?,
            None => Declared { ty: base.ty, params: None, ret_space: None, complete: true },
        };
        d.complete.then(|| self.finish(d.ty, AddrSpace::Private))
    }

    // -------------------------------------------------------- statements

    fn stmt(&mut self, s: &Stmt) {
        self.check_attrs(&s.attrs.iter().filter(|a| !loop_hints::is_unroll_hint(a)).collect::<Vec<_>>(), false);
        self.loop_hints(s);
        match &s.kind {
            StmtKind::Compound(b) => {
                self.push_scope();
                for s in &b.items {
                    self.stmt(s);
                }
                self.pop_scope();
            }
            StmtKind::Decl(d) => self.decl(d, Ctx::Local),
            StmtKind::StaticAssert(sa) => self.static_assert(sa),
            StmtKind::Expr(e) => self.expr_statement(e),
            StmtKind::Null | StmtKind::Error => {}
            StmtKind::Return(None) => self.return_void(s.span),
            StmtKind::Break | StmtKind::Continue => {
                let brk = matches!(s.kind, StmtKind::Break);
                if let Some(f) = &self.func
                    && f.loops == 0
                    && (!brk || f.switches.is_empty())
                {
                    let (what, within) = if brk { ("break", "loop or switch") } else { ("continue", "loop") };
                    self.diags.push(err("E0332", s.span, format!("'{what}' statement not in {within} statement")));
                }
            }
            StmtKind::Return(Some(e)) => {
                self.return_value(e);
                self.unsequenced(e);
            }
            StmtKind::If { cond, then, else_ } => {
                self.condition(cond, false);
                self.unsequenced(cond);
                self.sub_stmt(then);
                if let Some(e) = else_ {
                    self.sub_stmt(e);
                }
            }
            StmtKind::Switch { cond, body } => {
                let ty = self.condition(cond, true);
                self.unsequenced(cond);
                if let Some(f) = &mut self.func {
                    let stmt_exprs = f.stmt_exprs.len();
                    f.switches.push(SwitchCtx { cond: ty, cond_at: cond.span, cases: HashMap::default(), ranges: Vec::new(), default: None, stmt_exprs });
                }
                self.sub_stmt(body);
                if let Some(sw) = self.func.as_mut().and_then(|f| f.switches.pop()) {
                    self.finish_switch(sw);
                }
                if self.diags.policy.enabled("implicit-fallthrough") {
                    for label in flow::fallthroughs(body) {
                        // The keyword: `case` or `default`.
                        let kw = Span { hi: label.span.lo + if matches!(label.kind, StmtKind::Case { .. }) { 4 } else { 7 }, ..label.span };
                        let d = Diagnostic::warning("implicit-fallthrough", kw, "unannotated fall-through between switch labels")
                            .with_note_at(kw.start(), "insert '__attribute__((fallthrough));' to silence this warning")
                            .with_note_at(kw.start(), "insert 'break;' to avoid fall-through");
                        self.diags.push(d);
                    }
                }
            }
            StmtKind::While { cond, body, .. } => {
                self.condition(cond, false);
                self.unsequenced(cond);
                self.loop_body(body);
            }
            StmtKind::DoWhile { body, cond, .. } => {
                self.loop_body(body);
                self.condition(cond, false);
                self.unsequenced(cond);
            }
            StmtKind::Case { value, high, body } => {
                self.not_in_switch(s, "case");
                self.case_enters_stmt_expr(Span { hi: (s.span.lo + 4).min(s.span.hi), ..s.span });
                let lo = self.case_value(value);
                match high {
                    None => {
                        if let Some(v) = lo
                            && let Some(sw) = self.func.as_mut().and_then(|f| f.switches.last_mut())
                        {
                            let prev = sw.cases.get(&v).copied();
                            match prev {
                                None => {
                                    sw.cases.insert(v, value.span);
                                }
                                Some(prev) => {
                                    let d = err("E0331", value.span, format!("duplicate case value '{v}'")).with_note_at(prev, "previous case defined here");
                                    self.diags.push(d);
                                }
                            }
                        }
                    }
                    Some(high) => {
                        let hi = self.case_value(high);
                        if let (Some(lo), Some(hi)) = (lo, hi)
                            && self.func.as_ref().is_some_and(|f| !f.switches.is_empty())
                        {
                            if hi < lo {
                                let d = Diagnostic::warning("empty-case-range", value.span, "empty case range specified").with_range(value.span.to(high.span));
                                self.diags.push(d);
                            } else if let Some(sw) = self.func.as_mut().and_then(|f| f.switches.last_mut()) {
                                sw.ranges.push((lo, hi, value.span));
                            }
                        }
                    }
                }
                self.stmt(body);
            }
            StmtKind::Default { body } => {
                // The keyword: the statement's first seven characters.
                let at = Span { hi: (s.span.lo + 7).min(s.span.hi), ..s.span };
                self.not_in_switch(s, "default");
                self.case_enters_stmt_expr(at);
                if let Some(SwitchCtx { default, .. }) = self.func.as_mut().and_then(|f| f.switches.last_mut()) {
                    match default {
                        Some(prev) => {
                            let d = err("E0331", at, "multiple default labels in one switch").with_note_at(*prev, "previous default label is here");
                            self.diags.push(d);
                        }
                        None => *default = Some(at),
                    }
                }
                self.stmt(body);
            }
            StmtKind::Label { name, body } => {
                if let Some(f) = &mut self.func {
                    if let Some((prev, _)) = f.labels.get(&name.name) {
                        let d = err("E0306", name.span, format!("redefinition of label '{}'", name.name)).with_note_at(*prev, "previous definition is here");
                        self.diags.push(d);
                    } else {
                        f.labels.insert(name.name.clone(), (name.span, f.stmt_exprs.clone()));
                    }
                }
                self.stmt(body);
            }
            StmtKind::Goto(l) => {
                if let Some(f) = &mut self.func {
                    f.gotos.push((l.clone(), s.span, f.stmt_exprs.clone()));
                }
            }
            StmtKind::For { init, cond, step, body, .. } => {
                self.push_scope();
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr_statement(e),
                    ForInit::Decl(d) => self.decl(d, Ctx::Local),
                }
                if let Some(c) = cond {
                    self.condition(c, false);
                    self.unsequenced(c);
                }
                if let Some(s) = step {
                    if self.track_unused {
                        self.set_only = expr::assigned_names(s);
                    }
                    self.expr(s);
                    self.set_only.clear();
                    self.unsequenced(s);
                }
                self.loop_body(body);
                self.pop_scope();
            }
        }
    }

    /// A loop's body: `break` and `continue` have a target there.
    fn loop_body(&mut self, body: &Stmt) {
        if let Some(f) = &mut self.func {
            f.loops += 1;
        }
        self.sub_stmt(body);
        if let Some(f) = &mut self.func {
            f.loops -= 1;
        }
    }

    /// A case label's value (or a range's bound), converted to the
    /// switch's promoted type (C99 6.8.4.2p5: `case 4294967296:` on an
    /// int is 0); clang's warning where the condition's own type cannot
    /// hold it. `None` for a value that is no constant, or outside a
    /// switch.
    fn case_value(&mut self, value: &Expr) -> Option<i128> {
        self.constant_expr(value);
        let v = self.ice(value, "a case value")?;
        let sw = self.func.as_ref().and_then(|f| f.switches.last())?;
        let Some(cond) = sw.cond else { return Some(v.value) };
        // As clang: only a value wider than the condition's unpromoted
        // type is checked (`case -1:` on a uint is a change of sign, no
        // loss; `case 256:` on a uchar is).
        let narrowed = cond.unpromoted.wrap(v.value);
        if v.ty.bits > cond.unpromoted.bits && narrowed != v.value {
            let d = Diagnostic::warning("switch", value.span, format!("overflow converting case value to switch condition type ({} to {narrowed})", v.value));
            self.diags.push(d);
        }
        // clang's -Wswitch: a value none of the enumerators has.
        if let Some((e, t)) = cond.enum_
            && !self.types.enums[e as usize].values.iter().any(|(_, x)| *x as i128 == v.value)
        {
            let name = self.types.display(t);
            self.diags.push(Diagnostic::warning("switch", value.loc(), format!("case value not in enumerated type '{name}'")).with_range(value.span));
        }
        Some(cond.promoted.wrap(v.value))
    }

    /// The checks of a switch that need all its labels: case ranges
    /// overlapping other cases, and (clang's -Wswitch) the enumerators a
    /// switch on an enum without `default` does not handle.
    fn finish_switch(&mut self, mut sw: SwitchCtx) {
        // As clang: ranges by their low bound, each against the single
        // values and the range before it.
        let mut singles: Vec<(i128, Span)> = match sw.ranges.is_empty() {
            true => Vec::new(),
            false => sw.cases.iter().map(|(v, s)| (*v, *s)).collect(),
        };
        singles.sort_by_key(|c| c.0);
        sw.ranges.sort_by_key(|r| r.0);
        for (i, &(lo, hi, at)) in sw.ranges.iter().enumerate() {
            let mut overlap = singles.iter().rev().find(|c| c.0 >= lo && c.0 <= hi).copied();
            if i > 0 && lo <= sw.ranges[i - 1].1 {
                overlap = Some((sw.ranges[i - 1].1, sw.ranges[i - 1].2));
            }
            if let Some((v, prev)) = overlap {
                let d = err("E0331", at, format!("duplicate case value '{v}'")).with_note_at(prev, "previous case defined here");
                self.diags.push(d);
            }
        }
        let (Some(cond), None) = (sw.cond, sw.default) else { return };
        let Some((e, _)) = cond.enum_ else { return };
        let handled = |v: i128| sw.cases.contains_key(&v) || sw.ranges.iter().any(|r| r.0 <= v && v <= r.1);
        // One name per value, in the order of the values.
        let mut missing: Vec<(i128, &str)> = Vec::new();
        for (name, v) in &self.types.enums[e as usize].values {
            let v = cond.promoted.wrap(*v as i128);
            if !handled(v) && !missing.iter().any(|m| m.0 == v) {
                missing.push((v, name));
            }
        }
        missing.sort_by_key(|m| m.0);
        let names: Vec<String> = missing.iter().map(|m| format!("'{}'", m.1)).collect();
        let msg = match names.as_slice() {
            [] => return,
            [a] => format!("enumeration value {a} not handled in switch"),
            [a, b] => format!("enumeration values {a} and {b} not handled in switch"),
            [a, b, c] => format!("enumeration values {a}, {b}, and {c} not handled in switch"),
            [a, b, c, ..] => format!("{} enumeration values not handled in switch: {a}, {b}, {c}...", names.len()),
        };
        self.diags.push(Diagnostic::warning("switch", sw.cond_at.start(), msg).with_range(sw.cond_at));
    }

    /// `case`/`default` outside a switch: E0332.
    fn not_in_switch(&mut self, s: &Stmt, what: &str) {
        if self.func.as_ref().is_some_and(|f| f.switches.is_empty()) {
            let at = Span { hi: (s.span.lo + what.len() as u32).min(s.span.hi), ..s.span };
            self.diags.push(err("E0332", at, format!("'{what}' statement not in switch statement")));
        }
    }

    /// A statement that is its own scope (C99 6.8.4p3, 6.8.5p5).
    fn sub_stmt(&mut self, s: &Stmt) {
        self.push_scope();
        self.stmt(s);
        self.pop_scope();
    }

    fn init(&mut self, init: &Initializer) {
        match init {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => items.iter().for_each(|i| self.skip_item(i)),
        }
    }

    // ------------------------------------------------------- expressions

    /// Types an expression whose value is not used further.
    fn expr(&mut self, e: &Expr) {
        let _ = self.type_expr(e);
    }

    /// Resolves a name used in an expression.
    fn use_name(&mut self, id: &Ident, called: bool) {
        if let Some(sym) = self.lookup(&id.name) {
            match sym.kind {
                // A call into an overload set names no single function
                // until arguments are typed: `expr::overloaded_call` adds
                // its edge once it has chosen the overload.
                SymKind::Func { overloadable: false, .. } => {
                    if let Some(f) = &self.func {
                        self.calls.push((f.graph_key.clone(), id.name.clone(), id.span));
                    }
                }
                SymKind::Typedef => {
                    self.diags.push(err("E0304", id.span, format!("unexpected type name '{}': expected expression", id.name)));
                }
                _ => {}
            }
            return;
        }
        if clc_builtins::constant(&id.name).is_some() || clc_builtins::functions::is_builtin(&id.name) || is_predefined_identifier(&id.name) {
            return;
        }
        if self.func.as_ref().is_some_and(|f| f.after_syntax_error) || self.lost_names.contains(&id.name) {
            return;
        }
        self.undeclared.insert(id.span);
        let mut d = err("E0304", id.span, format!("use of undeclared identifier '{}'", id.name));
        if called {
            d = d.with_note("OpenCL C has no implicit function declarations: declare the function before calling it");
        }
        if let Some(best) = self.suggest(&id.name, called) {
            d = d.with_note(format!("did you mean '{best}'?")).with_fixit(id.span, best);
        }
        self.diags.push(d);
    }

    /// The visible name closest to `name`: user names first, then builtins.
    fn suggest(&self, name: &str, called: bool) -> Option<String> {
        let mut best = Closest::new(name);
        for s in self.scopes.iter().rev() {
            for (n, syms) in &s.names {
                if syms.iter().any(|s| !matches!(s.kind, SymKind::Typedef)) {
                    best.consider(n);
                }
            }
        }
        for n in clc_builtins::functions::names() {
            best.consider(n);
        }
        if !called {
            for c in clc_builtins::constants::all_constants() {
                best.consider(c.name);
            }
        }
        best.found()
    }

    /// The visible typedef or type word closest to `name` (an unknown type
    /// name).
    fn suggest_type(&self, name: &str) -> Option<String> {
        let mut best = Closest::new(name);
        for s in &self.scopes {
            for (n, syms) in &s.names {
                if syms.iter().any(|s| matches!(s.kind, SymKind::Typedef)) {
                    best.consider(n);
                }
            }
        }
        for w in clc_builtins::types::type_words() {
            best.consider(&w);
        }
        best.found()
    }

    // --------------------------------------------------------- recursion

    /// Reports every call that closes a cycle in the call graph of user
    /// functions.
    fn check_recursion(&mut self) {
        let mut graph: HashMap<&str, Vec<(&str, Span)>> = HashMap::default();
        for (a, b, s) in &self.calls {
            graph.entry(a.as_str()).or_default().push((b.as_str(), *s));
        }
        let mut names: Vec<&str> = graph.keys().copied().collect();
        names.sort();
        let mut reported: Vec<Vec<String>> = Vec::new();
        let mut out = Vec::new();
        for start in names {
            // Depth-first search for a path back to `start`.
            let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
            let mut path: Vec<(&str, Span)> = Vec::new();
            let mut visited: Vec<&str> = vec![start];
            while let Some((node, i)) = stack.pop() {
                let edges = graph.get(node).map(Vec::as_slice).unwrap_or(&[]);
                if i >= edges.len() {
                    path.pop();
                    continue;
                }
                stack.push((node, i + 1));
                let (next, span) = edges[i];
                if next == start {
                    let shown = |n: &str| n.split('#').next().unwrap_or(n).to_string();
                    let mut cycle: Vec<String> = path.iter().map(|(n, _)| shown(n)).collect();
                    cycle.insert(0, shown(start));
                    let mut key = cycle.clone();
                    key.sort();
                    if !reported.contains(&key) {
                        reported.push(key);
                        let mut d = err("E0316", span, "recursion is not supported in OpenCL C");
                        if cycle.len() == 1 {
                            d = d.with_label(format!("'{}' calls itself", shown(start)));
                        } else {
                            cycle.push(shown(start));
                            d = d.with_note(format!("call cycle: {}", cycle.join(" -> ")));
                        }
                        out.push(d);
                    }
                    continue;
                }
                if !visited.contains(&next) {
                    visited.push(next);
                    path.push((next, span));
                    stack.push((next, 0));
                }
            }
        }
        for d in out {
            self.diags.push(d);
        }
    }
}

impl consteval::Env for Checker<'_> {
    fn constant(&mut self, name: &str) -> Option<CInt> {
        if let Some(sym) = self.lookup(name) {
            return match sym.kind {
                SymKind::EnumConst(v) => Some(CInt::int(v)),
                _ => None,
            };
        }
        let c = clc_builtins::constant(name)?;
        let clc_builtins::ConstValue::Int(v) = c.value else { return None };
        let ty = match &c.ty {
            clc_builtins::Ty::Scalar(s) => int_ty(*s, self.types.pointer_size)?,
            _ => IntTy::INT,
        };
        Some(CInt { value: ty.wrap(v), ty })
    }

    fn type_query(&mut self, kind: ast::SizeofKind, t: &TypeName) -> Option<u64> {
        let q = self.type_name(t)?;
        self.query(kind, q.ty)
    }

    fn expr_query(&mut self, kind: ast::SizeofKind, e: &Expr) -> Option<u64> {
        let t = match self.expr_type(e) {
            Some(t) => t,
            None => self.type_expr_quiet(e)?,
        };
        self.query(kind, t)
    }

    fn offsetof(&mut self, t: &TypeName, path: &[Designator]) -> Option<u64> {
        match self.offsetof_parts(t, path)? {
            (offset, varying) if varying.is_empty() => Some(offset),
            _ => None,
        }
    }

    fn clang_builtin(&mut self, name: &str) -> Option<&'static clc_builtins::Overload> {
        if !name.starts_with("__builtin_") || self.lookup(name).is_some() {
            return None;
        }
        match clc_builtins::lookup(name)? {
            [one] => Some(one),
            _ => None,
        }
    }

    fn int_cast(&mut self, t: &TypeName) -> Option<IntTy> {
        let q = self.type_name(t)?;
        match self.types.kind(q.ty) {
            TypeKind::Scalar(s) => int_ty(*s, self.types.pointer_size),
            TypeKind::Enum(_) => Some(IntTy::INT),
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// The type of the simple expressions `sizeof` is applied to in
    /// constant expressions: names, indexing, dereference, members,
    /// literals and casts. Full expression typing is the next layer's.
    fn expr_type(&mut self, e: &Expr) -> Option<TypeId> {
        match &e.kind {
            ExprKind::Paren(x) => self.expr_type(x),
            ExprKind::Ident(id) => match self.lookup(&id.name)? {
                Sym { kind: SymKind::Var { .. } | SymKind::Param | SymKind::EnumConst(_), ty, .. } => Some(ty.ty),
                _ => None,
            },
            ExprKind::Index(a, _) | ExprKind::Unary(UnOp::Deref, a) => {
                let t = self.expr_type(a)?;
                match self.types.kind(t).clone() {
                    TypeKind::Array(el, _) | TypeKind::Pointer(el) => Some(el.ty),
                    TypeKind::Vector(s, _) if matches!(e.kind, ExprKind::Index(..)) => Some(self.types.scalar(s)),
                    _ => None,
                }
            }
            ExprKind::Member { base, arrow, name } => {
                let mut t = self.expr_type(base)?;
                if *arrow {
                    let TypeKind::Pointer(p) = self.types.kind(t) else { return None };
                    t = p.ty;
                }
                let TypeKind::Record(i) = *self.types.kind(t) else { return None };
                self.find_field(i, &name.name).map(|f| f.ty)
            }
            ExprKind::IntLit { .. } | ExprKind::CharLit(_) => {
                let v = consteval::eval(e, self).ok()?;
                let s = match (v.ty.bits, v.ty.signed) {
                    (64, true) => Scalar::Long,
                    (64, false) => Scalar::ULong,
                    (_, false) => Scalar::UInt,
                    _ => Scalar::Int,
                };
                Some(self.types.scalar(s))
            }
            ExprKind::FloatLit { suffix, .. } => Some(self.types.scalar(match suffix {
                crate::lex::literal::FloatSuffix::F => Scalar::Float,
                crate::lex::literal::FloatSuffix::H => Scalar::Half,
                crate::lex::literal::FloatSuffix::None => Scalar::Double,
            })),
            ExprKind::Cast(t, _) | ExprKind::VectorLiteral(t, _) | ExprKind::CompoundLiteral(t, _) => self.type_name(t).map(|q| q.ty),
            _ => None,
        }
    }

    fn query(&mut self, kind: ast::SizeofKind, t: TypeId) -> Option<u64> {
        match kind {
            ast::SizeofKind::Sizeof => self.types.size_align(t).map(|s| s.0),
            ast::SizeofKind::Alignof => self.types.size_align(t).map(|s| s.1),
            ast::SizeofKind::VecStep => match self.types.kind(t) {
                TypeKind::Vector(_, 3) => Some(4),
                TypeKind::Vector(_, n) => Some(*n as u64),
                TypeKind::Scalar(_) => Some(1),
                _ => None,
            },
        }
    }
}

/// Image types as clang spells them in messages: `__read_only image2d_t`.
fn access_words(s: &str) -> String {
    s.replacen("read_only", "__read_only", 1).replacen("write_only", "__write_only", 1).replacen("read_write", "__read_write", 1)
}

fn float_literal_type(s: crate::lex::literal::FloatSuffix) -> &'static str {
    match s {
        crate::lex::literal::FloatSuffix::F => "float",
        crate::lex::literal::FloatSuffix::H => "half",
        crate::lex::literal::FloatSuffix::None => "double",
    }
}

/// Does a syntax error's leftover sit anywhere in `b`?
/// `__attribute__((unused))` (or `maybe_unused`) among a declaration's
/// specifiers or after its declarator.
fn marked_unused(specs: &DeclSpecs, attrs: &[Attribute]) -> bool {
    let unused = |a: &Attribute| matches!(a.name.name.trim_matches('_'), "unused" | "maybe_unused");
    attrs.iter().any(unused) || specs.items.iter().any(|s| matches!(s, DeclSpec::Attr(a) if unused(a)))
}

fn block_has_error(b: &Block) -> bool {
    b.items.iter().any(stmt_has_error)
}

fn stmt_has_error(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Error => true,
        StmtKind::Compound(b) => block_has_error(b),
        StmtKind::If { then, else_, .. } => stmt_has_error(then) || else_.as_deref().is_some_and(stmt_has_error),
        StmtKind::Switch { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. } => stmt_has_error(body),
        _ => false,
    }
}


/// Builtin types that OpenCL C 2.0 introduced: atomics, device-side
/// enqueue, pipes' reservations, and the memory-model enums.
fn needs_cl20(b: BuiltinType) -> bool {
    matches!(
        b,
        BuiltinType::Atomic(_)
            | BuiltinType::Opaque(Opaque::Queue | Opaque::NdRange | Opaque::ClkEvent | Opaque::ReserveId | Opaque::MemoryOrder | Opaque::MemoryScope)
    )
}

/// A node of the call graph: `name`, or `name#type` for one overload of
/// an `overloadable` set.
/// The call-graph node of the program-scope block variable `name`: the
/// functions using it call what its block calls.
fn global_block_key(name: &str) -> String {
    format!("{name}#block")
}

fn graph_key(name: &str, overload: Option<TypeId>) -> String {
    match overload {
        Some(t) => format!("{name}#{t:?}"),
        None => name.to_string(),
    }
}

/// `e` without enclosing parentheses.
fn strip_parens(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip_parens(x),
        _ => e,
    }
}

/// The candidate closest to a misspelt name, within an edit distance of a
/// third of its length (ties: the first in alphabetical order).
pub(super) struct Closest<'n> {
    name: &'n str,
    limit: usize,
    best: Option<(usize, String)>,
}

impl<'n> Closest<'n> {
    pub(super) fn new(name: &'n str) -> Closest<'n> {
        Closest { name, limit: (name.chars().count() / 3).max(1), best: None }
    }

    pub(super) fn consider(&mut self, cand: &str) {
        if cand == self.name || cand.len().abs_diff(self.name.len()) > self.limit {
            return;
        }
        let d = clc_builtins::suggest::edit_distance(self.name, cand);
        if d <= self.limit
            && d < self.name.chars().count()
            && self.best.as_ref().is_none_or(|(bd, bn)| d < *bd || (d == *bd && cand < bn.as_str()))
        {
            self.best = Some((d, cand.to_string()));
        }
    }

    pub(super) fn found(self) -> Option<String> {
        self.best.map(|b| b.1)
    }
}
