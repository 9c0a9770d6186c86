//! Device-side enqueue on the CPU target (OpenCL C 2.0 §6.13.17).
//!
//! `ndrange_t` is clang's struct (`size_t` work dimension, offsets,
//! global and local sizes; the runtime's `abi::NdRangeDesc`). A block
//! given to `enqueue_kernel` gets a work-group entry like a kernel's,
//! `__clc_wg_<invoke>(args, group)`, whose work-items call the block's
//! invoke function with the block object (argument 0) and the `__local`
//! pointers of the size arguments (1..) — or, where the block
//! synchronises its group, that lowers the literal's body for the whole
//! group in regions as a kernel's (`regions::GroupBody`); the call hands
//! the runtime that entry, its flags and a copy of the block object
//! through the queue's
//! `enqueue` function (`abi::QueueDesc`), and the runtime runs the child
//! after the parent launch. Event functions call the queue's `event`
//! function; a `queue_t` is a pointer to the queue (`get_default_queue`
//! reads `ClcGroup::queue`). SPIR-V has its own lowering
//! (`spirv_enqueue.rs`); this module must not be reached there.

use super::regions::GroupBody;
use super::uniform::Plan;
use super::{Gen, R, ice};
use crate::source::Span;
use crate::sema::hir::{ExprId, ExprKind};
use crate::sema::types::TypeId;
use clc_builtins::functions::{AddrSpace, EnqueueOp, Lowering};
use clc_runtime::abi::{EVENT_CREATE_USER, EVENT_IS_VALID, EVENT_PROFILING, EVENT_RELEASE, EVENT_RETAIN, EVENT_SET_STATUS, FLAG_GROUP_SYNC, FLAG_ITEM_THREADS};
use inkwell::module::Linkage;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue};

/// `ClcGroup::queue`'s offset, and `QueueDesc`'s functions'.
const GROUP_QUEUE: u64 = std::mem::offset_of!(clc_runtime::abi::Group, queue) as u64;
const QUEUE_ENQUEUE: u64 = std::mem::offset_of!(clc_runtime::abi::QueueDesc, enqueue) as u64;
const QUEUE_EVENT: u64 = std::mem::offset_of!(clc_runtime::abi::QueueDesc, event) as u64;

/// What `get_kernel_preferred_work_group_size_multiple` answers (but
/// for blocks run in groups of one): the vector width work-item loops are
/// vectorised by.
const PREFERRED_MULTIPLE: u64 = 8;

/// How an enqueued block's work-group entry runs its groups (see
/// [`Gen::block_entry`]).
struct BlockLaunch<'a> {
    /// The literal's body seen as a kernel's, and how many of its
    /// parameters are captured variables (the rest are its own).
    body: GroupBody<'a>,
    num_captures: usize,
    /// The body's plan, where the entry lowers it in regions.
    regions: Option<Plan>,
    /// The entry's launch flags (`FLAG_*`).
    flags: u64,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// An `Lowering::Enqueue` builtin on the CPU target.
    pub(super) fn enqueue_builtin(&mut self, op: EnqueueOp, args: &[ExprId], ty: TypeId, span: Span) -> R<Option<BasicValueEnum<'ctx>>> {
        let i64t = self.ctx.i64_type();
        let r: BasicValueEnum<'ctx> = match op {
            EnqueueOp::NdRange { dims } => return self.ndrange(dims, args, ty).map(Some),
            EnqueueOp::GetDefaultQueue => self.default_queue()?.into(),
            EnqueueOp::WorkGroupSize | EnqueueOp::PreferredWorkGroupSizeMultiple => {
                let n = self.block_work_group_size(args[0], op == EnqueueOp::PreferredWorkGroupSizeMultiple)?;
                self.int_result(i64t.const_int(n, false), ty)?
            }
            // A sub-group is one work-item: as many as the group has.
            EnqueueOp::MaxSubGroupSizeForNdRange => self.int_result(i64t.const_int(1, false), ty)?,
            EnqueueOp::SubGroupCountForNdRange => {
                let nd = self.aggregate_ptr(args[0])?;
                let mut n = i64t.const_int(1, false);
                let zero = i64t.const_zero();
                let l0 = self.load_i64(nd, 56)?;
                let chosen = self.b.build_int_compare(inkwell::IntPredicate::EQ, l0, zero, "")?;
                // The runtime's choice where the range leaves it open.
                let g0 = self.load_i64(nd, 32)?;
                let cap = i64t.const_int(256, false);
                let small = self.b.build_int_compare(inkwell::IntPredicate::ULT, g0, cap, "")?;
                let pick = self.b.build_select(small, g0, cap, "")?.into_int_value();
                for d in 0..3u64 {
                    let l = self.load_i64(nd, 56 + 8 * d)?;
                    let v = if d == 0 { self.b.build_select(chosen, pick, l, "")?.into_int_value() } else { l };
                    let one = i64t.const_int(1, false);
                    let is0 = self.b.build_int_compare(inkwell::IntPredicate::EQ, v, zero, "")?;
                    let v = self.b.build_select(is0, one, v, "")?.into_int_value();
                    n = self.b.build_int_mul(n, v, "")?;
                }
                self.int_result(n, ty)?
            }
            EnqueueOp::Kernel { events, local_sizes } => {
                let q = self.value(args[0])?.into_pointer_value();
                let nd = self.aggregate_ptr(args[2])?;
                let (num_events, wait_list, ret_event, rest) = if events {
                    let n = self.value(args[3])?.into_int_value();
                    let n = self.b.build_int_z_extend_or_bit_cast(n, i64t, "")?;
                    (n, self.value(args[4])?, self.value(args[5])?, &args[6..])
                } else {
                    let null = self.ptr_ty(AddrSpace::Private).const_null();
                    (i64t.const_zero(), null.into(), null.into(), &args[3..])
                };
                let block = rest[0];
                let sizes = if local_sizes { &rest[1..] } else { &[][..] };
                let obj = self.value(block)?;
                let Some((entry, size, flags)) = self.block_entry(block, sizes.len(), span)? else { return self.zero_of(ty) };
                let nloc = sizes.len() as u64;
                let arr = self.at_entry(|g| Ok(g.b.build_alloca(i64t.array_type(nloc.max(1) as u32), "local.sizes")?))?;
                for (i, &s) in sizes.iter().enumerate() {
                    let v = self.value(s)?.into_int_value();
                    let v = self.b.build_int_z_extend_or_bit_cast(v, i64t, "")?;
                    let slot = self.byte_offset(arr, 8 * i as u64)?;
                    self.b.build_store(slot, v)?;
                }
                let entry = entry.as_global_value().as_pointer_value();
                let vals = [entry.into(), i64t.const_int(flags, false).into(), obj, i64t.const_int(size, false).into(), nd.into(), i64t.const_int(nloc, false).into(), arr.into(), num_events.into(), wait_list, ret_event];
                self.call_queue_enqueue(q, &vals, ty)?
            }
            EnqueueOp::Marker => {
                let q = self.value(args[0])?.into_pointer_value();
                let n = self.value(args[1])?.into_int_value();
                let n = self.b.build_int_z_extend_or_bit_cast(n, i64t, "")?;
                let null = self.ptr_ty(AddrSpace::Private).const_null();
                let vals = [null.into(), i64t.const_zero().into(), null.into(), i64t.const_zero().into(), null.into(), i64t.const_zero().into(), null.into(), n.into(), self.value(args[2])?, self.value(args[3])?];
                self.call_queue_enqueue(q, &vals, ty)?
            }
            EnqueueOp::RetainEvent | EnqueueOp::ReleaseEvent | EnqueueOp::IsValidEvent | EnqueueOp::SetUserEventStatus | EnqueueOp::CaptureEventProfilingInfo | EnqueueOp::CreateUserEvent => {
                let (code, event, arg, out) = match op {
                    EnqueueOp::RetainEvent => (EVENT_RETAIN, Some(args[0]), None, None),
                    EnqueueOp::ReleaseEvent => (EVENT_RELEASE, Some(args[0]), None, None),
                    EnqueueOp::IsValidEvent => (EVENT_IS_VALID, Some(args[0]), None, None),
                    EnqueueOp::SetUserEventStatus => (EVENT_SET_STATUS, Some(args[0]), Some(args[1]), None),
                    EnqueueOp::CaptureEventProfilingInfo => (EVENT_PROFILING, Some(args[0]), Some(args[1]), Some(args[2])),
                    _ => (EVENT_CREATE_USER, None, None, None),
                };
                let null: BasicValueEnum = self.ptr_ty(AddrSpace::Private).const_null().into();
                let event = match event {
                    Some(e) => self.value(e)?,
                    None => null,
                };
                let arg = match arg {
                    Some(a) => {
                        let v = self.value(a)?.into_int_value();
                        self.b.build_int_s_extend_or_bit_cast(v, i64t, "")?
                    }
                    None => i64t.const_zero(),
                };
                let out = match out {
                    Some(o) => self.value(o)?,
                    None => null,
                };
                let r = self.call_queue_event(code, event, arg, out)?;
                match op {
                    EnqueueOp::CreateUserEvent => {
                        let p = self.b.build_int_to_ptr(r, self.ptr_ty(AddrSpace::Global), "")?;
                        let t = self.vty(ty)?;
                        if t.is_pointer_type() { self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, p.into(), t) } else { p.into() }
                    }
                    EnqueueOp::IsValidEvent => self.int_result(r, ty)?,
                    _ => return Ok(None),
                }
            }
        };
        Ok(Some(r))
    }

    /// An integer result converted to the builtin's type.
    pub(super) fn int_result(&mut self, v: IntValue<'ctx>, ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let t = self.vty(ty)?.into_int_type();
        if t.get_bit_width() == 1 {
            let zero = v.get_type().const_zero();
            return Ok(self.b.build_int_compare(inkwell::IntPredicate::NE, v, zero, "")?.into());
        }
        Ok(self.b.build_int_truncate_or_bit_cast(v, t, "")?.into())
    }

    /// `ClcGroup::queue` of the running group.
    fn default_queue(&mut self) -> R<PointerValue<'ctx>> {
        let g = self.group_ptr()?;
        let slot = self.byte_offset(g, GROUP_QUEUE)?;
        Ok(self.b.build_load(self.ptr_ty(AddrSpace::Global), slot, "queue")?.into_pointer_value())
    }

    /// `queue->enqueue(queue, vals…)`, its `int` result converted to `ty`.
    fn call_queue_enqueue(&mut self, q: PointerValue<'ctx>, vals: &[BasicValueEnum<'ctx>], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let ptr = self.ptr_ty(AddrSpace::Private);
        let slot = self.byte_offset(q, QUEUE_ENQUEUE)?;
        let f = self.b.build_load(ptr, slot, "enqueue")?.into_pointer_value();
        let mut args: Vec<BasicMetadataValueEnum> = vec![q.into()];
        let mut params = vec![q.get_type().into()];
        for &v in vals {
            args.push(v.into());
            params.push(v.get_type().into());
        }
        let fty = self.ctx.i32_type().fn_type(&params, false);
        let call = self.b.build_indirect_call(fty, f, &args, "enqueued")?;
        let Some(r) = call.try_as_basic_value().basic() else { return ice("enqueue gave no status") };
        self.int_result(r.into_int_value(), ty)
    }

    /// `queue->event(queue, code, event, arg, out)` on the default queue.
    fn call_queue_event(&mut self, code: u64, event: BasicValueEnum<'ctx>, arg: IntValue<'ctx>, out: BasicValueEnum<'ctx>) -> R<IntValue<'ctx>> {
        let q = self.default_queue()?;
        let ptr = self.ptr_ty(AddrSpace::Private);
        let i64t = self.ctx.i64_type();
        let slot = self.byte_offset(q, QUEUE_EVENT)?;
        let f = self.b.build_load(ptr, slot, "event")?.into_pointer_value();
        let fty = i64t.fn_type(&[q.get_type().into(), i64t.into(), event.get_type().into(), i64t.into(), out.get_type().into()], false);
        let call = self.b.build_indirect_call(fty, f, &[q.into(), i64t.const_int(code, false).into(), event.into(), arg.into(), out.into()], "")?;
        let Some(r) = call.try_as_basic_value().basic() else { return ice("an event operation gave no value") };
        Ok(r.into_int_value())
    }

    /// The work-group entry for the block `block` evaluates to (generated
    /// once per invoke function), its block object's size and the entry's
    /// launch flags; `None` after a diagnostic. As a kernel's: a block
    /// that synchronises its group (or has loops the group runs in
    /// lockstep) has its body lowered for the whole group in regions, its
    /// captured variables and `__local` pointers bound as a kernel's
    /// arguments; where the regions do not express it, a block that only
    /// meets at barriers runs a thread per work-item (`FLAG_ITEM_THREADS`,
    /// the entry running the one work-item the runtime names) and one with
    /// work-group functions or async copies runs groups of one work-item
    /// (`FLAG_GROUP_SYNC` alone: the runtime refuses larger ones).
    fn block_entry(&mut self, block: ExprId, num_locals: usize, span: Span) -> R<Option<(FunctionValue<'ctx>, u64, u64)>> {
        // The checker lets blocks be named or written only.
        let Some(b) = self.block_of(block) else { return ice("an enqueued block that is not a block variable or literal") };
        if let Some(&(e, flags)) = self.block_entries.get(&b.invoke) {
            return Ok(Some((e, b.size, flags)));
        }
        let BlockLaunch { body, num_captures, regions, flags } = self.block_launch(b.literal)?;
        let ptr = self.ptr_ty(AddrSpace::Private);
        let i64t = self.ctx.i64_type();
        let fty = self.ctx.void_type().fn_type(&[ptr.into(), ptr.into()], false);
        let name = format!("__clc_wg_{}", b.invoke.get_name().to_string_lossy());
        let f = self.module.add_function(&name, fty, Some(Linkage::Internal));
        self.add_fn_attr(f, "nounwind");
        self.build_body(f, &name, span, true, |g| {
            let (Some(args), Some(group)) = (f.get_nth_param(0), f.get_nth_param(1)) else { return ice("a work-group entry without its parameters") };
            let (args, group) = (args.into_pointer_value(), group.into_pointer_value());
            let Some(bb) = g.b.get_insert_block() else { return ice("a work-group entry without its entry block") };
            let wi = g.b.build_alloca(i64t.array_type(4), "wi")?;
            let gslot = g.byte_offset(wi, 24)?;
            g.b.build_store(gslot, group)?;
            // The block object (argument 0), then the `__local` pointers.
            let mut vals: Vec<BasicMetadataValueEnum> = Vec::new();
            for i in 0..=num_locals as u64 {
                let slot = g.byte_offset(args, 8 * i)?;
                let vp = g.b.build_load(ptr, slot, "")?.into_pointer_value();
                let v = g.b.build_load(ptr, vp, "")?;
                let space = if i == 0 { AddrSpace::Generic } else { AddrSpace::Local };
                vals.push(g.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, v, g.ptr_ty(space).into()).into());
            }
            if let Some(plan) = regions {
                // The body's parameters: the captured variables read from
                // the object, then the `__local` pointers. Its local sizes
                // are the child's own (no `reqd_work_group_size`).
                let BasicMetadataValueEnum::PointerValue(obj) = vals[0] else { return ice("a block object that is not a pointer") };
                let cap_types: Vec<TypeId> = body.params[..num_captures].iter().map(|l| body.func.locals[l.0 as usize].ty.ty).collect();
                let mut args: Vec<BasicMetadataValueEnum> = g.captured_values(&cap_types, obj)?.into_iter().map(Into::into).collect();
                args.extend_from_slice(&vals[1..]);
                if args.len() != body.params.len() {
                    return ice("an enqueued block's `__local` sizes do not match its parameters");
                }
                let reqd = g.reqd_size.take();
                let r = g.region_entry(f, bb, &body, plan, wi, &args);
                g.reqd_size = reqd;
                return r;
            }
            vals.push(wi.into());
            if flags & u64::from(FLAG_ITEM_THREADS) != 0 {
                g.only_item(f, group, wi, b.invoke, &vals)?;
            }
            let mut sizes = [i64t.const_zero(); 3];
            for (k, s) in sizes.iter_mut().enumerate() {
                *s = g.load_i64(group, 56 + 8 * k as u64)?;
            }
            let (loops, _, _) = g.open_item_loops(wi, &sizes, None, None)?;
            g.b.build_call(b.invoke, &vals, "")?;
            g.close_item_loops(loops)?;
            g.b.build_return(None)?;
            Ok(())
        })?;
        self.flush_denormals_in(f)?;
        self.block_entries.insert(b.invoke, (f, flags));
        Ok(Some((f, b.size, flags)))
    }

    /// How the entry of the block literal `literal` runs its groups.
    fn block_launch(&self, literal: ExprId) -> R<BlockLaunch<'a>> {
        let (synchronises, barriers_only) = self.block_synchronisation(literal);
        let (body, num_captures) = self.block_group_body(literal)?;
        let plan = self.group_plan(&body);
        let regions = ((synchronises || !plan.group.is_empty()) && self.regions_can_express(&body)).then_some(plan);
        let flags = match (regions.is_some(), synchronises, barriers_only) {
            (false, true, true) => FLAG_GROUP_SYNC | FLAG_ITEM_THREADS,
            (false, true, false) => FLAG_GROUP_SYNC,
            _ => 0,
        };
        Ok(BlockLaunch { body, num_captures, regions, flags: u64::from(flags) })
    }

    /// `get_kernel_work_group_size` (`preferred` false) or
    /// `get_kernel_preferred_work_group_size_multiple` of the block
    /// `block`: 1 for a block whose entry runs groups of one work-item
    /// (see [`Gen::block_entry`]), the runtime's limit and the vector
    /// width work-item loops are vectorised by for the others.
    fn block_work_group_size(&self, block: ExprId, preferred: bool) -> R<u64> {
        let one_item = match self.literal_of(block) {
            Some(literal) => self.block_launch(literal)?.flags == u64::from(FLAG_GROUP_SYNC),
            None => false,
        };
        Ok(match (one_item, preferred) {
            (true, _) => 1,
            (false, false) => clc_runtime::MAX_WORK_GROUP_SIZE as u64,
            (false, true) => PREFERRED_MULTIPLE,
        })
    }

    /// The body of the block literal `literal` seen as a kernel's for the
    /// region lowering, and how many variables it captures: its
    /// parameters are the block's captured variables, then its own (the
    /// `__local` pointers), each one value for the whole group.
    fn block_group_body(&self, literal: ExprId) -> R<(GroupBody<'a>, usize)> {
        let Some(func) = self.current_function() else { return ice("an enqueued block outside the program's functions") };
        let Some(ExprKind::BlockLiteral { params, body }) = func.exprs.get(literal.0 as usize).map(|e| &e.kind) else { return ice("an enqueued block that is not a literal") };
        let mut all = self.captures(params, body);
        let num_captures = all.len();
        all.extend_from_slice(params);
        Ok((GroupBody { func, params: all, body, uniform_params: true }, num_captures))
    }

    /// Does the block literal's body (or a function it calls) synchronise
    /// its work-group, and if so with barriers only?
    fn block_synchronisation(&self, literal: ExprId) -> (bool, bool) {
        let exprs = self.fs().exprs;
        let ExprKind::BlockLiteral { body, .. } = &self.expr_info(literal).kind else { return (false, true) };
        let (mut synchronises, mut barriers_only) = (false, true);
        for s in body.iter() {
            super::regions::visit_stmt_deep(exprs, s, &mut |e| match &exprs[e.0 as usize].kind {
                ExprKind::BuiltinCall { overload, .. } => match overload.lowering {
                    Lowering::Barrier(_) => synchronises = true,
                    Lowering::WorkGroup(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents => (synchronises, barriers_only) = (true, false),
                    _ => {}
                },
                ExprKind::Call { func: Some(fid), .. } if self.synchronises(fid.0 as usize) => {
                    synchronises = true;
                    barriers_only &= self.barriers_only(fid.0 as usize);
                }
                _ => {}
            });
        }
        (synchronises, barriers_only)
    }
}
