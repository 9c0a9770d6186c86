//! Pipes on the CPU target.
//!
//! A pipe is a pointer to the runtime's pipe descriptor
//! (`clc_runtime::abi::PipeDesc`, whose field offsets are taken from the
//! runtime's own type), a ring of packets. During a launch work-items only
//! claim slots, by incrementing the descriptor's `read_claim` or
//! `write_claim` with a compare-and-swap loop generated inline: a reader
//! gets the claim index `r < count` and reads slot `(head + r) % max`, a
//! writer `w < max - count` and writes slot `(head + count + w) % max`.
//! Reading and writing slots are disjoint and a claim never waits for
//! another work-item (a group's work-items run as loops on one thread,
//! so waiting would deadlock); the runtime folds the claims into `head`
//! and `count` when the launch ends, which is when OpenCL 2.0 makes
//! written packets visible to readers. The packet's size is the pipe's
//! element type's, a constant: a transfer is a claim and a `memcpy` of
//! constant size, no call. The runtime checks a pipe argument's packet
//! size against the kernel's.
//!
//! A reservation claims its `n` packets at once, all or none; its
//! `reserve_id_t` (a pointer-sized value) is the first claim index plus
//! one, null when the reservation failed, and a read or write through it
//! at index `i` uses claim index `base + i` (a negative result where that
//! lies outside the launch's claimable range, so that a wrong index stays
//! inside the ring). Commits do nothing but evaluate their arguments:
//! every claimed packet is committed when the launch ends.
//!
//! `work_group_reserve_*` is one reservation per group, which the region
//! lowering makes between regions (`regions.rs`, as it computes the other
//! work-group functions) and every work-item reads; it reaches this module
//! only for a group of one work-item (the runtime's fallback for shapes
//! the regions do not express), as `sub_group_reserve_*` does (a
//! sub-group is one work-item on the CPU). The SPIR-V target never comes
//! here (`pipes.rs`).

use clc_builtins::functions::{AddrSpace, GroupOp, Lowering, PipeOp};
use clc_runtime::abi::PipeDesc;
use inkwell::AtomicOrdering;
use inkwell::IntPredicate;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PointerValue};
use std::mem::offset_of;

use super::{Gen, R};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;

const MAX_PACKETS: u64 = offset_of!(PipeDesc, max_packets) as u64;
const HEAD: u64 = offset_of!(PipeDesc, head) as u64;
const COUNT: u64 = offset_of!(PipeDesc, count) as u64;
const READ_CLAIM: u64 = offset_of!(PipeDesc, read_claim) as u64;
const WRITE_CLAIM: u64 = offset_of!(PipeDesc, write_claim) as u64;
const DATA: u64 = offset_of!(PipeDesc, data) as u64;

/// Which end of the pipe a function uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Read,
    Write,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A pipe builtin on the CPU target: `Lowering::Pipe`, or a work-group
    /// or sub-group reservation or commit outside the region lowering.
    pub(super) fn cpu_pipe(&mut self, lowering: Lowering, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let i32t = self.ctx.i32_type();
        let v: BasicValueEnum<'ctx> = match lowering {
            Lowering::Pipe(PipeOp::Read { reserved }) => self.pipe_transfer(End::Read, reserved, args)?.into(),
            Lowering::Pipe(PipeOp::Write { reserved }) => self.pipe_transfer(End::Write, reserved, args)?.into(),
            Lowering::Pipe(PipeOp::ReserveRead) | Lowering::WorkGroup(GroupOp::ReserveReadPipe) | Lowering::SubGroup(GroupOp::ReserveReadPipe) => {
                let (pipe, n) = self.pipe_and_count(args)?;
                self.pipe_reserve(pipe, n, End::Read)?.into()
            }
            Lowering::Pipe(PipeOp::ReserveWrite) | Lowering::WorkGroup(GroupOp::ReserveWritePipe) | Lowering::SubGroup(GroupOp::ReserveWritePipe) => {
                let (pipe, n) = self.pipe_and_count(args)?;
                self.pipe_reserve(pipe, n, End::Write)?.into()
            }
            Lowering::Pipe(PipeOp::CommitRead | PipeOp::CommitWrite)
            | Lowering::WorkGroup(GroupOp::CommitReadPipe | GroupOp::CommitWritePipe)
            | Lowering::SubGroup(GroupOp::CommitReadPipe | GroupOp::CommitWritePipe) => {
                for &a in args {
                    self.rvalue(a)?;
                }
                return Ok(None);
            }
            Lowering::Pipe(PipeOp::IsValidReserveId) => {
                let rid = self.value(args[0])?.into_pointer_value();
                self.b.build_is_not_null(rid, "rid.valid")?.into()
            }
            Lowering::Pipe(PipeOp::NumPackets) => {
                let pipe = self.value(args[0])?.into_pointer_value();
                // What is in the pipe now: the packets at the launch's
                // start less those claimed for reading, plus those claimed
                // for writing (each claim at most what it may take, so
                // this stays within 0 ..= max).
                let count = self.desc_field(pipe, COUNT, i32t.into())?.into_int_value();
                let read = self.pipe_claim_now(pipe, READ_CLAIM)?;
                let written = self.pipe_claim_now(pipe, WRITE_CLAIM)?;
                let left = self.b.build_int_sub(count, read, "")?;
                self.b.build_int_add(left, written, "num_packets")?.into()
            }
            Lowering::Pipe(PipeOp::MaxPackets) => {
                let pipe = self.value(args[0])?.into_pointer_value();
                self.desc_field(pipe, MAX_PACKETS, i32t.into())?
            }
            _ => return super::ice("a pipe lowering the CPU target does not know"),
        };
        let t = self.vty(ty)?;
        Ok(Some(if v.get_type() == t { v } else { self.int_resize(v, t, false) }))
    }

    /// The pipe and the packet count of a reservation `(p, n)`, in order.
    fn pipe_and_count(&mut self, args: &[ExprId]) -> R<(PointerValue<'ctx>, IntValue<'ctx>)> {
        let pipe = self.value(args[0])?.into_pointer_value();
        let n = self.value(args[1])?;
        let n = self.int_resize(n, self.ctx.i32_type().into(), false).into_int_value();
        Ok((pipe, n))
    }

    /// A work-group reservation of `n` packets of `pipe`, made once for
    /// the group by the region lowering (see `regions.rs`).
    pub(super) fn group_pipe_reserve(&mut self, op: GroupOp, pipe: PointerValue<'ctx>, n: BasicValueEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let end = match op {
            GroupOp::ReserveReadPipe => End::Read,
            GroupOp::ReserveWritePipe => End::Write,
            _ => return super::ice("a work-group pipe function that is not a reservation"),
        };
        let n = self.int_resize(n, self.ctx.i32_type().into(), false).into_int_value();
        Ok(self.pipe_reserve(pipe, n, end)?.into())
    }

    /// The claim counter at `off` as other work-items have moved it so far
    /// (an atomic load: they may be updating it on other threads).
    fn pipe_claim_now(&mut self, pipe: PointerValue<'ctx>, off: u64) -> R<IntValue<'ctx>> {
        let p = self.byte_offset(pipe, off)?;
        let v = self.b.build_load(self.ctx.i32_type(), p, "claim")?;
        if let Some(i) = v.as_instruction_value() {
            i.set_atomic_ordering(AtomicOrdering::Monotonic).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
            let _ = i.set_alignment(4);
        }
        Ok(v.into_int_value())
    }

    /// How many packets `end` may claim in this launch: those in the pipe
    /// at its start for reading, the free slots for writing.
    fn pipe_limit(&mut self, pipe: PointerValue<'ctx>, end: End) -> R<IntValue<'ctx>> {
        let i32t = self.ctx.i32_type();
        let count = self.desc_field(pipe, COUNT, i32t.into())?.into_int_value();
        Ok(match end {
            End::Read => count,
            End::Write => {
                let max = self.desc_field(pipe, MAX_PACKETS, i32t.into())?.into_int_value();
                self.b.build_int_sub(max, count, "room")?
            }
        })
    }

    /// Claims `n` packets at `end`, all or none: whether it did, and the
    /// first claim index (`i32`s; the index is 0 where it did not). A
    /// compare-and-swap loop, so that a claim that does not fit changes
    /// nothing; `n` = 0 claims nothing and fails (no packets to reserve).
    fn pipe_claim(&mut self, pipe: PointerValue<'ctx>, n: IntValue<'ctx>, end: End) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
        let i32t = self.ctx.i32_type();
        let boolt = self.ctx.bool_type();
        let limit = self.pipe_limit(pipe, end)?;
        let counter = self.byte_offset(pipe, if end == End::Read { READ_CLAIM } else { WRITE_CLAIM })?;
        let first = self.pipe_claim_now(pipe, if end == End::Read { READ_CLAIM } else { WRITE_CLAIM })?;
        let fnv = self.fs().llfn;
        let pre = self.b.get_insert_block().expect("positioned");
        let head = self.ctx.append_basic_block(fnv, "pipe.claim");
        let try_bb = self.ctx.append_basic_block(fnv, "pipe.claim.try");
        let fail = self.ctx.append_basic_block(fnv, "pipe.claim.full");
        let done = self.ctx.append_basic_block(fnv, "pipe.claim.done");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let old = self.b.build_phi(i32t, "claimed")?;
        old.add_incoming(&[(&first, pre)]);
        let oldv = old.as_basic_value().into_int_value();
        // Claims never pass the limit, so `limit - old` does not wrap.
        let room = self.b.build_int_sub(limit, oldv, "")?;
        let fits = self.b.build_int_compare(IntPredicate::ULE, n, room, "")?;
        let some = self.b.build_int_compare(IntPredicate::NE, n, i32t.const_zero(), "")?;
        let ok = self.b.build_and(fits, some, "")?;
        self.b.build_conditional_branch(ok, try_bb, fail)?;
        self.b.position_at_end(try_bb);
        let new = self.b.build_int_add(oldv, n, "")?;
        let pair = self.b.build_cmpxchg(counter, oldv, new, AtomicOrdering::Monotonic, AtomicOrdering::Monotonic)?;
        let seen = self.b.build_extract_value(pair, 0, "")?.into_int_value();
        let swapped = self.b.build_extract_value(pair, 1, "")?.into_int_value();
        old.add_incoming(&[(&seen, try_bb)]);
        self.b.build_conditional_branch(swapped, done, head)?;
        self.b.position_at_end(fail);
        self.b.build_unconditional_branch(done)?;
        self.b.position_at_end(done);
        let got = self.b.build_phi(boolt, "claim.ok")?;
        got.add_incoming(&[(&boolt.const_all_ones(), try_bb), (&boolt.const_zero(), fail)]);
        let base = self.b.build_phi(i32t, "claim.base")?;
        base.add_incoming(&[(&oldv, try_bb), (&i32t.const_zero(), fail)]);
        Ok((got.as_basic_value().into_int_value(), base.as_basic_value().into_int_value()))
    }

    /// `reserve_*_pipe(pipe, n)`: the claim as a `reserve_id_t`, the first
    /// index plus one (null: no reservation).
    fn pipe_reserve(&mut self, pipe: PointerValue<'ctx>, n: IntValue<'ctx>, end: End) -> R<PointerValue<'ctx>> {
        let (ok, base) = self.pipe_claim(pipe, n, end)?;
        let it = self.int_ty(self.size_bits());
        let base = self.b.build_int_z_extend(base, it, "")?;
        let id = self.b.build_int_add(base, it.const_int(1, false), "")?;
        let id = self.b.build_select(ok, id, it.const_zero(), "")?.into_int_value();
        Ok(self.b.build_int_to_ptr(id, self.ptr_ty(AddrSpace::Global), "reserve_id")?)
    }

    /// The address of the slot of claim index `index` at `end` (an `i32`
    /// below the end's limit, so the sum below is under twice the ring's
    /// size and one subtraction wraps it).
    fn pipe_slot(&mut self, pipe: PointerValue<'ctx>, index: IntValue<'ctx>, end: End, packet_size: u64) -> R<PointerValue<'ctx>> {
        let i32t = self.ctx.i32_type();
        let i64t = self.ctx.i64_type();
        let head = self.desc_field(pipe, HEAD, i32t.into())?.into_int_value();
        let head = self.b.build_int_z_extend(head, i64t, "")?;
        let max = self.desc_field(pipe, MAX_PACKETS, i32t.into())?.into_int_value();
        let max = self.b.build_int_z_extend(max, i64t, "")?;
        let mut s = self.b.build_int_add(head, self.b.build_int_z_extend(index, i64t, "")?, "")?;
        if end == End::Write {
            let count = self.desc_field(pipe, COUNT, i32t.into())?.into_int_value();
            s = self.b.build_int_add(s, self.b.build_int_z_extend(count, i64t, "")?, "")?;
        }
        let wraps = self.b.build_int_compare(IntPredicate::UGE, s, max, "")?;
        let less = self.b.build_int_sub(s, max, "")?;
        let s = self.b.build_select(wraps, less, s, "slot")?.into_int_value();
        let off = self.b.build_int_mul(s, i64t.const_int(packet_size, false), "")?;
        let data = self.desc_field(pipe, DATA, self.ptr_ty(AddrSpace::Global).into())?.into_pointer_value();
        // SAFETY: the slot lies inside the ring (`s` < max).
        Ok(unsafe { self.b.build_in_bounds_gep(self.ctx.i8_type(), data, &[off], "")? })
    }

    /// `read_pipe`/`write_pipe`, with a reservation where `reserved`: 0
    /// when the packet was copied, -1 when the pipe was empty or full (or
    /// the reservation invalid, or its index outside what the launch may
    /// claim).
    fn pipe_transfer(&mut self, end: End, reserved: bool, args: &[ExprId]) -> R<IntValue<'ctx>> {
        let i32t = self.ctx.i32_type();
        let (size, align, _) = self.pipe_packet(args[0])?;
        let pipe = self.value(args[0])?.into_pointer_value();
        let (ok, index) = if reserved {
            let rid = self.value(args[1])?.into_pointer_value();
            let i = self.value(args[2])?.into_int_value();
            let it = self.int_ty(self.size_bits());
            let i64t = self.ctx.i64_type();
            // base + i, from the id (base + 1) in 64 bits: no wrap.
            let id = self.b.build_ptr_to_int(rid, it, "")?;
            let id = self.b.build_int_z_extend_or_bit_cast(id, i64t, "")?;
            let valid = self.b.build_int_compare(IntPredicate::NE, id, i64t.const_zero(), "")?;
            let base = self.b.build_int_sub(id, i64t.const_int(1, false), "")?;
            let index = self.b.build_int_add(base, self.b.build_int_z_extend(i, i64t, "")?, "")?;
            let limit = self.pipe_limit(pipe, end)?;
            let limit = self.b.build_int_z_extend(limit, i64t, "")?;
            let inside = self.b.build_int_compare(IntPredicate::ULT, index, limit, "")?;
            let ok = self.b.build_and(valid, inside, "")?;
            (ok, self.b.build_int_truncate(index, i32t, "")?)
        } else {
            (self.ctx.bool_type().const_all_ones(), i32t.const_zero())
        };
        let packet = self.value(args[args.len() - 1])?.into_pointer_value();
        let (ok, index) = if reserved { (ok, index) } else { self.pipe_claim(pipe, i32t.const_int(1, false), end)? };
        let fnv = self.fs().llfn;
        let pre = self.b.get_insert_block().expect("positioned");
        let copy = self.ctx.append_basic_block(fnv, if end == End::Read { "pipe.read" } else { "pipe.write" });
        let done = self.ctx.append_basic_block(fnv, "pipe.done");
        self.b.build_conditional_branch(ok, copy, done)?;
        self.b.position_at_end(copy);
        let slot = self.pipe_slot(pipe, index, end, size)?;
        let n = self.ctx.i64_type().const_int(size, false);
        let align = align as u32;
        let (dst, src) = if end == End::Read { (packet, slot) } else { (slot, packet) };
        self.b.build_memcpy(dst, align, src, align, n).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
        self.b.build_unconditional_branch(done)?;
        self.b.position_at_end(done);
        let r = self.b.build_phi(i32t, "pipe.status")?;
        r.add_incoming(&[(&i32t.const_zero(), copy), (&i32t.const_all_ones(), pre)]);
        Ok(r.as_basic_value().into_int_value())
    }
}
