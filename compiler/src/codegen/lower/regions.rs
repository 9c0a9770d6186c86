//! Work-group entries for kernels with barriers (and loops the group
//! runs in lockstep): region-based work-item loops (the approach of PoCL's
//! and Intel's CPU compilers), done on the structured typed program.
//!
//! The kernel body is lowered once more, for the whole group: statements
//! between barriers form a region, run inside a loop over the group's
//! work-items (x innermost), so code between barriers vectorises like a
//! barrier-free kernel. A statement that contains a barrier (an `if`, a
//! loop, a `switch`, a block), or that [`uniform`](super::uniform) plans
//! at group level, is lowered at group level: its condition is evaluated
//! for the first work-item (OpenCL requires it to be the same for all) and
//! its body lowered in the same way. Private variables used in more than
//! one region are kept per work-item (arrays indexed by the local linear
//! id; vectors lane by lane), so values live across barriers. A work-item
//! that returns early is marked done and skipped by the following
//! regions. Calls of synchronising functions are lowered into the
//! caller's group code; work-group functions are computed between
//! regions.
//!
//! The body is a kernel's or, for the entry of a block given to
//! `enqueue_kernel`, the block literal's (see [`GroupBody`]).
//!
//! Shapes this does not express (a barrier under a `goto` that leaves its
//! statement, a synchronising call under `?:`, `&&` or `||`) keep the
//! simple entry; the runtime then runs a thread per work-item (see
//! `FLAG_ITEM_THREADS`), or groups of one work-item where work-group
//! functions or async copies synchronise them.

use super::uniform::Plan;

/// Per-work-item storage is padded by this many: the widest chunk a
/// divergent loop runs (see [`chunk_for`]).
const CHUNK: u64 = 16;

/// Work-items a divergent loop runs together (see [`Gen::divergent_loop`]).
/// After vectorisation each per-work-item value of the chunk is one or two
/// 256-bit vectors of `float`, which LLVM keeps in registers across the
/// chunk's iterations. With AVX2's 16 registers that takes chunks of 8
/// (with 16, every value was reloaded and stored each iteration: Mandelbrot
/// 1.5x slower); AVX-512's 32 registers hold chunks of 16, two independent
/// dependency chains per iteration, which hide the latency of one
/// (Mandelbrot 1.85x faster than with 8 on a Sapphire Rapids host).
pub(super) fn chunk_for(opts: &crate::codegen::CodegenOptions) -> u64 {
    use crate::codegen::vecmath::{Isa, isas_for};
    let avx512 = opts.host_cpu && isas_for(&inkwell::targets::TargetMachine::get_host_cpu_features().to_string_lossy()).contains(&Isa::Avx512);
    if avx512 { 16 } else { 8 }
}
use super::{Gen, R, ice};
use crate::sema::hir::{self, ExprId, ExprKind, Init, LocalId, Stmt, Unroll};
use clc_builtins::functions::{AddrSpace, ArithOp, GnuOp, GroupOp, Lowering};
use inkwell::IntPredicate;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{BasicMetadataValueEnum, IntValue, PointerValue};

/// A body the region lowering lowers for a whole group: a function's
/// (a kernel's, or a synchronising function's it calls), or an enqueued
/// block literal's seen as a kernel (see `cpu_enqueue`). Only `params`,
/// `body` and `uniform_params` tell the two apart; everything else reads
/// the arenas of `func`.
pub(super) struct GroupBody<'a> {
    /// The function whose expression and local arenas the body is in (a
    /// block literal's enclosing function).
    pub func: &'a hir::Function,
    /// The locals bound where the group starts: a function's parameters;
    /// a block's captured variables, then its parameters.
    pub params: Vec<LocalId>,
    pub body: &'a [Stmt],
    /// Has each of `params` one value for the whole group, unless the body
    /// writes it (a kernel's arguments; a block's captures and `__local`
    /// pointers)?
    pub uniform_params: bool,
}

impl<'a> GroupBody<'a> {
    /// A function's own body.
    pub fn of(f: &'a hir::Function) -> Self {
        GroupBody { func: f, params: f.params.clone(), body: &f.body, uniform_params: f.kernel }
    }
}

/// The group-level lowering of a kernel.
pub(super) struct GroupMode<'ctx> {
    /// Work-items in the group.
    pub n: IntValue<'ctx>,
    /// The linear id of the work-item being run (inside a region); `None`
    /// at group level, which evaluates for work-item 0.
    pub index: Option<IntValue<'ctx>>,
    /// Per-work-item "returned" flags (`i8`).
    pub done: PointerValue<'ctx>,
    /// Has any work-item of the group returned (`i8`; the kernel's own
    /// frame only)? Regions in group-level loops test it once and run a
    /// copy without the per-work-item test while none has, which LLVM
    /// vectorises.
    pub any_done: Option<PointerValue<'ctx>>,
    /// Per-work-item storage of each private local, made on first use.
    pub arrays: Vec<Option<PointerValue<'ctx>>>,
    /// Where a `return` inside a region goes: the next work-item.
    pub next_item: Option<BasicBlock<'ctx>>,
    /// Work-group function calls (and calls of synchronising functions)
    /// already computed for the group: where the result is, and whether
    /// there is one per work-item.
    pub collectives: rustc_hash::FxHashMap<ExprId, (PointerValue<'ctx>, bool)>,
    /// Inside a synchronising function called from the kernel: where each
    /// work-item's return value goes, and the block after the call.
    pub ret_slot: Option<PointerValue<'ctx>>,
    pub exit: Option<BasicBlock<'ctx>>,
    /// Can a work-item return early here (else regions skip the flags)?
    pub returns: bool,
    /// Locals that need no per-work-item copy: used in one region only
    /// (each work-item defines them afresh there), or parameters never
    /// written (the same value for every work-item).
    pub scalar: Vec<bool>,
    /// What runs at group level, what is uniform, what regions recompute.
    pub plan: std::rc::Rc<Plan>,
    /// Inside a region: the block before its body, where recomputed
    /// locals are computed, and which of them are there already.
    pub remat_block: Option<BasicBlock<'ctx>>,
    pub remat_done: Vec<bool>,
    /// Vector locals kept lane by lane, one array per lane (see
    /// [`Gen::soa_local`]), their arrays, and the slot a region works on.
    pub soa: Vec<bool>,
    pub soa_arrays: Vec<Option<PointerValue<'ctx>>>,
    pub soa_slots: Vec<Option<PointerValue<'ctx>>>,
    /// In a region: the lane-by-lane locals it copied in (and copies back
    /// at its end).
    pub soa_live: Vec<LocalId>,
    /// For the region being emitted: where its x loop starts and ends,
    /// and the comparisons known for every work-item it runs, with their
    /// values, in the function whose expressions start at `known_in` (see
    /// [`Gen::x_parts`]).
    pub x_start: Option<IntValue<'ctx>>,
    pub x_end: Option<IntValue<'ctx>>,
    pub known: std::rc::Rc<[(ExprId, bool)]>,
    pub known_in: *const hir::Expr,
    /// The function has group-level loops (see [`Gen::has_group_loop`]).
    pub loops: bool,
}

impl<'ctx> GroupMode<'ctx> {
    /// A function's group mode at its start (at group level, nothing
    /// returned, nothing made yet).
    fn new(n: IntValue<'ctx>, done: PointerValue<'ctx>, plan: std::rc::Rc<Plan>, scalar: Vec<bool>, soa: Vec<bool>) -> Self {
        let locals = scalar.len();
        GroupMode {
            n,
            index: None,
            done,
            any_done: None,
            arrays: vec![None; locals],
            next_item: None,
            collectives: Default::default(),
            ret_slot: None,
            exit: None,
            scalar,
            returns: false,
            plan,
            remat_block: None,
            remat_done: vec![false; locals],
            soa,
            soa_arrays: vec![None; locals],
            soa_slots: vec![None; locals],
            soa_live: Vec::new(),
            x_start: None,
            x_end: None,
            known: std::rc::Rc::from([]),
            known_in: std::ptr::null(),
            loops: false,
        }
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// Can the region lowering express this kernel (or block)?
    pub(super) fn regions_can_express(&self, b: &GroupBody<'_>) -> bool {
        !b.body.iter().any(|s| self.stmt_expr_in_the_way(b.func, s)) && self.body_ok(b.func, b.body)
    }

    fn body_ok(&self, f: &hir::Function, body: &[Stmt]) -> bool {
        body.iter().all(|s| {
            if !self.stmt_syncs(f, s) {
                // A region (it may leave for an enclosing group-level
                // loop: see `region`), whose `goto`s stay inside it.
                return !self.has_group_call(f, s) && gotos_stay_inside(s);
            }
            if let Some(calls) = self.sync_calls_in_stmt(f, s) {
                // An expression statement or a declaration calling
                // synchronising functions the regions express, with
                // arguments that do not synchronise, outside `?:`, `&&`
                // and `||`.
                return calls.iter().all(|&(call, fid)| {
                    let callee = &self.program.functions[fid];
                    let args_plain = match &f.exprs[call.0 as usize].kind {
                        ExprKind::Call { args, .. } => args.iter().all(|a| !self.expr_syncs(f, *a)),
                        _ => false,
                    };
                    args_plain && !self.is_record(callee_ret(self, callee)) && self.regions_can_express(&GroupBody::of(callee))
                });
            }
            if self.has_group_call(f, s) {
                return false;
            }
            match s {
                // A barrier, or a statement using work-group functions.
                Stmt::Expr(_) | Stmt::Local { .. } => true,
                Stmt::Block(b) => self.body_ok(f, b),
                Stmt::If { then, else_, .. } => self.body_ok(f, then) && else_.as_ref().is_none_or(|e| self.body_ok(f, e)),
                Stmt::While { body, .. } | Stmt::DoWhile { body, .. } => self.body_ok(f, body),
                Stmt::For { init, body, .. } => init.iter().all(|s| !self.stmt_syncs(f, s)) && self.body_ok(f, body),
                // A returned value's work-group functions are computed
                // before it is stored (see `group_stmts`); calls of
                // synchronising functions there are not.
                Stmt::Return(Some(e)) => {
                    let (mut calls, mut ok) = (Vec::new(), true);
                    self.collect_sync_calls(f, *e, false, &mut calls, &mut ok);
                    ok && calls.is_empty()
                }
                // Uniform `break`/`continue` at group level are fine.
                Stmt::Break | Stmt::Continue | Stmt::Return(_) | Stmt::Case(_) => true,
                // A switch on a uniform value with barriers in its cases.
                Stmt::Switch { body, .. } => self.body_ok(f, body),
                _ => false,
            }
        })
    }

    /// Does a statement expression in `s` synchronise the group, or hold
    /// a `return`, `goto`, label, `break` or `continue`? The regions
    /// neither split an expression at a barrier nor see jumps inside one
    /// (the body keeps the simple entry).
    fn stmt_expr_in_the_way(&self, f: &hir::Function, s: &Stmt) -> bool {
        fn jumps(s: &Stmt) -> bool {
            matches!(s, Stmt::Return(_) | Stmt::Goto(_) | Stmt::Label(_) | Stmt::Break | Stmt::Continue) || s.children().any(jumps)
        }
        let mut found = false;
        visit_stmt_deep(&f.exprs, s, &mut |e| {
            if let ExprKind::StmtExpr { body, .. } = &f.exprs[e.0 as usize].kind {
                found |= body.iter().any(jumps) || self.expr_syncs(f, e);
            }
        });
        found
    }

    /// Is `s`, or a loop inside it, a loop run at group level (it
    /// synchronises, or the plan runs it so)?
    fn has_group_loop(&self, f: &hir::Function, s: &Stmt, plan: &Plan) -> bool {
        let group_loop = matches!(s, Stmt::For { .. } | Stmt::While { .. } | Stmt::DoWhile { .. }) && (plan.goes_group(s) || self.stmt_syncs(f, s));
        group_loop || s.children().any(|c| self.has_group_loop(f, c, plan))
    }

    /// Is the statement being emitted inside a group-level loop?
    pub(super) fn in_group_loop(&self) -> bool {
        self.fs().jumps.iter().any(|j| j.1.is_some())
    }

    /// Does the statement contain a barrier, a work-group function or a
    /// call of a synchronising function (what the region lowering handles
    /// at group level)?
    pub(super) fn stmt_syncs(&self, f: &hir::Function, s: &Stmt) -> bool {
        let mut found = stmt_syncs_in(&f.exprs, s);
        visit_stmt_deep(&f.exprs, s, &mut |e| {
            if let ExprKind::Call { func: Some(fid), .. } = &f.exprs[e.0 as usize].kind {
                found |= self.synchronises(fid.0 as usize);
            }
        });
        found
    }

    fn expr_syncs(&self, f: &hir::Function, e: ExprId) -> bool {
        self.stmt_syncs(f, &Stmt::Expr(e))
    }

    /// The calls of synchronising functions in an expression statement or
    /// a declaration's initializer (`f(…);`, `x = f(…) + g(…);`, `T x =
    /// 2 * f(…);`), innermost first; `None` when the statement is not one
    /// of those, calls none, or calls one where not every work-item
    /// evaluates it (under `?:`, `&&`, `||`, or in a block literal).
    fn sync_calls_in_stmt(&self, f: &hir::Function, s: &Stmt) -> Option<Vec<(ExprId, usize)>> {
        let root = match s {
            Stmt::Expr(e) | Stmt::Local { init: Some(Init::Expr(e)), .. } => *e,
            _ => return None,
        };
        let mut calls = Vec::new();
        let mut ok = true;
        self.collect_sync_calls(f, root, false, &mut calls, &mut ok);
        (ok && !calls.is_empty()).then_some(calls)
    }

    fn collect_sync_calls(&self, f: &hir::Function, e: ExprId, conditional: bool, calls: &mut Vec<(ExprId, usize)>, ok: &mut bool) {
        let mut children = Vec::new();
        let mut cond_children = Vec::new();
        match &f.exprs[e.0 as usize].kind {
            ExprKind::Cond { cond, then, else_ } => {
                children.push(*cond);
                cond_children.extend([*then, *else_]);
            }
            ExprKind::Binary { op: crate::parse::ast::BinOp::And | crate::parse::ast::BinOp::Or, lhs, rhs, .. } => {
                children.push(*lhs);
                cond_children.push(*rhs);
            }
            ExprKind::BlockLiteral { .. } => {
                if self.expr_syncs(f, e) {
                    *ok = false;
                }
                return;
            }
            _ => {
                // Every other expression evaluates all its operands.
                let mut direct = Vec::new();
                deep_children(&f.exprs, e, &mut direct);
                children = direct;
            }
        }
        for c in children {
            self.collect_sync_calls(f, c, conditional, calls, ok);
        }
        for c in cond_children {
            self.collect_sync_calls(f, c, true, calls, ok);
        }
        if let ExprKind::Call { func: Some(fid), .. } = &f.exprs[e.0 as usize].kind {
            if self.synchronises(fid.0 as usize) {
                if conditional {
                    *ok = false;
                }
                calls.push((e, fid.0 as usize));
            }
        }
    }

    /// Does the statement synchronise the group in a way the regions do
    /// not express (calls of synchronising functions, work-group functions
    /// the regions do not compute, pipe reservations under `?:`, `&&` or
    /// `||`)? Pipes' work-group commits do not synchronise on the CPU: a
    /// work-item's packets are committed when the launch ends, so a commit
    /// is a no-op any work-item makes alone.
    fn has_group_call(&self, f: &hir::Function, s: &Stmt) -> bool {
        if reserves_conditionally(&f.exprs, s) {
            return true;
        }
        let mut found = false;
        visit_stmt_deep(&f.exprs, s, &mut |e| match &f.exprs[e.0 as usize].kind {
            ExprKind::BuiltinCall { overload, .. } => {
                found |= matches!(overload.lowering, Lowering::WorkGroup(op) if !collective(op) && !matches!(op, GroupOp::CommitReadPipe | GroupOp::CommitWritePipe));
            }
            ExprKind::Call { func: Some(fid), .. } => found |= self.synchronises(fid.0 as usize),
            _ => {}
        });
        found
    }

    /// Lowers a kernel's (or an enqueued block's) body for its whole group
    /// into the work-group entry being built (the builder is in its entry
    /// block; `plan` is the body's [`Gen::group_plan`], `wi` the work-item
    /// struct, `args` the values of `b.params`: a record's or an array's
    /// a pointer to it).
    pub(super) fn group_body(&mut self, b: &GroupBody<'a>, plan: Plan, wi: PointerValue<'ctx>, args: &[BasicMetadataValueEnum<'ctx>]) -> R<()> {
        let i64t = self.ctx.i64_type();
        let gp = self.byte_offset(wi, 24)?;
        let g = self.b.build_load(self.ptr_ty(AddrSpace::Private), gp, "group")?.into_pointer_value();
        let sizes = self.local_sizes(g, false)?;
        let n = self.b.build_int_mul(sizes[0], sizes[1], "")?;
        let n = self.b.build_int_mul(n, sizes[2], "nwi")?;
        let padded = self.b.build_int_add(n, self.ctx.i64_type().const_int(CHUNK, false), "")?;
        let done = self.b.build_array_alloca(self.ctx.i8_type(), padded, "done")?;
        self.b.build_memset(done, 1, self.ctx.i8_type().const_zero(), padded).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
        let any_done = self.b.build_alloca(self.ctx.i8_type(), "any.done")?;
        self.b.build_store(any_done, self.ctx.i8_type().const_zero())?;
        let plan = std::rc::Rc::new(plan);
        let scalar = self.scalar_locals(b, &plan);
        let soa = self.soa_locals(b, &plan, &scalar);
        if soa.contains(&true) && self.module.get_global_metadata_size(super::SCALARIZE_MD) == 0 {
            let node = self.ctx.metadata_node(&[]);
            let _ = self.module.add_global_metadata(super::SCALARIZE_MD, &node);
        }
        let mut mode = GroupMode::new(n, done, plan, scalar, soa);
        mode.any_done = Some(any_done);
        mode.returns = has_return(b.body);
        mode.loops = b.body.iter().any(|s| self.has_group_loop(b.func, s, &mode.plan));
        self.fs_mut().group = Some(mode);
        // The entry block keeps the group's storage (allocated before its
        // terminator, after `n`); the body starts here.
        let body = self.ctx.append_basic_block(self.fs().llfn, "body");
        self.b.build_unconditional_branch(body)?;
        self.b.position_at_end(body);
        // Parameters: never-written ones once for the group, the others
        // in every work-item's copy.
        let params: Vec<(LocalId, BasicMetadataValueEnum<'ctx>)> = b.params.iter().copied().zip(args.iter().copied()).collect();
        let scalar = self.fs().group.as_ref().map(|g| g.scalar.clone()).unwrap_or_default();
        let (uniform, varying): (Vec<_>, Vec<_>) = params.into_iter().partition(|(p, _)| scalar.get(p.0 as usize).copied().unwrap_or(false));
        for (p, v) in &uniform {
            let t = self.local_info(*p).ty.ty;
            let slot = self.local_ptr(*p)?;
            if self.copied_whole(t) {
                self.copy_object(slot, v.into_pointer_value(), t)?;
            } else {
                self.store_value(slot, t, basic(*v)?, false)?;
            }
        }
        let params = varying;
        if !params.is_empty() {
            self.region(&mut |g: &mut Self| {
                for (p, v) in &params {
                    let t = g.local_info(*p).ty.ty;
                    let slot = g.local_ptr(*p)?;
                    if g.copied_whole(t) {
                        g.copy_object(slot, v.into_pointer_value(), t)?;
                    } else {
                        let bv = basic(*v)?;
                        g.store_value(slot, t, bv, false)?;
                    }
                }
                Ok(())
            })?;
        }
        let _ = i64t;
        self.group_stmts(b.body)?;
        Ok(())
    }

    pub(super) fn load_i64(&mut self, base: PointerValue<'ctx>, off: u64) -> R<IntValue<'ctx>> {
        let p = self.byte_offset(base, off)?;
        Ok(self.b.build_load(self.ctx.i64_type(), p, "")?.into_int_value())
    }

    /// Statements at group level: runs of barrier-free statements become
    /// regions.
    fn group_stmts(&mut self, body: &'a [Stmt]) -> R<()> {
        let f_exprs = self.fs().exprs;
        let cur = self.current_function();
        let mut run: Vec<&'a Stmt> = Vec::new();
        let plan = self.fs().group.as_ref().map(|g| g.plan.clone()).unwrap_or_default();
        let mut i = 0;
        while let Some(s) = body.get(i) {
            i += 1;
            let syncs = match cur {
                Some(f) => self.stmt_syncs(f, s) || plan.goes_group(s),
                None => stmt_syncs_in(f_exprs, s),
            };
            if !syncs && !matches!(s, Stmt::Break | Stmt::Continue | Stmt::Return(_) | Stmt::Case(_)) {
                run.push(s);
                continue;
            }
            // A statement whose work-group functions are flat, with the
            // ones after it computed together (see `collective_batch`): the
            // arguments stored at the end of the run before, the values
            // for the group, then the statements start the next run,
            // shared with the plain statements after them.
            if let Some(f) = cur
                && self.flat_collectives(f, s, &plan).is_some()
            {
                let n = self.collective_batch(f, &body[i - 1..], &plan);
                let batch: Vec<&'a Stmt> = body[i - 1..i - 1 + n].iter().collect();
                i += n - 1;
                self.batch_collectives(&mut run, &batch)?;
                run.extend(batch);
                continue;
            }
            self.flush_region(&mut run)?;
            match s {
                // A call of a synchronising function: the callee lowered for
                // the group, then the statement starts the next run (it
                // reads the call's results, computed already, like any
                // value; nothing in it synchronises any more).
                Stmt::Expr(_) | Stmt::Local { .. } if cur.and_then(|f| self.sync_calls_in_stmt(f, s)).is_some() => {
                    let Some(calls) = cur.and_then(|f| self.sync_calls_in_stmt(f, s)) else { return ice("a synchronising call disappeared") };
                    for (call, fid) in calls {
                        self.group_call(call, fid)?;
                    }
                    // Work-group functions elsewhere in the statement.
                    self.collectives_of(s)?;
                    run.push(s);
                }
                // Other statements with work-group functions (nested ones,
                // async copies): their values for the group first, then the
                // statement starts the next run.
                Stmt::Expr(_) | Stmt::Local { .. } if !is_plain_barrier(f_exprs, s) => {
                    self.collectives_of(s)?;
                    run.push(s);
                }
                // The barrier itself: the regions around it are the
                // synchronisation; memory is ordered by the loops' ends.
                Stmt::Expr(_) => {}
                Stmt::Block(b) => self.group_stmts(b)?,
                Stmt::If { cond, then, else_ } => {
                    let c = self.uniform_truth(*cond)?;
                    let fnv = self.fs().llfn;
                    let tb = self.ctx.append_basic_block(fnv, "g.then");
                    let eb = self.ctx.append_basic_block(fnv, "g.else");
                    let end = self.ctx.append_basic_block(fnv, "g.end");
                    self.b.build_conditional_branch(c, tb, eb)?;
                    self.b.position_at_end(tb);
                    self.group_stmts(then)?;
                    self.jump_if_open(end)?;
                    self.b.position_at_end(eb);
                    if let Some(e) = else_ {
                        self.group_stmts(e)?;
                    }
                    self.jump_if_open(end)?;
                    self.b.position_at_end(end);
                }
                Stmt::While { cond, body, .. } | Stmt::For { cond: Some(cond), body, .. } if plan.divergent.contains_key(&(s as *const Stmt)) => {
                    let (init, step, meta): (&'a [Stmt], _, _) = match s {
                        Stmt::For { init, step, meta, .. } => (init, *step, *meta),
                        Stmt::While { meta, .. } => (&[], None, *meta),
                        _ => return ice("a divergent loop that is no `for` or `while`"),
                    };
                    let written = plan.divergent[&(s as *const Stmt)].clone();
                    let confined = plan.confined.get(&(s as *const Stmt)).cloned().unwrap_or_default();
                    self.divergent_loop(init, *cond, step, body, &written, &confined, meta)?
                }
                Stmt::While { cond, body, meta } => self.group_loop(&[], Some(*cond), None, body, false, false, *meta)?,
                Stmt::DoWhile { body, cond, meta } => self.group_loop(&[], Some(*cond), None, body, true, false, *meta)?,
                Stmt::For { init, cond, step, body, meta } => {
                    let counted = plan.counted.contains(&(s as *const Stmt));
                    self.group_loop(init, *cond, *step, body, false, counted, *meta)?
                }
                Stmt::Break | Stmt::Continue => {
                    let Some((brk, cont)) = self.group_jumps() else { return ice("break outside a loop") };
                    let to = if matches!(s, Stmt::Break) { brk } else { cont };
                    self.b.build_unconditional_branch(to)?;
                    self.continue_in_new_block("g.after.jump");
                }
                Stmt::Switch { cond, cases, default, body } => {
                    // On work-item 0's value (uniform by OpenCL's rules).
                    let v = self.uniform_value(*cond)?.into_int_value();
                    let end = self.ctx.append_basic_block(self.fs().llfn, "g.sw.end");
                    self.switch_head(v, cases, *default, end)?;
                    self.fs_mut().jumps.push((end, None));
                    let r = self.group_stmts(body);
                    self.fs_mut().jumps.pop();
                    r?;
                    self.jump_if_open(end)?;
                    self.b.position_at_end(end);
                }
                Stmt::Case(id) => {
                    let Some(bb) = self.fs().cases.get(id).copied() else { return ice("a case label outside its switch") };
                    self.jump_if_open(bb)?;
                    self.b.position_at_end(bb);
                }
                Stmt::Return(v) => {
                    // At group level every work-item returns: from the
                    // kernel, or from a synchronising function to its call.
                    let (slot, exit) = self.fs().group.as_ref().map(|g| (g.ret_slot, g.exit)).unwrap_or((None, None));
                    match exit {
                        Some(exit) => {
                            if let (Some(slot), Some(e)) = (slot, v) {
                                let e = *e;
                                // `return work_group_reduce_add(x);`: the
                                // value for the group first (each
                                // work-item's alone was the old result).
                                self.collectives_of(&Stmt::Expr(e))?;
                                self.region(&mut |g: &mut Self| {
                                    let val = g.value(e)?;
                                    g.store_ret(slot, val)
                                })?;
                            }
                            self.b.build_unconditional_branch(exit)?;
                        }
                        None => {
                            self.b.build_return(None)?;
                        }
                    }
                    self.continue_in_new_block("g.after.return");
                }
                _ => return ice("a group-level statement the region lowering does not express"),
            }
        }
        self.flush_region(&mut run)
    }

    fn jump_if_open(&mut self, to: BasicBlock<'ctx>) -> R<()> {
        if self.current_block_open() {
            self.b.build_unconditional_branch(to)?;
        }
        Ok(())
    }

    /// A loop run at group level (with a barrier in its body, or one the
    /// plan runs in lockstep): its condition evaluated for work-item 0, its
    /// init and step in regions — or once for the group where they only
    /// set uniform counters (`counted`).
    ///
    /// Of the loop's unrolling hint only `nounroll` (and its equivalents)
    /// is kept: the loop's body is now whole loops over the group's
    /// work-items, and copies of those are not what `#pragma unroll` asks
    /// for (each would be vectorised on its own; a lockstep loop of 64
    /// iterations unrolled whole made 64 vector loops).
    fn group_loop(&mut self, init: &'a [Stmt], cond: Option<ExprId>, step: Option<ExprId>, body: &'a [Stmt], do_while: bool, counted: bool, meta: hir::LoopMeta) -> R<()> {
        if counted {
            self.at_group_level()?;
            self.stmts(init)?;
        } else {
            let mut init_run: Vec<&'a Stmt> = init.iter().collect();
            self.flush_region(&mut init_run)?;
        }
        let fnv = self.fs().llfn;
        let head = self.ctx.append_basic_block(fnv, "g.loop.cond");
        let bb = self.ctx.append_basic_block(fnv, "g.loop.body");
        let latch = self.ctx.append_basic_block(fnv, "g.loop.step");
        let end = self.ctx.append_basic_block(fnv, "g.loop.end");
        let before = self.b.get_insert_block();
        self.b.build_unconditional_branch(if do_while { bb } else { head })?;
        self.b.position_at_end(head);
        match cond {
            Some(c) => {
                let c = self.uniform_truth(c)?;
                self.b.build_conditional_branch(c, bb, end)?;
            }
            None => {
                self.b.build_unconditional_branch(bb)?;
            }
        }
        self.b.position_at_end(bb);
        self.fs_mut().jumps.push((end, Some(latch)));
        let r = self.group_stmts(body);
        self.fs_mut().jumps.pop();
        r?;
        self.jump_if_open(latch)?;
        self.b.position_at_end(latch);
        if let Some(s) = step {
            if counted {
                self.at_group_level()?;
                self.rvalue(s)?;
            } else {
                self.region(&mut |g: &mut Self| g.rvalue(s).map(|_| ()))?;
            }
        }
        self.b.build_unconditional_branch(head)?;
        self.unroll_hint(if do_while { bb } else { head }, before, only_nounroll(meta));
        self.b.position_at_end(end);
        Ok(())
    }

    /// A loop whose condition differs between work-items and whose body
    /// only computes private values (see `uniform::Plan::divergent`), run
    /// for chunks of neighbouring work-items of a row at a time ([`chunk_for`]):
    /// each chunk iterates while any of its work-items' conditions holds;
    /// in each iteration every work-item of the chunk runs the body and
    /// the step, and keeps the locals they write (`written`) only where
    /// its condition held (a work-item whose condition failed keeps its
    /// values, so its condition stays false). With no branch per
    /// work-item and a constant count, LLVM turns the chunk's iteration
    /// into straight vector code whose loads and stores of per-work-item
    /// values leave the loop: what a whole-function vectoriser makes of
    /// the loop. Work-items past the row's end (the last chunk) and ones
    /// that returned take part with a false condition; per-work-item
    /// storage is padded by a chunk for them.
    ///
    /// Locals in `confined` (see `uniform::Plan::confined`) die with the
    /// loop: they are kept only for lanes past the row's end (whose
    /// storage is the next row's), not by the condition, so their updates
    /// leave the critical path of the iteration (Mandelbrot's `zr`, `zi`: the `select`s waited
    /// for the condition, which waits for the updates). A work-item stays
    /// out once its condition failed through its `live` flag instead; the
    /// condition of one that is out may be computed from poison (its
    /// confined values run on), which `select` on the flag drops.
    ///
    /// Of the loop's unrolling hint only `nounroll` is kept, as in
    /// [`Gen::group_loop`]: on the chunk's iterations.
    fn divergent_loop(&mut self, init: &'a [Stmt], cond: ExprId, step: Option<ExprId>, body: &'a [Stmt], written: &[LocalId], confined: &[LocalId], meta: hir::LoopMeta) -> R<()> {
        let mut init_run: Vec<&'a Stmt> = init.iter().collect();
        self.flush_region(&mut init_run)?;
        let fnv = self.fs().llfn;
        let (i8t, i64t) = (self.ctx.i8_type(), self.ctx.i64_type());
        let wi = self.fs().wi.ok_or_else(|| super::InternalError { function: None, message: "a region without a work-item".into() })?;
        let gp = self.byte_offset(wi, 24)?;
        let g = self.b.build_load(self.ptr_ty(AddrSpace::Private), gp, "")?.into_pointer_value();
        let sizes = self.local_sizes(g, false)?;
        let any = self.at_entry(|g| Ok(g.b.build_alloca(i8t, "d.any")?))?;
        let rows = self.b.build_int_mul(sizes[1], sizes[2], "")?;
        let block = |g: &mut Self, name: &str| g.ctx.append_basic_block(fnv, name);
        let (row_head, row_body, chunk_head, chunk_body, lane_head, lane_body, lane_exit, chunk_next, row_next, end) =
            (block(self, "d.rows"), block(self, "d.row"), block(self, "d.chunks"), block(self, "d.chunk"), block(self, "d.lanes"), block(self, "d.lane"), block(self, "d.lanes.end"), block(self, "d.chunk.next"), block(self, "d.row.next"), block(self, "d.end"));
        let before = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(row_head)?;
        // Rows: (row, y, z), y wrapping into z.
        self.b.position_at_end(row_head);
        let [row_p, y_p, z_p] = [self.b.build_phi(i64t, "d.row")?, self.b.build_phi(i64t, "d.y")?, self.b.build_phi(i64t, "d.z")?];
        for p in [&row_p, &y_p, &z_p] {
            p.add_incoming(&[(&i64t.const_zero(), before)]);
        }
        let [row, y, z] = [row_p, y_p, z_p].map(|p| p.as_basic_value().into_int_value());
        let more = self.b.build_int_compare(IntPredicate::ULT, row, rows, "")?;
        self.b.build_conditional_branch(more, row_body, end)?;
        self.b.position_at_end(row_body);
        for (dim, v) in [(1u64, y), (2, z)] {
            let slot = self.byte_offset(wi, 8 * dim)?;
            self.b.build_store(slot, v)?;
        }
        let row_base = self.b.build_int_mul(row, sizes[0], "")?;
        self.b.build_unconditional_branch(chunk_head)?;
        // Chunks along x.
        self.b.position_at_end(chunk_head);
        let xc_p = self.b.build_phi(i64t, "d.x0")?;
        xc_p.add_incoming(&[(&i64t.const_zero(), row_body)]);
        let xc = xc_p.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(IntPredicate::ULT, xc, sizes[0], "")?;
        let fill = block(self, "d.live");
        self.b.build_conditional_branch(more, fill, row_next)?;
        // Which of the chunk's work-items take part: inside the row and
        // not returned. Kept in a constant-size array, so that LLVM may
        // read it unconditionally in the vectorised iteration (`done`,
        // of the group's size, it may not).
        let (returns, done) = self.fs().group.as_ref().map(|g| (g.returns, g.done)).ok_or_else(|| super::InternalError { function: None, message: "no group mode".into() })?;
        let live_t = i8t.array_type(self.chunk as u32);
        let live = self.at_entry(|g| Ok(g.b.build_alloca(live_t, "d.live")?))?;
        self.b.position_at_end(fill);
        let fill_lane = self.b.build_phi(i64t, "")?;
        fill_lane.add_incoming(&[(&i64t.const_zero(), chunk_head)]);
        let fl = fill_lane.as_basic_value().into_int_value();
        let fx = self.b.build_int_add(xc, fl, "")?;
        let inside = self.b.build_int_compare(IntPredicate::ULT, fx, sizes[0], "")?;
        let inside = if returns {
            let flin = self.b.build_int_add(row_base, fx, "")?;
            // SAFETY: `flin` < n + the chunk <= n + CHUNK, the padded length of `done`.
            let p = unsafe { self.b.build_in_bounds_gep(i8t, done, &[flin], "")? };
            let d = self.b.build_load(i8t, p, "")?.into_int_value();
            let not_done = self.b.build_int_compare(IntPredicate::EQ, d, i8t.const_zero(), "")?;
            self.b.build_and(inside, not_done, "")?
        } else {
            inside
        };
        // SAFETY: `fl` < the chunk, the array's length.
        let lp = unsafe { self.b.build_in_bounds_gep(live_t, live, &[i64t.const_zero(), fl], "")? };
        self.b.build_store(lp, self.b.build_int_z_extend(inside, i8t, "")?)?;
        let fl1 = self.b.build_int_add(fl, i64t.const_int(1, false), "")?;
        fill_lane.add_incoming(&[(&fl1, fill)]);
        let more = self.b.build_int_compare(IntPredicate::ULT, fl1, i64t.const_int(self.chunk, false), "")?;
        self.b.build_conditional_branch(more, fill, chunk_body)?;
        // One iteration of the chunk.
        self.b.position_at_end(chunk_body);
        self.b.build_store(any, i8t.const_zero())?;
        // Keeps this block (else empty) from being merged into the lanes'
        // loop header, which would leave one loop with two back edges that
        // LLVM does not vectorise.
        let side = inkwell::intrinsics::Intrinsic::find("llvm.sideeffect").and_then(|i| i.get_declaration(&self.module, &[])).ok_or_else(|| super::InternalError { function: None, message: "no llvm.sideeffect".into() })?;
        self.b.build_call(side, &[], "")?;
        self.b.build_unconditional_branch(lane_head)?;
        self.b.position_at_end(lane_head);
        let lane_p = self.b.build_phi(i64t, "d.lane")?;
        lane_p.add_incoming(&[(&i64t.const_zero(), chunk_body)]);
        let lane = lane_p.as_basic_value().into_int_value();
        let x = self.b.build_int_add(xc, lane, "")?;
        let slot = self.byte_offset(wi, 0)?;
        self.b.build_store(slot, x)?;
        let lin = self.b.build_int_add(row_base, x, "lin")?;
        // SAFETY: `lane` < the chunk, the array's length.
        let lp = unsafe { self.b.build_in_bounds_gep(live_t, live, &[i64t.const_zero(), lane], "")? };
        let v = self.b.build_load(i8t, lp, "")?.into_int_value();
        let valid = self.b.build_int_compare(IntPredicate::NE, v, i8t.const_zero(), "")?;
        // The lane's body (recomputed locals and lane-by-lane copies go in
        // the block before it, as in a region).
        self.b.build_unconditional_branch(lane_body)?;
        self.b.position_at_end(lane_body);
        let pre = lane_body;
        let start = block(self, "d.lane.body");
        self.b.build_unconditional_branch(start)?;
        self.b.position_at_end(start);
        let saved = self.fs_mut().group.as_mut().map(|g| (g.index, g.next_item, std::mem::take(&mut g.soa_live)));
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.index = Some(lin);
            g.next_item = None;
            g.remat_block = Some(pre);
            g.remat_done.iter_mut().for_each(|d| *d = false);
        }
        let r = (|| -> R<()> {
            let mut olds = Vec::new();
            for &l in written {
                let p = self.local_ptr(l)?;
                let t = self.local_info(l).ty.ty;
                olds.push((p, t, self.load_value(p, t, false)?, confined.contains(&l)));
            }
            let ct = self.expr_info(cond).ty.ty;
            let c = self.value(cond)?;
            let c = self.is_nonzero(c, ct)?.into_int_value();
            let c = self.b.build_select(valid, c, self.ctx.bool_type().const_zero(), "")?.into_int_value();
            if !confined.is_empty() {
                self.b.build_store(lp, self.b.build_int_z_extend(c, i8t, "")?)?;
            }
            self.stmts(body)?;
            if let Some(s) = step {
                self.rvalue(s)?;
            }
            // A lane past the row's end shares its storage with the next
            // row's work-items: it keeps even its confined values.
            let in_row = self.b.build_int_compare(IntPredicate::ULT, x, sizes[0], "")?;
            for (p, t, old, confined) in olds {
                let new = self.load_value(p, t, false)?;
                let v = self.b.build_select(if confined { in_row } else { c }, new, old, "")?;
                self.store_value(p, t, v, false)?;
            }
            let a = self.b.build_load(i8t, any, "")?.into_int_value();
            let cz = self.b.build_int_z_extend(c, i8t, "")?;
            let a = self.b.build_or(a, cz, "")?;
            self.b.build_store(any, a)?;
            Ok(())
        })();
        let live = match (self.fs_mut().group.as_mut(), saved) {
            (Some(g), Some((i, n, outer))) => {
                g.index = i;
                g.next_item = n;
                g.remat_block = None;
                std::mem::replace(&mut g.soa_live, outer)
            }
            _ => Vec::new(),
        };
        r?;
        for l in live {
            self.soa_copy(l, lin, false)?;
        }
        let lane_end = self.b.get_insert_block().expect("positioned");
        let next_lane = self.b.build_int_add(lane, i64t.const_int(1, false), "")?;
        lane_p.add_incoming(&[(&next_lane, lane_end)]);
        let more = self.b.build_int_compare(IntPredicate::ULT, next_lane, i64t.const_int(self.chunk, false), "")?;
        self.b.build_conditional_branch(more, lane_head, lane_exit)?;
        // Again while any work-item of the chunk went on.
        self.b.position_at_end(lane_exit);
        let a = self.b.build_load(i8t, any, "")?.into_int_value();
        let again = self.b.build_int_compare(IntPredicate::NE, a, i8t.const_zero(), "")?;
        self.b.build_conditional_branch(again, chunk_body, chunk_next)?;
        self.unroll_hint(chunk_body, Some(fill), only_nounroll(meta));
        self.b.position_at_end(chunk_next);
        let next_xc = self.b.build_int_add(xc, i64t.const_int(self.chunk, false), "")?;
        xc_p.add_incoming(&[(&next_xc, chunk_next)]);
        self.b.build_unconditional_branch(chunk_head)?;
        // The next row.
        self.b.position_at_end(row_next);
        let one = i64t.const_int(1, false);
        let next_row = self.b.build_int_add(row, one, "")?;
        let y1 = self.b.build_int_add(y, one, "")?;
        let wrap = self.b.build_int_compare(IntPredicate::EQ, y1, sizes[1], "")?;
        let ny = self.b.build_select(wrap, i64t.const_zero(), y1, "")?.into_int_value();
        let nz = self.b.build_int_add(z, self.b.build_int_z_extend(wrap, i64t, "")?, "")?;
        row_p.add_incoming(&[(&next_row, row_next)]);
        y_p.add_incoming(&[(&ny, row_next)]);
        z_p.add_incoming(&[(&nz, row_next)]);
        self.b.build_unconditional_branch(row_head)?;
        self.b.position_at_end(end);
        Ok(())
    }

    /// The innermost group-level `break` target, and `continue`'s (the
    /// innermost loop's: a switch has none).
    fn group_jumps(&self) -> Option<(BasicBlock<'ctx>, BasicBlock<'ctx>)> {
        group_jump_targets(&self.fs().jumps)
    }

    /// A condition evaluated for work-item 0 (uniform by OpenCL's rules).
    fn uniform_truth(&mut self, cond: ExprId) -> R<IntValue<'ctx>> {
        let t = self.expr_info(cond).ty.ty;
        let v = self.uniform_value(cond)?;
        Ok(self.is_nonzero(v, t)?.into_int_value())
    }

    /// A value computed for work-item 0 (uniform by OpenCL's rules).
    pub(super) fn uniform_value(&mut self, cond: ExprId) -> R<inkwell::values::BasicValueEnum<'ctx>> {
        self.collectives_of(&Stmt::Expr(cond))?;
        self.at_group_level()?;
        self.value(cond)
    }

    /// Evaluates what follows for work-item 0 (its ids zero).
    fn at_group_level(&mut self) -> R<()> {
        let wi = self.fs().wi.ok_or_else(|| super::InternalError { function: None, message: "group mode without a work-item".into() })?;
        for k in 0..3 {
            let p = self.byte_offset(wi, 8 * k)?;
            self.b.build_store(p, self.ctx.i64_type().const_zero())?;
        }
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.index = None;
        }
        Ok(())
    }

    fn flush_region(&mut self, run: &mut Vec<&'a Stmt>) -> R<()> {
        self.flush_region_then(run, None)
    }

    /// Emits the run of statements `run` (emptying it) as a region, with
    /// `tail` run for every work-item after them; a region of the tail
    /// alone where the statements do nothing.
    fn flush_region_then(&mut self, run: &mut Vec<&'a Stmt>, mut tail: Option<&mut dyn FnMut(&mut Self) -> R<()>>) -> R<()> {
        let stmts = std::mem::take(run);
        // Declarations without initializers, and of locals every region
        // recomputes, do nothing here.
        let declarations_only = stmts.is_empty() || self.fs().group.as_ref().is_some_and(|g| stmts.iter().all(|s| declares_only(&g.plan, s)));
        if declarations_only {
            return match tail {
                Some(t) => self.region(t),
                None => Ok(()),
            };
        }
        // The parts along x where comparisons are known (see `x_parts`).
        let parts = match self.x_parts(&stmts, tail.is_some())? {
            Some(parts) => parts,
            None => vec![super::xsplit::XPart { name: "all", start: None, end: None, known: std::rc::Rc::from([]) }],
        };
        let exprs = self.fs().exprs.as_ptr();
        let mut r = Ok(());
        for part in parts {
            // The parts around the known one (usually empty: a border's)
            // are skipped as a whole when empty. (Testing the known part,
            // usually the whole group, as well made a tiled transpose 20 %
            // slower: 30 -> 37 ms.)
            let skip = if part.start.is_some() || part.end.is_some() {
                let fnv = self.fs().llfn;
                let (run_bb, after) = (self.ctx.append_basic_block(fnv, &format!("x.{}", part.name)), self.ctx.append_basic_block(fnv, &format!("x.{}.end", part.name)));
                if part.name == "known" {
                    self.b.build_unconditional_branch(run_bb)?;
                } else {
                    let group = self.group_ptr()?;
                    let size = self.local_sizes(group, false)?[0];
                    let start = part.start.unwrap_or_else(|| self.ctx.i64_type().const_zero());
                    let some = self.b.build_int_compare(IntPredicate::ULT, start, part.end.unwrap_or(size), "")?;
                    self.b.build_conditional_branch(some, run_bb, after)?;
                }
                self.b.position_at_end(run_bb);
                Some(after)
            } else {
                None
            };
            if let Some(g) = self.fs_mut().group.as_mut() {
                (g.x_start, g.x_end, g.known, g.known_in) = (part.start, part.end, part.known, exprs);
            }
            r = self.region(&mut |g: &mut Self| {
                for s in &stmts {
                    g.stmt_in_region(s)?;
                }
                match tail.as_mut() {
                    Some(t) => t(g),
                    None => Ok(()),
                }
            });
            if r.is_err() {
                break;
            }
            if let Some(after) = skip {
                self.b.build_unconditional_branch(after)?;
                self.b.position_at_end(after);
            }
        }
        if let Some(g) = self.fs_mut().group.as_mut() {
            (g.x_start, g.x_end, g.known) = (None, None, std::rc::Rc::from([]));
        }
        r
    }

    fn stmt_in_region(&mut self, s: &'a Stmt) -> R<()> {
        // Loops and switches inside a region are the work-item's own.
        self.stmts(std::slice::from_ref(s))
    }

    /// Emits `body` for every work-item of the group that has not
    /// returned: the work-item loops (rows, then x innermost).
    fn region(&mut self, body: &mut dyn FnMut(&mut Self) -> R<()>) -> R<()> {
        let (returns, any_done) = self.fs().group.as_ref().map(|g| (g.returns, g.any_done)).unwrap_or((false, None));
        let (true, Some(any_done), Some(_)) = (returns, any_done, self.group_jumps()) else { return self.region_once(body) };
        // In a group-level loop (where the time goes): a copy for while no
        // work-item has returned, without the test of its flag.
        let fnv = self.fs().llfn;
        let (some, none, join) = (self.ctx.append_basic_block(fnv, "r.some.done"), self.ctx.append_basic_block(fnv, "r.none.done"), self.ctx.append_basic_block(fnv, "r.join"));
        let flag = self.b.build_load(self.ctx.i8_type(), any_done, "")?.into_int_value();
        let any = self.b.build_int_compare(IntPredicate::NE, flag, self.ctx.i8_type().const_zero(), "")?;
        self.b.build_conditional_branch(any, some, none)?;
        self.b.position_at_end(none);
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.returns = false;
        }
        let r = self.region_once(body);
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.returns = true;
        }
        r?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(some);
        self.region_once(body)?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        Ok(())
    }

    fn region_once(&mut self, body: &mut dyn FnMut(&mut Self) -> R<()>) -> R<()> {
        let fnv = self.fs().llfn;
        let wi = self.fs().wi.ok_or_else(|| super::InternalError { function: None, message: "a region without a work-item".into() })?;
        let gp = self.byte_offset(wi, 24)?;
        let g = self.b.build_load(self.ptr_ty(AddrSpace::Private), gp, "")?.into_pointer_value();
        let sizes = self.local_sizes(g, false)?;
        let (x_start, x_end) = self.fs().group.as_ref().map_or((None, None), |g| (g.x_start, g.x_end));
        let (levels, ids, row) = self.open_item_loops(wi, &sizes, x_start, x_end)?;
        // The linear id: (z * ly + y) * lx + x.
        let t = self.b.build_int_mul(row, sizes[0], "")?;
        let lin = self.b.build_int_add(t, ids[0], "lin")?;
        let next = self.ctx.append_basic_block(fnv, "r.next");
        // Recomputed locals go in a block of their own before the body
        // (and before the test below: they are pure, and LLVM vectorises
        // them better unconditional).
        let pre = self.b.get_insert_block().expect("positioned");
        let start = self.ctx.append_basic_block(fnv, "r.start");
        self.b.build_unconditional_branch(start)?;
        self.b.position_at_end(start);
        let returns = self.fs().group.as_ref().is_some_and(|g| g.returns);
        if returns {
            // Work-items that returned are skipped (without early returns
            // there is nothing to test, and the loop vectorises).
            let run = self.ctx.append_basic_block(fnv, "r.run");
            let done_ptr = {
                let done = self.fs().group.as_ref().map(|g| g.done).ok_or_else(|| super::InternalError { function: None, message: "no group mode".into() })?;
                // SAFETY: `lin` < the group's size, the length of `done`.
                unsafe { self.b.build_in_bounds_gep(self.ctx.i8_type(), done, &[lin], "")? }
            };
            let d = self.b.build_load(self.ctx.i8_type(), done_ptr, "")?.into_int_value();
            let is_done = self.b.build_int_compare(IntPredicate::NE, d, self.ctx.i8_type().const_zero(), "")?;
            self.b.build_conditional_branch(is_done, next, run)?;
            self.b.position_at_end(run);
        }
        let saved = self.fs().group.as_ref().map(|g| (g.index, g.next_item));
        let outer_live = self.fs_mut().group.as_mut().map(|g| std::mem::take(&mut g.soa_live));
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.index = Some(lin);
            g.next_item = Some(next);
            g.remat_block = Some(pre);
            g.remat_done.iter_mut().for_each(|d| *d = false);
        }
        // Loops inside the region are the work-item's: its jumps. A
        // `break`/`continue` that leaves the region for the group-level
        // loop around it ends the work-item's part of the region and
        // records which (uniform by OpenCL's rules: every work-item takes
        // it, or the loop's barrier would diverge); after the region the
        // group takes it.
        let outer = self.group_jumps();
        let jumps = std::mem::take(&mut self.fs_mut().jumps);
        let leave = match outer {
            Some(_) => {
                let i8t = self.ctx.i8_type();
                let flag = self.at_entry(|g| {
                    let a = g.b.build_alloca(i8t, "r.leave")?;
                    g.b.build_store(a, i8t.const_zero())?;
                    Ok(a)
                })?;
                let here = self.b.get_insert_block().expect("positioned");
                let brk = self.ctx.append_basic_block(fnv, "r.break");
                let cont = self.ctx.append_basic_block(fnv, "r.continue");
                for (bb, kind) in [(brk, 1u64), (cont, 2)] {
                    self.b.position_at_end(bb);
                    self.b.build_store(flag, i8t.const_int(kind, false))?;
                    self.b.build_unconditional_branch(next)?;
                }
                self.b.position_at_end(here);
                // `continue` inside a switch of the region skips to the
                // region's own continue only when no loop of the region
                // is closer: the region's loops push their own targets.
                self.fs_mut().jumps.push((brk, Some(cont)));
                Some(flag)
            }
            None => None,
        };
        let r = body(self);
        self.fs_mut().jumps = jumps;
        if let (Some(g), Some((i, n))) = (self.fs_mut().group.as_mut(), saved) {
            g.index = i;
            g.next_item = n;
            g.remat_block = None;
        }
        r?;
        if self.current_block_open() {
            self.b.build_unconditional_branch(next)?;
        }
        self.b.position_at_end(next);
        // Lane-by-lane locals the region used go back to their arrays
        // (every work-item passes here, also one skipped as returned).
        let live = self.fs_mut().group.as_mut().map(|g| std::mem::replace(&mut g.soa_live, outer_live.unwrap_or_default())).unwrap_or_default();
        for l in live {
            self.soa_copy(l, lin, false)?;
        }
        self.close_item_loops(levels)?;
        if let (Some(flag), Some((brk, cont))) = (leave, outer) {
            let i8t = self.ctx.i8_type();
            let kind = self.b.build_load(i8t, flag, "")?.into_int_value();
            self.b.build_store(flag, i8t.const_zero())?;
            let go_on = self.ctx.append_basic_block(fnv, "r.after");
            let cases = [(i8t.const_int(1, false), brk), (i8t.const_int(2, false), cont)];
            self.b.build_switch(kind, go_on, &cases)?;
            self.b.position_at_end(go_on);
        }
        Ok(())
    }

    /// Computes the work-group function calls in `s` for the whole group
    /// (where they are flat, [`Gen::batch_collectives`] does it with less):
    /// async copies once for the group; then, in rounds, the calls whose
    /// arguments hold no call still to compute (all of them, unless calls
    /// are nested) store every work-item's argument in one region, and
    /// each is combined at group level. A call nested in another's
    /// argument is computed in an earlier round than it, so that the
    /// outer argument reads its value.
    fn collectives_of(&mut self, s: &Stmt) -> R<()> {
        let exprs = self.fs().exprs;
        let mut calls = Vec::new();
        let mut copies = Vec::new();
        visit_stmt_here(exprs, s, &mut |e| {
            if let ExprKind::BuiltinCall { overload, args, .. } = &exprs[e.0 as usize].kind {
                match overload.lowering {
                    Lowering::WorkGroup(op) if collective(op) => calls.push((e, op, args.clone())),
                    Lowering::AsyncCopy { strided } => copies.push((e, Some(strided), args.clone())),
                    Lowering::WaitGroupEvents => copies.push((e, None, args.clone())),
                    _ => {}
                }
            }
        });
        for (e, strided, args) in copies {
            if self.fs().group.as_ref().is_some_and(|g| g.collectives.contains_key(&e)) {
                continue;
            }
            // The copy, once for the group (its arguments are the same for
            // every work-item), done by the time the call returns: waiting
            // has nothing left to wait for.
            let t = self.expr_info(e).ty.ty;
            let slot = match strided {
                Some(strided) => {
                    self.async_copy(strided, &args)?;
                    let et = self.vty(t)?;
                    let slot = self.entry_array(et, self.ctx.i64_type().const_int(1, false), "event")?;
                    self.b.build_store(slot, et.const_zero())?;
                    Some(slot)
                }
                None => None,
            };
            if let Some(g) = self.fs_mut().group.as_mut() {
                match slot {
                    Some(slot) => g.collectives.insert(e, (slot, false)),
                    None => g.collectives.insert(e, (g.done, false)),
                };
            }
        }
        calls.retain(|(e, ..)| !self.fs().group.as_ref().is_some_and(|g| g.collectives.contains_key(e)));
        while !calls.is_empty() {
            let pending: Vec<ExprId> = calls.iter().map(|c| c.0).collect();
            let (ready, later): (Vec<_>, Vec<_>) = calls.into_iter().partition(|(e, _, args)| {
                let mut nested = false;
                for a in args {
                    deep(exprs, *a, &mut |x| nested |= x != *e && pending.contains(&x));
                }
                !nested
            });
            if ready.is_empty() {
                return ice("work-group function calls nested in each other");
            }
            let stored = self.store_collective_args(&ready)?;
            self.combine_collectives(&ready, &stored)?;
            calls = later;
        }
        Ok(())
    }

    /// How many statements from `body[0]` (a statement with work-group
    /// functions) have their work-group functions computed together: their
    /// arguments stored in one region, then combined (see
    /// [`Gen::batch_collectives`]), after which they all join the next run.
    ///
    /// That evaluates a later statement's arguments before the earlier
    /// statements (each work-item runs the earlier ones only in the run
    /// after), which is exact where nothing the earlier statements do can
    /// change them: every statement but the last is a declaration whose
    /// initializer is quiet (see [`Gen::quiet`]), so all it changes is its
    /// own local; a later statement's arguments do not read the locals
    /// declared before it in the batch; and every statement's calls are
    /// flat (see [`Gen::flat_collectives`]: quiet arguments, which the
    /// earlier statements' initializers cannot see changed either, and no
    /// call nested in another's arguments, which needs rounds of its own).
    /// Otherwise the batch is the one statement.
    pub(super) fn collective_batch(&self, f: &hir::Function, body: &[Stmt], plan: &Plan) -> usize {
        if body.first().is_none_or(|s| self.flat_collectives(f, s, plan).is_none()) {
            return 1;
        }
        let mut declared = Vec::new();
        let mut n = 1;
        while let Some(next) = body.get(n) {
            let Stmt::Local { local, init: Some(Init::Expr(e)) } = &body[n - 1] else { break };
            if !self.quiet(&f.exprs, *e) {
                break;
            }
            declared.push(*local);
            let Some(calls) = self.flat_collectives(f, next, plan) else { break };
            let mut reads_declared = false;
            for c in calls {
                if let ExprKind::BuiltinCall { args, .. } = &f.exprs[c.0 as usize].kind {
                    for a in args {
                        deep(&f.exprs, *a, &mut |x| reads_declared |= matches!(f.exprs[x.0 as usize].kind, ExprKind::Local(l) if declared.contains(&l)));
                    }
                }
            }
            if reads_declared {
                break;
            }
            n += 1;
        }
        n
    }

    /// The work-group function calls of an expression statement or a
    /// declaration with an expression initializer whose only synchronising
    /// calls are work-group functions the regions compute, none nested in
    /// another's arguments, all arguments quiet; `None` for other
    /// statements.
    fn flat_collectives(&self, f: &hir::Function, s: &Stmt, plan: &Plan) -> Option<Vec<ExprId>> {
        let (Stmt::Expr(root) | Stmt::Local { init: Some(Init::Expr(root)), .. }) = s else { return None };
        if plan.goes_group(s) {
            return None;
        }
        let mut calls = Vec::new();
        let mut other = false;
        deep_here(&f.exprs, *root, &mut |e| match &f.exprs[e.0 as usize].kind {
            ExprKind::BuiltinCall { overload, .. } => match overload.lowering {
                Lowering::WorkGroup(op) if collective(op) => calls.push(e),
                Lowering::WorkGroup(_) | Lowering::Barrier(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents => other = true,
                _ => {}
            },
            ExprKind::Call { func: Some(fid), .. } => other |= self.synchronises(fid.0 as usize),
            _ => {}
        });
        if other || calls.is_empty() {
            return None;
        }
        for &c in &calls {
            let ExprKind::BuiltinCall { args, .. } = &f.exprs[c.0 as usize].kind else { return None };
            let mut nested = false;
            for a in args {
                deep(&f.exprs, *a, &mut |x| nested |= calls.contains(&x));
            }
            if nested || !args.iter().all(|a| self.quiet(&f.exprs, *a)) {
                return None;
            }
        }
        Some(calls)
    }

    /// Does evaluating `e` change nothing but what its work-group function
    /// calls compute: no assignment, `++`/`--`, call of a user function or
    /// block, volatile access, or builtin other than pure ones (math
    /// without pointer arguments, conversions, work-item queries, loads)?
    pub(super) fn quiet(&self, exprs: &[hir::Expr], e: ExprId) -> bool {
        let mut quiet = true;
        deep(exprs, e, &mut |x| {
            quiet &= match &exprs[x.0 as usize].kind {
                ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } | ExprKind::Call { .. } | ExprKind::CallValue { .. } | ExprKind::BlockLiteral { .. } | ExprKind::StmtExpr { .. } => false,
                ExprKind::Load(lv) => !exprs[lv.0 as usize].ty.quals.is_volatile,
                ExprKind::BuiltinCall { overload, args, .. } => match overload.lowering {
                    Lowering::WorkItem(_) | Lowering::Dot | Lowering::Relational(_) | Lowering::Convert { .. } | Lowering::AsType | Lowering::VecStep | Lowering::VLoad { .. } | Lowering::Shuffle | Lowering::Shuffle2 | Lowering::AddrSpaceCast(_) | Lowering::GetFence => true,
                    // `frexp`, `modf`, `sincos`, … store through a pointer.
                    Lowering::Ext(_) => args.iter().all(|a| !matches!(self.kind(exprs[a.0 as usize].ty.ty), crate::sema::types::TypeKind::Pointer(_))),
                    Lowering::WorkGroup(op) => collective(op),
                    Lowering::Gnu(op) => !matches!(op, GnuOp::Unreachable | GnuOp::Trap | GnuOp::DebugTrap | GnuOp::MemCopy { .. } | GnuOp::MemSet),
                    _ => false,
                },
                _ => true,
            }
        });
        quiet
    }

    /// Computes the work-group functions of `batch` (see
    /// [`Gen::collective_batch`]; their calls flat) for the group: each
    /// work-item stores all their arguments at the end of the run before
    /// them, `run` (emitted here: in its region, or in a region of their
    /// own where it does nothing), then each call is combined.
    ///
    /// A work-item evaluates its arguments after its own earlier
    /// statements, as written; other work-items' statements of the run may
    /// not have run yet, but nothing synchronises the group between them
    /// and a work-group function's arguments, so an argument reading
    /// another work-item's writes there is a data race in the source.
    fn batch_collectives(&mut self, run: &mut Vec<&'a Stmt>, batch: &[&'a Stmt]) -> R<()> {
        let exprs = self.fs().exprs;
        let mut calls = Vec::new();
        for s in batch {
            visit_stmt_deep(exprs, s, &mut |e| {
                if let ExprKind::BuiltinCall { overload, args, .. } = &exprs[e.0 as usize].kind
                    && let Lowering::WorkGroup(op) = overload.lowering
                    && collective(op)
                {
                    calls.push((e, op, args.clone()));
                }
            });
        }
        let arrays = self.collective_arrays(&calls)?;
        self.flush_region_then(run, Some(&mut |g: &mut Self| g.store_collective_args_here(&calls, &arrays)))?;
        let arrays: Vec<_> = arrays.into_iter().map(|(a, _)| a).collect();
        self.combine_collectives(&calls, &arrays)
    }

    /// An array for every work-item's argument of each call (in the entry
    /// block), and whether the call stores its argument there: where every
    /// argument is [quiet](Gen::quiet), calls whose arguments compute the
    /// same value ([`same_value`]: `work_group_reduce_add(x)`,
    /// `work_group_scan_inclusive_max(x)`, …) share the first one's array,
    /// which the others do not store again. One array read by every pass
    /// where there were one per call: the group's loops hold fewer address
    /// streams (loop strength reduction's cost grows fast with them) and
    /// each work-item stores its value once.
    fn collective_arrays(&mut self, calls: &[(ExprId, GroupOp, Vec<ExprId>)]) -> R<Vec<(PointerValue<'ctx>, bool)>> {
        let (n, _) = self.group_n()?;
        let exprs = self.fs().exprs;
        let mut firsts = Vec::new();
        for (_, _, args) in calls {
            let Some(&a) = args.first() else { return ice("a work-group function without arguments") };
            firsts.push(a);
        }
        let share = firsts.iter().all(|&a| self.quiet(exprs, a));
        let mut arrays: Vec<(PointerValue<'ctx>, bool)> = Vec::new();
        for (i, &a) in firsts.iter().enumerate() {
            let earlier = if share { firsts[..i].iter().position(|&b| same_value(exprs, a, b)) } else { None };
            match earlier {
                Some(j) => arrays.push((arrays[j].0, false)),
                None => {
                    let lt = self.vty(self.expr_info(a).ty.ty)?;
                    arrays.push((self.entry_array(lt, n, "wg.arg")?, true));
                }
            }
        }
        Ok(arrays)
    }

    /// Every work-item's argument of each call, stored in one region into
    /// the arrays of [`Gen::collective_arrays`], which it returns.
    fn store_collective_args(&mut self, calls: &[(ExprId, GroupOp, Vec<ExprId>)]) -> R<Vec<PointerValue<'ctx>>> {
        let arrays = self.collective_arrays(calls)?;
        self.region(&mut |g: &mut Self| g.store_collective_args_here(calls, &arrays))?;
        Ok(arrays.into_iter().map(|(a, _)| a).collect())
    }

    /// Inside a region: stores the work-item's argument of each call that
    /// has its own array in `arrays` (see [`Gen::collective_arrays`]).
    fn store_collective_args_here(&mut self, calls: &[(ExprId, GroupOp, Vec<ExprId>)], arrays: &[(PointerValue<'ctx>, bool)]) -> R<()> {
        for ((_, _, args), &(vals, stores)) in calls.iter().zip(arrays) {
            if stores {
                self.store_collective_arg(args[0], vals)?;
            }
        }
        Ok(())
    }

    /// Inside a region: stores the work-item's value of a work-group
    /// function's argument `arg` into its place of `vals`.
    fn store_collective_arg(&mut self, arg: ExprId, vals: PointerValue<'ctx>) -> R<()> {
        let lt = self.vty(self.expr_info(arg).ty.ty)?;
        let v = self.value(arg)?;
        let i = self.fs().group.as_ref().and_then(|gm| gm.index).unwrap_or_else(|| self.ctx.i64_type().const_zero());
        // SAFETY: `i` < the group's size.
        let p = unsafe { self.b.build_in_bounds_gep(lt, vals, &[i], "")? };
        self.b.build_store(p, v)?;
        Ok(())
    }

    /// The values of work-group function calls for the group, from every
    /// work-item's argument in `arrays` (one per call, see
    /// [`Gen::collective_arrays`]), computed at group level and recorded
    /// for the statements that read them (see [`Gen::collective_value`]):
    /// a broadcast loads its work-item's value; the others are passes over
    /// the group in local-id order, made together: one loop for integer
    /// reductions, any and all (which LLVM vectorises), one for the rest
    /// (scans, which it does not, and float sums, which it may not
    /// reorder). Each loop costs compile time: ten calls in a row made ten
    /// loops.
    fn combine_collectives(&mut self, calls: &[(ExprId, GroupOp, Vec<ExprId>)], arrays: &[PointerValue<'ctx>]) -> R<()> {
        let (n, sizes) = self.group_n()?;
        let mut passes: [Vec<Fold<'ctx>>; 2] = [Vec::new(), Vec::new()];
        for ((call, op, args), &vals) in calls.iter().zip(arrays) {
            let Some(&a0) = args.first() else { return ice("a work-group function without arguments") };
            let at = self.expr_info(a0).ty.ty;
            let lt = self.vty(at)?;
            let rt = self.vty(self.expr_info(*call).ty.ty)?;
            let per_wi = matches!(op, GroupOp::ScanInclusive(_) | GroupOp::ScanExclusive(_));
            let out = if per_wi { self.entry_array(rt, n, "wg.scan")? } else { self.entry_array(rt, self.ctx.i64_type().const_int(1, false), "wg.result")? };
            if let Some(g) = self.fs_mut().group.as_mut() {
                g.collectives.insert(*call, (out, per_wi));
            }
            let elem = self.elem_scalar(at);
            let float = elem.is_some_and(super::expr::is_float);
            let signed = elem.is_some_and(super::expr::is_signed);
            let init = match *op {
                GroupOp::Broadcast => {
                    // The work-item named by the (uniform) local ids,
                    // evaluated at group level.
                    self.at_group_level()?;
                    let mut lid = Vec::new();
                    for &a in &args[1..] {
                        let v = self.value(a)?;
                        lid.push(self.int_resize(v, self.ctx.i64_type().into(), false).into_int_value());
                    }
                    let mut idx = *lid.last().unwrap_or(&self.ctx.i64_type().const_zero());
                    for k in (0..lid.len().saturating_sub(1)).rev() {
                        idx = self.b.build_int_mul(idx, sizes[k], "")?;
                        idx = self.b.build_int_add(idx, lid[k], "")?;
                    }
                    let in_range = self.b.build_int_compare(IntPredicate::ULT, idx, n, "")?;
                    let idx = self.b.build_select(in_range, idx, self.ctx.i64_type().const_zero(), "")?.into_int_value();
                    // SAFETY: `idx` < n.
                    let p = unsafe { self.b.build_in_bounds_gep(lt, vals, &[idx], "")? };
                    let v = self.b.build_load(lt, p, "")?;
                    self.b.build_store(out, v)?;
                    continue;
                }
                GroupOp::ReserveReadPipe | GroupOp::ReserveWritePipe => {
                    // One reservation for the group (`cpu_pipes.rs`), of
                    // the pipe work-item 0 passed (`vals`) and the packet
                    // count evaluated at group level (uniform, as OpenCL
                    // requires), made when the group reaches the call;
                    // every work-item reads its id.
                    let Some(&count) = args.get(1) else { return ice("a pipe reservation without a packet count") };
                    let pipe = self.b.build_load(lt, vals, "")?.into_pointer_value();
                    self.at_group_level()?;
                    let n = self.value(count)?;
                    let id = self.group_pipe_reserve(*op, pipe, n)?;
                    self.b.build_store(out, id)?;
                    continue;
                }
                GroupOp::All => self.const_int(lt, 1),
                GroupOp::Any => self.const_int(lt, 0),
                GroupOp::Reduce(a) | GroupOp::ScanInclusive(a) | GroupOp::ScanExclusive(a) => self.identity(a, lt, float, signed),
                _ => return ice("a work-group function without a combining operator"),
            };
            let vectorises = !per_wi && !float;
            passes[usize::from(!vectorises)].push(Fold { op: *op, at, lt, rt, vals, out, per_wi, float, signed, init });
        }
        for (k, folds) in passes.iter().enumerate() {
            if !folds.is_empty() {
                self.fold_pass(n, folds, k == 0)?;
            }
        }
        Ok(())
    }

    /// One sequential pass over the group's `n` work-items, in local-id
    /// order, combining each fold's values (`vectorises`: whether LLVM can
    /// vectorise the pass, see [`Gen::once_per_group`]).
    fn fold_pass(&mut self, n: IntValue<'ctx>, folds: &[Fold<'ctx>], vectorises: bool) -> R<()> {
        let fnv = self.fs().llfn;
        let pre = self.b.get_insert_block().expect("positioned");
        let head = self.ctx.append_basic_block(fnv, "wg.head");
        let body = self.ctx.append_basic_block(fnv, "wg.body");
        let exit = self.ctx.append_basic_block(fnv, "wg.exit");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let i64t = self.ctx.i64_type();
        let iv = self.b.build_phi(i64t, "i")?;
        iv.add_incoming(&[(&i64t.const_zero(), pre)]);
        let mut accs = Vec::new();
        for f in folds {
            let acc = self.b.build_phi(f.lt, "acc")?;
            acc.add_incoming(&[(&f.init, pre)]);
            accs.push(acc);
        }
        let ivv = iv.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(IntPredicate::ULT, ivv, n, "")?;
        self.b.build_conditional_branch(more, body, exit)?;
        self.b.position_at_end(body);
        let mut nexts = Vec::new();
        for (f, acc) in folds.iter().zip(&accs) {
            let accv = acc.as_basic_value();
            // SAFETY: `ivv` < n.
            let p = unsafe { self.b.build_in_bounds_gep(f.lt, f.vals, &[ivv], "")? };
            let x = self.b.build_load(f.lt, p, "")?;
            let next = match f.op {
                GroupOp::All | GroupOp::Any => {
                    let nz = self.is_nonzero(x, f.at)?;
                    let nz = self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMZExt, nz, f.lt);
                    let o = if f.op == GroupOp::All { inkwell::llvm_sys::LLVMOpcode::LLVMAnd } else { inkwell::llvm_sys::LLVMOpcode::LLVMOr };
                    self.binop(o, accv, nz)
                }
                GroupOp::Reduce(a) | GroupOp::ScanInclusive(a) | GroupOp::ScanExclusive(a) => self.combine(a, accv, x, f.float, f.signed)?,
                _ => accv,
            };
            if f.per_wi {
                // SAFETY: `ivv` < n.
                let q = unsafe { self.b.build_in_bounds_gep(f.rt, f.out, &[ivv], "")? };
                let v = if matches!(f.op, GroupOp::ScanExclusive(_)) { accv } else { next };
                self.b.build_store(q, v)?;
            }
            nexts.push(next);
        }
        let inc = self.b.build_int_add(ivv, i64t.const_int(1, false), "")?;
        let latch = self.b.get_insert_block().expect("positioned");
        iv.add_incoming(&[(&inc, latch)]);
        for (acc, next) in accs.iter().zip(&nexts) {
            acc.add_incoming(&[(next, latch)]);
        }
        let back = self.b.build_unconditional_branch(head)?;
        self.once_per_group(back, vectorises);
        self.b.position_at_end(exit);
        for (f, acc) in folds.iter().zip(&accs) {
            if !f.per_wi {
                let accv = acc.as_basic_value();
                let v = self.int_resize(accv, f.rt, false);
                let v = if v.get_type() == f.rt { v } else { accv };
                self.b.build_store(f.out, v)?;
            }
        }
        Ok(())
    }

    /// Marks the loop whose back edge is `back` `llvm.loop.unroll.runtime.
    /// disable`: a pass over a group's values runs once per group, where
    /// LLVM's runtime unrolling (a copy of the body and a remainder loop)
    /// saves nothing worth its compile time (softmax's two float
    /// reductions: about 10 % of the kernel's).
    pub(super) fn no_runtime_unroll(&self, back: inkwell::values::InstructionValue<'ctx>) {
        self.loop_hints(back, None);
    }

    /// Marks a pass over the group's values (see [`Gen::fold_pass`]) as
    /// [`Gen::no_runtime_unroll`] does, and tells the loop vectoriser what
    /// is worth its work for a loop that runs once per group:
    /// - a pass that vectorises (`vectorises`) gets
    ///   `llvm.loop.interleave.count` 1: one vector loop, where LLVM made
    ///   four interleaved copies of the body and, for the iterations they
    ///   leave, a vector loop of half the width before the scalar one
    ///   (043's five integer folds: 32.8M instructions of LLVM's time in
    ///   the compile, 28.5M with one vector loop; optimised and generated
    ///   alone by `opt` and `llc`, 50M and 26M);
    /// - the other (scans, float sums in order) gets
    ///   `llvm.loop.vectorize.enable` false: it does not vectorise, and
    ///   the vectoriser need not find that out again.
    ///
    /// [`super::super::split`]'s estimate of LLVM's work reads these back.
    fn once_per_group(&self, back: inkwell::values::InstructionValue<'ctx>, vectorises: bool) {
        self.loop_hints(back, Some(vectorises));
    }

    /// The loop properties of [`Gen::no_runtime_unroll`] and (with
    /// `group_pass`, whether it vectorises) [`Gen::once_per_group`] on the
    /// loop whose back edge is `back`.
    fn loop_hints(&self, back: inkwell::values::InstructionValue<'ctx>, group_pass: Option<bool>) {
        use crate::codegen::llvm::{LOOP_INTERLEAVE_COUNT, LOOP_NO_RUNTIME_UNROLL, LOOP_VECTORIZE_ENABLE};
        let mut props = vec![(LOOP_NO_RUNTIME_UNROLL, None)];
        match group_pass {
            Some(true) => props.push((LOOP_INTERLEAVE_COUNT, Some(self.ctx.i32_type().const_int(1, false)))),
            Some(false) => props.push((LOOP_VECTORIZE_ENABLE, Some(self.ctx.bool_type().const_zero()))),
            None => {}
        }
        self.set_loop_properties(&[back], &props, None);
    }

    /// The identity of a combining operator: 0, or the type's largest or
    /// smallest value (infinities for floats).
    fn identity(&mut self, a: ArithOp, t: inkwell::types::BasicTypeEnum<'ctx>, float: bool, signed: bool) -> inkwell::values::BasicValueEnum<'ctx> {
        let bits = super::expr::int_bits(t);
        match (a, float) {
            (ArithOp::Add, _) => t.const_zero(),
            (ArithOp::Min, true) => self.const_of(t, f64::INFINITY, 0),
            (ArithOp::Max, true) => self.const_of(t, f64::NEG_INFINITY, 0),
            (ArithOp::Min, false) => self.const_int(t, if signed { (1i128 << (bits - 1)) - 1 } else { (1i128 << bits) - 1 }),
            (ArithOp::Max, false) => self.const_int(t, if signed { -(1i128 << (bits - 1)) } else { 0 }),
        }
    }

    fn combine(&mut self, a: ArithOp, x: inkwell::values::BasicValueEnum<'ctx>, y: inkwell::values::BasicValueEnum<'ctx>, float: bool, signed: bool) -> R<inkwell::values::BasicValueEnum<'ctx>> {
        use inkwell::llvm_sys::{LLVMIntPredicate as IP, LLVMOpcode as Op, LLVMRealPredicate as FP};
        Ok(match (a, float) {
            (ArithOp::Add, true) => self.binop(Op::LLVMFAdd, x, y),
            (ArithOp::Add, false) => self.binop(Op::LLVMAdd, x, y),
            (ArithOp::Min, true) => {
                let c = self.fcmp(FP::LLVMRealOLT, y, x);
                self.select(c, y, x)
            }
            (ArithOp::Max, true) => {
                let c = self.fcmp(FP::LLVMRealOGT, y, x);
                self.select(c, y, x)
            }
            (ArithOp::Min, false) => {
                let c = self.icmp(if signed { IP::LLVMIntSLT } else { IP::LLVMIntULT }, y, x);
                self.select(c, y, x)
            }
            (ArithOp::Max, false) => {
                let c = self.icmp(if signed { IP::LLVMIntSGT } else { IP::LLVMIntUGT }, y, x);
                self.select(c, y, x)
            }
        })
    }

    /// A work-group function for a group of one work-item.
    pub(super) fn single_item_collective(&mut self, op: GroupOp, args: &[ExprId], ty: crate::sema::types::TypeId) -> R<inkwell::values::BasicValueEnum<'ctx>> {
        let at = self.expr_info(args[0]).ty.ty;
        let x = self.value(args[0])?;
        let rt = self.vty(ty)?;
        Ok(match op {
            GroupOp::All | GroupOp::Any => {
                let nz = self.is_nonzero(x, at)?;
                self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMZExt, nz, rt)
            }
            GroupOp::ScanExclusive(a) => {
                let elem = self.elem_scalar(at);
                let (float, signed) = (elem.is_some_and(super::expr::is_float), elem.is_some_and(super::expr::is_signed));
                self.identity(a, rt, float, signed)
            }
            _ => x,
        })
    }

    /// The group's size in work-items and its local sizes.
    fn group_n(&mut self) -> R<(IntValue<'ctx>, Vec<IntValue<'ctx>>)> {
        let n = self.fs().group.as_ref().map(|g| g.n).ok_or_else(|| super::InternalError { function: None, message: "no group mode".into() })?;
        let wi = self.fs().wi.ok_or_else(|| super::InternalError { function: None, message: "no work-item".into() })?;
        let gp = self.byte_offset(wi, 24)?;
        let g = self.b.build_load(self.ptr_ty(AddrSpace::Private), gp, "")?.into_pointer_value();
        let sizes: Vec<IntValue> = (0..3).map(|k| self.load_i64(g, 56 + 8 * k)).collect::<R<_>>()?;
        Ok((n, sizes))
    }

    /// An array of `n` values of `t` in the entry block.
    fn entry_array(&mut self, t: inkwell::types::BasicTypeEnum<'ctx>, n: IntValue<'ctx>, name: &str) -> R<PointerValue<'ctx>> {
        self.at_entry(|g| {
            let p = g.b.build_array_alloca(t, n, name)?;
            if let Some(i) = p.as_instruction() {
                let _ = i.set_alignment(16);
            }
            Ok(p)
        })
    }

    /// The result of a synchronising call already made for the group:
    /// `Some(None)` for a void one.
    pub(super) fn precomputed_call(&mut self, call: ExprId) -> R<Option<Option<inkwell::values::BasicValueEnum<'ctx>>>> {
        let Some((_, per_wi)) = self.fs().group.as_ref().and_then(|g| g.collectives.get(&call).copied()) else { return Ok(None) };
        if !per_wi {
            return Ok(Some(None));
        }
        Ok(Some(self.collective_value(call)?))
    }

    /// The precomputed value of a work-group function call, if any.
    pub(super) fn collective_value(&mut self, call: ExprId) -> R<Option<inkwell::values::BasicValueEnum<'ctx>>> {
        let Some((ptr, per_wi, index)) = self.fs().group.as_ref().and_then(|g| g.collectives.get(&call).map(|&(p, w)| (p, w, g.index))) else { return Ok(None) };
        let t = self.vty(self.expr_info(call).ty.ty)?;
        let p = if per_wi {
            let i = index.unwrap_or_else(|| self.ctx.i64_type().const_zero());
            // SAFETY: `i` < the group's size.
            unsafe { self.b.build_in_bounds_gep(t, ptr, &[i], "")? }
        } else {
            ptr
        };
        Ok(Some(self.b.build_load(t, p, "")?))
    }

    /// Which locals of `f` need no per-work-item storage in the region
    /// lowering (see [`GroupMode::scalar`]).
    fn scalar_locals(&self, b: &GroupBody<'_>, plan: &Plan) -> Vec<bool> {
        let f = b.func;
        #[derive(Clone, Copy, PartialEq)]
        enum Use {
            None,
            One(u32),
            Many,
        }
        let mut uses = vec![Use::None; f.locals.len()];
        let mut next = 0u32;
        fn mark(uses: &mut [Use], id: u32, l: LocalId) {
            let u = &mut uses[l.0 as usize];
            *u = match *u {
                Use::None => Use::One(id),
                Use::One(r) if r == id => Use::One(r),
                _ => Use::Many,
            };
        }
        fn mark_stmt(f: &hir::Function, uses: &mut [Use], id: u32, s: &Stmt) {
            let mut ls = Vec::new();
            locals_of(&f.exprs, s, &mut ls);
            ls.into_iter().for_each(|l| mark(uses, id, l));
        }
        fn locals_of(exprs: &[hir::Expr], s: &Stmt, out: &mut Vec<LocalId>) {
            if let Stmt::Local { local, .. } = s {
                out.push(*local);
            }
            walk_decls(s, out);
            visit_stmt_deep(exprs, s, &mut |e| {
                if let ExprKind::Local(l) = &exprs[e.0 as usize].kind {
                    out.push(*l);
                }
                if let ExprKind::BlockLiteral { params, .. } = &exprs[e.0 as usize].kind {
                    out.extend(params.iter().copied());
                }
            });
        }
        /// Marks the locals `s` uses outside the calls `calls` (their
        /// arguments are evaluated elsewhere; in the statement's region
        /// their values are read from where they were computed).
        fn mark_outside(f: &hir::Function, uses: &mut [Use], id: u32, s: &Stmt, calls: &[ExprId]) {
            let mut inside = rustc_hash::FxHashSet::default();
            for &c in calls {
                deep(&f.exprs, c, &mut |x| {
                    inside.insert(x);
                });
            }
            let mut ls = Vec::new();
            walk_decls(s, &mut ls);
            visit_stmt_deep(&f.exprs, s, &mut |e| {
                if inside.contains(&e) {
                    return;
                }
                match &f.exprs[e.0 as usize].kind {
                    ExprKind::Local(l) => ls.push(*l),
                    ExprKind::BlockLiteral { params, .. } => ls.extend(params.iter().copied()),
                    _ => {}
                }
            });
            ls.into_iter().for_each(|l| mark(uses, id, l));
        }
        /// Marks a group-level expression (a condition): evaluated at group
        /// level, and the arguments of its work-group functions each in a
        /// region before (marked apart, which is conservative).
        fn mark_group_expr(f: &hir::Function, uses: &mut [Use], next: &mut u32, e: ExprId) {
            let s = Stmt::Expr(e);
            *next += 1;
            mark_stmt(f, uses, *next, &s);
            if stmt_syncs_in(&f.exprs, &s) {
                *next += 1;
                mark_stmt(f, uses, *next, &s);
            }
        }
        // Mirrors `group_stmts`: a run of statements is one region, every
        // group-level expression a region of its own; statements with
        // work-group functions (or calls of synchronising functions) start
        // the next run after the regions computing those.
        fn assign(g: &Gen<'_, '_>, f: &hir::Function, plan: &Plan, body: &[Stmt], next: &mut u32, uses: &mut [Use]) {
            // The run's region, and whether it is emitted (see
            // `flush_region_then`).
            let mut run: Option<u32> = None;
            let mut run_emits = false;
            let fresh = |next: &mut u32| {
                *next += 1;
                *next
            };
            let mut i = 0;
            while let Some(s) = body.get(i) {
                i += 1;
                let syncs = g.stmt_syncs(f, s) || plan.goes_group(s);
                if !syncs && !matches!(s, Stmt::Break | Stmt::Continue | Stmt::Return(_) | Stmt::Case(_)) {
                    let id = *run.get_or_insert_with(|| fresh(next));
                    run_emits |= !declares_only(plan, s);
                    mark_stmt(f, uses, id, s);
                    continue;
                }
                let emits = std::mem::take(&mut run_emits);
                let before = run.take().filter(|_| emits);
                match s {
                    Stmt::Block(b) => assign(g, f, plan, b, next, uses),
                    Stmt::If { cond, then, else_ } => {
                        mark_group_expr(f, uses, next, *cond);
                        assign(g, f, plan, then, next, uses);
                        if let Some(e) = else_ {
                            assign(g, f, plan, e, next, uses);
                        }
                    }
                    Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
                        mark_group_expr(f, uses, next, *cond);
                        assign(g, f, plan, body, next, uses);
                    }
                    Stmt::For { init, cond, step, body, .. } => {
                        assign(g, f, plan, init, next, uses);
                        for e in cond.iter().chain(step.iter()) {
                            mark_group_expr(f, uses, next, *e);
                        }
                        assign(g, f, plan, body, next, uses);
                    }
                    _ if g.flat_collectives(f, s, plan).is_some() => {
                        // Work-group functions computed together (see
                        // `batch_collectives`): all their arguments at the
                        // end of the run before (in a region of their own
                        // where it emits none; the local ids of broadcasts
                        // at group level), then the statements in the next
                        // run.
                        let n = g.collective_batch(f, &body[i - 1..], plan);
                        let batch = &body[i - 1..i - 1 + n];
                        i += n - 1;
                        let args_region = before.unwrap_or_else(|| fresh(next));
                        let mut all = Vec::new();
                        for b in batch {
                            let calls = g.flat_collectives(f, b, plan).unwrap_or_default();
                            for &c in &calls {
                                let ExprKind::BuiltinCall { args, .. } = &f.exprs[c.0 as usize].kind else { continue };
                                for (k, a) in args.iter().enumerate() {
                                    let id = if k == 0 { args_region } else { fresh(next) };
                                    mark_stmt(f, uses, id, &Stmt::Expr(*a));
                                }
                            }
                            all.extend(calls);
                        }
                        let id = fresh(next);
                        run = Some(id);
                        run_emits = true;
                        for b in batch {
                            mark_outside(f, uses, id, b, &all);
                        }
                    }
                    Stmt::Expr(_) | Stmt::Local { .. } if !is_plain_barrier(&f.exprs, s) => {
                        // Other work-group functions and synchronising
                        // calls run their arguments, the calls, and the
                        // statement (in the next run) in different regions:
                        // everything they use is shared.
                        let (a, b) = (fresh(next), fresh(next));
                        mark_stmt(f, uses, a, s);
                        mark_stmt(f, uses, b, s);
                        let id = fresh(next);
                        run = Some(id);
                        run_emits = true;
                        mark_stmt(f, uses, id, s);
                    }
                    other => {
                        // Returned values are stored in a region; the rest
                        // (switches: their bodies) marked apart.
                        let (a, b) = (fresh(next), fresh(next));
                        mark_stmt(f, uses, a, other);
                        mark_stmt(f, uses, b, other);
                    }
                }
            }
        }
        // Parameters are defined where the group starts.
        next += 1;
        for &p in &b.params {
            mark(&mut uses, next, p);
        }
        assign(self, f, plan, b.body, &mut next, &mut uses);
        let written = super::uniform::written_bases(&f.exprs);
        (0..f.locals.len())
            .map(|i| {
                let l = LocalId(i as u32);
                if plan.uniform[i] || plan.remat[i].is_some() {
                    // One value for the group, or recomputed by each region.
                    true
                } else if b.uniform_params && b.params.contains(&l) {
                    // A kernel parameter (or a block's capture) no one
                    // writes has one value for all work-items.
                    !written.contains(&l)
                } else {
                    matches!(uses[i], Use::One(_)) && !written_through_address(&f.exprs, l)
                }
            })
            .collect()
    }

    /// The HIR function whose arena is being lowered, if it is one of the
    /// program's functions.
    pub(super) fn current_function(&self) -> Option<&'a hir::Function> {
        let exprs = self.fs().exprs;
        let program: &'a crate::sema::Program = self.program;
        program.functions.iter().find(|f| std::ptr::eq(f.exprs.as_ptr(), exprs.as_ptr()))
    }

    /// Stores the current work-item's return value.
    fn store_ret(&mut self, slot: PointerValue<'ctx>, v: inkwell::values::BasicValueEnum<'ctx>) -> R<()> {
        let i = self.fs().group.as_ref().and_then(|g| g.index).unwrap_or_else(|| self.ctx.i64_type().const_zero());
        // SAFETY: `i` < the group's size.
        let p = unsafe { self.b.build_in_bounds_gep(v.get_type(), slot, &[i], "")? };
        self.b.build_store(p, v)?;
        Ok(())
    }

    /// A call of a synchronising function, for the whole group: each
    /// work-item's arguments, then the callee's body lowered for the group
    /// (its own per-work-item variables), leaving each work-item's result.
    fn group_call(&mut self, call: ExprId, fid: usize) -> R<()> {
        let program: &'a crate::sema::Program = self.program;
        let callee: &'a hir::Function = &program.functions[fid];
        let body = GroupBody::of(callee);
        let ExprKind::Call { args, .. } = &self.expr_info(call).kind else { return ice("not a call") };
        let args = args.clone();
        let (n, _) = self.group_n()?;
        // 1. Every work-item's arguments.
        let mut temps = Vec::new();
        for &a in &args {
            let t = self.vty(self.expr_info(a).ty.ty)?;
            temps.push((self.entry_array(t, n, "call.arg")?, t));
        }
        let tv = temps.clone();
        self.region(&mut |g: &mut Self| {
            for (&a, &(arr, _)) in args.iter().zip(&tv) {
                let v = g.value(a)?;
                g.store_ret(arr, v)?;
            }
            Ok(())
        })?;
        let ret_ty = callee_ret(self, callee);
        let ret_llvm = self.value_ty(ret_ty)?;
        let ret_slot = match ret_llvm {
            Some(t) => Some(self.entry_array(t, n, "call.ret")?),
            None => None,
        };
        // 2. The callee's frame: its arena, its own done flags (a copy).
        let caller_done = self.fs().group.as_ref().map(|g| g.done).ok_or_else(|| super::InternalError { function: None, message: "no group mode".into() })?;
        // Padded as the caller's (made in the entry block, where `n` is).
        let padded = self.at_entry(|g| Ok(g.b.build_int_add(n, g.ctx.i64_type().const_int(CHUNK, false), "")?))?;
        let done = self.entry_array(self.ctx.i8_type().into(), padded, "call.done")?;
        self.b.build_memcpy(done, 1, caller_done, 1, n).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
        let exit = self.ctx.append_basic_block(self.fs().llfn, "call.exit");
        let plan = std::rc::Rc::new(self.group_plan(&body));
        let scalar = self.scalar_locals(&body, &plan);
        let soa = self.soa_locals(&body, &plan, &scalar);
        let outer = self.fs.take().ok_or_else(|| super::InternalError { function: None, message: "no function".into() })?;
        self.fs = Some(super::FnState {
            wi: outer.wi,
            group: Some(GroupMode {
                ret_slot,
                exit: Some(exit),
                // A caller's finished work-items are skipped here too.
                returns: true,
                ..GroupMode::new(n, done, plan, scalar, soa)
            }),
            ..super::FnState::new(outer.name, &callee.exprs, &callee.locals, outer.llfn, outer.entry)
        });
        let result = (|| -> R<()> {
            let params = callee.params.clone();
            self.region(&mut |g: &mut Self| {
                for (&p, &(arr, t)) in params.iter().zip(&temps) {
                    let i = g.fs().group.as_ref().and_then(|gm| gm.index).unwrap_or_else(|| g.ctx.i64_type().const_zero());
                    // SAFETY: `i` < the group's size.
                    let src = unsafe { g.b.build_in_bounds_gep(t, arr, &[i], "")? };
                    let v = g.b.build_load(t, src, "")?;
                    let slot = g.local_ptr(p)?;
                    let pt = g.local_info(p).ty.ty;
                    g.store_value(slot, pt, v, false)?;
                }
                Ok(())
            })?;
            self.group_stmts(&callee.body)?;
            if self.current_block_open() {
                self.b.build_unconditional_branch(exit)?;
            }
            Ok(())
        })();
        let mut outer = outer;
        if let (Some(g), Some(slot)) = (outer.group.as_mut(), ret_slot) {
            g.collectives.insert(call, (slot, true));
        } else if let Some(g) = outer.group.as_mut() {
            // A void call: nothing to read back, but the call is done.
            g.collectives.insert(call, (done, false));
        }
        self.fs = Some(outer);
        self.b.position_at_end(exit);
        result
    }

    /// `return` inside a region: the work-item is done.
    pub(super) fn region_return(&mut self, v: Option<ExprId>) -> R<bool> {
        let Some((Some(index), Some(next), done, slot)) = self.fs().group.as_ref().map(|g| (g.index, g.next_item, g.done, g.ret_slot)) else { return Ok(false) };
        if let (Some(slot), Some(e)) = (slot, v) {
            let val = self.value(e)?;
            self.store_ret(slot, val)?;
        }
        // SAFETY: `index` < the group's size.
        let p = unsafe { self.b.build_in_bounds_gep(self.ctx.i8_type(), done, &[index], "")? };
        self.b.build_store(p, self.ctx.i8_type().const_int(1, false))?;
        if let Some(any) = self.fs().group.as_ref().and_then(|g| g.any_done) {
            self.b.build_store(any, self.ctx.i8_type().const_int(1, false))?;
        }
        self.b.build_unconditional_branch(next)?;
        Ok(true)
    }

    /// A recomputed local's slot, holding its value for the current
    /// work-item: computed once at the start of the region (or here, at
    /// group level, for work-item 0).
    fn rematerialize(&mut self, l: LocalId, e: ExprId) -> R<PointerValue<'ctx>> {
        let slot = match self.fs().locals[l.0 as usize] {
            Some(p) => p,
            None => {
                let info = self.local_info(l);
                let (t, name) = (info.ty.ty, info.name.clone());
                let p = self.alloca(t, &name)?;
                self.fs_mut().locals[l.0 as usize] = Some(p);
                p
            }
        };
        let (pre, done) = self.fs().group.as_ref().map(|g| (g.remat_block, g.remat_done[l.0 as usize])).unwrap_or((None, false));
        let t = self.local_info(l).ty.ty;
        let compute = |g: &mut Self| -> R<()> {
            let v = g.value(e)?;
            g.store_value(slot, t, v, false)
        };
        match pre {
            Some(_) if done => {}
            Some(pre) => {
                self.in_prelude(pre, compute)?;
                if let Some(g) = self.fs_mut().group.as_mut() {
                    g.remat_done[l.0 as usize] = true;
                }
            }
            None => compute(self)?,
        }
        Ok(slot)
    }

    /// Emits `f` at the end of a region's prelude `pre` (before its branch
    /// to the body, so that it dominates the whole region), and comes back
    /// where the builder was — before that branch again when that is where
    /// it was (one recomputed local's initializer naming another).
    fn in_prelude(&mut self, pre: BasicBlock<'ctx>, f: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let here = self.b.get_insert_block().expect("positioned");
        let Some(term) = pre.get_terminator() else { return ice("a region without its entry branch") };
        self.b.position_before(&term);
        let r = f(self);
        if here == pre {
            self.b.position_before(&term);
        } else {
            self.b.position_at_end(here);
        }
        r
    }

    /// Vector locals kept per work-item lane by lane: lane `c` of work-item
    /// `i` at `c * n + i` of an array of the element type, so the work-item
    /// loop reads and writes a lane of neighbouring work-items as one
    /// vector (an array of vectors would leave each work-item's loads and
    /// stores apart, and the loop vectoriser does not take them apart).
    /// Not for locals whose address is taken or that group-level
    /// conditions read.
    fn soa_locals(&self, b: &GroupBody<'_>, plan: &Plan, scalar: &[bool]) -> Vec<bool> {
        let f = b.func;
        let mut at_group = vec![false; f.locals.len()];
        self.group_level_reads(f, plan, b.body, &mut at_group);
        (0..f.locals.len())
            .map(|i| {
                let info = &f.locals[i];
                !scalar[i] && !at_group[i] && matches!(info.ty.space, AddrSpace::Private) && matches!(self.kind(info.ty.ty), crate::sema::types::TypeKind::Vector(..)) && !written_through_address(&f.exprs, LocalId(i as u32))
            })
            .collect()
    }

    /// Marks the locals that group-level code reads: the conditions of
    /// statements run at group level (and counted loops' init and step).
    fn group_level_reads(&self, f: &hir::Function, plan: &Plan, body: &[Stmt], out: &mut [bool]) {
        // Every local the statement names.
        let mark = |s: &Stmt, out: &mut [bool]| {
            visit_stmt_deep(&f.exprs, s, &mut |x| {
                if let ExprKind::Local(l) = &f.exprs[x.0 as usize].kind {
                    out[l.0 as usize] = true;
                }
            })
        };
        for s in body {
            if !(self.stmt_syncs(f, s) || plan.goes_group(s)) || plan.divergent.contains_key(&(s as *const Stmt)) {
                continue;
            }
            match s {
                Stmt::Block(b) => self.group_level_reads(f, plan, b, out),
                Stmt::If { cond, then, else_ } => {
                    mark(&Stmt::Expr(*cond), out);
                    self.group_level_reads(f, plan, then, out);
                    if let Some(e) = else_ {
                        self.group_level_reads(f, plan, e, out);
                    }
                }
                Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } | Stmt::Switch { cond, body, .. } => {
                    mark(&Stmt::Expr(*cond), out);
                    self.group_level_reads(f, plan, body, out);
                }
                Stmt::For { init, cond, step, body, .. } => {
                    cond.iter().chain(step.iter()).for_each(|e| mark(&Stmt::Expr(*e), out));
                    init.iter().for_each(|i| mark(i, out));
                    self.group_level_reads(f, plan, body, out);
                }
                // Work-group functions' statements: broadcast's ids are
                // evaluated at group level.
                other => mark(other, out),
            }
        }
    }

    /// The slot a lane-by-lane local is worked on in: in a region, the
    /// work-item's lanes copied in at the region's start (and back at its
    /// end); at group level, work-item 0's, to read.
    fn soa_local(&mut self, l: LocalId) -> R<PointerValue<'ctx>> {
        let i = l.0 as usize;
        let slot = match self.fs().group.as_ref().and_then(|g| g.soa_slots[i]) {
            Some(p) => p,
            None => {
                let info = self.local_info(l);
                let (t, name) = (info.ty.ty, format!("{}.lanes", info.name));
                let p = self.alloca(t, &name)?;
                if let Some(g) = self.fs_mut().group.as_mut() {
                    g.soa_slots[i] = Some(p);
                }
                p
            }
        };
        // Made now: `at_entry` would leave the builder at the end of the
        // block below, not before its branch.
        self.soa_array(l)?;
        let (index, pre, live) = self.fs().group.as_ref().map(|g| (g.index, g.remat_block, g.soa_live.contains(&l))).unwrap_or((None, None, false));
        match (index, pre) {
            (Some(_), Some(_)) if live => {}
            (Some(lin), Some(pre)) => {
                self.in_prelude(pre, |g| g.soa_copy(l, lin, true))?;
                if let Some(g) = self.fs_mut().group.as_mut() {
                    g.soa_live.push(l);
                }
            }
            _ => self.soa_copy(l, self.ctx.i64_type().const_zero(), true)?,
        }
        Ok(slot)
    }

    /// The lanes' array of a lane-by-lane local (made in the entry block).
    fn soa_array(&mut self, l: LocalId) -> R<PointerValue<'ctx>> {
        let i = l.0 as usize;
        let Some((n, arr)) = self.fs().group.as_ref().map(|g| (g.n, g.soa_arrays[i])) else { return ice("no group mode") };
        if let Some(a) = arr {
            return Ok(a);
        }
        let vt = self.vty(self.local_info(l).ty.ty)?.into_vector_type();
        let (et, lanes) = (vt.get_element_type(), vt.get_size());
        let name = format!("{}.soa", self.local_info(l).name);
        let a = self.at_entry(|g| {
            let len = g.b.build_int_mul(n, g.ctx.i64_type().const_int(lanes as u64, false), "")?;
            let len = g.b.build_int_add(len, g.ctx.i64_type().const_int(CHUNK, false), "")?;
            let a = g.b.build_array_alloca(et, len, &name)?;
            if let Some(inst) = a.as_instruction() {
                let _ = inst.set_alignment(32);
            }
            Ok(a)
        })?;
        if let Some(g) = self.fs_mut().group.as_mut() {
            g.soa_arrays[i] = Some(a);
        }
        Ok(a)
    }

    /// Copies work-item `lin`'s lanes of a lane-by-lane local into its
    /// slot (`into_slot`) or back.
    fn soa_copy(&mut self, l: LocalId, lin: IntValue<'ctx>, into_slot: bool) -> R<()> {
        let i = l.0 as usize;
        let t = self.local_info(l).ty.ty;
        let vt = self.vty(t)?.into_vector_type();
        let (et, lanes) = (vt.get_element_type(), vt.get_size());
        let Some((n, Some(slot), Some(arr))) = self.fs().group.as_ref().map(|g| (g.n, g.soa_slots[i], g.soa_arrays[i])) else { return ice("a lane-by-lane local without its storage") };
        let lane_ptr = |g: &mut Self, c: u32| -> R<PointerValue<'ctx>> {
            let off = g.b.build_int_mul(n, g.ctx.i64_type().const_int(c as u64, false), "")?;
            let at = g.b.build_int_add(off, lin, "")?;
            // SAFETY: `c` < lanes and `lin` < n: inside the array.
            Ok(unsafe { g.b.build_in_bounds_gep(et, arr, &[at], "")? })
        };
        if into_slot {
            let mut v = vt.get_undef();
            for c in 0..lanes {
                let p = lane_ptr(self, c)?;
                let x = self.b.build_load(et, p, "")?;
                v = self.b.build_insert_element(v, x, self.ctx.i32_type().const_int(c as u64, false), "")?;
            }
            self.store_value(slot, t, v.into(), false)
        } else {
            let v = self.load_value(slot, t, false)?.into_vector_value();
            for c in 0..lanes {
                let x = self.b.build_extract_element(v, self.ctx.i32_type().const_int(c as u64, false), "")?;
                let p = lane_ptr(self, c)?;
                self.b.build_store(p, x)?;
            }
            Ok(())
        }
    }

    /// A private local's storage for the current work-item, in group mode.
    pub(super) fn group_local(&mut self, l: LocalId) -> R<Option<PointerValue<'ctx>>> {
        let Some((n, index, arr, scalar)) = self.fs().group.as_ref().map(|g| (g.n, g.index, g.arrays[l.0 as usize], g.scalar[l.0 as usize])) else { return Ok(None) };
        if let Some(e) = self.fs().group.as_ref().and_then(|g| g.plan.remat[l.0 as usize]) {
            return self.rematerialize(l, e).map(Some);
        }
        if scalar {
            return Ok(None);
        }
        if self.fs().group.as_ref().is_some_and(|g| g.soa[l.0 as usize]) {
            return self.soa_local(l).map(Some);
        }
        let t = self.local_info(l).ty.ty;
        let base = match arr {
            Some(b) => b,
            None => {
                // Made in the entry block: n elements of the local's type.
                let lt = self.mem_ty(t)?;
                let (name, align) = (self.local_info(l).name.clone(), self.align_of(t).max(16));
                let b = self.at_entry(|g| {
                    // Padded for the last chunk of a divergent loop.
                    let len = g.b.build_int_add(n, g.ctx.i64_type().const_int(CHUNK, false), "")?;
                    let b = g.b.build_array_alloca(lt, len, &name)?;
                    if let Some(i) = b.as_instruction() {
                        let _ = i.set_alignment(align);
                    }
                    Ok(b)
                })?;
                if let Some(g) = self.fs_mut().group.as_mut() {
                    g.arrays[l.0 as usize] = Some(b);
                }
                b
            }
        };
        let idx = index.unwrap_or_else(|| self.ctx.i64_type().const_zero());
        let lt = self.mem_ty(t)?;
        // SAFETY: `idx` < the group's size, the array's length.
        Ok(Some(unsafe { self.b.build_in_bounds_gep(lt, base, &[idx], "")? }))
    }
}

/// The work-group functions that, outside the region lowering (a group
/// of one work-item), are their own argument's value
/// ([`Gen::single_item_collective`]); pipe reservations are not, and take
/// `cpu_pipes.rs`' path there.
/// `meta` with only a `nounroll` hint kept, for a loop run at group level
/// (see [`Gen::group_loop`]).
fn only_nounroll(meta: hir::LoopMeta) -> hir::LoopMeta {
    hir::LoopMeta { unroll: meta.unroll.filter(|u| *u == Unroll::Disable), ..meta }
}

pub(super) fn is_collective(op: GroupOp) -> bool {
    collective(op) && !super::pipes::is_pipe_op(op)
}

/// The work-group functions the regions compute: all, any, broadcast,
/// reduce and scans, and pipe reservations (one for the group).
fn collective(op: GroupOp) -> bool {
    matches!(
        op,
        GroupOp::All | GroupOp::Any | GroupOp::Broadcast | GroupOp::Reduce(_) | GroupOp::ScanInclusive(_) | GroupOp::ScanExclusive(_) | GroupOp::ReserveReadPipe | GroupOp::ReserveWritePipe
    )
}

/// Is a work-group pipe reservation in `s` under `?:`, `&&` or `||`? The
/// regions compute a statement's work-group functions for the group
/// whichever operands it then evaluates: harmless for the others, which
/// only compute a value, but a reservation not taken would still claim
/// its packets.
fn reserves_conditionally(exprs: &[hir::Expr], s: &Stmt) -> bool {
    let mut found = false;
    visit_stmt_deep(exprs, s, &mut |e| {
        let maybe: &[ExprId] = match &exprs[e.0 as usize].kind {
            ExprKind::Cond { then, else_, .. } => &[*then, *else_],
            ExprKind::Binary { op: crate::parse::ast::BinOp::And | crate::parse::ast::BinOp::Or, rhs, .. } => &[*rhs],
            _ => return,
        };
        for &m in maybe {
            deep(exprs, m, &mut |x| {
                found |= matches!(&exprs[x.0 as usize].kind, ExprKind::BuiltinCall { overload, .. }
                    if matches!(overload.lowering, Lowering::WorkGroup(GroupOp::ReserveReadPipe | GroupOp::ReserveWritePipe)));
            });
        }
    });
    found
}

fn stmt_syncs_in(exprs: &[hir::Expr], s: &Stmt) -> bool {
    let mut found = false;
    visit_stmt_deep(exprs, s, &mut |e| {
        if let ExprKind::BuiltinCall { overload, .. } = &exprs[e.0 as usize].kind {
            found |= matches!(overload.lowering, Lowering::Barrier(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents)
                || matches!(overload.lowering, Lowering::WorkGroup(op) if collective(op));
        }
    });
    found
}

/// A work-group function combined in a pass over the group (see
/// [`Gen::fold_pass`]): its operation, argument type (in the source and in
/// LLVM), result type, every work-item's argument, where its result goes
/// (one per work-item for scans), and the pass's starting value.
struct Fold<'ctx> {
    op: GroupOp,
    at: crate::sema::types::TypeId,
    lt: inkwell::types::BasicTypeEnum<'ctx>,
    rt: inkwell::types::BasicTypeEnum<'ctx>,
    vals: PointerValue<'ctx>,
    out: PointerValue<'ctx>,
    per_wi: bool,
    float: bool,
    signed: bool,
    init: inkwell::values::BasicValueEnum<'ctx>,
}

/// Does `s` do nothing in a region: a declaration without initializer, or
/// of a local every region recomputes (see `Plan::remat`)?
fn declares_only(plan: &Plan, s: &Stmt) -> bool {
    matches!(s, Stmt::Local { local, init } if init.is_none() || plan.remat[local.0 as usize].is_some())
}

/// `barrier(…);` alone.
fn is_plain_barrier(exprs: &[hir::Expr], s: &Stmt) -> bool {
    matches!(s, Stmt::Expr(e) if matches!(&exprs[e.0 as usize].kind, ExprKind::BuiltinCall { overload, .. } if matches!(overload.lowering, Lowering::Barrier(_))))
}

/// Does a body contain a `return`?
/// Can evaluating `e` trap (an integer division or remainder)?
pub(super) fn can_trap(f: &hir::Function, e: ExprId) -> bool {
    let mut trap = false;
    deep(&f.exprs, e, &mut |x| {
        if matches!(&f.exprs[x.0 as usize].kind, ExprKind::Binary { op: crate::parse::ast::BinOp::Div | crate::parse::ast::BinOp::Rem, .. }) {
            trap = true;
        }
    });
    trap
}

fn has_return(body: &[Stmt]) -> bool {
    fn returns(s: &Stmt) -> bool {
        matches!(s, Stmt::Return(_)) || s.children().any(returns)
    }
    body.iter().any(returns)
}

/// Is the local's address taken (a pointer could reach it from another
/// region)?
pub(super) fn written_through_address(exprs: &[hir::Expr], l: LocalId) -> bool {
    exprs.iter().any(|x| address_taken(exprs, x) == Some(l))
}

/// The locals whose address is taken.
pub(super) fn addressed_locals(exprs: &[hir::Expr]) -> rustc_hash::FxHashSet<LocalId> {
    exprs.iter().filter_map(|x| address_taken(exprs, x)).collect()
}

/// The local whose address `x` takes (through members, indices,
/// swizzles), if it takes one.
fn address_taken(exprs: &[hir::Expr], x: &hir::Expr) -> Option<LocalId> {
    let (ExprKind::AddrOf(e) | ExprKind::Convert { kind: crate::sema::hir::ConvKind::ArrayDecay, expr: e }) = &x.kind else { return None };
    let mut e = *e;
    loop {
        match &exprs[e.0 as usize].kind {
            ExprKind::Local(m) => return Some(*m),
            ExprKind::Member { base, .. } | ExprKind::Index { base, .. } | ExprKind::Swizzle { base, .. } => e = *base,
            _ => return None,
        }
    }
}

/// A function's return type.
fn callee_ret(g: &Gen<'_, '_>, f: &hir::Function) -> crate::sema::types::TypeId {
    match g.kind(f.ty.ty) {
        crate::sema::types::TypeKind::Function { ret, .. } => ret.ty,
        _ => f.ty.ty,
    }
}

fn basic<'ctx>(v: BasicMetadataValueEnum<'ctx>) -> R<inkwell::values::BasicValueEnum<'ctx>> {
    Ok(match v {
        BasicMetadataValueEnum::IntValue(x) => x.into(),
        BasicMetadataValueEnum::FloatValue(x) => x.into(),
        BasicMetadataValueEnum::PointerValue(x) => x.into(),
        BasicMetadataValueEnum::VectorValue(x) => x.into(),
        BasicMetadataValueEnum::StructValue(x) => x.into(),
        BasicMetadataValueEnum::ArrayValue(x) => x.into(),
        _ => return ice("a metadata argument"),
    })
}

/// Do the `goto`s in `s` jump to labels in `s`? (A region's code is
/// emitted inside work-item loops: a jump out of it, or into it, has no
/// meaning there.)
fn gotos_stay_inside(s: &Stmt) -> bool {
    fn walk(s: &Stmt, labels: &mut Vec<String>, gotos: &mut Vec<String>) {
        match s {
            Stmt::Label(l) => labels.push(l.clone()),
            Stmt::Goto(l) => gotos.push(l.clone()),
            _ => s.children().for_each(|c| walk(c, labels, gotos)),
        }
    }
    let (mut labels, mut gotos) = (Vec::new(), Vec::new());
    walk(s, &mut labels, &mut gotos);
    // A label here that a `goto` elsewhere targets is caught at that
    // `goto`'s statement; a bare label statement has no jump of its own.
    matches!(s, Stmt::Label(_)) || gotos.iter().all(|g| labels.contains(g))
}

/// The innermost `break` target and the innermost loop's `continue`
/// target in a function's jump stack.
fn group_jump_targets<'ctx>(jumps: &[(BasicBlock<'ctx>, Option<BasicBlock<'ctx>>)]) -> Option<(BasicBlock<'ctx>, BasicBlock<'ctx>)> {
    let brk = jumps.last()?.0;
    let cont = jumps.iter().rev().find_map(|j| j.1).unwrap_or(brk);
    Some((brk, cont))
}

/// The locals a statement declares (nested statements included, not
/// nested block literals).
pub(super) fn walk_decls(s: &Stmt, out: &mut Vec<LocalId>) {
    match s {
        Stmt::Local { local, .. } => out.push(*local),
        _ => s.children().for_each(|c| walk_decls(c, out)),
    }
}

/// Calls `f` on every expression of a statement, subexpressions included.
pub(super) fn visit_stmt_deep(exprs: &[hir::Expr], s: &Stmt, f: &mut dyn FnMut(ExprId)) {
    visit_stmt(s, &mut |e| deep(exprs, e, f));
}

/// Do `a` and `b` compute the same value, evaluated one right after the
/// other by one work-item, both [quiet](Gen::quiet)? The same shape of
/// the same types over the same locals, globals, constants and builtins;
/// anything else (calls of user functions, literals that make objects, …)
/// counts as different.
pub(super) fn same_value(exprs: &[hir::Expr], a: ExprId, b: ExprId) -> bool {
    let (x, y) = (&exprs[a.0 as usize], &exprs[b.0 as usize]);
    if a == b {
        return true;
    }
    if x.ty != y.ty || x.lvalue != y.lvalue {
        return false;
    }
    let same = |p: &ExprId, q: &ExprId| same_value(exprs, *p, *q);
    let all = |p: &[ExprId], q: &[ExprId]| p.len() == q.len() && p.iter().zip(q).all(|(p, q)| same(p, q));
    match (&x.kind, &y.kind) {
        (ExprKind::Int(p), ExprKind::Int(q)) => p == q,
        (ExprKind::Float(p), ExprKind::Float(q)) => p.to_bits() == q.to_bits(),
        (ExprKind::Local(p), ExprKind::Local(q)) => p == q,
        (ExprKind::Global(p), ExprKind::Global(q)) => p == q,
        (ExprKind::BuiltinConst(p), ExprKind::BuiltinConst(q)) => p == q,
        (ExprKind::Load(p), ExprKind::Load(q)) | (ExprKind::Deref(p), ExprKind::Deref(q)) => same(p, q),
        (ExprKind::Convert { kind: k, expr: p }, ExprKind::Convert { kind: l, expr: q }) => k == l && same(p, q),
        (ExprKind::Unary { op: o, expr: p }, ExprKind::Unary { op: r, expr: q }) => o == r && same(p, q),
        (ExprKind::Binary { op: o, lhs: p, rhs: p2, op_ty: t }, ExprKind::Binary { op: r, lhs: q, rhs: q2, op_ty: u }) => o == r && t == u && same(p, q) && same(p2, q2),
        (ExprKind::PtrOffset { ptr: p, offset: p2, sub: s }, ExprKind::PtrOffset { ptr: q, offset: q2, sub: t }) => s == t && same(p, q) && same(p2, q2),
        (ExprKind::PtrDiff { lhs: p, rhs: p2 }, ExprKind::PtrDiff { lhs: q, rhs: q2 }) | (ExprKind::Index { base: p, index: p2 }, ExprKind::Index { base: q, index: q2 }) => same(p, q) && same(p2, q2),
        (ExprKind::Member { base: p, field: f }, ExprKind::Member { base: q, field: g }) => f == g && same(p, q),
        (ExprKind::Swizzle { base: p, lanes: l }, ExprKind::Swizzle { base: q, lanes: m }) => l == m && same(p, q),
        (ExprKind::VectorLiteral(p), ExprKind::VectorLiteral(q)) => all(p, q),
        (ExprKind::BuiltinCall { name: m, args: p, .. }, ExprKind::BuiltinCall { name: n, args: q, .. }) => m == n && all(p, q),
        (ExprKind::Cond { cond: c, then: p, else_: p2 }, ExprKind::Cond { cond: d, then: q, else_: q2 }) => same(c, d) && same(p, q) && same(p2, q2),
        _ => false,
    }
}

pub(super) fn deep(exprs: &[hir::Expr], root: ExprId, f: &mut dyn FnMut(ExprId)) {
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        f(e);
        children_of(exprs, e, &mut |x| stack.push(x));
    }
}

/// Calls `f` on `root` and its subexpressions evaluated where it is: not
/// those in the bodies of block literals, which run where the block is
/// called or enqueued (an enqueued block's work-group functions are its
/// own groups', computed in its own entry).
fn deep_here(exprs: &[hir::Expr], root: ExprId, f: &mut dyn FnMut(ExprId)) {
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        f(e);
        if !matches!(exprs[e.0 as usize].kind, ExprKind::BlockLiteral { .. }) {
            children_of(exprs, e, &mut |x| stack.push(x));
        }
    }
}

/// [`deep_here`] over every expression of a statement.
fn visit_stmt_here(exprs: &[hir::Expr], s: &Stmt, f: &mut dyn FnMut(ExprId)) {
    visit_stmt(s, &mut |e| deep_here(exprs, e, f));
}

/// The direct operands of an expression.
fn deep_children(exprs: &[hir::Expr], e: ExprId, out: &mut Vec<ExprId>) {
    children_of(exprs, e, &mut |x| out.push(x));
}

/// Calls `f` on the direct operands of `e`.
fn children_of(exprs: &[hir::Expr], e: ExprId, f: &mut dyn FnMut(ExprId)) {
    match &exprs[e.0 as usize].kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::BuiltinConst(_) | ExprKind::Func(_) => {}
        ExprKind::Load(x) | ExprKind::Convert { expr: x, .. } | ExprKind::Unary { expr: x, .. } | ExprKind::IncDec { expr: x, .. } => f(*x),
        ExprKind::AddrOf(x) | ExprKind::Deref(x) | ExprKind::Member { base: x, .. } | ExprKind::Swizzle { base: x, .. } => f(*x),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Assign { lhs, rhs } | ExprKind::CompoundAssign { lhs, rhs, .. } | ExprKind::Comma { lhs, rhs } | ExprKind::PtrDiff { lhs, rhs } => {
            f(*lhs);
            f(*rhs);
        }
        ExprKind::PtrOffset { ptr: x, offset: y, .. } | ExprKind::Index { base: x, index: y } => {
            f(*x);
            f(*y);
        }
        ExprKind::Cond { cond, then, else_ } => [*cond, *then, *else_].into_iter().for_each(f),
        ExprKind::VectorLiteral(xs) | ExprKind::Call { args: xs, .. } | ExprKind::BuiltinCall { args: xs, .. } => xs.iter().copied().for_each(f),
        ExprKind::CallValue { callee, args } => {
            f(*callee);
            args.iter().copied().for_each(f);
        }
        ExprKind::CompoundLiteral(i) => visit_init(i, f),
        ExprKind::BlockLiteral { body, .. } => body.iter().for_each(|s| visit_stmt(s, f)),
        ExprKind::StmtExpr { body, value } => {
            body.iter().for_each(|s| visit_stmt(s, f));
            value.iter().copied().for_each(f);
        }
    }
}

/// Calls `f` on every top-level expression of a statement.
fn visit_stmt(s: &Stmt, f: &mut dyn FnMut(ExprId)) {
    match s {
        Stmt::Expr(e) | Stmt::Return(Some(e)) => f(*e),
        Stmt::Local { init, .. } => {
            if let Some(i) = init {
                visit_init(i, f);
            }
        }
        Stmt::If { cond, then, else_ } => {
            f(*cond);
            then.iter().for_each(|s| visit_stmt(s, f));
            if let Some(e) = else_ {
                e.iter().for_each(|s| visit_stmt(s, f));
            }
        }
        Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
            f(*cond);
            body.iter().for_each(|s| visit_stmt(s, f));
        }
        Stmt::For { init, cond, step, body, .. } => {
            init.iter().for_each(|s| visit_stmt(s, f));
            cond.iter().chain(step.iter()).for_each(|e| f(*e));
            body.iter().for_each(|s| visit_stmt(s, f));
        }
        Stmt::Switch { cond, body, .. } => {
            f(*cond);
            body.iter().for_each(|s| visit_stmt(s, f));
        }
        Stmt::Block(b) => b.iter().for_each(|s| visit_stmt(s, f)),
        Stmt::Return(None) | Stmt::Case(_) | Stmt::Label(_) | Stmt::Goto(_) | Stmt::Break | Stmt::Continue => {}
    }
}

fn visit_init(i: &Init, f: &mut dyn FnMut(ExprId)) {
    match i {
        Init::Expr(e) => f(*e),
        Init::List(items) => items.iter().for_each(|(_, i)| visit_init(i, f)),
    }
}
