//! The CPU runtime's ABI (native targets).
//!
//! Every function clc defines takes a hidden last parameter, the
//! work-item (`ClcWorkItem *`); the work-item functions read it and the
//! work-group it points to. Each kernel `k` gets a work-group entry point
//!
//! ```c
//! void __clc_wg_k(void **args, const ClcGroup *group);
//! ```
//!
//! which runs every work-item of the group in a loop (x innermost, so the
//! loop vectorises over work-items) — for a kernel that neither
//! synchronises nor is lowered in regions (`FLAG_ONE_ROW`), the work-items
//! of the row `group->row` names, the runtime calling it for each row —
//! reading argument `i` from
//! `*args[i]`. A kernel's `__local` variables live in the group's local
//! memory (`group->local_mem`, `KernelDesc::local_mem` bytes). The module
//! exports `__clc_kernel_table`, which describes every kernel to the
//! runtime (`clc_runtime::abi` mirrors these layouts):
//!
//! ```c
//! struct ClcGroup { u32 work_dim, pad; u64 global_offset[3], global_size[3],
//!                   local_size[3], enqueued_local_size[3], num_groups[3],
//!                   group_id[3]; void *local_mem; void (*barrier)(void *);
//!                   void *barrier_ctx; const u64 *only_item;
//!                   u64 global_base[3], row[2], local_mem_size, stack[2];
//!                   ClcQueue *queue; };
//! struct ClcWorkItem { u64 local_id[3]; const ClcGroup *group; };
//! struct ArgDesc { u32 kind, size, align, image; const char *type_name, *name; };
//! struct KernelDesc { const char *name; void (*entry)(void **, const ClcGroup *);
//!                     u32 num_args, flags, reqd_work_group_size[3], pad;
//!                     u64 local_mem; const ArgDesc *args; };
//! struct KernelTable { u32 version, count; const KernelDesc *kernels; };
//! ```
//!
//! `ArgDesc::image` is an image parameter's type and access qualifier
//! (`abi::IMAGE_*`); the argument itself is a pointer to the runtime's
//! image descriptor (`images.rs`), and a `sampler_t` argument its 32-bit
//! `CLK_*` encoding.

use super::regions::GroupBody;
use super::{Gen, R, ice};
use crate::sema::hir::{self, ExprId, ExprKind, LocalId};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::{AddrSpace, Lowering, WorkItemFn};
use clc_builtins::types::Opaque;
use inkwell::module::Linkage;
use inkwell::values::BasicValue;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

/// The work-item loops over a group: an outer loop over the rows (y and z
/// together, so a group costs two loops, not three) and the x loop inside;
/// or the x loop alone, over the row the runtime names (`Group::row`).
pub(super) struct ItemLoops<'ctx> {
    rows: Option<RowLoop<'ctx>>,
    x_head: inkwell::basic_block::BasicBlock<'ctx>,
    x_iv: inkwell::values::PhiValue<'ctx>,
    x_exit: inkwell::basic_block::BasicBlock<'ctx>,
}

/// The loop over a group's rows (see [`ItemLoops`]).
struct RowLoop<'ctx> {
    head: inkwell::basic_block::BasicBlock<'ctx>,
    exit: inkwell::basic_block::BasicBlock<'ctx>,
    /// The row's linear index, y and z.
    ivs: [inkwell::values::PhiValue<'ctx>; 3],
    /// The group's size along y, where z steps.
    size_y: IntValue<'ctx>,
}

/// What the runtime guarantees of the values in `ClcGroup` and
/// `ClcWorkItem` (half-open ranges, see [`clc_runtime::MAX_GLOBAL_ID`]):
/// offsets and global sizes below 2^62, at most 2^50 groups a dimension,
/// and every global id below 2^62, `global_base` (the group's first) too.
/// So `global_base + local_id` never wraps, and scalar
/// evolution sees from these ranges alone that global ids are
/// non-negative: range-check elimination then needs no loop for the
/// work-items before a kernel's `get_global_id(0) < n` test turns true.
const OFFSET_RANGE: (u64, u64) = (0, clc_runtime::MAX_GLOBAL_ID as u64);
const SIZE_RANGE: (u64, u64) = (1, clc_runtime::MAX_GLOBAL_ID as u64 + 1);
const GROUP_ID_RANGE: (u64, u64) = (0, clc_runtime::MAX_GROUPS as u64);
const NUM_GROUPS_RANGE: (u64, u64) = (1, clc_runtime::MAX_GROUPS as u64 + 1);
const LOCAL_SIZE_RANGE: (u64, u64) = (1, clc_runtime::MAX_WORK_GROUP_SIZE as u64 + 1);
const LOCAL_ID_RANGE: (u64, u64) = (0, clc_runtime::MAX_WORK_GROUP_SIZE as u64);

/// `ClcGroup` field offsets.
const WORK_DIM: u64 = 0;
const GLOBAL_OFFSET: u64 = 8;
const GLOBAL_SIZE: u64 = 32;
const LOCAL_SIZE: u64 = 56;
const ENQUEUED_LOCAL_SIZE: u64 = 80;
const NUM_GROUPS: u64 = 104;
const GROUP_ID: u64 = 128;
const LOCAL_MEM: u64 = 152;
const BARRIER: u64 = 160;
const BARRIER_CTX: u64 = 168;
const ONLY_ITEM: u64 = 176;
/// `group_id * enqueued_local_size + global_offset`, which the runtime
/// fills in: a global id is `global_base + local_id`, one loop-invariant
/// term where the three of `group_id`, `enqueued_local_size` and
/// `global_offset` made every address a sum of four (scalar evolution,
/// range-check elimination and strength reduction all cost more per term).
const GLOBAL_BASE: u64 = 184;
/// The y and z ids of the row a `FLAG_ONE_ROW` kernel's entry runs.
const ROW: u64 = 208;
/// The bytes of `local_mem`, and the running thread's stack `[lo, end)`:
/// what tells a generic pointer's address space.
const LOCAL_MEM_SIZE: u64 = 224;
const STACK: u64 = 232;
/// `ClcWorkItem`: the local id, then the group pointer.
const WI_GROUP: u64 = 24;
const WI_SIZE: u64 = 32;

// The table's version, argument kinds and flags: the runtime's own
// constants, so both sides agree by construction.
use clc_runtime::abi::{ABI_VERSION, ARG_CONSTANT, ARG_GLOBAL, ARG_IMAGE, ARG_LOCAL, ARG_PIPE, ARG_QUEUE, ARG_SAMPLER, ARG_VALUE, FLAG_GROUP_FREE, FLAG_GROUP_SYNC, FLAG_ITEM_THREADS, FLAG_ONE_ROW};
/// Parameters of other types: no kind the runtime knows, so it
/// refuses them.
const ARG_OTHER: u32 = 0xFF;

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// Do functions follow the CPU runtime's ABI?
    pub(super) fn cpu_abi(&self) -> bool {
        !self.spirv()
    }

    /// The current function's work-item parameter.
    pub(super) fn wi(&self) -> R<PointerValue<'ctx>> {
        match self.fs().wi {
            Some(p) => Ok(p),
            None => ice("a work-item function outside a function with the work-item parameter"),
        }
    }

    /// In a work-group entry run with a thread per work-item
    /// (`FLAG_ITEM_THREADS`): where the group names the one work-item
    /// (`only_item`), its ids into `wi`, `callee(args)` and return; the
    /// builder is left where the runtime runs every work-item.
    pub(super) fn only_item(&mut self, entry: FunctionValue<'ctx>, group: PointerValue<'ctx>, wi: PointerValue<'ctx>, callee: FunctionValue<'ctx>, args: &[BasicMetadataValueEnum<'ctx>]) -> R<()> {
        let ptr_ty = self.ptr_ty(AddrSpace::Private);
        let slot = self.byte_offset(group, ONLY_ITEM)?;
        let only = self.b.build_load(ptr_ty, slot, "only")?.into_pointer_value();
        let one = self.ctx.append_basic_block(entry, "one.item");
        let all = self.ctx.append_basic_block(entry, "all.items");
        let is_one = self.b.build_is_not_null(only, "")?;
        self.b.build_conditional_branch(is_one, one, all)?;
        self.b.position_at_end(one);
        for k in 0..3u64 {
            let id = self.i64_at(only, 8 * k)?;
            let dst = self.byte_offset(wi, 8 * k)?;
            self.b.build_store(dst, id)?;
        }
        self.b.build_call(callee, args, "")?;
        self.b.build_return(None)?;
        self.b.position_at_end(all);
        Ok(())
    }

    fn i64_at(&mut self, base: PointerValue<'ctx>, off: u64) -> R<IntValue<'ctx>> {
        let p = self.byte_offset(base, off)?;
        let v = self.b.build_load(self.ctx.i64_type(), p, "")?;
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_alignment(8);
        }
        Ok(v.into_int_value())
    }

    pub(super) fn group_ptr(&mut self) -> R<PointerValue<'ctx>> {
        let wi = self.wi()?;
        let p = self.byte_offset(wi, WI_GROUP)?;
        Ok(self.b.build_load(self.ptr_ty(AddrSpace::Private), p, "group")?.into_pointer_value())
    }

    /// Whether generic pointer `p` points into `space` (an `i1`): one
    /// address space on the CPU, told apart by address. Local memory is
    /// the group's `local_mem`, private memory the running thread's stack
    /// (every private variable is on it), global memory the rest; null is
    /// in none.
    pub(super) fn points_into(&mut self, p: PointerValue<'ctx>, space: AddrSpace) -> R<IntValue<'ctx>> {
        let i64t = self.ctx.i64_type();
        let addr = self.b.build_ptr_to_int(p, i64t, "addr")?;
        let g = self.group_ptr()?;
        let within = |s: &mut Self, lo: IntValue<'ctx>, len: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let rel = s.b.build_int_sub(addr, lo, "")?;
            Ok(s.b.build_int_compare(IntPredicate::ULT, rel, len, "")?)
        };
        let mp = self.byte_offset(g, LOCAL_MEM)?;
        let mem = self.b.build_load(self.ptr_ty(AddrSpace::Private), mp, "local_mem")?.into_pointer_value();
        let mem = self.b.build_ptr_to_int(mem, i64t, "")?;
        let size = self.i64_at(g, LOCAL_MEM_SIZE)?;
        let local = within(self, mem, size)?;
        if space == AddrSpace::Local {
            return Ok(local);
        }
        let lo = self.i64_at(g, STACK)?;
        let end = self.i64_at(g, STACK + 8)?;
        let len = self.b.build_int_sub(end, lo, "")?;
        let private = within(self, lo, len)?;
        if space == AddrSpace::Private {
            return Ok(private);
        }
        let elsewhere = self.b.build_or(local, private, "")?;
        let null = self.b.build_int_compare(IntPredicate::EQ, addr, i64t.const_zero(), "")?;
        let not_global = self.b.build_or(elsewhere, null, "")?;
        Ok(self.b.build_not(not_global, "global")?)
    }

    /// `array[d]` of a 3-element `u64` array at `off` in `base`, or
    /// `default` when `d` is not 0, 1 or 2; the array's values are in
    /// `range` (half-open, marked `!range` for the optimiser).
    fn dim_at(&mut self, base: PointerValue<'ctx>, off: u64, d: IntValue<'ctx>, default: u64, range: (u64, u64)) -> R<IntValue<'ctx>> {
        let i64t = self.ctx.i64_type();
        let d = self.b.build_int_z_extend_or_bit_cast(d, i64t, "")?;
        let in_range = self.b.build_int_compare(IntPredicate::ULT, d, i64t.const_int(3, false), "")?;
        // Index with a clamped dimension, then pick the default: no
        // out-of-bounds load for a bad dimension.
        let safe = self.b.build_select(in_range, d, i64t.const_zero(), "")?.into_int_value();
        let base = self.byte_offset(base, off)?;
        // SAFETY: address arithmetic inside the 3-element array.
        let p = unsafe { self.b.build_in_bounds_gep(i64t, base, &[safe], "")? };
        let v = self.b.build_load(i64t, p, "")?.into_int_value();
        // What the runtime guarantees (see `OFFSET_RANGE`).
        self.mark_range(v, range)?;
        Ok(self.b.build_select(in_range, v, i64t.const_int(default, false), "")?.into_int_value())
    }

    /// A work-item function, from the work-item and its group.
    pub(super) fn work_item(&mut self, f: WorkItemFn, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let d = match args.first() {
            Some(&a) => Some(self.value(a)?.into_int_value()),
            None => None,
        };
        let i64t = self.ctx.i64_type();
        let wi = self.wi()?;
        let g = self.group_ptr()?;
        let zero = self.ctx.i32_type().const_zero();
        let v: IntValue = match f {
            WorkItemFn::WorkDim => {
                let p = self.byte_offset(g, WORK_DIM)?;
                self.b.build_load(self.ctx.i32_type(), p, "")?.into_int_value()
            }
            WorkItemFn::LocalId => self.dim_at(wi, 0, d.unwrap_or(zero), 0, LOCAL_ID_RANGE)?,
            WorkItemFn::GroupId => self.dim_at(g, GROUP_ID, d.unwrap_or(zero), 0, GROUP_ID_RANGE)?,
            WorkItemFn::LocalSize => self.dim_at(g, LOCAL_SIZE, d.unwrap_or(zero), 1, LOCAL_SIZE_RANGE)?,
            WorkItemFn::EnqueuedLocalSize => self.dim_at(g, ENQUEUED_LOCAL_SIZE, d.unwrap_or(zero), 1, LOCAL_SIZE_RANGE)?,
            WorkItemFn::GlobalSize => self.dim_at(g, GLOBAL_SIZE, d.unwrap_or(zero), 1, SIZE_RANGE)?,
            WorkItemFn::NumGroups => self.dim_at(g, NUM_GROUPS, d.unwrap_or(zero), 1, NUM_GROUPS_RANGE)?,
            WorkItemFn::GlobalOffset => self.dim_at(g, GLOBAL_OFFSET, d.unwrap_or(zero), 0, OFFSET_RANGE)?,
            WorkItemFn::GlobalId => {
                let d = d.unwrap_or(zero);
                self.global_id(wi, g, d)?
            }
            // The CPU's sub-group is one work-item: its id is the local
            // linear id.
            WorkItemFn::LocalLinearId | WorkItemFn::SubGroupId => self.local_linear_id(wi, g)?,
            WorkItemFn::GlobalLinearId => {
                let mut ids = Vec::new();
                for k in 0..3u64 {
                    let dk = self.ctx.i32_type().const_int(k, false);
                    let gid = self.global_id(wi, g, dk)?;
                    let off = self.i64_at(g, GLOBAL_OFFSET + 8 * k)?;
                    ids.push(self.b.build_int_sub(gid, off, "")?);
                }
                let s0 = self.i64_at(g, GLOBAL_SIZE)?;
                let s1 = self.i64_at(g, GLOBAL_SIZE + 8)?;
                let t = self.b.build_int_mul(ids[2], s1, "")?;
                let t = self.b.build_int_add(t, ids[1], "")?;
                let t = self.b.build_int_mul(t, s0, "")?;
                self.b.build_int_add(t, ids[0], "")?
            }
            // The CPU's sub-group is one work-item.
            WorkItemFn::SubGroupSize | WorkItemFn::MaxSubGroupSize => i64t.const_int(1, false),
            WorkItemFn::SubGroupLocalId => i64t.const_zero(),
            WorkItemFn::NumSubGroups | WorkItemFn::EnqueuedNumSubGroups => {
                let s: Vec<IntValue> = (0..3).map(|k| self.i64_at(g, if f == WorkItemFn::NumSubGroups { LOCAL_SIZE } else { ENQUEUED_LOCAL_SIZE } + 8 * k)).collect::<R<_>>()?;
                let t = self.b.build_int_mul(s[0], s[1], "")?;
                self.b.build_int_mul(t, s[2], "")?
            }
        };
        let t = self.vty(ty)?;
        Ok(Some(self.int_resize(v.into(), t, false)))
    }

    /// `(lid2 * lsize1 + lid1) * lsize0 + lid0`.
    fn local_linear_id(&mut self, wi: PointerValue<'ctx>, g: PointerValue<'ctx>) -> R<IntValue<'ctx>> {
        let l: Vec<IntValue> = (0..3).map(|k| self.i64_at(wi, 8 * k)).collect::<R<_>>()?;
        let s: Vec<IntValue> = (0..2).map(|k| self.i64_at(g, LOCAL_SIZE + 8 * k)).collect::<R<_>>()?;
        let t = self.b.build_int_mul(l[2], s[1], "")?;
        let t = self.b.build_int_add(t, l[1], "")?;
        let t = self.b.build_int_mul(t, s[0], "")?;
        Ok(self.b.build_int_add(t, l[0], "")?)
    }

    /// `global_base + local_id` (`global_base` is `group_id *
    /// enqueued_local_size + global_offset`).
    fn global_id(&mut self, wi: PointerValue<'ctx>, g: PointerValue<'ctx>, d: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let base = self.dim_at(g, GLOBAL_BASE, d, 0, OFFSET_RANGE)?;
        let lid = self.dim_at(wi, 0, d, 0, LOCAL_ID_RANGE)?;
        // No wrap (see `OFFSET_RANGE`).
        let t = self.b.build_int_nuw_add(base, lid, "")?;
        if let Some(i) = t.as_instruction_value() {
            let _ = i.set_no_signed_wrap_flag(true);
        }
        Ok(t)
    }

    /// The address of a kernel's `__local` variable: its offset in the
    /// group's local memory, laid out as the variables are met.
    pub(super) fn local_mem_var(&mut self, l: LocalId) -> R<PointerValue<'ctx>> {
        let t = self.local_info(l).ty.ty;
        let off = match self.local_offsets.get(&l) {
            Some(&off) => off,
            None => {
                let (size, align) = self.types.size_align(t).unwrap_or((0, 1));
                let off = self.local_mem_size.next_multiple_of(align.max(1));
                self.local_mem_size = off + size;
                self.local_offsets.insert(l, off);
                off
            }
        };
        // Computed in the entry block, so it dominates every use.
        let p = self.at_entry(|g| {
            let grp = g.group_ptr()?;
            let mp = g.byte_offset(grp, LOCAL_MEM)?;
            let mem = g.b.build_load(g.ptr_ty(AddrSpace::Private), mp, "local_mem")?.into_pointer_value();
            let p = g.byte_offset(mem, off)?;
            Ok(g.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, p.into(), g.ptr_ty(AddrSpace::Local).into()).into_pointer_value())
        })?;
        Ok(p)
    }

    /// `__clc_wg_<kernel>`: the kernel for every work-item of a group.
    pub(super) fn work_group_entry(&mut self, index: usize) -> R<()> {
        let f: &'a hir::Function = &self.program.functions[index];
        let kernel = self.funcs[index];
        self.reqd_size = f.reqd_work_group_size;
        let ptr = self.ptr_ty(AddrSpace::Private);
        let i64t = self.ctx.i64_type();
        let fty = self.ctx.void_type().fn_type(&[ptr.into(), ptr.into()], false);
        // One group; the runtime calls it for consecutive groups in a row.
        let entry_fn = self.module.add_function(&format!("__clc_wg_{}", f.name), fty, None);
        self.add_fn_attr(entry_fn, "nounwind");
        // Nothing the kernel writes aliases the argument array or the
        // group: their loads may leave the work-item loop.
        for i in 0..2 {
            for a in ["noalias", "readonly", "nocapture"] {
                let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(a);
                if kind != 0 {
                    entry_fn.add_attribute(inkwell::attributes::AttributeLoc::Param(i), self.ctx.create_enum_attribute(kind, 0));
                }
            }
        }
        // Both may be read anywhere (the group's sizes and ids leave
        // conditional code of the work-item loops).
        let bytes = [8 * f.params.len() as u64, std::mem::size_of::<clc_runtime::abi::Group>() as u64];
        let deref = inkwell::attributes::Attribute::get_named_enum_kind_id("dereferenceable");
        let align = inkwell::attributes::Attribute::get_named_enum_kind_id("align");
        for (i, n) in bytes.into_iter().enumerate() {
            if deref != 0 && align != 0 && n > 0 {
                let at = inkwell::attributes::AttributeLoc::Param(i as u32);
                entry_fn.add_attribute(at, self.ctx.create_enum_attribute(deref, n));
                entry_fn.add_attribute(at, self.ctx.create_enum_attribute(align, 8));
            }
        }
        let (Some(args), Some(group)) = (entry_fn.get_nth_param(0), entry_fn.get_nth_param(1)) else {
            return ice("a work-group entry without its parameters");
        };
        let (args, group) = (args.into_pointer_value(), group.into_pointer_value());
        let bb = self.ctx.append_basic_block(entry_fn, "entry");
        self.b.position_at_end(bb);
        // With -g the entry has a subprogram at the kernel's line, so the
        // kernel inlined into it keeps its line table.
        self.debug_function(&format!("__clc_wg_{}", f.name), f.span, entry_fn, false);
        self.debug_at(f.span);
        let wi = self.b.build_alloca(i64t.array_type((WI_SIZE / 8) as u32), "wi")?;
        let gslot = self.byte_offset(wi, WI_GROUP)?;
        self.b.build_store(gslot, group)?;
        // The argument values, loaded once for the whole group.
        let mut vals: Vec<BasicMetadataValueEnum> = Vec::new();
        for (i, &p) in f.params.iter().enumerate() {
            let t = f.locals[p.0 as usize].ty.ty;
            let idx = i64t.const_int(i as u64, false);
            // SAFETY: `args` has one pointer per parameter.
            let slot = unsafe { self.b.build_in_bounds_gep(ptr, args, &[idx], "")? };
            let vp = self.b.build_load(ptr, slot, "")?.into_pointer_value();
            if self.is_record(t) {
                vals.push(vp.into());
            } else {
                let v = self.load_value(vp, t, false)?;
                match self.kind(t) {
                    TypeKind::Image(..) => super::images::mark_descriptor(self, v, std::mem::size_of::<clc_runtime::abi::ImageDesc>(), std::mem::align_of::<clc_runtime::abi::ImageDesc>())?,
                    TypeKind::Pipe(..) => super::images::mark_descriptor(self, v, std::mem::size_of::<clc_runtime::abi::PipeDesc>(), std::mem::align_of::<clc_runtime::abi::PipeDesc>())?,
                    _ => {}
                }
                vals.push(v.into());
            }
        }
        // Barriers, or loops the group runs in lockstep (see `uniform`).
        let body = GroupBody::of(f);
        let plan = self.group_plan(&body);
        let synchronises = self.synchronises(index);
        if (synchronises || !plan.group.is_empty()) && self.regions_can_express(&body) {
            // Loop nests one after another, which `split` may compile
            // apart (see `codegen::outline`).
            entry_fn.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_string_attribute(crate::codegen::outline::REGIONS_ATTR, ""));
            self.region_entry(entry_fn, bb, &body, plan, wi, &vals)?;
            self.debug_end_function();
            self.flush_denormals_in(entry_fn)?;
            self.kernel_descs.push((index, entry_fn, self.local_mem_size, 0));
            return Ok(());
        }
        let mut call_args = vals.clone();
        call_args.push(wi.into());
        let item_threads = synchronises && self.barriers_only(index);
        if item_threads {
            self.only_item(entry_fn, group, wi, kernel, &call_args)?;
        }
        let sizes = self.local_sizes(group, self.group_free(index))?;
        // The runtime runs the rows of a kernel that does not synchronise
        // (`Group::row`).
        let one_row = !synchronises;
        let loops = if one_row { self.open_row(wi, group, &sizes)? } else { self.open_item_loops(wi, &sizes, None, None)?.0 };
        self.b.build_call(kernel, &call_args, "")?;
        self.close_item_loops(loops)?;
        self.b.build_return(None)?;
        self.debug_end_function();
        let mut flags = if item_threads {
            FLAG_GROUP_SYNC | FLAG_ITEM_THREADS
        } else if synchronises {
            FLAG_GROUP_SYNC
        } else if self.group_free(index) {
            FLAG_GROUP_FREE
        } else {
            0
        };
        if one_row {
            flags |= FLAG_ONE_ROW;
        }
        self.flush_denormals_in(entry_fn)?;
        self.kernel_descs.push((index, entry_fn, self.local_mem_size, flags));
        Ok(())
    }

    /// With `-cl-denorms-are-zero` on x86-64, a work-group entry runs
    /// with the SSE unit flushing denormal results to zero and reading
    /// denormal operands as zero (MXCSR's FTZ and DAZ bits, as Intel's
    /// CPU runtime does), and gives the thread its MXCSR back on return:
    /// the option lets single and double precision denormals be flushed,
    /// and LLVM compiles the kernel assuming `float` ones are
    /// (`denormal-fp-math-f32`). Called on a finished entry.
    pub(super) fn flush_denormals_in(&mut self, entry_fn: FunctionValue<'ctx>) -> R<()> {
        if !self.opts.fp.denorms_are_zero || !self.opts.target.is_x86_64() {
            return Ok(());
        }
        const FTZ_DAZ: u64 = 0x8040;
        let decl = |name: &str| inkwell::intrinsics::Intrinsic::find(name).and_then(|i| i.get_declaration(&self.module, &[]));
        let (Some(st), Some(ld)) = (decl("llvm.x86.sse.stmxcsr"), decl("llvm.x86.sse.ldmxcsr")) else { return ice("no MXCSR intrinsics") };
        let Some(first) = entry_fn.get_first_basic_block().and_then(|b| b.get_first_instruction()) else { return ice("an empty work-group entry") };
        let i32t = self.ctx.i32_type();
        let here = self.b.get_insert_block();
        // Not the kernel's lines: these belong to no statement (and with
        // -g the builder's location may be another function's).
        self.b.unset_current_debug_location();
        self.b.position_before(&first);
        let saved = self.b.build_alloca(i32t, "mxcsr.saved")?;
        let flushing = self.b.build_alloca(i32t, "mxcsr.flush")?;
        self.b.build_call(st, &[saved.into()], "")?;
        let old = self.b.build_load(i32t, saved, "")?.into_int_value();
        let new = self.b.build_or(old, i32t.const_int(FTZ_DAZ, false), "")?;
        self.b.build_store(flushing, new)?;
        self.b.build_call(ld, &[flushing.into()], "")?;
        let mut block = entry_fn.get_first_basic_block();
        while let Some(b) = block {
            if let Some(t) = b.get_terminator().filter(|t| t.get_opcode() == inkwell::values::InstructionOpcode::Return) {
                self.b.position_before(&t);
                self.b.build_call(ld, &[saved.into()], "")?;
            }
            block = b.get_next_basic_block();
        }
        if let Some(h) = here {
            self.b.position_at_end(h);
        }
        Ok(())
    }

    /// Lowers `b` for the whole group (in regions, see `regions`) into
    /// the work-group entry `entry_fn`, the builder in its entry block
    /// `bb`; `vals` are the values of `b.params` (see
    /// [`Gen::group_body`]) and `wi` the entry's work-item struct.
    pub(super) fn region_entry(&mut self, entry_fn: FunctionValue<'ctx>, bb: inkwell::basic_block::BasicBlock<'ctx>, b: &GroupBody<'a>, plan: super::uniform::Plan, wi: PointerValue<'ctx>, vals: &[BasicMetadataValueEnum<'ctx>]) -> R<()> {
        let f = b.func;
        self.fs = Some(super::FnState { wi: Some(wi), ..super::FnState::new(&f.name, &f.exprs, &f.locals, entry_fn, bb) });
        let r = self.group_body(b, plan, wi, vals);
        let r = match r {
            Ok(()) if self.current_block_open() => self.b.build_return(None).map(|_| ()).map_err(Into::into),
            r => r,
        };
        let r = r.and_then(|_| self.terminate_blocks(entry_fn));
        self.fs = None;
        r
    }

    /// The group's local sizes, read from the group struct `group` — or
    /// constant 1 where the kernel requires a work-group size of 1 in that
    /// dimension (every group, remainder groups too, is then 1 wide), so
    /// the loop over it folds away before the loop passes see it.
    /// A group-free kernel's x size has no bound: the runtime runs a batch
    /// of its groups as one group as wide as the batch.
    pub(super) fn local_sizes(&mut self, group: PointerValue<'ctx>, group_free: bool) -> R<[IntValue<'ctx>; 3]> {
        let mut sizes = [self.ctx.i64_type().const_int(1, false); 3];
        for (k, size) in sizes.iter_mut().enumerate() {
            if self.reqd_size.is_none_or(|r| r[k] != 1) {
                *size = self.i64_at(group, LOCAL_SIZE + 8 * k as u64)?;
                if !(group_free && k == 0) {
                    self.mark_local_size(*size)?;
                }
            }
        }
        Ok(sizes)
    }

    /// Marks a load of a local size with its range, 1 to
    /// [`clc_runtime::MAX_WORK_GROUP_SIZE`] (the runtime rejects larger
    /// groups). Scalar evolution then bounds the work-item loops' trip
    /// counts, so it proves that an `int` index derived from a local id,
    /// `(int)get_local_id(0)` sign-extended back for an array index, does
    /// not wrap: the access stays consecutive across work-items and the
    /// vectoriser can bound it for its alias checks (without the range,
    /// tiled transposes were left scalar: "cannot identify array bounds").
    fn mark_local_size(&mut self, size: IntValue<'ctx>) -> R<()> {
        self.mark_range(size, LOCAL_SIZE_RANGE)
    }

    /// Marks the load `v` (an `i64`) `!range [lo, hi)`; other values are
    /// left alone.
    fn mark_range(&mut self, v: IntValue<'ctx>, (lo, hi): (u64, u64)) -> R<()> {
        let Some(i) = v.as_instruction_value() else { return Ok(()) };
        let i64t = self.ctx.i64_type();
        let node = self.ctx.metadata_node(&[i64t.const_int(lo, false).into(), i64t.const_int(hi, false).into()]);
        if i.set_metadata(node, self.ctx.get_kind_id("range")).is_err() {
            return ice("cannot mark a work-item value's load !range");
        }
        Ok(())
    }

    /// Opens the work-item loops over a group (rows of y and z, then x
    /// innermost), storing the ids into the work-item struct `wi`; the
    /// builder is left in the innermost body. Returns the loops (for
    /// [`Self::close_item_loops`]), the ids (x first) and the row's linear
    /// index (`z * size_y + y`). The x loop runs from `x_start` (else 0)
    /// to `x_end` (else `sizes[0]`), both at most `sizes[0]`.
    pub(super) fn open_item_loops(&mut self, wi: PointerValue<'ctx>, sizes: &[IntValue<'ctx>], x_start: Option<IntValue<'ctx>>, x_end: Option<IntValue<'ctx>>) -> R<(ItemLoops<'ctx>, [IntValue<'ctx>; 3], IntValue<'ctx>)> {
        let i64t = self.ctx.i64_type();
        let fnv = self.loops_fn()?;
        let rows = self.b.build_int_mul(sizes[1], sizes[2], "rows")?;
        let row_head = self.ctx.append_basic_block(fnv, "wi.rows");
        let row_body = self.ctx.append_basic_block(fnv, "wi.row");
        let row_exit = self.ctx.append_basic_block(fnv, "wi.rows.exit");
        let pre = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(row_head)?;
        self.b.position_at_end(row_head);
        let zero = i64t.const_zero();
        let row_ivs = [self.b.build_phi(i64t, "row")?, self.b.build_phi(i64t, "lid.y")?, self.b.build_phi(i64t, "lid.z")?];
        for p in &row_ivs {
            p.add_incoming(&[(&zero, pre)]);
        }
        let [row, y, z] = row_ivs.map(|p| p.as_basic_value().into_int_value());
        let more = self.b.build_int_compare(IntPredicate::ULT, row, rows, "")?;
        self.b.build_conditional_branch(more, row_body, row_exit)?;
        self.b.position_at_end(row_body);
        for (dim, v) in [(1u64, y), (2, z)] {
            let slot = self.byte_offset(wi, 8 * dim)?;
            self.b.build_store(slot, v)?;
        }
        let mut loops = self.open_x_loop(fnv, wi, x_start.unwrap_or(zero), x_end.unwrap_or(sizes[0]))?;
        let x = loops.x_iv.as_basic_value().into_int_value();
        loops.rows = Some(RowLoop { head: row_head, exit: row_exit, ivs: row_ivs, size_y: sizes[1] });
        Ok((loops, [x, y, z], row))
    }

    /// The function work-item loops are being built in.
    fn loops_fn(&self) -> R<inkwell::values::FunctionValue<'ctx>> {
        self.fs.as_ref().map(|f| f.llfn).or_else(|| self.b.get_insert_block().and_then(|b| b.get_parent())).ok_or_else(|| super::InternalError { function: None, message: "work-item loops outside a function".into() })
    }

    /// Opens the x loop over the row of the group that `Group::row` names
    /// (the entry of a kernel flagged `FLAG_ONE_ROW`), storing the ids
    /// into `wi`; the builder is left in the body.
    fn open_row(&mut self, wi: PointerValue<'ctx>, group: PointerValue<'ctx>, sizes: &[IntValue<'ctx>]) -> R<ItemLoops<'ctx>> {
        let fnv = self.loops_fn()?;
        for dim in 1..3u64 {
            // A dimension of size 1 (`reqd_work_group_size`): id 0.
            let id = if sizes[dim as usize].is_const() {
                self.ctx.i64_type().const_zero()
            } else {
                let v = self.i64_at(group, ROW + 8 * (dim - 1))?;
                self.mark_range(v, LOCAL_ID_RANGE)?;
                v
            };
            let slot = self.byte_offset(wi, 8 * dim)?;
            self.b.build_store(slot, id)?;
        }
        self.open_x_loop(fnv, wi, self.ctx.i64_type().const_zero(), sizes[0])
    }

    /// Opens the x loop from `start` to `end`, storing the x id into `wi`;
    /// the builder is left in the body.
    fn open_x_loop(&mut self, fnv: inkwell::values::FunctionValue<'ctx>, wi: PointerValue<'ctx>, start: IntValue<'ctx>, end: IntValue<'ctx>) -> R<ItemLoops<'ctx>> {
        let i64t = self.ctx.i64_type();
        let pre = self.b.get_insert_block().expect("positioned");
        let x_head = self.ctx.append_basic_block(fnv, "wi.head");
        let x_body = self.ctx.append_basic_block(fnv, "wi.body");
        let x_exit = self.ctx.append_basic_block(fnv, "wi.exit");
        self.b.build_unconditional_branch(x_head)?;
        self.b.position_at_end(x_head);
        let x_iv = self.b.build_phi(i64t, "lid")?;
        x_iv.add_incoming(&[(&start, pre)]);
        let x = x_iv.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(IntPredicate::ULT, x, end, "")?;
        self.b.build_conditional_branch(more, x_body, x_exit)?;
        self.b.position_at_end(x_body);
        let slot = self.byte_offset(wi, 0)?;
        self.b.build_store(slot, x)?;
        Ok(ItemLoops { rows: None, x_head, x_iv, x_exit })
    }

    /// Closes the loops [`Self::open_item_loops`] opened, from the
    /// current block; the builder is left after them.
    pub(super) fn close_item_loops(&mut self, l: ItemLoops<'ctx>) -> R<()> {
        let i64t = self.ctx.i64_type();
        let one = i64t.const_int(1, false);
        let x = l.x_iv.as_basic_value().into_int_value();
        let next = self.b.build_int_add(x, one, "")?;
        let latch = self.b.get_insert_block().expect("positioned");
        l.x_iv.add_incoming(&[(&next, latch)]);
        let back = self.b.build_unconditional_branch(l.x_head)?;
        self.no_runtime_unroll(back);
        self.b.position_at_end(l.x_exit);
        let Some(r) = l.rows else { return Ok(()) };
        // The next row: y + 1, wrapping into z + 1 (no division).
        let [row, y, z] = r.ivs.map(|p| p.as_basic_value().into_int_value());
        let next_row = self.b.build_int_add(row, one, "")?;
        let y1 = self.b.build_int_add(y, one, "")?;
        let wrap = self.b.build_int_compare(IntPredicate::EQ, y1, r.size_y, "")?;
        let ny = self.b.build_select(wrap, i64t.const_zero(), y1, "")?.into_int_value();
        let step = self.b.build_int_z_extend(wrap, i64t, "")?;
        let nz = self.b.build_int_add(z, step, "")?;
        for (p, v) in r.ivs.iter().zip([next_row, ny, nz]) {
            p.add_incoming(&[(&v, l.x_exit)]);
        }
        self.b.build_unconditional_branch(r.head)?;
        self.b.position_at_end(r.exit);
        Ok(())
    }

    /// Does the kernel (or a function it calls) synchronise its work-group?
    pub(super) fn synchronises(&self, index: usize) -> bool {
        self.reaches(index, &|k| matches!(k, ExprKind::BuiltinCall { overload, .. } if matches!(overload.lowering, Lowering::Barrier(_) | Lowering::WorkGroup(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents)))
    }

    /// Does an expression of the function `index`, or of a function it
    /// calls (directly or not), satisfy `pred`? Not counting what only the
    /// blocks it enqueues run ([`enqueued_only`]).
    fn reaches(&self, index: usize, pred: &dyn Fn(&ExprKind) -> bool) -> bool {
        let mut seen = vec![false; self.program.functions.len()];
        let mut stack = vec![index];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let f = &self.program.functions[i];
            let skip = enqueued_only(f);
            for (e, _) in f.exprs.iter().zip(&skip).filter(|(_, skip)| !**skip) {
                if pred(&e.kind) {
                    return true;
                }
                if let ExprKind::Call { func: Some(fid), .. } = &e.kind {
                    stack.push(fid.0 as usize);
                }
            }
        }
        false
    }

    /// Does the kernel (and what it calls) synchronise only through
    /// barriers (no work-group functions or async copies, which need the
    /// group's work-items together)?
    pub(super) fn barriers_only(&self, index: usize) -> bool {
        !self.reaches(index, &|k| matches!(k, ExprKind::BuiltinCall { overload, .. } if matches!(overload.lowering, Lowering::WorkGroup(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents)))
    }

    /// Is the kernel blind to how its range is cut into work-groups? It
    /// must not synchronise, have `__local` memory (variables or
    /// arguments), or ask (itself or through the functions it calls)
    /// about anything but global ids, sizes, offsets and the dimension
    /// count. The runtime then runs many groups along x as one (see
    /// `FLAG_GROUP_FREE`): one long work-item loop instead of one per
    /// group.
    pub(super) fn group_free(&self, index: usize) -> bool {
        let kernel = &self.program.functions[index];
        if kernel.locals.iter().any(|l| l.ty.space == AddrSpace::Local) || kernel.params.iter().any(|p| self.arg_kind(kernel.locals[p.0 as usize].ty.ty).0 == ARG_LOCAL) {
            return false;
        }
        !self.reaches(index, &|k| match k {
            ExprKind::BuiltinCall { overload, .. } => match overload.lowering {
                Lowering::WorkItem(WorkItemFn::WorkDim | WorkItemFn::GlobalSize | WorkItemFn::GlobalId | WorkItemFn::GlobalOffset | WorkItemFn::GlobalLinearId) => false,
                Lowering::WorkItem(_) | Lowering::Barrier(_) | Lowering::WorkGroup(_) | Lowering::SubGroup(_) | Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents => true,
                _ => false,
            },
            _ => false,
        })
    }

    /// A barrier outside the region lowering: the group's barrier function
    /// when the runtime gives one (work-items on threads), then a fence.
    pub(super) fn item_barrier(&mut self) -> R<()> {
        let g = self.group_ptr()?;
        let ptr_ty = self.ptr_ty(AddrSpace::Private);
        let slot = self.byte_offset(g, BARRIER)?;
        let f = self.b.build_load(ptr_ty, slot, "barrier")?.into_pointer_value();
        let fnv = self.fs().llfn;
        let call = self.ctx.append_basic_block(fnv, "barrier.call");
        let done = self.ctx.append_basic_block(fnv, "barrier.done");
        let has = self.b.build_is_not_null(f, "")?;
        self.b.build_conditional_branch(has, call, done)?;
        self.b.position_at_end(call);
        let cslot = self.byte_offset(g, BARRIER_CTX)?;
        let ctx = self.b.build_load(ptr_ty, cslot, "")?;
        let fty = self.ctx.void_type().fn_type(&[ptr_ty.into()], false);
        self.b.build_indirect_call(fty, f, &[ctx.into()], "")?;
        self.b.build_unconditional_branch(done)?;
        self.b.position_at_end(done);
        Ok(())
    }

    /// `__clc_kernel_table`: every kernel's entry point and arguments.
    pub(super) fn kernel_table(&mut self) -> R<()> {
        let ptr = self.ptr_ty(AddrSpace::Private);
        let (i32t, i64t) = (self.ctx.i32_type(), self.ctx.i64_type());
        let arg_ty = self.ctx.struct_type(&[i32t.into(), i32t.into(), i32t.into(), i32t.into(), ptr.into(), ptr.into()], false);
        let desc_ty = self.ctx.struct_type(
            &[ptr.into(), ptr.into(), i32t.into(), i32t.into(), i32t.array_type(3).into(), i32t.into(), i64t.into(), ptr.into()],
            false,
        );
        let mut descs = Vec::new();
        for (index, entry, local_mem, flags) in self.kernel_descs.clone() {
            let f: &'a hir::Function = &self.program.functions[index];
            let mut args = Vec::new();
            for &p in &f.params {
                let l = &f.locals[p.0 as usize];
                let (kind, size, align) = self.arg_kind(l.ty.ty);
                let info = match self.kind(l.ty.ty) {
                    TypeKind::Image(img, access) => super::images::arg_image_code(*img, *access),
                    TypeKind::Pipe(packet, _) => self.types.size_align(packet.ty).map_or(0, |(size, _)| size as u32),
                    _ => 0,
                };
                let tname = self.cstring(&self.types.display(l.ty.ty));
                let name = self.cstring(&l.name);
                args.push(arg_ty.const_named_struct(&[
                    i32t.const_int(kind as u64, false).into(),
                    i32t.const_int(size, false).into(),
                    i32t.const_int(align, false).into(),
                    i32t.const_int(info as u64, false).into(),
                    tname.into(),
                    name.into(),
                ]));
            }
            let args_arr = arg_ty.const_array(&args);
            let ag = self.module.add_global(args_arr.get_type(), None, &format!("__clc_args_{}", f.name));
            ag.set_initializer(&args_arr);
            ag.set_constant(true);
            ag.set_linkage(Linkage::Private);
            let reqd = f.reqd_work_group_size.unwrap_or([0, 0, 0]);
            let name = self.cstring(&f.name);
            descs.push(desc_ty.const_named_struct(&[
                name.into(),
                entry.as_global_value().as_pointer_value().into(),
                i32t.const_int(f.params.len() as u64, false).into(),
                i32t.const_int(flags as u64, false).into(),
                i32t.const_array(&reqd.map(|r| i32t.const_int(r, false))).into(),
                i32t.const_zero().into(),
                i64t.const_int(local_mem, false).into(),
                ag.as_pointer_value().into(),
            ]));
        }
        let arr = desc_ty.const_array(&descs);
        let dg = self.module.add_global(arr.get_type(), None, "__clc_kernels");
        dg.set_initializer(&arr);
        dg.set_constant(true);
        dg.set_linkage(Linkage::Private);
        let table_ty = self.ctx.struct_type(&[i32t.into(), i32t.into(), ptr.into()], false);
        let table = table_ty.const_named_struct(&[
            i32t.const_int(ABI_VERSION as u64, false).into(),
            i32t.const_int(descs.len() as u64, false).into(),
            dg.as_pointer_value().into(),
        ]);
        let tg = self.module.add_global(table_ty, None, "__clc_kernel_table");
        tg.set_initializer(&table);
        tg.set_constant(true);
        Ok(())
    }

    fn cstring(&mut self, s: &str) -> PointerValue<'ctx> {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.string(&bytes, AddrSpace::Private)
    }

    /// `ArgDesc::kind`, size and alignment of a kernel parameter type.
    fn arg_kind(&self, t: TypeId) -> (u32, u64, u64) {
        let (size, align) = self.types.size_align(t).unwrap_or((0, 1));
        let kind = match self.kind(t) {
            TypeKind::Pointer(p) => match p.space {
                AddrSpace::Local => ARG_LOCAL,
                AddrSpace::Constant => ARG_CONSTANT,
                _ => ARG_GLOBAL,
            },
            TypeKind::Image(img, a) if super::images::arg_image_code(*img, *a) != 0 => ARG_IMAGE,
            TypeKind::Opaque(Opaque::Sampler) => ARG_SAMPLER,
            TypeKind::Pipe(..) => ARG_PIPE,
            TypeKind::Opaque(Opaque::Queue) => ARG_QUEUE,
            TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Record(_) | TypeKind::Enum(_) => ARG_VALUE,
            _ => ARG_OTHER,
        };
        (kind, size, align)
    }

}

/// Which expressions of `f` run only in the blocks it enqueues: those of
/// its block literals' bodies, unless `f` calls a block itself (a block
/// called directly runs in its caller's work-item: what it does, the
/// caller does). An enqueued block's entry runs them, in groups of its own.
fn enqueued_only(f: &hir::Function) -> Vec<bool> {
    let mut inside = vec![false; f.exprs.len()];
    if f.exprs.iter().any(|e| matches!(e.kind, ExprKind::CallValue { .. })) {
        return inside;
    }
    for e in &f.exprs {
        if let ExprKind::BlockLiteral { body, .. } = &e.kind {
            for s in body {
                super::regions::visit_stmt_deep(&f.exprs, s, &mut |x| inside[x.0 as usize] = true);
            }
        }
    }
    inside
}
