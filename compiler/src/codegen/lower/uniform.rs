//! What the group-level lowering of a kernel (see [`super::regions`]) may
//! keep once for the whole group, recompute, or run at group level:
//!
//! - **uniform locals**: kernel parameters no one writes, and the counters
//!   of group-level `for` loops (written only by the loop's own init and
//!   step, from values that are the same for every work-item). One copy
//!   for the group, computed once, instead of one per work-item.
//! - **recomputed locals**: a local whose only write is its declaration,
//!   from the work-item's ids, uniform parameters and other such locals
//!   (`int col = get_global_id(0);`). Each region recomputes it from the
//!   work-item's ids instead of reading a per-work-item copy, so LLVM
//!   sees `col` as the loop's induction variable (consecutive accesses
//!   vectorise as vector loads, not gathers).
//! - **group-level loops without barriers** (PoCL's "implicit loop
//!   barriers"): a `for` loop whose trip count is the same for every
//!   work-item, at a place every work-item reaches, runs at group level
//!   with its body as a region — the work-item loop moves inside it, so
//!   `for (k…) acc += a[row*n+k] * b[k*n+col]` vectorises across
//!   work-items (b's row loaded as a vector, a's element broadcast)
//!   instead of running each work-item's loop on its own. This is legal
//!   because work-items of a group have no order between barriers: the
//!   lockstep order is one of those OpenCL allows. It is done only where
//!   the loop's memory accesses say it pays (see [`Gen::lockstep_pays`]).
//! - **divergent private loops**: a loop whose condition differs between
//!   work-items but whose body only computes private values (an
//!   escape-time loop) runs for chunks of neighbouring work-items, every
//!   work-item's iteration unconditional, until none of the chunk goes on
//!   (see `regions`' `divergent_loop`). Not a `for` loop with a small
//!   constant trip count ([`UNROLLED_TRIP_COUNT`]), found by running its
//!   constant counters at compile time: it runs as often in
//!   every work-item, which keeps it for LLVM to unroll.
//!
//! Only the structured typed program is looked at; nothing here emits IR.

use super::Gen;
use super::regions::GroupBody;
use crate::parse::ast::BinOp;
use crate::sema::hir::{self, ConvKind, ExprId, ExprKind, Init, LocalId, Stmt};
use crate::sema::types::TypeKind;
use clc_builtins::functions::{AddrSpace, Lowering, WorkItemFn};
use rustc_hash::FxHashSet;

/// The group-level plan of one function (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub uniform: Vec<bool>,
    /// The initializer each region recomputes the local from.
    pub remat: Vec<Option<ExprId>>,
    /// Statements without barriers run at group level: the loops, and the
    /// blocks and uniform `if`s around them.
    pub group: FxHashSet<*const Stmt>,
    /// Group-level `for` loops whose init and step only set uniform
    /// counters: evaluated once for the group.
    pub counted: FxHashSet<*const Stmt>,
    /// Loops whose condition differs between work-items, with bodies
    /// that only compute private values: run at group level for chunks
    /// of work-items until none of a chunk goes on, every work-item's
    /// iteration unconditional and its results kept only where its
    /// condition held — the locals each such loop's body writes
    /// (declared outside it).
    pub divergent: rustc_hash::FxHashMap<*const Stmt, Vec<LocalId>>,
    /// Of those locals, the ones whose values die with the loop: declared
    /// with an initializer in the same innermost loop (or function body)
    /// as the loop, so every run of the loop starts from a fresh value,
    /// and used nowhere else. A finished work-item's need not be kept.
    pub confined: rustc_hash::FxHashMap<*const Stmt, Vec<LocalId>>,
}

impl Plan {
    pub fn goes_group(&self, s: &Stmt) -> bool {
        self.group.contains(&(s as *const Stmt))
    }
}

/// Innermost loops with a constant trip count up to this are left to the
/// work-item: LLVM unrolls them there and then vectorises the work-item
/// loop. (A nest of such loops is not unrolled whole: a 5 x 5
/// convolution's outer loop stayed a loop inside the work-item loop,
/// which then did not vectorise.)
const UNROLLED_TRIP_COUNT: i128 = 32;

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The plan for a function (or block) lowered at group level.
    pub(super) fn group_plan(&self, b: &super::regions::GroupBody<'_>) -> Plan {
        let f = b.func;
        let n = f.locals.len();
        let mut plan = Plan { uniform: vec![false; n], remat: vec![None; n], ..Plan::default() };
        let facts = Facts::of(b);
        // Block literals in the body (a block's body is in its enclosing
        // function's arena, with the literal itself).
        let mut has_blocks = false;
        // Locals declared in statement expressions, whose declarations the
        // walks over statements below do not see: never uniform.
        let mut in_stmt_exprs = Vec::new();
        for s in b.body {
            super::regions::visit_stmt_deep(&f.exprs, s, &mut |e| match &f.exprs[e.0 as usize].kind {
                ExprKind::BlockLiteral { .. } => has_blocks = true,
                ExprKind::StmtExpr { body, .. } => body.iter().for_each(|s| super::regions::walk_decls(s, &mut in_stmt_exprs)),
                _ => {}
            });
        }
        for (i, local) in f.locals.iter().enumerate() {
            let l = LocalId(i as u32);
            let value = matches!(local.ty.space, AddrSpace::Private) && matches!(self.kind(local.ty.ty), TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Pointer(_) | TypeKind::Enum(_));
            plan.uniform[i] = if b.params.contains(&l) {
                b.uniform_params && value && facts.writes[i].is_empty()
            } else {
                // Blocks read their captures from their own frames: keep
                // the plain per-work-item copies there.
                value && !has_blocks && !in_stmt_exprs.contains(&l) && !super::regions::written_through_address(&f.exprs, l)
            };
        }
        if has_blocks {
            return plan;
        }
        // Counters: optimistic, then drop every local with a write the
        // plan does not allow, until nothing changes.
        loop {
            let mut walk = Walk { allowed_writes: FxHashSet::default(), allowed_decls: vec![false; n], group: FxHashSet::default(), counted: FxHashSet::default(), divergent: Default::default() };
            for s in b.body {
                self.mark(f, &facts, s, &plan.uniform, &mut walk);
            }
            let mut changed = false;
            for (i, u) in plan.uniform.iter_mut().enumerate() {
                let l = LocalId(i as u32);
                if !*u || b.params.contains(&l) {
                    continue;
                }
                let bad_write = facts.writes[i].iter().any(|e| !walk.allowed_writes.contains(e));
                let bad_decl = facts.initialized[i] && !walk.allowed_decls[i];
                if bad_write || bad_decl {
                    *u = false;
                    changed = true;
                }
            }
            if !changed {
                plan.group = walk.group;
                plan.counted = walk.counted;
                plan.divergent = walk.divergent;
                break;
            }
        }
        for (&d, written) in &plan.divergent {
            let c = confined_locals(b, d, written);
            if !c.is_empty() {
                plan.confined.insert(d, c);
            }
        }
        // Recomputed locals, in declaration order (an initializer only
        // names locals declared before it).
        for &(l, e) in &facts.decls {
            let i = l.0 as usize;
            let value = matches!(f.locals[i].ty.space, AddrSpace::Private) && matches!(self.kind(f.locals[i].ty.ty), TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Enum(_));
            if value && !plan.uniform[i] && facts.defined_once(l).is_some() && pure_from_ids(b, e, l, &plan) {
                plan.remat[i] = Some(e);
            }
        }
        plan
    }

    /// Marks what runs at group level in `s` (which every work-item
    /// reaches); is `s` itself at group level?
    fn mark(&self, f: &hir::Function, facts: &Facts, s: &Stmt, uniform: &[bool], w: &mut Walk) -> bool {
        let syncs = self.stmt_syncs(f, s);
        let key = s as *const Stmt;
        match s {
            Stmt::For { init, step, body, .. } if syncs || self.lockstep_loop(f, facts, s, uniform) => {
                if counter_init(f, init, uniform) && step.is_none_or(|e| counter_step(f, e, uniform)) {
                    w.counted.insert(key);
                    for st in init {
                        match st {
                            Stmt::Local { local, .. } => w.allowed_decls[local.0 as usize] = true,
                            Stmt::Expr(e) => allow_writes(f, *e, &mut w.allowed_writes),
                            _ => {}
                        }
                    }
                    if let Some(e) = step {
                        allow_writes(f, *e, &mut w.allowed_writes);
                    }
                }
                for b in body {
                    self.mark(f, facts, b, uniform, w);
                }
                if !syncs {
                    w.group.insert(key);
                }
                true
            }
            Stmt::Block(b) => {
                let mut any = false;
                for x in b {
                    any |= self.mark(f, facts, x, uniform, w);
                }
                if any && !syncs {
                    w.group.insert(key);
                }
                any || syncs
            }
            Stmt::If { cond, then, else_ } if syncs || uniform_expr(f, *cond, uniform) => {
                let mut any = false;
                for x in then.iter().chain(else_.iter().flatten()) {
                    any |= self.mark(f, facts, x, uniform, w);
                }
                if any && !syncs {
                    w.group.insert(key);
                }
                any || syncs
            }
            Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } if syncs => {
                for x in body {
                    self.mark(f, facts, x, uniform, w);
                }
                true
            }
            Stmt::While { cond, body, .. } | Stmt::For { cond: Some(cond), body, .. } if !uniform_expr(f, *cond, uniform) => {
                let step = match s {
                    Stmt::For { step, .. } => *step,
                    _ => None,
                };
                // A loop left to the work-item for LLVM to unroll runs as
                // often for every work-item: not divergent, whatever its
                // counter's plan (`lockstep_loop` leaves it there, so its
                // counter is no group-level one).
                if let Stmt::For { init, .. } = s
                    && runs_a_constant_few_times(f, &|t| self.kind(t), init, *cond, step, body)
                {
                    return false;
                }
                // Private scalars, vectors and pointers whose address no
                // one takes (records and arrays live in memory).
                let locals = (0..f.locals.len())
                    .map(|i| {
                        let t = f.locals[i].ty;
                        matches!(t.space, AddrSpace::Private) && matches!(self.kind(t.ty), TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Pointer(_) | TypeKind::Enum(_)) && !super::regions::written_through_address(&f.exprs, LocalId(i as u32))
                    })
                    .collect();
                let int_div = (0..f.exprs.len() as u32)
                    .map(ExprId)
                    .filter(|e| match &f.exprs[e.0 as usize].kind {
                        ExprKind::Binary { op: BinOp::Div | BinOp::Rem, op_ty: t, .. } | ExprKind::CompoundAssign { op: BinOp::Div | BinOp::Rem, comp_ty: t, .. } => {
                            !matches!(self.kind(t.ty), TypeKind::Scalar(s) | TypeKind::Vector(s, _) if super::expr::is_float(*s))
                        }
                        _ => false,
                    })
                    .collect();
                let values = Values { locals, int_div };
                match private_loop(f, *cond, step, body, uniform, &values) {
                    Some(written) => {
                        w.group.insert(key);
                        w.divergent.insert(key, written);
                        true
                    }
                    None => false,
                }
            }
            _ => syncs,
        }
    }

    /// A barrier-free `for` loop the group can run in lockstep: uniform
    /// condition, init and step setting uniform counters only, no way out
    /// of the body but its end, and accesses that vectorise better across
    /// work-items than along the loop.
    fn lockstep_loop(&self, f: &hir::Function, facts: &Facts, s: &Stmt, uniform: &[bool]) -> bool {
        let Stmt::For { init, cond: Some(cond), step, body, .. } = s else { return false };
        if self.stmt_syncs(f, s) || !uniform_expr(f, *cond, uniform) || !counter_init(f, init, uniform) || !step.is_some_and(|e| counter_step(f, e, uniform)) {
            return false;
        }
        if !leaves_only_at_end(body, false, false) {
            return false;
        }
        if !has_loop(body) && constant_trip_count(f, init, *cond, *step).is_some_and(|n| n <= UNROLLED_TRIP_COUNT) {
            return false;
        }
        self.lockstep_pays(f, facts, s, uniform)
    }

    /// Do the loop's memory accesses favour vectors across work-items
    /// (consecutive or the same for neighbouring work-items along x) over
    /// vectors along the loop (consecutive in the counter, apart across
    /// work-items)? Private arrays count too: at group level they are
    /// kept per work-item, so an element of neighbouring work-items is a
    /// whole array apart.
    fn lockstep_pays(&self, f: &hir::Function, facts: &Facts, s: &Stmt, uniform: &[bool]) -> bool {
        let Stmt::For { init, body, .. } = s else { return false };
        let counters = init
            .iter()
            .filter_map(|st| match st {
                Stmt::Local { local, .. } => Some(*local),
                Stmt::Expr(e) => write_target(&f.exprs, &f.exprs[e.0 as usize].kind),
                _ => None,
            })
            .collect();
        let mut unrolled = Vec::new();
        unrolled_counters(f, body, &mut unrolled);
        let at = Axes { counters, unrolled, facts, uniform };
        // A row of a nested index (`t[i]` in `t[i][j]`) is no access.
        let rows: FxHashSet<ExprId> = f
            .exprs
            .iter()
            .filter_map(|e| match &e.kind {
                ExprKind::Convert { kind: ConvKind::ArrayDecay, expr } => Some(*expr),
                _ => None,
            })
            .collect();
        let mut score = 0i32;
        let mut seen = false;
        for st in body {
            super::regions::visit_stmt_deep(&f.exprs, st, &mut |e| {
                let addr = match &f.exprs[e.0 as usize].kind {
                    ExprKind::Index { .. } | ExprKind::Deref(_) if !rows.contains(&e) => e,
                    _ => return,
                };
                seen = true;
                let (x, k) = address_form(f, addr, &at);
                if matches!(x, Coef::Zero | Coef::One) {
                    score += 1;
                } else if k == Coef::One {
                    score -= 1;
                }
            });
        }
        seen && score > 0
    }

}

struct Walk {
    allowed_writes: FxHashSet<ExprId>,
    allowed_decls: Vec<bool>,
    group: FxHashSet<*const Stmt>,
    counted: FxHashSet<*const Stmt>,
    divergent: rustc_hash::FxHashMap<*const Stmt, Vec<LocalId>>,
}

/// A coefficient of an address in a work-item id or a loop counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coef {
    Zero,
    One,
    Other,
}

impl Coef {
    fn add(self, o: Coef) -> Coef {
        match (self, o) {
            (Coef::Zero, c) | (c, Coef::Zero) => c,
            _ => Coef::Other,
        }
    }

    /// Multiplied by something other than one (a row's length).
    fn scaled(self) -> Coef {
        if self == Coef::Zero { Coef::Zero } else { Coef::Other }
    }
}

/// How an access's address moves with the work-item's x id and with
/// the loop counters: by nothing, by one element, or otherwise.
fn address_form(f: &hir::Function, e: ExprId, at: &Axes) -> (Coef, Coef) {
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Index { base, index } => {
            let (bx, bk) = pointer_form(f, *base, at);
            let (ix, ik) = linear(f, *index, at);
            (bx.add(ix), bk.add(ik))
        }
        ExprKind::Deref(p) => pointer_form(f, *p, at),
        _ => (Coef::Other, Coef::Other),
    }
}

/// The same for a pointer value, in elements of what it points to; a
/// decayed row of a 2-D array moves by whole rows.
fn pointer_form(f: &hir::Function, e: ExprId, at: &Axes) -> (Coef, Coef) {
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Convert { kind: ConvKind::ArrayDecay, expr } => match &f.exprs[expr.0 as usize].kind {
            ExprKind::Local(l) if matches!(f.locals[l.0 as usize].ty.space, AddrSpace::Private) => (Coef::Other, Coef::Other),
            ExprKind::Local(_) | ExprKind::Global(_) => (Coef::Zero, Coef::Zero),
            ExprKind::Index { .. } => {
                let (x, k) = address_form(f, *expr, at);
                (x.scaled(), k.scaled())
            }
            _ => (Coef::Other, Coef::Other),
        },
        ExprKind::PtrOffset { ptr, offset, sub: false } => {
            let (px, pk) = pointer_form(f, *ptr, at);
            let (ox, ok) = linear(f, *offset, at);
            (px.add(ox), pk.add(ok))
        }
        ExprKind::Convert { kind: ConvKind::AddrSpaceCast | ConvKind::PtrCast, expr } => pointer_form(f, *expr, at),
        _ if uniform_expr(f, e, at.uniform) => (Coef::Zero, Coef::Zero),
        _ => (Coef::Other, Coef::Other),
    }
}

/// An index's coefficients in the x id and the counters.
fn linear(f: &hir::Function, e: ExprId, at: &Axes) -> (Coef, Coef) {
    let uniform = at.uniform;
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Int(_) => (Coef::Zero, Coef::Zero),
        ExprKind::Load(inner) => match &f.exprs[inner.0 as usize].kind {
            ExprKind::Local(l) if at.counters.contains(l) => (Coef::Zero, Coef::One),
            ExprKind::Local(l) if at.unrolled.contains(l) => (Coef::Zero, Coef::Zero),
            _ if uniform_expr(f, e, uniform) => (Coef::Zero, Coef::Zero),
            // A local defined once (`col`): its definition.
            ExprKind::Local(l) => match at.facts.defined_once(*l) {
                Some(init) => linear(f, init, at),
                None => (Coef::Other, Coef::Other),
            },
            _ => (Coef::Other, Coef::Other),
        },
        ExprKind::Convert { kind: ConvKind::IntResize { .. }, expr } => linear(f, *expr, at),
        ExprKind::BuiltinCall { overload, args, .. } => match overload.lowering {
            Lowering::WorkItem(WorkItemFn::GlobalId | WorkItemFn::LocalId) => match args.first().and_then(|a| int_const(f, *a)) {
                Some(0) => (Coef::One, Coef::Zero),
                Some(_) => (Coef::Zero, Coef::Zero),
                None => (Coef::Other, Coef::Other),
            },
            Lowering::WorkItem(WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId) => (Coef::One, Coef::Zero),
            _ if uniform_expr(f, e, uniform) => (Coef::Zero, Coef::Zero),
            _ => (Coef::Other, Coef::Other),
        },
        ExprKind::Binary { op: BinOp::Add, lhs, rhs, .. } => {
            let (a, b) = (linear(f, *lhs, at), linear(f, *rhs, at));
            (a.0.add(b.0), a.1.add(b.1))
        }
        ExprKind::Binary { op: BinOp::Sub, lhs, rhs, .. } => {
            let (a, b) = (linear(f, *lhs, at), linear(f, *rhs, at));
            let neg = |c: Coef| if c == Coef::Zero { Coef::Zero } else { Coef::Other };
            (a.0.add(neg(b.0)), a.1.add(neg(b.1)))
        }
        ExprKind::Binary { op: BinOp::Mul | BinOp::Shl, lhs, rhs, .. } => {
            let (a, b) = (linear(f, *lhs, at), linear(f, *rhs, at));
            let is_one = |e: ExprId| int_const(f, e) == Some(1);
            let is_zero = |e: ExprId| int_const(f, e) == Some(0);
            match &f.exprs[e.0 as usize].kind {
                ExprKind::Binary { op: BinOp::Mul, .. } if is_one(*rhs) => a,
                ExprKind::Binary { op: BinOp::Mul, .. } if is_one(*lhs) => b,
                ExprKind::Binary { op: BinOp::Shl, .. } if is_zero(*rhs) => a,
                _ => {
                    // Uniform times something: still zero where it was.
                    let both_uniform = |x: (Coef, Coef)| x == (Coef::Zero, Coef::Zero);
                    if both_uniform(a) && both_uniform(b) {
                        (Coef::Zero, Coef::Zero)
                    } else if both_uniform(a) || both_uniform(b) {
                        let other = if both_uniform(a) { b } else { a };
                        (other.0.scaled(), other.1.scaled())
                    } else {
                        (Coef::Other, Coef::Other)
                    }
                }
            }
        }
        _ if uniform_expr(f, e, uniform) => (Coef::Zero, Coef::Zero),
        _ => (Coef::Other, Coef::Other),
    }
}

/// What a private loop may use: private scalars, vectors and pointers
/// whose address no one takes; which expressions divide integers.
struct Values {
    locals: Vec<bool>,
    int_div: FxHashSet<ExprId>,
}

/// A loop whose condition, step and body only compute private values
/// (no memory but private scalars, no calls, no way out but the
/// condition): the locals declared outside the body that it writes.
///
/// A work-item whose condition failed runs the body and step once more
/// each iteration, on its last values, and drops the results. So the
/// condition must not write anything (its last evaluation's writes would
/// be dropped too), and the body and step must not branch or divide:
/// those extra values may be LLVM poison (a signed overflow, an
/// out-of-range float conversion), harmless in a dropped `select` arm but
/// undefined as a branch condition or divisor.
fn private_loop(f: &hir::Function, cond: ExprId, step: Option<ExprId>, body: &[Stmt], uniform: &[bool], values: &Values) -> Option<Vec<LocalId>> {
    let mut written = Vec::new();
    let mut declared = Vec::new();
    let cond_ok = private_expr(f, cond, values, true, &mut written) && written.is_empty();
    let ok = cond_ok && step.is_none_or(|e| private_expr(f, e, values, false, &mut written)) && private_stmts(f, body, values, &mut written, &mut declared);
    written.retain(|l| !declared.contains(l));
    written.sort_by_key(|l| l.0);
    written.dedup();
    // Something per work-item must change, or the loop would not end.
    (ok && !written.is_empty() && written.iter().all(|l| !uniform[l.0 as usize])).then_some(written)
}

fn private_stmts(f: &hir::Function, body: &[Stmt], values: &Values, written: &mut Vec<LocalId>, declared: &mut Vec<LocalId>) -> bool {
    body.iter().all(|s| match s {
        Stmt::Expr(e) => private_expr(f, *e, values, false, written),
        Stmt::Local { local, init } => {
            declared.push(*local);
            values.locals[local.0 as usize]
                && match init {
                    None => true,
                    Some(Init::Expr(e)) => private_expr(f, *e, values, false, written),
                    Some(Init::List(_)) => false,
                }
        }
        Stmt::Block(b) => private_stmts(f, b, values, written, declared),
        _ => false,
    })
}

/// A private computation; `branches`: may it contain `?:`, `&&`, `||`
/// and integer division?
fn private_expr(f: &hir::Function, e: ExprId, values: &Values, branches: bool, written: &mut Vec<LocalId>) -> bool {
    let p = |x: &ExprId, w: &mut Vec<LocalId>| private_expr(f, *x, values, branches, w);
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::BuiltinConst(_) => true,
        ExprKind::Load(inner) => matches!(&f.exprs[inner.0 as usize].kind, ExprKind::Local(l) if values.locals[l.0 as usize]),
        ExprKind::Convert { kind, expr } => !matches!(kind, ConvKind::ArrayDecay | ConvKind::FuncToPtr) && p(expr, written),
        ExprKind::Unary { expr, .. } => p(expr, written),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let divides = matches!(op, BinOp::Div | BinOp::Rem) && values.int_div.contains(&e);
            (branches || !(divides || matches!(op, BinOp::And | BinOp::Or))) && p(lhs, written) && p(rhs, written)
        }
        ExprKind::Comma { lhs, rhs } => p(lhs, written) && p(rhs, written),
        ExprKind::Cond { cond, then, else_ } => branches && p(cond, written) && p(then, written) && p(else_, written),
        ExprKind::VectorLiteral(parts) => parts.iter().all(|x| p(x, written)),
        ExprKind::Swizzle { base, .. } => p(base, written),
        ExprKind::Assign { lhs, rhs } | ExprKind::CompoundAssign { lhs, rhs, .. } => match &f.exprs[lhs.0 as usize].kind {
            ExprKind::Local(l) if values.locals[l.0 as usize] && (branches || !values.int_div.contains(&e)) => {
                written.push(*l);
                p(rhs, written)
            }
            _ => false,
        },
        ExprKind::IncDec { expr, .. } => match &f.exprs[expr.0 as usize].kind {
            ExprKind::Local(l) if values.locals[l.0 as usize] => {
                written.push(*l);
                true
            }
            _ => false,
        },
        ExprKind::BuiltinCall { overload, args, .. } => matches!(overload.lowering, Lowering::WorkItem(_)) && args.iter().all(|x| p(x, written)),
        _ => false,
    }
}

/// Is the expression's value the same for every work-item of the group
/// (constants, uniform locals, group-wide work-item queries, and
/// operators over those)?
pub(super) fn uniform_expr(f: &hir::Function, e: ExprId, uniform: &[bool]) -> bool {
    let u = |x: &ExprId| uniform_expr(f, *x, uniform);
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::BuiltinConst(_) => true,
        ExprKind::Load(inner) => matches!(&f.exprs[inner.0 as usize].kind, ExprKind::Local(l) if uniform[l.0 as usize]),
        ExprKind::Convert { kind, expr } => !matches!(kind, ConvKind::ArrayDecay) && u(expr),
        ExprKind::Unary { expr, .. } => u(expr),
        ExprKind::Binary { op, lhs, rhs, .. } => *op != BinOp::Comma && u(lhs) && u(rhs),
        ExprKind::PtrOffset { ptr, offset, .. } => u(ptr) && u(offset),
        ExprKind::Cond { cond, then, else_ } => u(cond) && u(then) && u(else_),
        ExprKind::VectorLiteral(parts) => parts.iter().all(u),
        ExprKind::BuiltinCall { overload, args, .. } => match overload.lowering {
            Lowering::WorkItem(w) => {
                matches!(w, WorkItemFn::WorkDim | WorkItemFn::GlobalSize | WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize | WorkItemFn::NumGroups | WorkItemFn::GroupId | WorkItemFn::GlobalOffset) && args.iter().all(u)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Is `e` a value computed only from the work-item's ids, uniform
/// parameters and earlier recomputed locals, without control flow (so a
/// region can recompute it at its start)?
fn pure_from_ids(b: &GroupBody<'_>, e: ExprId, me: LocalId, plan: &Plan) -> bool {
    let p = |x: &ExprId| pure_from_ids(b, *x, me, plan);
    let f = b.func;
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::BuiltinConst(_) => true,
        ExprKind::Load(inner) => match &f.exprs[inner.0 as usize].kind {
            ExprKind::Local(l) => {
                let i = l.0 as usize;
                (b.params.contains(l) && plan.uniform[i]) || (*l != me && plan.remat[i].is_some())
            }
            _ => false,
        },
        ExprKind::Convert { kind, expr } => !matches!(kind, ConvKind::ArrayDecay | ConvKind::FuncToPtr) && p(expr),
        ExprKind::Unary { expr, .. } => p(expr),
        // `&&`, `||` and `,` would need blocks or side effects.
        ExprKind::Binary { op, lhs, rhs, .. } => !matches!(op, BinOp::And | BinOp::Or | BinOp::Comma) && p(lhs) && p(rhs),
        ExprKind::PtrOffset { ptr, offset, .. } => p(ptr) && p(offset),
        ExprKind::VectorLiteral(parts) => parts.iter().all(p),
        ExprKind::BuiltinCall { overload, args, .. } => matches!(overload.lowering, Lowering::WorkItem(_)) && args.iter().all(p),
        _ => false,
    }
}

/// A `for` init that only declares or sets uniform counters to uniform
/// values.
fn counter_init(f: &hir::Function, init: &[Stmt], uniform: &[bool]) -> bool {
    init.iter().all(|s| match s {
        Stmt::Local { local, init: None } => uniform[local.0 as usize],
        Stmt::Local { local, init: Some(Init::Expr(e)) } => uniform[local.0 as usize] && uniform_expr(f, *e, uniform),
        Stmt::Expr(e) => counter_step(f, *e, uniform),
        _ => false,
    })
}

/// An expression that only sets uniform counters to uniform values
/// (`k++`, `k += 16`, `i = 0, j = n`).
fn counter_step(f: &hir::Function, e: ExprId, uniform: &[bool]) -> bool {
    let counter = |x: &ExprId| matches!(&f.exprs[x.0 as usize].kind, ExprKind::Local(l) if uniform[l.0 as usize]);
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Comma { lhs, rhs } => counter_step(f, *lhs, uniform) && counter_step(f, *rhs, uniform),
        ExprKind::Binary { op: BinOp::Comma, lhs, rhs, .. } => counter_step(f, *lhs, uniform) && counter_step(f, *rhs, uniform),
        ExprKind::Assign { lhs, rhs } | ExprKind::CompoundAssign { lhs, rhs, .. } => counter(lhs) && uniform_expr(f, *rhs, uniform),
        ExprKind::IncDec { expr, .. } => counter(expr),
        // The discarded value of `(void)(k++)`.
        ExprKind::Convert { expr, .. } => counter_step(f, *expr, uniform),
        _ => false,
    }
}

/// Records the writes of a counter init or step as allowed.
fn allow_writes(f: &hir::Function, e: ExprId, out: &mut FxHashSet<ExprId>) {
    match &f.exprs[e.0 as usize].kind {
        ExprKind::Comma { lhs, rhs } | ExprKind::Binary { op: BinOp::Comma, lhs, rhs, .. } => {
            allow_writes(f, *lhs, out);
            allow_writes(f, *rhs, out);
        }
        ExprKind::Convert { expr, .. } => allow_writes(f, *expr, out),
        ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } => {
            out.insert(e);
        }
        _ => {}
    }
}

/// An integer constant of `f` ([`super::int_constant`]).
pub(super) fn int_const(f: &hir::Function, e: ExprId) -> Option<i128> {
    super::int_constant(&f.exprs, e)
}

/// A `for (k = a; k < b; k += c)`-shaped loop with constant bounds and a
/// positive constant step (`<`, `<=` or `!=`; conversions allowed around
/// the counter).
pub(super) struct CountedLoop {
    pub counter: LocalId,
    pub start: i128,
    pub op: BinOp,
    pub end: i128,
    pub by: i128,
}

pub(super) fn counted_loop(f: &hir::Function, init: &[Stmt], cond: ExprId, step: Option<ExprId>) -> Option<CountedLoop> {
    let int = |e: ExprId| int_const(f, e);
    let local_of = |e: ExprId| {
        let mut e = e;
        loop {
            match &f.exprs[e.0 as usize].kind {
                ExprKind::Load(x) => e = *x,
                ExprKind::Local(l) => return Some(*l),
                ExprKind::Convert { kind: ConvKind::IntResize { .. }, expr } => e = *expr,
                _ => return None,
            }
        }
    };
    let (counter, start) = match init {
        [Stmt::Local { local, init: Some(Init::Expr(e)) }] => (*local, int(*e)?),
        [Stmt::Expr(e)] => match &f.exprs[e.0 as usize].kind {
            ExprKind::Assign { lhs, rhs } => (local_of(*lhs)?, int(*rhs)?),
            _ => return None,
        },
        _ => return None,
    };
    let ExprKind::Binary { op, lhs, rhs, .. } = &f.exprs[cond.0 as usize].kind else { return None };
    if local_of(*lhs)? != counter || !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Ne) {
        return None;
    }
    let end = int(*rhs)?;
    let by = match &f.exprs[step?.0 as usize].kind {
        ExprKind::IncDec { inc: true, .. } => 1,
        ExprKind::CompoundAssign { op: BinOp::Add, rhs, .. } => int(*rhs)?,
        _ => return None,
    };
    (by > 0).then_some(CountedLoop { counter, start, op: *op, end, by })
}

/// The trip count of `for (k = a; k < b; k++)`-shaped loops with constant
/// bounds.
fn constant_trip_count(f: &hir::Function, init: &[Stmt], cond: ExprId, step: Option<ExprId>) -> Option<i128> {
    let CountedLoop { start, op, end, by, .. } = counted_loop(f, init, cond, step)?;
    let span = if op == BinOp::Le { end - start + 1 } else { end - start };
    Some((span.max(0) + by - 1) / by)
}

/// Does a `for` loop run a small constant number of times in every
/// work-item (the counted `k = 0; k < 8; k++` form included), as found by
/// running it at compile time: its init sets
/// integer locals to constants, its condition and step compute only with
/// those and constants (`for (a = 0, b = 10; a < b; a++, b--)`), its body
/// writes none of them and leaves only at its end, and it is done within
/// [`UNROLLED_TRIP_COUNT`] iterations.
fn runs_a_constant_few_times<'t>(f: &hir::Function, kind: &dyn Fn(crate::sema::types::TypeId) -> &'t TypeKind, init: &[Stmt], cond: ExprId, step: Option<ExprId>, body: &[Stmt]) -> bool {
    if has_loop(body) || !leaves_only_at_end(body, true, false) {
        return false;
    }
    let mut env: Vec<(LocalId, i128)> = Vec::new();
    for st in init {
        let ok = match st {
            Stmt::Local { local, init: Some(Init::Expr(e)) } => eval_counters(f, kind, *e, &mut env).map(|v| set_counter(&mut env, *local, v)).is_some(),
            Stmt::Expr(e) => eval_counters(f, kind, *e, &mut env).is_some(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    if env.is_empty() {
        return false;
    }
    let mut iterations = 0;
    loop {
        match eval_counters(f, kind, cond, &mut env) {
            Some(0) => break,
            Some(_) => {}
            None => return false,
        }
        iterations += 1;
        if iterations > UNROLLED_TRIP_COUNT || step.is_some_and(|s| eval_counters(f, kind, s, &mut env).is_none()) {
            return false;
        }
    }
    // Every local the init, condition or step set (the step may set one
    // the init did not) must keep its values from the body.
    let addressed = super::regions::addressed_locals(&f.exprs);
    let mut written = false;
    for st in body {
        super::regions::visit_stmt_deep(&f.exprs, st, &mut |e| written |= write_target(&f.exprs, &f.exprs[e.0 as usize].kind).is_some_and(|l| env.iter().any(|(k, _)| *k == l)));
    }
    !written && !env.iter().any(|(l, _)| addressed.contains(l))
}

fn set_counter(env: &mut Vec<(LocalId, i128)>, l: LocalId, v: i128) {
    match env.iter_mut().find(|(k, _)| *k == l) {
        Some(slot) => slot.1 = v,
        None => env.push((l, v)),
    }
}

/// The value of `e` over the constant-initialised counters in `env`
/// (assignments update them); `None` for anything else, or for a value
/// outside its type's range or 32 bits (where C's conversions and
/// wrapping would start to matter).
fn eval_counters<'t>(f: &hir::Function, kind: &dyn Fn(crate::sema::types::TypeId) -> &'t TypeKind, e: ExprId, env: &mut Vec<(LocalId, i128)>) -> Option<i128> {
    let local = |e: ExprId| match &f.exprs[e.0 as usize].kind {
        ExprKind::Local(l) => Some(*l),
        _ => None,
    };
    let get = |env: &Vec<(LocalId, i128)>, l: LocalId| env.iter().find(|(k, _)| *k == l).map(|(_, v)| *v);
    let arith = |op: BinOp, a: i128, b: i128| match op {
        BinOp::Add => Some(a + b),
        BinOp::Sub => Some(a - b),
        BinOp::Mul => Some(a * b),
        BinOp::Lt => Some((a < b) as i128),
        BinOp::Le => Some((a <= b) as i128),
        BinOp::Gt => Some((a > b) as i128),
        BinOp::Ge => Some((a >= b) as i128),
        BinOp::Eq => Some((a == b) as i128),
        BinOp::Ne => Some((a != b) as i128),
        _ => None,
    };
    let v = match &f.exprs[e.0 as usize].kind {
        ExprKind::Int(v) => *v,
        ExprKind::Load(x) => get(env, local(*x)?)?,
        ExprKind::Convert { kind: ConvKind::IntResize { .. }, expr } => eval_counters(f, kind, *expr, env)?,
        ExprKind::Convert { kind: ConvKind::ToBool, expr } => (eval_counters(f, kind, *expr, env)? != 0) as i128,
        ExprKind::Unary { op: crate::parse::ast::UnOp::Neg, expr } => -eval_counters(f, kind, *expr, env)?,
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let a = eval_counters(f, kind, *lhs, env)?;
            let b = eval_counters(f, kind, *rhs, env)?;
            arith(*op, a, b)?
        }
        ExprKind::Comma { lhs, rhs } => {
            eval_counters(f, kind, *lhs, env)?;
            eval_counters(f, kind, *rhs, env)?
        }
        ExprKind::Assign { lhs, rhs } => {
            let l = local(*lhs)?;
            let v = eval_counters(f, kind, *rhs, env)?;
            set_counter(env, l, v);
            v
        }
        ExprKind::CompoundAssign { op, lhs, rhs, .. } => {
            let l = local(*lhs)?;
            let b = eval_counters(f, kind, *rhs, env)?;
            let v = arith(*op, get(env, l)?, b)?;
            set_counter(env, l, v);
            v
        }
        ExprKind::IncDec { inc, prefix, expr } => {
            let l = local(*expr)?;
            let old = get(env, l)?;
            let new = if *inc { old + 1 } else { old - 1 };
            set_counter(env, l, new);
            if *prefix { new } else { old }
        }
        _ => return None,
    };
    use clc_builtins::types::Scalar as S;
    let (lo, hi): (i128, i128) = match kind(f.exprs[e.0 as usize].ty.ty) {
        TypeKind::Scalar(S::Bool) => (0, 1),
        TypeKind::Scalar(S::Char) => (i8::MIN.into(), i8::MAX.into()),
        TypeKind::Scalar(S::UChar) => (0, u8::MAX.into()),
        TypeKind::Scalar(S::Short) => (i16::MIN.into(), i16::MAX.into()),
        TypeKind::Scalar(S::UShort) => (0, u16::MAX.into()),
        TypeKind::Scalar(S::Int | S::Long | S::PtrDiff) => (i32::MIN.into(), i32::MAX.into()),
        TypeKind::Scalar(S::UInt | S::ULong | S::Size) => (0, i32::MAX.into()),
        _ => return None,
    };
    (lo..=hi).contains(&v).then_some(v)
}

/// The counters of the loops in `body` that stay in the work-item for
/// LLVM to unroll (innermost, constant bounds and step, trip count up to
/// [`UNROLLED_TRIP_COUNT`], the counter not written in the body): the
/// same at each unrolled copy for every work-item.
fn unrolled_counters(f: &hir::Function, body: &[Stmt], out: &mut Vec<LocalId>) {
    for s in body {
        match s {
            Stmt::For { init, cond: Some(cond), step, body, .. } if !has_loop(body) => {
                if constant_trip_count(f, init, *cond, *step).is_none_or(|n| n > UNROLLED_TRIP_COUNT) {
                    continue;
                }
                let counter = match init.as_slice() {
                    [Stmt::Local { local, .. }] => Some(*local),
                    [Stmt::Expr(e)] => write_target(&f.exprs, &f.exprs[e.0 as usize].kind),
                    _ => None,
                };
                let Some(k) = counter else { continue };
                let mut written = false;
                for st in body {
                    super::regions::visit_stmt_deep(&f.exprs, st, &mut |e| written |= write_target(&f.exprs, &f.exprs[e.0 as usize].kind) == Some(k));
                }
                if !written {
                    out.push(k);
                }
            }
            Stmt::Block(b) | Stmt::Switch { body: b, .. } | Stmt::While { body: b, .. } | Stmt::DoWhile { body: b, .. } | Stmt::For { body: b, .. } => unrolled_counters(f, b, out),
            Stmt::If { then, else_, .. } => {
                unrolled_counters(f, then, out);
                if let Some(e) = else_ {
                    unrolled_counters(f, e, out);
                }
            }
            _ => {}
        }
    }
}

/// The locals of `written` (those the divergent loop `d` writes) whose
/// values die with the loop (see [`Plan::confined`]); none in a function
/// with `goto`s.
fn confined_locals(b: &GroupBody<'_>, d: *const Stmt, written: &[LocalId]) -> Vec<LocalId> {
    let f = b.func;
    struct Walk<'f> {
        f: &'f hir::Function,
        d: *const Stmt,
        /// Per local: the innermost loop around its initialised
        /// declaration (`Some(None)`: the function body).
        decl: Vec<Option<Option<*const Stmt>>>,
        used_outside: Vec<bool>,
        /// The innermost loop around `d`.
        around_d: Option<Option<*const Stmt>>,
        gotos: bool,
    }
    impl Walk<'_> {
        fn uses(&mut self, e: ExprId) {
            let exprs = &self.f.exprs;
            let used = &mut self.used_outside;
            super::regions::deep(exprs, e, &mut |x| {
                if let ExprKind::Local(l) = exprs[x.0 as usize].kind {
                    used[l.0 as usize] = true;
                }
            });
        }
        /// The uses in a statement without nested statements.
        fn uses_in(&mut self, s: &Stmt) {
            let exprs = &self.f.exprs;
            let used = &mut self.used_outside;
            super::regions::visit_stmt_deep(exprs, s, &mut |x| {
                if let ExprKind::Local(l) = exprs[x.0 as usize].kind {
                    used[l.0 as usize] = true;
                }
            });
        }
        fn stmts(&mut self, body: &[Stmt], around: Option<*const Stmt>) {
            for s in body {
                let p = s as *const Stmt;
                if p == self.d {
                    self.around_d = Some(around);
                    continue;
                }
                match s {
                    Stmt::Local { local, init } => {
                        if let Some(Init::Expr(_)) = init {
                            self.decl[local.0 as usize] = Some(around);
                        }
                        self.uses_in(s);
                    }
                    Stmt::Expr(_) | Stmt::Return(Some(_)) => self.uses_in(s),
                    Stmt::If { cond, then, else_ } => {
                        self.uses(*cond);
                        self.stmts(then, around);
                        if let Some(e) = else_ {
                            self.stmts(e, around);
                        }
                    }
                    Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
                        self.uses(*cond);
                        self.stmts(body, Some(p));
                    }
                    Stmt::For { init, cond, step, body, .. } => {
                        // The init runs once per entry: outside the loop.
                        self.stmts(init, around);
                        for e in cond.iter().chain(step.iter()) {
                            self.uses(*e);
                        }
                        self.stmts(body, Some(p));
                    }
                    Stmt::Switch { cond, body, .. } => {
                        self.uses(*cond);
                        self.stmts(body, around);
                    }
                    Stmt::Block(b) => self.stmts(b, around),
                    Stmt::Goto(_) | Stmt::Label(_) => self.gotos = true,
                    Stmt::Return(None) | Stmt::Break | Stmt::Continue | Stmt::Case(_) => {}
                }
            }
        }
    }
    let n = f.locals.len();
    let mut w = Walk { f, d, decl: vec![None; n], used_outside: vec![false; n], around_d: None, gotos: false };
    w.stmts(b.body, None);
    let Some(around) = w.around_d else { return Vec::new() };
    if w.gotos {
        return Vec::new();
    }
    written.iter().copied().filter(|l| w.decl[l.0 as usize] == Some(around) && !w.used_outside[l.0 as usize] && !b.params.contains(l)).collect()
}

/// Is there a loop among `body`'s statements, at any depth?
fn has_loop(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::While { .. } | Stmt::DoWhile { .. } | Stmt::For { .. } => true,
        Stmt::Block(b) | Stmt::Switch { body: b, .. } => has_loop(b),
        Stmt::If { then, else_, .. } => has_loop(then) || else_.as_deref().is_some_and(has_loop),
        _ => false,
    })
}

/// Does control leave the loop body only by reaching its end (no
/// `return`, `goto`, or `break`/`continue` of this loop)?
fn leaves_only_at_end(body: &[Stmt], in_loop: bool, in_switch: bool) -> bool {
    body.iter().all(|s| match s {
        Stmt::Return(_) | Stmt::Goto(_) | Stmt::Label(_) => false,
        Stmt::Break => in_loop || in_switch,
        Stmt::Continue => in_loop,
        Stmt::Block(b) => leaves_only_at_end(b, in_loop, in_switch),
        Stmt::If { then, else_, .. } => leaves_only_at_end(then, in_loop, in_switch) && else_.as_ref().is_none_or(|e| leaves_only_at_end(e, in_loop, in_switch)),
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } => leaves_only_at_end(body, true, false),
        Stmt::For { init, body, .. } => leaves_only_at_end(init, in_loop, in_switch) && leaves_only_at_end(body, true, false),
        Stmt::Switch { body, .. } => leaves_only_at_end(body, in_loop, true),
        Stmt::Expr(_) | Stmt::Local { .. } | Stmt::Case(_) => true,
    })
}

/// The local expression `e` writes, if it writes one (see
/// [`write_target`]).
pub(super) fn write_target_of(exprs: &[hir::Expr], e: ExprId) -> Option<LocalId> {
    write_target(exprs, &exprs[e.0 as usize].kind)
}

/// The local an assignment, compound assignment, `++`/`--` or `&` writes
/// (through members, swizzles and indices of it).
fn write_target(exprs: &[hir::Expr], k: &ExprKind) -> Option<LocalId> {
    let lhs = match k {
        ExprKind::Assign { lhs, .. } | ExprKind::CompoundAssign { lhs, .. } | ExprKind::IncDec { expr: lhs, .. } | ExprKind::AddrOf(lhs) => *lhs,
        _ => return None,
    };
    let mut e = lhs;
    loop {
        match &exprs[e.0 as usize].kind {
            ExprKind::Local(l) => return Some(*l),
            ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::Index { base, .. } => e = *base,
            ExprKind::Convert { kind: ConvKind::ArrayDecay, expr } => e = *expr,
            _ => return None,
        }
    }
}

pub(super) fn written_bases(exprs: &[hir::Expr]) -> FxHashSet<LocalId> {
    exprs.iter().filter_map(|e| write_target(exprs, &e.kind)).collect()
}

/// What the plan reads of a function, gathered once.
struct Facts {
    /// Each local's writes after its declaration (assignments, `++`/`--`,
    /// `&`).
    writes: Vec<Vec<ExprId>>,
    /// Does the local's declaration have an initializer?
    initialized: Vec<bool>,
    /// Declarations with one expression as initializer, in order.
    decls: Vec<(LocalId, ExprId)>,
}

impl Facts {
    fn of(b: &GroupBody<'_>) -> Facts {
        let f = b.func;
        let mut writes = vec![Vec::new(); f.locals.len()];
        for (k, e) in f.exprs.iter().enumerate() {
            if let Some(l) = write_target(&f.exprs, &e.kind) {
                writes[l.0 as usize].push(ExprId(k as u32));
            }
        }
        let mut facts = Facts { writes, initialized: vec![false; f.locals.len()], decls: Vec::new() };
        b.body.iter().for_each(|s| facts.declarations(s));
        facts
    }

    /// Records the initialised declarations in `s` and the statements
    /// inside it.
    fn declarations(&mut self, s: &Stmt) {
        if let Stmt::Local { local, init: Some(init) } = s {
            self.initialized[local.0 as usize] = true;
            if let Init::Expr(e) = init {
                self.decls.push((*local, *e));
            }
        }
        s.children().for_each(|c| self.declarations(c));
    }

    /// The initializer of a local never written after its declaration.
    fn defined_once(&self, l: LocalId) -> Option<ExprId> {
        if !self.writes[l.0 as usize].is_empty() {
            return None;
        }
        self.decls.iter().find(|(m, _)| *m == l).map(|&(_, e)| e)
    }
}

/// Where an access's address is looked at: the loop's counters, and what
/// is known of the function's locals.
struct Axes<'f> {
    counters: Vec<LocalId>,
    /// Counters of the innermost constant-trip loops inside, which LLVM
    /// unrolls: a constant at each copy, the same for every work-item.
    unrolled: Vec<LocalId>,
    facts: &'f Facts,
    uniform: &'f [bool],
}

#[cfg(test)]
mod tests {
    /// `src` preprocessed, parsed and checked (without errors) as
    /// OpenCL C 2.0 for the host.
    fn checked(src: &str) -> (crate::source::SourceMap, crate::sema::Program) {
        use crate::options::{ClStd, Target};
        use crate::sema::{SemaOptions, check};
        let mut sm = crate::source::SourceMap::new();
        let main = sm.add_virtual("u.cl", src.to_string());
        let mut diags = crate::diag::Diagnostics::default();
        let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions::default(), &mut diags);
        let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
        let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
        assert!(!diags.has_errors());
        (sm, p)
    }

    /// The work-group entry of `src`'s kernel as lowered (before LLVM's
    /// optimisation) for x86-64.
    fn entry_ir(src: &str) -> String {
        use crate::codegen::{CodegenOptions, lower};
        let (sm, p) = checked(src);
        let ctx = inkwell::context::Context::create();
        let m = lower(&ctx, &p, &sm, "u", &CodegenOptions::default()).unwrap();
        let f = m.get_first_function().into_iter().flat_map(|f| std::iter::successors(Some(f), |f| f.get_next_function())).find(|f| f.get_name().to_string_lossy().starts_with("__clc_wg_")).expect("a work-group entry");
        inkwell::values::AnyValue::print_to_string(&f).to_string()
    }

    /// The names of the locals whose values die with the `while` loop of
    /// `src`'s kernel (its only one), of those it writes.
    fn confined_in(src: &str) -> Vec<String> {
        use crate::sema::hir::{LocalId, Stmt};
        let (_, p) = checked(src);
        let f = p.functions.iter().find(|f| f.kernel).unwrap();
        fn find(body: &[Stmt]) -> Option<&Stmt> {
            body.iter().find_map(|s| match s {
                Stmt::While { .. } => Some(s),
                Stmt::Block(b) | Stmt::For { body: b, .. } | Stmt::DoWhile { body: b, .. } => find(b),
                Stmt::If { then, else_, .. } => find(then).or_else(|| else_.as_deref().and_then(find)),
                _ => None,
            })
        }
        let d = find(&f.body).expect("a while loop");
        let all: Vec<LocalId> = (0..f.locals.len() as u32).map(LocalId).collect();
        super::confined_locals(&super::GroupBody::of(f), d, &all).iter().map(|l| f.locals[l.0 as usize].name.clone()).collect()
    }

    /// Locals written by a divergent loop die with it when declared with
    /// an initializer in the same loop nest and used nowhere else.
    #[test]
    fn confined_locals_are_fresh_for_each_run_and_used_only_there() {
        let escape = |before: &str, after: &str| {
            format!(
                "kernel void k(global int *o, float c, int n) {{
                    {before}
                    while (it < 100 && zr * zr <= 4.0f) {{ zr = zr * zr + c; it++; }}
                    {after}
                }}"
            )
        };
        // zr is fresh and dies; it is used after the loop.
        assert_eq!(confined_in(&escape("float zr = 0.0f; int it = 0;", "o[0] = it;")), ["zr"]);
        assert_eq!(confined_in(&escape("float zr = 0.0f; int it = 0;", "o[0] = it + (int)zr;")), Vec::<String>::new());
        // Declared outside a loop around it: the next run starts from
        // the last run's value.
        let outer = "kernel void k(global int *o, float c, int n) {
            float zr = 0.0f; int it = 0;
            for (int r = 0; r < n; r++) { while (it < 100 && zr * zr <= 4.0f) { zr = zr * zr + c; it++; } }
            o[0] = it;
        }";
        assert_eq!(confined_in(outer), Vec::<String>::new());
        let inner = "kernel void k(global int *o, float c, int n) {
            int it = 0;
            for (int r = 0; r < n; r++) { float zr = r; while (it < 100 && zr * zr <= 4.0f) { zr = zr * zr + c; it++; } }
            o[0] = it;
        }";
        assert_eq!(confined_in(inner), ["zr"]);
        // Without an initializer, or with a goto anywhere: none.
        assert_eq!(confined_in(&escape("float zr; zr = 0.0f; int it = 0;", "o[0] = it;")), Vec::<String>::new());
        assert_eq!(confined_in(&escape("float zr = 0.0f; int it = 0; goto l; l:", "o[0] = it;")), Vec::<String>::new());
    }

    const SGEMM: &str = "kernel void k(global const float *a, global const float *b, global float *c, int n) {
        int col = get_global_id(0), row = get_global_id(1);
        if (row >= n || col >= n) return;
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
    }";

    /// A uniform loop whose accesses are consecutive (or the same) across
    /// work-items runs at group level: its body is a region, `col` and
    /// `row` are recomputed there, the counter is one value.
    #[test]
    fn uniform_loops_with_accesses_across_work_items_run_in_lockstep() {
        let ir = entry_ir(SGEMM);
        assert!(ir.contains("g.loop.cond"), "{ir}");
        assert!(ir.contains("r.start"), "{ir}");
        // One copy of `k` and none of `col`/`row` per work-item: only
        // `acc` is an array.
        assert!(ir.contains("%acc = alloca float, i64 %"), "{ir}");
        assert!(!ir.contains("%col = alloca i32, i64") && !ir.contains("%k = alloca i32, i64"), "{ir}");
    }

    /// A region that is only `if (x < u)` (x the local id in dimension 0,
    /// u uniform) ends its x loop at `min(local size, u)`; one with an
    /// `else`, a condition on another dimension, a non-uniform or
    /// trapping bound, or a narrowing conversion of the id keeps the
    /// whole loop.
    #[test]
    fn regions_split_along_x_where_comparisons_are_known() {
        let kernel = |cond: &str| {
            format!(
                "kernel void k(local float *t, global int *g, int n) {{
                    size_t lid = get_local_id(0); int li = get_local_id(0);
                    t[lid] = 1.0f;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    {cond}
                    barrier(CLK_LOCAL_MEM_FENCE);
                }}"
            )
        };
        // The parts a region runs in (see `xsplit`'s `x_parts`), and
        // whether a part around the known one can be empty for doing
        // nothing: "b" before, "k" known, "a" after, "B"/"A" the part idle
        // where a conjunct is known false. Comparisons of the local id
        // alone never wrap: parts that are then always empty are left out.
        let parts = |cond: &str| {
            let ir = entry_ir(&kernel(cond));
            let mut p = String::new();
            for (label, c) in [("\nx.before:", 'b'), ("%x.end.before = select", 'B'), ("\nx.known:", 'k'), ("\nx.after:", 'a'), ("%x.start.after = select", 'A')] {
                if ir.contains(label) {
                    p.push(c);
                }
            }
            p
        };
        for (cond, want) in [
            // Lone `if`s: the work-items where the check fails do nothing.
            ("for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) { if (lid < s) t[lid] += t[lid + s]; barrier(CLK_LOCAL_MEM_FENCE); }", "k"),
            ("if (li <= n - 1) t[lid] = 0;", "k"),
            ("if (n > (long)lid) t[lid] = 0;", "k"),
            ("if (n >= get_global_id(0) - 3) t[lid] = 0;", "kaA"),
            ("if (get_local_id(0) == 0) t[0] = 2;", "bB"),
            ("if (7 == li) t[7] = 2;", "bB"),
            ("if (li >= n) t[lid] = 0;", "a"),
            ("if (li > 0 && li < n) t[lid] = 0;", "bBk"),
            ("if (get_global_id(0) > 0 && get_global_id(0) < n) t[lid] = 0;", "bBkaA"),
            // Regions that do more: every part runs.
            ("int x = get_group_id(0) * 16 + li; if (x < n && get_global_id(1) < 9) t[lid] = 0;", "ka"),
            ("if (n >= get_global_id(0) - 3) t[lid] = 0; else t[lid] = 1;", "ka"),
            ("if (lid < 4) t[lid] = 0; else t[lid] = 1;", "bk"),
            ("if (lid < 4) t[lid] = 0; t[0] = 1;", "bk"),
            ("if (get_global_id(0) < 4) t[lid] = 0; t[0] = 1;", "bka"),
            ("int x = li; x = x + 1; x = x + n; if (x < n) t[lid] = 0; t[0] = 1;", "ka"),
            // A clamp of x plus a counter of an enclosing loop.
            ("for (int fx = -2; fx <= 2; fx++) { int xx = li + fx; xx = xx < 0 ? 0 : xx >= n ? n - 1 : xx; t[lid] += xx; }", "bka"),
            // Comparisons not known anywhere.
            ("if (li * 2 < n) t[lid] = 0;", ""),
            ("if (get_global_id(1) < n) t[lid] = 0;", ""),
            ("if (get_local_id(1) < 4) t[lid] = 0;", ""),
            ("if (li + g[0] < n) t[lid] = 0;", ""),
            ("if (li < g[0]) t[lid] = 0;", ""),
            ("if (li < 64 / n) t[lid] = 0;", ""),
            ("if ((char)lid < 4) t[lid] = 0;", ""),
            // A sign extension seen unsigned.
            ("if ((ulong)(short)lid < (ulong)n) t[lid] = 0;", ""),
            // The bound changes in the region.
            ("int m = n; m = m + 1; if (li < m) t[lid] = 0;", ""),
            ("int m = n + 1; if (li < m) t[lid] = 0;", ""),
            // The counter is written in the body, or its bound is not a
            // constant.
            ("for (int fx = -2; fx <= 2; fx++) { int xx = li + fx; fx += 0; if (xx < n) t[lid] += xx; }", ""),
            ("for (int fx = -2; fx <= g[li]; fx++) { int xx = li + fx; if (xx < n) t[lid] += xx; }", ""),
            // A counter of a loop the group runs in lockstep is uniform.
            ("for (int fx = 2; fx >= -2; fx--) { int xx = li + fx; if (xx < n) t[lid] += xx; }", "ka"),
            // Written through a pointer; jumps.
            ("int x = li; int *p = &x; *p = 100; if (x < n) t[lid] = 0;", ""),
            ("goto l; l: if (li < n) t[lid] = 0;", ""),
        ] {
            assert_eq!(parts(cond), want, "{cond}");
        }
    }

    /// A loop whose condition differs between work-items and whose body
    /// computes private values only runs at group level until no
    /// work-item goes on; one that reads memory stays the work-item's.
    #[test]
    fn private_divergent_loops_run_at_group_level() {
        let escape = "kernel void k(global int *o, float c) {
            int i = get_global_id(0);
            float z = 0; int it = 0;
            while (it < 100 && z * z <= 4.0f) { z = z * z + c * i; it++; }
            o[i] = it;
        }";
        assert!(entry_ir(escape).contains("d.chunk"));
        // Branches and integer division in the body, a condition that
        // writes: each work-item's own loop.
        for body in ["while (it < i) { if (z > 2) z /= 2; it++; }", "while (it < i) { it += 7 / (i - it); }", "while (it++ < i) z *= 1.5f;"] {
            let src = format!("kernel void k(global int *o) {{ int i = get_global_id(0); float z = 1; int it = 0; {body} o[i] = it + (int)z; }}");
            assert!(!entry_ir(&src).contains("d.chunk"), "{body}");
        }
        let reads = "kernel void k(global int *o) {
            int i = get_global_id(0), it = 0;
            while (o[it] != i) it++;
            o[i] = it;
        }";
        assert!(!entry_ir(reads).contains("d.chunk"));
    }

    /// Loops that stay each work-item's own: a trip count that differs
    /// between work-items, a counter written in the body, a loop under a
    /// condition that differs, accesses consecutive along the loop, a
    /// small constant trip count (LLVM unrolls it), a `break`.
    #[test]
    fn other_loops_stay_in_the_work_item() {
        for (what, body) in [
            ("varying bound", "for (int k = 0; k < i; k++) acc += a[k * n + i];"),
            ("counter written in the body", "for (int k = 0; k < n; k++) { acc += a[k * n + i]; k += a[k] > 0; }"),
            ("varying condition", "if (i < 5) for (int k = 0; k < n; k++) acc += a[k * n + i];"),
            ("rows of each work-item", "for (int k = 0; k < n; k++) acc += a[i * n + k];"),
            ("constant trip count", "for (int k = 0; k < 8; k++) acc += a[k * n + i];"),
            // A bound spelled as arithmetic on constants (a macro's `2 * R + 1`).
            ("constant expression bound", "for (int k = -(8 / 4); k <= 2 * 2 - (1 << 1); k += 4 % 3) acc += a[(k + 2) * n + i];"),
            ("break", "for (int k = 0; k < n; k++) { if (a[k] < 0) break; acc += a[k * n + i]; }"),
        ] {
            let src = format!("kernel void k(global float *a, int n) {{ int i = get_global_id(0); float acc = 0; {body} a[i] = acc; }}");
            let ir = entry_ir(&src);
            assert!(!ir.contains("g.loop.cond"), "{what}: {ir}");
        }
        // Past 32 iterations (or with a bound that wraps in its type) the
        // same loop runs at group level.
        for bound in ["k < 8 * 5", "k < 0u - 1u"] {
            let src = format!("kernel void k(global float *a, int n) {{ int i = get_global_id(0); float acc = 0; for (int k = 0; {bound}; k++) acc += a[k * n + i]; a[i] = acc; }}");
            let ir = entry_ir(&src);
            assert!(ir.contains("g.loop.cond"), "{bound}: {ir}");
        }
    }

    /// Arithmetic on integer constants folds where every integer type
    /// gives the same value, and only there.
    #[test]
    fn constant_arithmetic_folds_without_wrapping() {
        use crate::sema::hir::{ExprKind, Function};
        let folds = |src: &str| {
            let src = format!("kernel void k(global long *o) {{ o[0] = {src}; }}");
            let (_, program) = checked(&src);
            let f: &Function = program.functions.iter().find(|f| f.name == "k").unwrap();
            // The store's value: the right-hand side of the only assignment.
            let rhs = f.exprs.iter().find_map(|e| match &e.kind { ExprKind::Assign { rhs, .. } => Some(*rhs), _ => None }).unwrap();
            super::int_const(f, rhs)
        };
        assert_eq!(folds("2 * 2 + 1"), Some(5));
        assert_eq!(folds("(16 + 2 * 2) / 3 % 5 << 2 | 1"), Some(5));
        assert_eq!(folds("-(7 >> 1)"), Some(-3));
        for wraps in ["0u - 1u", "1 - 2", "65536 * 65536", "1 / 0", "1 << 40", "-1 + 2"] {
            assert_eq!(folds(wraps), None, "{wraps}");
        }
    }
}
