//! Splitting a region's work-items along x where its comparisons against
//! uniform bounds are known (see [`Gen::x_parts`]).
//!
//! A region's comparison `v < u`, where `v` moves up by one with the x id
//! (a local or global id in dimension 0 plus uniform terms, through
//! integer conversions and locals) and `u` is uniform, holds for a prefix
//! of the group's x range and fails for the rest. Where `v` also adds the
//! counters of enclosing loops with constant bounds (`x + fx` in a 5 x 5
//! stencil's inner loop), the comparison is known on a narrower prefix or
//! suffix: for every value the counters take. The region then runs in up
//! to three parts along x: before the known range as written, the known
//! range with the comparisons replaced by their values (a bound check
//! gone, a clamp of `x + fx` to the image gone, so the accesses are plain
//! vector loads instead of masked loads or gathers), and after it as
//! written.

use super::regions::{can_trap, deep, visit_stmt_deep};
use super::uniform::{Plan, counted_loop, int_const, uniform_expr, write_target_of};
use super::{Gen, R, ice};
use crate::parse::ast::BinOp;
use crate::sema::hir::{self, ConvKind, ExprId, ExprKind, Init, LocalId, Stmt};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::{Lowering, WorkItemFn};
use clc_builtins::types::Scalar;
use inkwell::IntPredicate;
use inkwell::values::IntValue;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Comparisons followed per region (each costs a few group-level
/// instructions).
const MAX_CHECKS: usize = 8;

/// How deep definitions are followed (chains of `x = x + 1` are cut off).
const MAX_DEPTH: u32 = 32;

/// A comparison of the region's is `u` at most this constant: a lower
/// bound (`xx < 0`, `lid == 0`, `x >= 2`), known on the suffix of the
/// range where the x side is large. Other bounds (sizes) are known on the
/// prefix.
const LOWER_BOUND_MAX: i128 = 8;

/// One part of a region's x range (see [`Gen::x_parts`]): where the x loop
/// starts and ends (else 0 and the group's size), and the comparisons
/// known there with their values.
pub(super) struct XPart<'ctx> {
    /// `before`, `known` or `after` (the name of the part's block).
    pub name: &'static str,
    pub start: Option<IntValue<'ctx>>,
    pub end: Option<IntValue<'ctx>>,
    pub known: Rc<[(ExprId, bool)]>,
}

/// What the walk knows of a local at a point of the region.
#[derive(Clone)]
enum Def {
    /// Set in the region in a way the walk does not follow.
    Unknown,
    /// Last set to this expression, whose locals read as in the
    /// environment of that point.
    Expr(ExprId, Env),
    /// The counter of an enclosing counted loop: in `[lo, hi]`.
    Counter(i128, i128),
}

/// The definitions of the locals the region has set, at a point of it.
/// Persistent: a definition keeps the environment it was made in, so
/// `x = x + 1` reads the `x` before it.
type Env = Rc<FxHashMap<LocalId, Def>>;

fn set(env: &mut Env, l: LocalId, d: Def) {
    Rc::make_mut(env).insert(l, d);
}

fn kill(env: &mut Env, ls: &FxHashSet<LocalId>) {
    if !ls.is_empty() {
        let m = Rc::make_mut(env);
        for l in ls {
            m.insert(*l, Def::Unknown);
        }
    }
}

/// `v rel u`, with `v` the side that moves with x.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    /// `u rel v` as `v rel' u`.
    fn flip(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        }
    }

    /// On the prefix where `v < u + k` for every counter value: `k` and
    /// the comparison's value there.
    fn prefix_claim(self) -> (i128, bool) {
        match self {
            Rel::Lt => (0, true),
            Rel::Le => (1, true),
            Rel::Gt => (1, false),
            Rel::Ge => (0, false),
            Rel::Eq => (0, false),
            Rel::Ne => (0, true),
        }
    }

    /// On the suffix where `v >= u + k` for every counter value: `k` and
    /// the comparison's value there.
    fn suffix_claim(self) -> (i128, bool) {
        match self {
            Rel::Lt => (0, false),
            Rel::Le => (1, false),
            Rel::Gt => (1, true),
            Rel::Ge => (0, true),
            Rel::Eq => (1, false),
            Rel::Ne => (1, true),
        }
    }
}

/// A comparison `v rel u` of the region: `v` moves up by one with the x id,
/// plus counters whose ranges add up to `span`; `u` is uniform.
struct Check {
    cmp: ExprId,
    v: ExprId,
    env: Env,
    u: ExprId,
    rel: Rel,
    signed: bool,
    /// The width of the compared type.
    bits: u32,
    span: i128,
    /// `v` is the local id (see [`Term::small`]).
    small: bool,
    /// Known on the suffix of the range (else on the prefix).
    suffix: bool,
}

/// How `v` moves with x: the counters' total range, and the narrowest
/// integer type on the way (see [`Walk::term`]).
#[derive(Clone, Copy)]
struct Term {
    span: i128,
    bits: u32,
    /// The local id alone, through conversions: below 4096 and never
    /// wrapping.
    small: bool,
}

/// The walk over a region's statements in evaluation order that finds
/// its comparisons and what their operands are at that point.
struct Walk<'w, 'a, 'ctx> {
    g: &'w Gen<'a, 'ctx>,
    f: &'a hir::Function,
    plan: &'w Plan,
    /// Locals the region writes or declares anywhere: a bound must not
    /// read them (it is computed before the region).
    writes: FxHashSet<LocalId>,
    /// Locals whose address is taken (written through pointers).
    addressed: FxHashSet<LocalId>,
    checks: Vec<Check>,
    /// A label: jumps the walk does not follow.
    gave_up: bool,
}

impl<'w, 'a, 'ctx> Walk<'w, 'a, 'ctx> {
    fn writes_of_stmts(&self, ss: &[Stmt]) -> FxHashSet<LocalId> {
        let mut w = FxHashSet::default();
        for s in ss {
            visit_stmt_deep(&self.f.exprs, s, &mut |e| w.extend(write_target_of(&self.f.exprs, e)));
        }
        w
    }

    fn writes_of_expr(&self, e: ExprId) -> FxHashSet<LocalId> {
        let mut w = FxHashSet::default();
        deep(&self.f.exprs, e, &mut |x| w.extend(write_target_of(&self.f.exprs, x)));
        w
    }

    fn stmts(&mut self, ss: &[Stmt], env: &mut Env) {
        for s in ss {
            self.stmt(s, env);
        }
    }

    fn stmt(&mut self, s: &Stmt, env: &mut Env) {
        match s {
            Stmt::Expr(e) => self.expr_stmt(*e, env),
            Stmt::Local { local, init } => {
                let d = match init {
                    Some(Init::Expr(e)) => {
                        let w = self.writes_of_expr(*e);
                        kill(env, &w);
                        self.comparisons(*e, env);
                        if w.is_empty() { Def::Expr(*e, env.clone()) } else { Def::Unknown }
                    }
                    Some(Init::List(_)) => {
                        kill(env, &self.writes_of_stmts(std::slice::from_ref(s)));
                        Def::Unknown
                    }
                    None => Def::Unknown,
                };
                set(env, *local, if self.addressed.contains(local) { Def::Unknown } else { d });
            }
            Stmt::If { cond, then, else_ } => {
                self.plain(*cond, env);
                let mut inner = env.clone();
                self.stmts(then, &mut inner);
                let mut w = self.writes_of_stmts(then);
                if let Some(e) = else_ {
                    let mut inner = env.clone();
                    self.stmts(e, &mut inner);
                    w.extend(self.writes_of_stmts(e));
                }
                kill(env, &w);
            }
            Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
                // Around the back edge, whatever the loop sets is unknown.
                kill(env, &self.writes_of_stmts(std::slice::from_ref(s)));
                self.comparisons(*cond, env);
                let mut inner = env.clone();
                self.stmts(body, &mut inner);
            }
            Stmt::For { init, cond, step, body, .. } => {
                self.stmts(init, env);
                let mut w = self.writes_of_stmts(body);
                for e in cond.iter().chain(step) {
                    w.extend(self.writes_of_expr(*e));
                }
                let counter = cond.and_then(|c| self.counter_of(init, c, *step, body));
                kill(env, &w);
                for e in cond.iter().chain(step) {
                    self.comparisons(*e, env);
                }
                let mut inner = env.clone();
                if let Some((k, lo, hi)) = counter {
                    set(&mut inner, k, Def::Counter(lo, hi));
                }
                self.stmts(body, &mut inner);
            }
            Stmt::Switch { cond, body, .. } => {
                // Case labels enter the body anywhere: its comparisons are
                // not followed.
                self.plain(*cond, env);
                kill(env, &self.writes_of_stmts(body));
            }
            Stmt::Block(b) => self.stmts(b, env),
            Stmt::Return(Some(e)) => self.plain(*e, env),
            Stmt::Label(_) | Stmt::Goto(_) => self.gave_up = true,
            Stmt::Return(None) | Stmt::Case(_) | Stmt::Break | Stmt::Continue => {}
        }
    }

    /// An expression statement; `l = e` defines `l`.
    fn expr_stmt(&mut self, e: ExprId, env: &mut Env) {
        let f = self.f;
        if let ExprKind::Assign { lhs, rhs } = &f.exprs[e.0 as usize].kind
            && let ExprKind::Local(l) = f.exprs[lhs.0 as usize].kind
        {
            let w = self.writes_of_expr(*rhs);
            kill(env, &w);
            self.comparisons(*rhs, env);
            let d = if w.is_empty() && !self.addressed.contains(&l) { Def::Expr(*rhs, env.clone()) } else { Def::Unknown };
            set(env, l, d);
            return;
        }
        self.plain(e, env);
    }

    /// An expression whose writes are not followed.
    fn plain(&mut self, e: ExprId, env: &mut Env) {
        kill(env, &self.writes_of_expr(e));
        self.comparisons(e, env);
    }

    /// The counter of `for (k = a; k < b; k += c)` with constant bounds, a
    /// positive constant step, the counter compared as it is and written
    /// only by the step: its range in the body.
    fn counter_of(&self, init: &[Stmt], cond: ExprId, step: Option<ExprId>, body: &[Stmt]) -> Option<(LocalId, i128, i128)> {
        let f = self.f;
        let c = counted_loop(f, init, cond, step)?;
        let ExprKind::Binary { lhs, .. } = &f.exprs[cond.0 as usize].kind else { return None };
        let direct = matches!(&f.exprs[lhs.0 as usize].kind, ExprKind::Load(x) if matches!(f.exprs[x.0 as usize].kind, ExprKind::Local(l) if l == c.counter));
        let last = match c.op {
            BinOp::Lt => c.end - 1,
            BinOp::Le => c.end,
            _ => return None,
        };
        if !direct || self.addressed.contains(&c.counter) || self.writes_of_stmts(body).contains(&c.counter) || c.start > last {
            return None;
        }
        // The step never wraps (else the counter could come back below
        // its start).
        let (bits, signed) = self.int_type(f.locals[c.counter.0 as usize].ty.ty)?;
        let (min, max) = if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
        (c.start >= min && last.checked_add(c.by)? <= max).then_some((c.counter, c.start, last))
    }

    fn int_type(&self, t: TypeId) -> Option<(u32, bool)> {
        match self.g.kind(t) {
            TypeKind::Scalar(s) if !matches!(s, Scalar::Bool | Scalar::Half | Scalar::Float | Scalar::Double) => Some((self.g.scalar_bits(*s), super::expr::is_signed(*s))),
            _ => None,
        }
    }

    /// Records the comparisons in `e` that qualify.
    fn comparisons(&mut self, e: ExprId, env: &Env) {
        let mut found = Vec::new();
        deep(&self.f.exprs, e, &mut |x| {
            if matches!(&self.f.exprs[x.0 as usize].kind, ExprKind::Binary { op: BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne, .. }) {
                found.push(x);
            }
        });
        for c in found {
            if self.checks.len() < MAX_CHECKS {
                self.check(c, env);
            }
        }
    }

    fn check(&mut self, c: ExprId, env: &Env) {
        let f = self.f;
        let ExprKind::Binary { op, lhs, rhs, op_ty } = &f.exprs[c.0 as usize].kind else { return };
        let rel = match op {
            BinOp::Lt => Rel::Lt,
            BinOp::Le => Rel::Le,
            BinOp::Gt => Rel::Gt,
            BinOp::Ge => Rel::Ge,
            BinOp::Eq => Rel::Eq,
            BinOp::Ne => Rel::Ne,
            _ => return,
        };
        let Some((bits, signed)) = self.int_type(op_ty.ty) else { return };
        let (v, u, rel, t) = match (self.term(*lhs, env, 0), self.term(*rhs, env, 0)) {
            (Some(t), _) if self.bound(*rhs) => (*lhs, *rhs, rel, t),
            (_, Some(t)) if self.bound(*lhs) => (*rhs, *lhs, rel.flip(), t),
            _ => return,
        };
        if t.bits != bits {
            return;
        }
        let suffix = matches!(rel, Rel::Eq | Rel::Ne) || int_const(f, u).is_some_and(|k| k <= LOWER_BOUND_MAX);
        self.checks.push(Check { cmp: c, v, env: env.clone(), u, rel, signed, bits, span: t.span, small: t.small, suffix });
    }

    /// A uniform value the region does not change, computed without traps.
    fn bound(&self, e: ExprId) -> bool {
        let f = self.f;
        if !uniform_expr(f, e, &self.plan.uniform) || can_trap(f, e) {
            return false;
        }
        let mut reads_written = false;
        deep(&f.exprs, e, &mut |x| reads_written |= matches!(f.exprs[x.0 as usize].kind, ExprKind::Local(l) if self.writes.contains(&l) || self.addressed.contains(&l)));
        !reads_written
    }

    /// The range of a counter read by `e`.
    fn counter(&self, e: ExprId, env: &Env) -> Option<(i128, i128)> {
        let ExprKind::Load(inner) = &self.f.exprs[e.0 as usize].kind else { return None };
        let ExprKind::Local(l) = self.f.exprs[inner.0 as usize].kind else { return None };
        match env.get(&l) {
            Some(Def::Counter(lo, hi)) => Some((*lo, *hi)),
            _ => None,
        }
    }

    /// Does `e` move up by one with the x id (plus counters), wraps aside?
    ///
    /// Integer conversions and additions keep each step (in the id or a
    /// counter) +1 modulo 2 to the power of the narrowest width on the way
    /// (`bits`). Where that is the comparison's width, every step is +1 or
    /// a wrap down, in the signed as in the unsigned view. (A narrower
    /// type on the way could make a step a jump up: `(ulong)(short)x`
    /// where the `short` wraps.)
    fn term(&self, e: ExprId, env: &Env, depth: u32) -> Option<Term> {
        if depth > MAX_DEPTH {
            return None;
        }
        let f = self.f;
        let x = &f.exprs[e.0 as usize];
        match &x.kind {
            ExprKind::Convert { kind: ConvKind::IntResize { .. }, expr: inner } => {
                let (to_bits, _) = self.int_type(x.ty.ty)?;
                let mut t = self.term(*inner, env, depth + 1)?;
                t.bits = t.bits.min(to_bits);
                t.small &= to_bits >= 16;
                Some(t)
            }
            ExprKind::Load(inner) => {
                let ExprKind::Local(l) = f.exprs[inner.0 as usize].kind else { return None };
                if self.addressed.contains(&l) {
                    return None;
                }
                match env.get(&l) {
                    Some(Def::Expr(d, at)) => self.term(*d, at, depth + 1),
                    Some(_) => None,
                    None => self.plan.remat[l.0 as usize].and_then(|init| self.term(init, &Env::default(), depth + 1)),
                }
            }
            ExprKind::BuiltinCall { overload, args, .. } => {
                let id = matches!(overload.lowering, Lowering::WorkItem(WorkItemFn::LocalId | WorkItemFn::GlobalId)) && args.len() == 1 && int_const(f, args[0]) == Some(0);
                let small = matches!(overload.lowering, Lowering::WorkItem(WorkItemFn::LocalId));
                id.then_some(Term { span: 0, bits: self.int_type(x.ty.ty)?.0, small })
            }
            ExprKind::Binary { op: BinOp::Add, lhs, rhs, .. } => {
                let side = |a: ExprId, b: ExprId| {
                    let mut t = self.term(a, env, depth + 1)?;
                    t.small = false;
                    if !self.bound(b) {
                        let (lo, hi) = self.counter(b, env)?;
                        t.span += hi - lo;
                    }
                    (t.span < 1 << 40).then_some(t)
                };
                side(*lhs, *rhs).or_else(|| side(*rhs, *lhs))
            }
            ExprKind::Binary { op: BinOp::Sub, lhs, rhs, .. } => self.term(*lhs, env, depth + 1).filter(|_| self.bound(*rhs)).map(|t| Term { small: false, ..t }),
            _ => None,
        }
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The parts a region's work-items split into along x at the
    /// comparisons it makes between `v`, which moves up by one with the x
    /// id, and uniform bounds `u` (see [`Walk::term`]); `None` when it
    /// makes none.
    ///
    /// Each comparison is known on a prefix or a suffix of the group's x
    /// range. Let `v0` be `v` for the first work-item with every counter at
    /// its lowest, `s` the counters' total range.
    /// - Prefix: for ids below `u + k - v0 - s`, `v < u + k` for every
    ///   counter value. This needs no assumption about wraps: a sequence
    ///   moving up by one wraps only down (see [`Walk::term`]), and stays
    ///   below the bound after that; in the comparison's own type nothing
    ///   wraps below the end, the values fitting.
    /// - Suffix: for ids from `u + k - v0` on, `v >= u + k`, provided
    ///   nothing wraps in the group. Every step of the sequence (in the id
    ///   or a counter) is +1 or a wrap down, so there is no wrap anywhere
    ///   exactly when `v` for the last work-item with the counters at their
    ///   highest is `v0 + (size - 1) + s`, checked at group level. Where it
    ///   fails, the known part is empty.
    ///
    /// Bounds near zero (`xx < 0`, `lid == 0`, `x >= 2`) are known on the
    /// suffix, other bounds (sizes) on the prefix; the region's part where
    /// all are known is the intersection. The parts: before it (only with
    /// suffix claims) as written, the known range with the comparisons
    /// replaced by their values, and after it as written.
    ///
    /// When the region is only `if (… && c && …) …`, a part where a
    /// conjunct `c` is known false does nothing: the known part is left
    /// out, and the parts around it are emptied at run time where such a
    /// claim covers them. A tree reduction's steps (`if (lid < s)` with a
    /// barrier each) no longer visit the idle work-items. (Not when the
    /// region runs more after the statements, `tail`: see
    /// [`Gen::flush_region_then`].)
    pub(super) fn x_parts(&mut self, stmts: &[&'a Stmt], tail: bool) -> R<Option<Vec<XPart<'ctx>>>> {
        let Some(f) = self.current_function() else { return Ok(None) };
        let Some(plan) = self.fs().group.as_ref().map(|g| g.plan.clone()) else { return Ok(None) };
        // Where the function has group-level loops, the time goes into
        // their regions; one outside them runs once per work-item, and its
        // parts would be that many more loops for LLVM's loop passes
        // (047's final store was 13 % of its compile, a tree reduction's
        // load and final store 35 %, neither kernel faster for it).
        if self.fs().group.as_ref().is_some_and(|g| g.loops) && !self.in_group_loop() {
            return Ok(None);
        }
        let checks = {
            // Set in the region: written, or declared (initialised there).
            let mut writes = FxHashSet::default();
            let mut declared = Vec::new();
            for s in stmts {
                visit_stmt_deep(&f.exprs, s, &mut |e| writes.extend(write_target_of(&f.exprs, e)));
                super::regions::walk_decls(s, &mut declared);
            }
            writes.extend(declared);
            let addressed = super::regions::addressed_locals(&f.exprs);
            let mut w = Walk { g: self, f, plan: &plan, writes, addressed, checks: Vec::new(), gave_up: false };
            let mut env = Env::default();
            for s in stmts {
                w.stmt(s, &mut env);
            }
            if w.gave_up {
                return Ok(None);
            }
            w.checks
        };
        if checks.is_empty() {
            return Ok(None);
        }
        // The region alone is `if (c1 && c2 && …)` without `else`.
        let conjuncts = match stmts {
            [Stmt::If { cond, else_: None, .. }] if !tail => {
                let (mut out, mut todo) = (Vec::new(), vec![*cond]);
                while let Some(c) = todo.pop() {
                    match &f.exprs[c.0 as usize].kind {
                        ExprKind::Convert { kind: ConvKind::ToBool, expr } => todo.push(*expr),
                        ExprKind::Binary { op: BinOp::And, lhs, rhs, .. } => todo.extend([*lhs, *rhs]),
                        _ => out.push(c),
                    }
                }
                out
            }
            _ => Vec::new(),
        };
        let claim = |c: &Check| if c.suffix { c.rel.suffix_claim() } else { c.rel.prefix_claim() };
        let known_idle = checks.iter().any(|c| conjuncts.contains(&c.cmp) && !claim(c).1);
        let any_suffix = checks.iter().any(|c| c.suffix);
        // Suffix claims that hold without a check (the local id does not
        // wrap).
        let static_ok = checks.iter().all(|c| !c.suffix || c.small);
        // The part after the known one is always empty: without prefix
        // claims (the known part reaches the end), or in a lone `if` whose
        // only prefix claim is a comparison of the local id known true
        // before its bound and false from it.
        let prefix_claims: Vec<&Check> = checks.iter().filter(|c| !c.suffix).collect();
        let after_empty = static_ok
            && match prefix_claims.as_slice() {
                [] => true,
                [c] => c.small && conjuncts.contains(&c.cmp) && !c.rel.suffix_claim().1,
                _ => false,
            };

        // Group-level values: the bounds, then each `v` for the first
        // work-item (counters lowest) and, where a suffix claim needs it,
        // the last (counters highest). They are computed without wrapping:
        // in 64 bits where every comparison's type has at most 32 (the
        // edges below stay under 2^42 in magnitude: two 32-bit values, a
        // span under 2^40, the group's size under 2^13), else in 128 (LLVM's
        // analyses take several times as long over 128-bit arithmetic).
        let wide = if checks.iter().all(|c| c.bits <= 32) { self.ctx.i64_type() } else { self.ctx.i128_type() };
        let ext = |g: &mut Self, v: IntValue<'ctx>, signed: bool| -> R<IntValue<'ctx>> { Ok(if signed { g.b.build_int_s_extend_or_bit_cast(v, wide, "")? } else { g.b.build_int_z_extend_or_bit_cast(v, wide, "")? }) };
        let mut bounds = Vec::new();
        for c in &checks {
            let u = self.uniform_value(c.u)?.into_int_value();
            bounds.push(ext(self, u, c.signed)?);
        }
        let wi = self.wi()?;
        let group = self.group_ptr()?;
        let size = self.local_sizes(group, false)?[0];
        let mut firsts = Vec::new();
        for c in &checks {
            let v = self.x_value(f, &plan, &c.env, c.v, false, 0)?;
            firsts.push(ext(self, v, c.signed)?);
        }
        let x_slot = self.byte_offset(wi, 0)?;
        let i64t = self.ctx.i64_type();
        let last_id = self.b.build_int_sub(size, i64t.const_int(1, false), "")?;
        self.b.build_store(x_slot, last_id)?;
        let size_w = self.b.build_int_z_extend_or_bit_cast(size, wide, "")?;
        let steps = self.b.build_int_z_extend_or_bit_cast(last_id, wide, "")?;
        let mut no_wrap = Vec::new();
        for (i, c) in checks.iter().enumerate() {
            if c.small {
                no_wrap.push(Some(self.ctx.bool_type().const_int(1, false)));
                continue;
            }
            let needed = c.suffix || (conjuncts.contains(&c.cmp) && !c.rel.suffix_claim().1);
            if !needed {
                no_wrap.push(None);
                continue;
            }
            let v = self.x_value(f, &plan, &c.env, c.v, true, 0)?;
            let last = ext(self, v, c.signed)?;
            let moved = self.b.build_int_sub(last, firsts[i], "")?;
            let want = self.b.build_int_add(steps, wide.const_int(c.span as u64, false), "")?;
            no_wrap.push(Some(self.b.build_int_compare(IntPredicate::EQ, moved, want, "no.wrap")?));
        }
        self.b.build_store(x_slot, i64t.const_zero())?;

        // Each claim's edge: prefix `u + k - v0 - s`, suffix `u + k - v0`.
        let mut edges = Vec::new();
        for (i, c) in checks.iter().enumerate() {
            let (pk, _) = c.rel.prefix_claim();
            let (sk, _) = c.rel.suffix_claim();
            let pe = self.b.build_int_add(bounds[i], wide.const_int(pk as u64, false), "")?;
            let pe = self.b.build_int_sub(pe, firsts[i], "")?;
            let pe = self.b.build_int_sub(pe, wide.const_int(c.span as u64, false), "")?;
            let se = self.b.build_int_add(bounds[i], wide.const_int(sk as u64, false), "")?;
            let se = self.b.build_int_sub(se, firsts[i], "")?;
            edges.push((pe, se));
        }
        let max = |g: &mut Self, a: IntValue<'ctx>, b: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let gt = g.b.build_int_compare(IntPredicate::SGT, a, b, "")?;
            Ok(g.b.build_select(gt, a, b, "")?.into_int_value())
        };
        let min = |g: &mut Self, a: IntValue<'ctx>, b: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let lt = g.b.build_int_compare(IntPredicate::SLT, a, b, "")?;
            Ok(g.b.build_select(lt, a, b, "")?.into_int_value())
        };
        // The known range [lo, hi), within [0, size].
        let (mut lo, mut hi) = (wide.const_zero(), size_w);
        let mut ok = self.ctx.bool_type().const_int(1, false);
        for (i, c) in checks.iter().enumerate() {
            if c.suffix {
                lo = max(self, lo, edges[i].1)?;
                ok = self.b.build_and(ok, no_wrap[i].expect("suffix claims check for wraps"), "")?;
            } else {
                hi = min(self, hi, edges[i].0)?;
            }
        }
        lo = min(self, lo, size_w)?;
        hi = max(self, hi, lo)?;
        if any_suffix && !static_ok {
            // Something wraps: no known part.
            lo = self.b.build_select(ok, lo, wide.const_zero(), "")?.into_int_value();
            hi = self.b.build_select(ok, hi, wide.const_zero(), "")?.into_int_value();
        }
        // Parts of a lone `if` where a conjunct is known false do nothing.
        let (mut idle_before, mut idle_after) = (None, None);
        let either = |g: &mut Self, a: Option<IntValue<'ctx>>, b: IntValue<'ctx>| -> R<Option<IntValue<'ctx>>> { Ok(Some(match a { Some(a) => g.b.build_or(a, b, "")?, None => b })) };
        for (i, c) in checks.iter().enumerate() {
            if !conjuncts.contains(&c.cmp) {
                continue;
            }
            if !c.rel.prefix_claim().1 && any_suffix {
                let covers = self.b.build_int_compare(IntPredicate::SGE, edges[i].0, lo, "")?;
                idle_before = either(self, idle_before, covers)?;
            }
            if !c.rel.suffix_claim().1 && !after_empty {
                let covers = self.b.build_int_compare(IntPredicate::SLE, edges[i].1, hi, "")?;
                let covers = self.b.build_and(covers, no_wrap[i].expect("false suffix claims check for wraps"), "")?;
                idle_after = either(self, idle_after, covers)?;
            }
        }
        let narrow = |g: &mut Self, v: IntValue<'ctx>, name: &str| -> R<IntValue<'ctx>> { Ok(g.b.build_int_truncate_or_bit_cast(v, i64t, name)?) };
        let (lo, hi) = (narrow(self, lo, "x.lo")?, narrow(self, hi, "x.hi")?);
        let known: Rc<[(ExprId, bool)]> = checks.iter().map(|c| (c.cmp, claim(c).1)).collect();
        let mut parts = Vec::new();
        if any_suffix {
            let end = match idle_before {
                Some(idle) => self.b.build_select(idle, i64t.const_zero(), lo, "x.end.before")?.into_int_value(),
                None => lo,
            };
            parts.push(XPart { name: "before", start: None, end: Some(end), known: Rc::from([]) });
        }
        if !known_idle {
            parts.push(XPart { name: "known", start: any_suffix.then_some(lo), end: Some(hi), known });
        }
        if !after_empty {
            let start = match idle_after {
                Some(idle) => self.b.build_select(idle, size, hi, "x.start.after")?.into_int_value(),
                None => hi,
            };
            parts.push(XPart { name: "after", start: Some(start), end: None, known: Rc::from([]) });
        }
        Ok(Some(parts))
    }

    /// The value of `e` (which [`Walk::term`] follows) at group level: for
    /// the work-item whose x id is in the work-item struct, counters at
    /// their highest or lowest, locals by their definitions.
    fn x_value(&mut self, f: &'a hir::Function, plan: &Plan, env: &Env, e: ExprId, high: bool, depth: u32) -> R<IntValue<'ctx>> {
        if depth > MAX_DEPTH {
            return ice("a bound check's operand changed its form");
        }
        let expr = &f.exprs[e.0 as usize];
        match &expr.kind {
            ExprKind::Convert { kind: ConvKind::IntResize { signed }, expr: inner } => {
                let v = self.x_value(f, plan, env, *inner, high, depth + 1)?;
                let t = self.vty(expr.ty.ty)?;
                Ok(self.int_resize(v.into(), t, *signed).into_int_value())
            }
            ExprKind::Load(inner) if matches!(f.exprs[inner.0 as usize].kind, ExprKind::Local(_)) => {
                let ExprKind::Local(l) = f.exprs[inner.0 as usize].kind else { unreachable!() };
                match (env.get(&l), plan.remat[l.0 as usize]) {
                    (Some(Def::Expr(d, at)), _) => self.x_value(f, plan, at, *d, high, depth + 1),
                    (Some(Def::Counter(lo, hi)), _) => {
                        let t = self.vty(expr.ty.ty)?;
                        Ok(self.const_int(t, if high { *hi } else { *lo }).into_int_value())
                    }
                    (Some(Def::Unknown), _) => ice("a bound check's operand changed its form"),
                    (None, Some(init)) => self.x_value(f, plan, &Env::default(), init, high, depth + 1),
                    (None, None) => Ok(self.value(e)?.into_int_value()),
                }
            }
            ExprKind::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs, .. } => {
                let a = self.x_value(f, plan, env, *lhs, high, depth + 1)?;
                let b = self.x_value(f, plan, env, *rhs, high, depth + 1)?;
                Ok(if *op == BinOp::Add { self.b.build_int_add(a, b, "")? } else { self.b.build_int_sub(a, b, "")? })
            }
            _ => Ok(self.value(e)?.into_int_value()),
        }
    }
}
