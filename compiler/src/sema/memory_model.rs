//! The memory-model checks: the OpenCL C 2.0 rules on `memory_order`,
//! `memory_scope` and `cl_mem_fence_flags` arguments of atomics, fences
//! and barriers (§6.13.8, §6.13.9, §6.13.11) that clang leaves unchecked.
//!
//! Two layers. [`check_call`] is the rule book: a pure function from a
//! builtin's name and what is statically known about each argument
//! ([`ArgFact`]: its constant value, the address space its pointer points
//! into) to diagnostics. It knows nothing of the syntax tree, so once sema
//! types expressions it can be fed from the typed program. [`check`] is
//! today's feeder: it walks every call in every function body, evaluates
//! order/scope/flag arguments that are constant expressions (literals,
//! builtin constants, `const` locals, enumerators, `| & + ?:` and casts)
//! and finds the address space of the atomic object from the declarations
//! in scope.
//!
//! Arguments that are not constant are legal and not checked here: code
//! generation handles them at run time. The implicit forms
//! (`atomic_load(p)`) use `seq_cst` and `device` scope and are never
//! diagnosed.
//!
//! Which argument is an order, a scope or fence flags comes from the
//! builtin table ([`clc_builtins::lookup`]: [`Ty::MemoryOrder`],
//! [`Ty::MemoryScope`], and [`Lowering`]), not from lists of names here.

use rustc_hash::FxHashMap as HashMap;

use clc_builtins::functions::{FenceKind, Group, Lowering, Ty};

use super::types::AddrSpace;
use crate::diag::{Diagnostic, Diagnostics};
use crate::options::ClStd;
use crate::parse::ast::{self, *};
use crate::source::Span;

/// An order or scope argument whose value is not one of the enumerators.
pub const E_INVALID_VALUE: &str = "E0360";
/// An order the operation does not allow (a store that acquires, …).
pub const E_BAD_ORDER: &str = "E0361";
/// A compare-exchange failure order that is invalid or stronger than the
/// success order.
pub const E_BAD_FAILURE_ORDER: &str = "E0362";
/// A scope the operation does not allow.
pub const E_BAD_SCOPE: &str = "E0363";
/// Fence flags that are not a combination of the `CLK_*_MEM_FENCE` bits.
pub const E_BAD_FLAGS: &str = "E0364";
/// Warning: `atomic_work_item_fence` with `memory_order_relaxed`.
pub const W_FENCE_RELAXED: &str = "fence-relaxed";
/// Warning: a device-or-wider scope on an atomic in `__local` memory.
pub const W_SCOPE_REDUCED: &str = "atomic-scope-reduced";

/// What is statically known about one argument of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgFact {
    pub span: Span,
    /// The value, when the argument is an integer constant expression.
    pub value: Option<i64>,
    /// For a pointer argument, the address space it points into, when
    /// known from declarations (`&x` with `__local int x`, a `__local int*`
    /// parameter).
    pub pointee_space: Option<AddrSpace>,
}

/// Checks a translation unit: every call to an atomic, fence or barrier
/// builtin in every function body.
pub fn check(tu: &TranslationUnit, std: ClStd, diags: &mut Diagnostics) {
    let mut cx = Cx { scopes: vec![HashMap::default()], std, out: Vec::new() };
    for item in &tu.items {
        match item {
            ExternalDecl::Decl(d) => cx.decl(d, true),
            ExternalDecl::FunctionDef(fd) => {
                // Defining a function shadows the builtin of that name.
                if let Some(n) = fd.declarator.name() {
                    cx.scopes[0].insert(n.name.clone(), Sym::other());
                }
                cx.scopes.push(HashMap::default());
                for p in fd.declarator.function_params().unwrap_or(&[]) {
                    cx.specs_enums(&p.specs);
                    if let Some(d) = &p.declarator
                        && let Some(n) = d.name()
                    {
                        let sym = Sym::of(&p.specs, d, None);
                        cx.scopes.last_mut().expect("pushed").insert(n.name.clone(), sym);
                    }
                }
                cx.block(&fd.body);
                cx.scopes.pop();
            }
            ExternalDecl::StaticAssert(_) => {}
        }
    }
    for d in cx.out {
        diags.push(d);
    }
}

// ------------------------------------------------------------- the rule book

const RELAXED: i64 = 0;
const ACQUIRE: i64 = 2;
const RELEASE: i64 = 3;
const ACQ_REL: i64 = 4;
const SEQ_CST: i64 = 5;

const WORK_ITEM: i64 = 0;
const WORK_GROUP: i64 = 1;
const DEVICE: i64 = 2;
const ALL_SVM_DEVICES: i64 = 3;
const SUB_GROUP: i64 = 4;

const LOCAL_FENCE: i64 = 1;
const GLOBAL_FENCE: i64 = 2;
const IMAGE_FENCE: i64 = 4;
const ALL_FENCES: i64 = LOCAL_FENCE | GLOBAL_FENCE | IMAGE_FENCE;

/// The name of a `memory_order` value, if it is one.
pub fn order_name(v: i64) -> Option<&'static str> {
    Some(match v {
        RELAXED => "memory_order_relaxed",
        ACQUIRE => "memory_order_acquire",
        RELEASE => "memory_order_release",
        ACQ_REL => "memory_order_acq_rel",
        SEQ_CST => "memory_order_seq_cst",
        _ => return None,
    })
}

/// The name of a `memory_scope` value, if it is one.
pub fn scope_name(v: i64) -> Option<&'static str> {
    Some(match v {
        WORK_ITEM => "memory_scope_work_item",
        WORK_GROUP => "memory_scope_work_group",
        DEVICE => "memory_scope_device",
        ALL_SVM_DEVICES => "memory_scope_all_svm_devices",
        SUB_GROUP => "memory_scope_sub_group",
        _ => return None,
    })
}

/// Fence flags as the user would write them: `CLK_LOCAL_MEM_FENCE |
/// CLK_GLOBAL_MEM_FENCE`, with unknown bits in hex.
fn flags_text(v: i64) -> String {
    if v == 0 {
        return "0".into();
    }
    let mut parts = Vec::new();
    for (bit, name) in [(LOCAL_FENCE, "CLK_LOCAL_MEM_FENCE"), (GLOBAL_FENCE, "CLK_GLOBAL_MEM_FENCE"), (IMAGE_FENCE, "CLK_IMAGE_MEM_FENCE")] {
        if v & bit != 0 {
            parts.push(name.to_string());
        }
    }
    if v & !ALL_FENCES != 0 {
        parts.push(format!("{:#x}", v & !ALL_FENCES));
    }
    parts.join(" | ")
}

/// Strength of an order as a compare-exchange failure order may use it
/// (C11 7.17.7.4p2: the failure argument shall be no stronger than the
/// success argument): the acquire part only, since a failed exchange does
/// not store. relaxed and release < acquire and acq_rel < seq_cst.
fn load_strength(order: i64) -> u8 {
    match order {
        SEQ_CST => 2,
        ACQUIRE | ACQ_REL => 1,
        _ => 0,
    }
}

/// The roles of a builtin's arguments, from the builtin table.
struct Roles {
    lowering: Lowering,
    orders: Vec<usize>,
    scopes: Vec<usize>,
}

fn roles(name: &str, nargs: usize) -> Option<Roles> {
    let ovs = clc_builtins::lookup(name)?;
    let ov = ovs.iter().find(|o| !o.variadic && o.params.len() == nargs)?;
    let relevant = matches!(
        ov.lowering,
        Lowering::AtomicLoad
            | Lowering::AtomicStore
            | Lowering::AtomicRmw(_)
            | Lowering::AtomicCompareExchange { .. }
            | Lowering::AtomicFlagTestAndSet
            | Lowering::AtomicFlagClear
            | Lowering::Fence(_)
            | Lowering::Barrier(_)
    );
    if !relevant {
        return None;
    }
    let pos = |t: &Ty| ov.params.iter().enumerate().filter(|(_, p)| *p == t).map(|(i, _)| i).collect::<Vec<_>>();
    Some(Roles { lowering: ov.lowering, orders: pos(&Ty::MemoryOrder), scopes: pos(&Ty::MemoryScope) })
}

/// The rules for one call of the builtin `name`, given what is known of
/// its arguments. Calls of other functions, and argument counts no overload
/// has, give nothing (overload resolution reports those).
pub fn check_call(name: &str, args: &[ArgFact], std: ClStd) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(r) = roles(name, args.len()) else { return out };
    let is_atomic = !matches!(r.lowering, Lowering::Fence(_) | Lowering::Barrier(_));

    // Values outside the enumerations; the other rules skip such arguments.
    let order = |i: usize, out: &mut Vec<Diagnostic>| -> Option<i64> {
        let v = args[i].value?;
        if order_name(v).is_some() {
            return Some(v);
        }
        out.push(
            Diagnostic::error(E_INVALID_VALUE, args[i].span, format!("invalid memory order value {v}"))
                .with_label("not a memory_order")
                .with_note("OpenCL C 2.0 §6.13.11.3: the memory_order values are memory_order_relaxed, memory_order_acquire, memory_order_release, memory_order_acq_rel and memory_order_seq_cst (memory_order_consume is not supported)"),
        );
        None
    };
    let orders: Vec<Option<i64>> = r.orders.iter().map(|&i| order(i, &mut out)).collect();
    let mut scope = None;
    if let Some(&si) = r.scopes.first()
        && let Some(v) = args[si].value
    {
        if scope_name(v).is_some() {
            scope = Some(v);
        } else {
            out.push(
                Diagnostic::error(E_INVALID_VALUE, args[si].span, format!("invalid memory scope value {v}"))
                    .with_label("not a memory_scope")
                    .with_note("OpenCL C 2.0 §6.13.11.4: the memory_scope values are memory_scope_work_item, memory_scope_work_group, memory_scope_device, memory_scope_all_svm_devices and (with sub-groups) memory_scope_sub_group"),
            );
        }
    }
    let scope_span = r.scopes.first().map(|&i| args[i].span);
    let flags = match r.lowering {
        Lowering::Fence(_) | Lowering::Barrier(_) => args.first().and_then(|a| a.value.map(|v| (v, a.span))),
        _ => None,
    };

    // Orders each operation forbids.
    let forbidden: &[i64] = match r.lowering {
        Lowering::AtomicStore => &[ACQUIRE, ACQ_REL],
        Lowering::AtomicLoad => &[RELEASE, ACQ_REL],
        Lowering::AtomicFlagClear => &[ACQUIRE, ACQ_REL],
        _ => &[],
    };
    if let (Some(&i), Some(Some(v))) = (r.orders.first(), orders.first())
        && forbidden.contains(v)
    {
        let (what, section, why) = match r.lowering {
            Lowering::AtomicStore => ("atomic_store", "§6.13.11.7.1", "a store has no acquire semantics"),
            Lowering::AtomicLoad => ("atomic_load", "§6.13.11.7.2", "a load has no release semantics"),
            _ => ("atomic_flag_clear", "§6.13.11.8.2", "clearing a flag has no acquire semantics"),
        };
        out.push(
            Diagnostic::error(E_BAD_ORDER, args[i].span, format!("{} is not a valid order for {name}", order_name(*v).unwrap_or("?")))
                .with_label(why)
                .with_note(format!(
                    "OpenCL C 2.0 {section}: the order argument of {what} shall not be {} nor {}",
                    order_name(forbidden[0]).unwrap_or("?"),
                    order_name(forbidden[1]).unwrap_or("?")
                )),
        );
    }

    // Compare-exchange: the failure order.
    if matches!(r.lowering, Lowering::AtomicCompareExchange { .. }) && r.orders.len() == 2 {
        let (si, fi) = (r.orders[0], r.orders[1]);
        if let Some(f) = orders[1] {
            if f == RELEASE || f == ACQ_REL {
                out.push(
                    Diagnostic::error(E_BAD_FAILURE_ORDER, args[fi].span, format!("{} is not a valid failure order for {name}", order_name(f).unwrap_or("?")))
                        .with_label("a failed compare-exchange only loads")
                        .with_note("OpenCL C 2.0 §6.13.11.7.4 (C11 7.17.7.4): the failure argument shall not be memory_order_release nor memory_order_acq_rel"),
                );
            } else if let Some(s) = orders[0]
                && load_strength(f) > load_strength(s)
            {
                out.push(
                    Diagnostic::error(
                        E_BAD_FAILURE_ORDER,
                        args[fi].span,
                        format!("failure order {} of {name} is stronger than its success order {}", order_name(f).unwrap_or("?"), order_name(s).unwrap_or("?")),
                    )
                    .with_label("failure order")
                    .with_secondary(args[si].span, "success order")
                    .with_note("OpenCL C 2.0 §6.13.11.7.4 (C11 7.17.7.4): the failure argument shall be no stronger than the success argument"),
                );
            }
        }
    }

    // Fence flags.
    if let Some((v, span)) = flags {
        let fence = matches!(r.lowering, Lowering::Fence(_));
        let (allowed, rule) = match r.lowering {
            Lowering::Fence(FenceKind::AtomicWorkItem) => (
                v != 0 && v & !ALL_FENCES == 0,
                "OpenCL C 2.0 §6.13.11 (atomic_work_item_fence): flags must be set to CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, CLK_IMAGE_MEM_FENCE or a combination of these values ORed together",
            ),
            Lowering::Fence(_) => (
                v != 0 && v & !ALL_FENCES == 0,
                "OpenCL C 2.0 §6.13.9: the flags argument specifies the memory address space and is a combination of CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE and CLK_IMAGE_MEM_FENCE",
            ),
            _ => (
                v & !ALL_FENCES == 0,
                "OpenCL C 2.0 §6.13.8: the flags argument is a bitfield that can be 0 or a combination of CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE and CLK_IMAGE_MEM_FENCE",
            ),
        };
        if !allowed {
            let label = if v == 0 && fence { "a fence must name at least one address space".to_string() } else { format!("value {} has bits that are not fence flags", flags_text(v)) };
            out.push(
                Diagnostic::error(E_BAD_FLAGS, span, format!("invalid memory fence flags {} for {name}", flags_text(v)))
                    .with_label(label)
                    .with_note(rule),
            );
        }
    }

    // atomic_work_item_fence: relaxed order, work-item scope.
    if r.lowering == Lowering::Fence(FenceKind::AtomicWorkItem) {
        if let (Some(&i), Some(Some(RELAXED))) = (r.orders.first(), orders.first()) {
            out.push(
                Diagnostic::warning(W_FENCE_RELAXED, args[i].span, "a relaxed fence has no effect")
                    .with_label("memory_order_relaxed")
                    .with_note("OpenCL C 2.0 §6.13.11 (atomic_work_item_fence): depending on the value of order, this operation has no effects if order == memory_order_relaxed"),
            );
        }
        // Flags that are not constant may be CLK_IMAGE_MEM_FENCE at run
        // time: only known flags are held against the scope.
        if scope == Some(WORK_ITEM)
            && let Some((v, fspan)) = flags
            && v != IMAGE_FENCE
        {
            out.push(
                Diagnostic::error(E_BAD_SCOPE, scope_span.expect("scope known"), format!("memory_scope_work_item is only valid for {name} with CLK_IMAGE_MEM_FENCE"))
                    .with_label("memory_scope_work_item")
                    .with_secondary(fspan, format!("flags are {}", flags_text(v)))
                    .with_note("OpenCL C 2.0 §6.13.11.4: memory_scope_work_item can only be used with atomic_work_item_fence with flags set to CLK_IMAGE_MEM_FENCE"),
            );
        }
    } else if scope == Some(WORK_ITEM) {
        out.push(
            Diagnostic::error(E_BAD_SCOPE, scope_span.expect("scope known"), format!("memory_scope_work_item is not valid for {name}"))
                .with_label("memory_scope_work_item")
                .with_note("OpenCL C 2.0 §6.13.11.4: memory_scope_work_item is only valid for atomic_work_item_fence with CLK_IMAGE_MEM_FENCE"),
        );
    }

    if scope == Some(SUB_GROUP) && std < ClStd::Cl20 {
        out.push(
            Diagnostic::error(E_BAD_SCOPE, scope_span.expect("scope known"), "memory_scope_sub_group requires sub-groups (OpenCL C 2.0 with cl_khr_subgroups, or OpenCL C 3.0 with __opencl_c_subgroups)")
                .with_label("memory_scope_sub_group"),
        );
    }

    // work_group_barrier: the scope says where the work-group's accesses
    // become visible, which is at least the work-group.
    if r.lowering == Lowering::Barrier(Group::WorkGroup) && scope == Some(SUB_GROUP) {
        out.push(
            Diagnostic::error(E_BAD_SCOPE, scope_span.expect("scope known"), format!("memory_scope_sub_group is narrower than the work-group that {name} synchronizes"))
                .with_label("memory_scope_sub_group")
                .with_note("OpenCL C 2.0 §6.13.8: the scope argument specifies whether the memory accesses of work-items in the work-group become visible to all work-items in the work-group, the device or all SVM devices")
                .with_note("use memory_scope_work_group, or sub_group_barrier to synchronize only a sub-group"),
        );
    }

    // Local atomics with a scope wider than the work-group.
    if is_atomic
        && let Some(obj) = args.first()
        && obj.pointee_space == Some(AddrSpace::Local)
        && let Some(s @ (DEVICE | ALL_SVM_DEVICES)) = scope
    {
        let sname = scope_name(s).unwrap_or("?");
        out.push(
            Diagnostic::warning(
                W_SCOPE_REDUCED,
                scope_span.expect("scope known"),
                format!("{sname} on a __local atomic is reduced to memory_scope_work_group: local memory is shared only within a work-group"),
            )
            .with_label(sname)
            .with_secondary(obj.span, "this atomic object is in __local memory")
            .with_note("OpenCL C 2.0 §6.13.11.4: local memory is visible only to the work-items of one work-group, so no wider scope can observe it; write memory_scope_work_group"),
        );
    }
    out
}

// ------------------------------------------------------------ the AST feeder

/// What the walk knows about a name in scope.
#[derive(Clone, Copy, Debug)]
struct Sym {
    /// Value of a `const` integer variable or an enumerator.
    value: Option<i64>,
    /// The address space of the object the name denotes (a variable's own
    /// storage, an array's elements).
    object: Option<AddrSpace>,
    /// For a pointer, or an array (which decays to one), the space it
    /// points into.
    pointee: Option<AddrSpace>,
}

impl Sym {
    fn other() -> Sym {
        Sym { value: None, object: None, pointee: None }
    }

    fn of(specs: &DeclSpecs, d: &Declarator, value: Option<i64>) -> Sym {
        let space = specs.items.iter().find_map(|s| match s {
            DeclSpec::AddrSpace(a, _) => Some(*a),
            _ => None,
        });
        match &d.kind {
            // A plain variable: its own storage.
            DeclaratorKind::Name(_) => Sym { value, object: space, pointee: None },
            DeclaratorKind::Pointer { block: false, inner, .. } if matches!(inner.kind, DeclaratorKind::Name(_)) => {
                Sym { value: None, object: None, pointee: space }
            }
            DeclaratorKind::Array { .. } if only_arrays(d) => Sym { value: None, object: space, pointee: space },
            _ => Sym::other(),
        }
    }
}

fn only_arrays(d: &Declarator) -> bool {
    match &d.kind {
        DeclaratorKind::Name(_) => true,
        DeclaratorKind::Array { inner, .. } => only_arrays(inner),
        _ => false,
    }
}


struct Cx {
    scopes: Vec<HashMap<String, Sym>>,
    std: ClStd,
    out: Vec<Diagnostic>,
}

impl Cx {
    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn insert(&mut self, name: &str, sym: Sym) {
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), sym);
    }

    /// Records the enumerators an enum specifier defines.
    fn specs_enums(&mut self, specs: &DeclSpecs) {
        for s in &specs.items {
            if let DeclSpec::Type(TypeSpec { kind: TypeSpecKind::Enum(e), .. }) = s {
                let mut next = Some(0i64);
                for en in e.enumerators.iter().flatten() {
                    let v = match &en.value {
                        Some(x) => self.eval(x),
                        None => next,
                    };
                    self.insert(&en.name.name, Sym { value: v, object: None, pointee: None });
                    next = v.and_then(|v| v.checked_add(1));
                }
            }
        }
    }

    fn decl(&mut self, d: &Decl, top: bool) {
        self.specs_enums(&d.specs);
        if d.is_typedef() {
            for id in &d.declarators {
                if let Some(n) = id.declarator.name() {
                    self.insert(&n.name, Sym::other());
                }
            }
            return;
        }
        // `__constant` variables are read-only too, and must be initialized
        // with constant expressions.
        let is_const = d.specs.items.iter().any(|s| matches!(s, DeclSpec::Qual(TypeQual::Const, _) | DeclSpec::AddrSpace(ast::AddrSpace::Constant, _)));
        for id in &d.declarators {
            if let Some(init) = &id.init {
                self.init(init);
            }
            let Some(n) = id.declarator.name() else { continue };
            let value = match (&id.init.as_deref(), is_const, &id.declarator.kind) {
                (Some(Initializer::Expr(e)), true, DeclaratorKind::Name(_)) => self.eval(e),
                _ => None,
            };
            let mut sym = Sym::of(&d.specs, &id.declarator, value);
            // Unqualified variables in a function live in private memory;
            // at program scope a variable without a space is __global
            // (or __constant), which matters only for `&x` and is left
            // unknown.
            if !top && sym.object.is_none() && matches!(id.declarator.kind, DeclaratorKind::Name(_) | DeclaratorKind::Array { .. }) {
                sym.object = Some(AddrSpace::Private);
            }
            self.insert(&n.name, sym);
        }
    }

    fn init(&mut self, init: &Initializer) {
        match init {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => {
                for it in items {
                    self.init(&it.init);
                }
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(HashMap::default());
        for s in &b.items {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Decl(d) => self.decl(d, false),
            StmtKind::StaticAssert(_) => {}
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
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
            StmtKind::Case { value, high, body } => {
                self.expr(value);
                if let Some(h) = high {
                    self.expr(h);
                }
                self.stmt(body);
            }
            StmtKind::Default { body } | StmtKind::Label { body, .. } => self.stmt(body),
            StmtKind::For { init, cond, step, body, .. } => {
                self.scopes.push(HashMap::default());
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.decl(d, false),
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(st) = step {
                    self.expr(st);
                }
                self.stmt(body);
                self.scopes.pop();
            }
            StmtKind::Return(None) | StmtKind::Null | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Error => {}
        }
    }

    /// Visits every call in `e`. Iterative over left-leaning binary chains
    /// (`a+a+…+a` can be very long); other nesting is bounded by the parser.
    fn expr(&mut self, e: &Expr) {
        let mut e = e;
        loop {
            match &e.kind {
                ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
                    self.expr(b);
                    e = a;
                }
                ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::SizeofExpr(_, x) | ExprKind::Member { base: x, .. } | ExprKind::Cast(_, x) => e = x,
                ExprKind::Cond(a, b, c) => {
                    if let Some(b) = b {
                        self.expr(b);
                    }
                    self.expr(c);
                    e = a;
                }
                ExprKind::VectorLiteral(_, xs) => {
                    for x in xs {
                        self.expr(x);
                    }
                    return;
                }
                ExprKind::CompoundLiteral(_, init) => return self.init(init),
                ExprKind::Call(callee, args) => {
                    for a in args {
                        self.expr(a);
                    }
                    self.call(callee, args);
                    e = callee;
                }
                ExprKind::BlockLit(b) => {
                    self.scopes.push(HashMap::default());
                    for p in b.params.iter().flatten() {
                        if let Some(d) = &p.declarator
                            && let Some(n) = d.name()
                        {
                            let sym = Sym::of(&p.specs, d, None);
                            self.insert(&n.name.clone(), sym);
                        }
                    }
                    self.block(&b.body);
                    self.scopes.pop();
                    return;
                }
                ExprKind::StmtExpr(b) => return self.block(b),
                _ => return,
            }
        }
    }

    fn call(&mut self, callee: &Expr, args: &[Expr]) {
        let ExprKind::Ident(id) = &callee.kind else { return };
        // A user-declared function or variable of the same name is not the
        // builtin.
        if self.lookup(&id.name).is_some() {
            return;
        }
        let facts: Vec<ArgFact> =
            args.iter().map(|a| ArgFact { span: a.span, value: self.eval(a), pointee_space: self.pointee(a) }).collect();
        let ds = check_call(&id.name, &facts, self.std);
        self.out.extend(ds);
    }

    /// The value of an integer constant expression, if `e` is one this
    /// small evaluator understands.
    fn eval(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::IntLit { value, .. } => i64::try_from(*value).ok(),
            ExprKind::CharLit(v) => Some(*v),
            ExprKind::BoolLit(b) => Some(i64::from(*b)),
            ExprKind::Ident(id) => match self.lookup(&id.name) {
                Some(sym) => sym.value,
                None => match clc_builtins::constant(&id.name)?.value {
                    clc_builtins::ConstValue::Int(v) => i64::try_from(v).ok(),
                    clc_builtins::ConstValue::Float(_) => None,
                },
            },
            ExprKind::Paren(x) => self.eval(x),
            ExprKind::Cast(t, x) => {
                // Casts to pointer types are not integer constants.
                if t.declarator.is_some() {
                    return None;
                }
                self.eval(x)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                match op {
                    UnOp::Plus => Some(v),
                    UnOp::Neg => v.checked_neg(),
                    UnOp::BitNot => Some(!v),
                    UnOp::Not => Some(i64::from(v == 0)),
                    _ => None,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                match op {
                    BinOp::BitOr => Some(a | b),
                    BinOp::BitAnd => Some(a & b),
                    BinOp::BitXor => Some(a ^ b),
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div(b),
                    BinOp::Rem => a.checked_rem(b),
                    BinOp::Shl => u32::try_from(b).ok().filter(|b| *b < 63).map(|b| a << b),
                    BinOp::Shr => u32::try_from(b).ok().filter(|b| *b < 63).map(|b| a >> b),
                    BinOp::Lt => Some(i64::from(a < b)),
                    BinOp::Gt => Some(i64::from(a > b)),
                    BinOp::Le => Some(i64::from(a <= b)),
                    BinOp::Ge => Some(i64::from(a >= b)),
                    BinOp::Eq => Some(i64::from(a == b)),
                    BinOp::Ne => Some(i64::from(a != b)),
                    BinOp::And => Some(i64::from(a != 0 && b != 0)),
                    BinOp::Or => Some(i64::from(a != 0 || b != 0)),
                    BinOp::Comma => None,
                }
            }
            ExprKind::Cond(c, a, b) => {
                let v = self.eval(c)?;
                if v != 0 {
                    a.as_deref().map_or(Some(v), |a| self.eval(a))
                } else {
                    self.eval(b)
                }
            }
            _ => None,
        }
    }

    /// The address space a pointer-valued expression points into.
    fn pointee(&self, e: &Expr) -> Option<AddrSpace> {
        match &e.kind {
            ExprKind::Paren(x) => self.pointee(x),
            ExprKind::Unary(UnOp::AddrOf, x) => self.object(x),
            ExprKind::Ident(id) => self.lookup(&id.name)?.pointee,
            // `(__local atomic_int *)p`: the cast names the space.
            ExprKind::Cast(t, _) => match &t.declarator {
                Some(Declarator { kind: DeclaratorKind::Pointer { block: false, inner, .. }, .. }) if inner.name().is_none() && matches!(inner.kind, DeclaratorKind::Name(_)) => {
                    t.specs.items.iter().find_map(|s| match s {
                        DeclSpec::AddrSpace(a, _) => Some(*a),
                        _ => None,
                    })
                }
                _ => None,
            },
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => self.pointee(a).or_else(|| self.pointee(b)),
            _ => None,
        }
    }

    /// The address space of the object an lvalue designates.
    fn object(&self, e: &Expr) -> Option<AddrSpace> {
        match &e.kind {
            ExprKind::Paren(x) => self.object(x),
            ExprKind::Ident(id) => self.lookup(&id.name)?.object,
            ExprKind::Index(a, b) => self.pointee(a).or_else(|| self.pointee(b)),
            ExprKind::Unary(UnOp::Deref, x) => self.pointee(x),
            ExprKind::Member { base, arrow: false, .. } => self.object(base),
            ExprKind::Member { base, arrow: true, .. } => self.pointee(base),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::source::FileId;

    fn sp(n: u32) -> Span {
        Span::new(FileId(0), n as usize * 10, n as usize * 10 + 5)
    }

    /// Facts for arguments: `Some(v)` is a constant, `None` unknown.
    fn args(vals: &[Option<i64>]) -> Vec<ArgFact> {
        vals.iter().enumerate().map(|(i, v)| ArgFact { span: sp(i as u32), value: *v, pointee_space: None }).collect()
    }

    fn local(mut a: Vec<ArgFact>) -> Vec<ArgFact> {
        a[0].pointee_space = Some(AddrSpace::Local);
        a
    }

    /// `(code, severity, primary argument index)` of each diagnostic.
    fn run(name: &str, a: &[ArgFact]) -> Vec<(&'static str, Severity, u32)> {
        check_call(name, a, ClStd::Cl20).into_iter().map(|d| (d.code, d.severity, d.primary.span.lo / 10)).collect()
    }

    const E: Severity = Severity::Error;
    const W: Severity = Severity::Warning;

    #[test]
    fn store_and_load_orders() {
        for o in [RELAXED, RELEASE, SEQ_CST] {
            assert!(run("atomic_store_explicit", &args(&[None, None, Some(o)])).is_empty());
        }
        for o in [ACQUIRE, ACQ_REL] {
            assert_eq!(run("atomic_store_explicit", &args(&[None, None, Some(o), Some(DEVICE)])), [(E_BAD_ORDER, E, 2)]);
        }
        for o in [RELAXED, ACQUIRE, SEQ_CST] {
            assert!(run("atomic_load_explicit", &args(&[None, Some(o)])).is_empty());
        }
        for o in [RELEASE, ACQ_REL] {
            assert_eq!(run("atomic_load_explicit", &args(&[None, Some(o)])), [(E_BAD_ORDER, E, 1)]);
        }
        // Read-modify-write operations take every order.
        for o in [RELAXED, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST] {
            assert!(run("atomic_fetch_add_explicit", &args(&[None, None, Some(o)])).is_empty());
            assert!(run("atomic_flag_test_and_set_explicit", &args(&[None, Some(o)])).is_empty());
        }
        assert_eq!(run("atomic_flag_clear_explicit", &args(&[None, Some(ACQUIRE)])), [(E_BAD_ORDER, E, 1)]);
        assert!(run("atomic_flag_clear_explicit", &args(&[None, Some(RELEASE)])).is_empty());
    }

    #[test]
    fn unknown_values_are_not_checked_and_invalid_values_are_errors() {
        assert!(run("atomic_store_explicit", &args(&[None, None, None, None])).is_empty());
        assert_eq!(run("atomic_load_explicit", &args(&[None, Some(1)])), [(E_INVALID_VALUE, E, 1)]);
        assert_eq!(run("atomic_load_explicit", &args(&[None, Some(-1), Some(9)])), [(E_INVALID_VALUE, E, 1), (E_INVALID_VALUE, E, 2)]);
        // Not an atomic: nothing to say.
        assert!(run("get_global_id", &args(&[Some(7)])).is_empty());
        assert!(run("atomic_load_explicit", &args(&[None, Some(3), None, None, None])).is_empty(), "no overload has 5 arguments");
    }

    #[test]
    fn compare_exchange_failure_orders() {
        let ce = |s: i64, f: i64| run("atomic_compare_exchange_strong_explicit", &args(&[None, None, None, Some(s), Some(f)]));
        let all = [RELAXED, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST];
        for s in all {
            for f in all {
                let got = ce(s, f);
                let bad_kind = f == RELEASE || f == ACQ_REL;
                let too_strong = load_strength(f) > load_strength(s);
                if bad_kind || too_strong {
                    assert_eq!(got, [(E_BAD_FAILURE_ORDER, E, 4)], "success {s} failure {f}");
                } else {
                    assert!(got.is_empty(), "success {s} failure {f}: {got:?}");
                }
            }
        }
        // Spot checks of the table above.
        assert!(ce(ACQ_REL, ACQUIRE).is_empty());
        assert!(!ce(RELEASE, ACQUIRE).is_empty());
        assert!(!ce(ACQ_REL, SEQ_CST).is_empty());
        let d = check_call("atomic_compare_exchange_weak_explicit", &args(&[None, None, None, Some(RELAXED), Some(SEQ_CST)]), ClStd::Cl20);
        assert_eq!(d[0].secondary[0].span, sp(3), "the success order is labelled");
    }

    #[test]
    fn fences() {
        let f = |fl: Option<i64>, o: Option<i64>, s: Option<i64>| run("atomic_work_item_fence", &args(&[fl, o, s]));
        assert!(f(Some(GLOBAL_FENCE), Some(SEQ_CST), Some(DEVICE)).is_empty());
        assert!(f(Some(LOCAL_FENCE | GLOBAL_FENCE | IMAGE_FENCE), Some(ACQUIRE), Some(WORK_GROUP)).is_empty());
        assert!(f(Some(IMAGE_FENCE), Some(ACQ_REL), Some(WORK_ITEM)).is_empty());
        assert_eq!(f(Some(0), Some(SEQ_CST), Some(DEVICE)), [(E_BAD_FLAGS, E, 0)]);
        assert_eq!(f(Some(8), Some(SEQ_CST), Some(DEVICE)), [(E_BAD_FLAGS, E, 0)]);
        assert_eq!(f(Some(GLOBAL_FENCE), Some(RELAXED), Some(DEVICE)), [(W_FENCE_RELAXED, W, 1)]);
        assert_eq!(f(Some(GLOBAL_FENCE | IMAGE_FENCE), Some(SEQ_CST), Some(WORK_ITEM)), [(E_BAD_SCOPE, E, 2)]);
        assert!(f(None, Some(SEQ_CST), Some(WORK_ITEM)).is_empty(), "unknown flags may be CLK_IMAGE_MEM_FENCE");
        assert_eq!(f(Some(GLOBAL_FENCE), Some(SEQ_CST), Some(17)), [(E_INVALID_VALUE, E, 2)]);
        for name in ["mem_fence", "read_mem_fence", "write_mem_fence"] {
            assert!(run(name, &args(&[Some(LOCAL_FENCE)])).is_empty());
            assert_eq!(run(name, &args(&[Some(0)])), [(E_BAD_FLAGS, E, 0)]);
            assert_eq!(run(name, &args(&[Some(16)])), [(E_BAD_FLAGS, E, 0)]);
        }
    }

    #[test]
    fn barriers() {
        assert!(run("barrier", &args(&[Some(0)])).is_empty(), "§6.13.8 allows 0");
        assert!(run("barrier", &args(&[Some(LOCAL_FENCE | GLOBAL_FENCE)])).is_empty());
        assert_eq!(run("barrier", &args(&[Some(8)])), [(E_BAD_FLAGS, E, 0)]);
        let wgb = |s: i64| run("work_group_barrier", &args(&[Some(LOCAL_FENCE), Some(s)]));
        for s in [WORK_GROUP, DEVICE, ALL_SVM_DEVICES] {
            assert!(wgb(s).is_empty());
        }
        assert_eq!(wgb(WORK_ITEM), [(E_BAD_SCOPE, E, 1)]);
        assert_eq!(wgb(SUB_GROUP), [(E_BAD_SCOPE, E, 1)]);
        assert!(run("sub_group_barrier", &args(&[Some(LOCAL_FENCE), Some(SUB_GROUP)])).is_empty());
    }

    #[test]
    fn scopes() {
        assert_eq!(run("atomic_fetch_add_explicit", &args(&[None, None, Some(RELAXED), Some(WORK_ITEM)])), [(E_BAD_SCOPE, E, 3)]);
        let sg = args(&[None, None, Some(RELAXED), Some(SUB_GROUP)]);
        assert!(run("atomic_fetch_add_explicit", &sg).is_empty());
        assert_eq!(check_call("atomic_fetch_add_explicit", &sg, ClStd::Cl12).len(), 1);
        // Local atomics: device-or-wider scopes are reduced.
        for s in [DEVICE, ALL_SVM_DEVICES] {
            assert_eq!(run("atomic_fetch_add_explicit", &local(args(&[None, None, Some(RELAXED), Some(s)]))), [(W_SCOPE_REDUCED, W, 3)]);
        }
        assert!(run("atomic_fetch_add_explicit", &local(args(&[None, None, Some(RELAXED), Some(WORK_GROUP)]))).is_empty());
        assert!(run("atomic_fetch_add_explicit", &args(&[None, None, Some(RELAXED), Some(DEVICE)])).is_empty());
        // The implicit forms (seq_cst, device) are never diagnosed.
        assert!(run("atomic_fetch_add", &local(args(&[None, None]))).is_empty());
        assert!(run("atomic_load_explicit", &local(args(&[None, Some(ACQUIRE)]))).is_empty());
    }

    #[test]
    fn names() {
        assert_eq!(flags_text(3), "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE");
        assert_eq!(flags_text(9), "CLK_LOCAL_MEM_FENCE | 0x8");
        assert_eq!(order_name(1), None);
        // The table agrees with the builtin constants.
        for v in [RELAXED, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST] {
            let c = clc_builtins::constant(order_name(v).unwrap()).unwrap();
            assert_eq!(c.value, clc_builtins::ConstValue::Int(i128::from(v)));
        }
        for v in 0..=4 {
            let c = clc_builtins::constant(scope_name(v).unwrap()).unwrap();
            assert_eq!(c.value, clc_builtins::ConstValue::Int(i128::from(v)));
        }
    }
}
