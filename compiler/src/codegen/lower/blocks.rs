//! Clang blocks (`^(int x) { return x + y; }`) called directly.
//!
//! A block literal becomes an internal "invoke" function taking a pointer
//! to the block object and the block's parameters, and a block object in
//! the enclosing function's private memory: the invoke function's address
//! followed by the values of the captured variables, copied when the
//! literal is evaluated (C blocks capture by value). The block value is a
//! `__generic` pointer to that object. A call through a block variable
//! (block variables cannot be reassigned in OpenCL C) or of a literal
//! calls its invoke function directly, so no function pointer reaches the
//! SPIR-V back end; other calls load the invoke pointer (native targets
//! only). Blocks given to `enqueue_kernel` are the device-side enqueue
//! support's business.

use super::{FnState, Gen, R, ice};
use crate::sema::hir::{self, ExprId, ExprKind, Init, LocalId, Stmt};
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::AddrSpace;
use inkwell::module::Linkage;
use inkwell::types::{BasicMetadataTypeEnum, BasicType};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue};
use rustc_hash::FxHashSet as HashSet;

/// A generated block: its invoke function.
#[derive(Clone, Copy)]
pub(super) struct BlockFn<'ctx> {
    pub invoke: FunctionValue<'ctx>,
    /// The literal, and its block object's size and alignment in bytes.
    pub literal: ExprId,
    pub size: u64,
    pub align: u64,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// Evaluates a block literal: generates its invoke function (once) and
    /// builds the block object.
    pub(super) fn block_literal(&mut self, id: ExprId) -> R<BasicValueEnum<'ctx>> {
        let e = self.expr_info(id);
        let ExprKind::BlockLiteral { params, body } = &e.kind else { return ice("not a block literal") };
        let captures = self.captures(params, body);
        let cap_types: Vec<TypeId> = captures.iter().map(|l| self.local_info(*l).ty.ty).collect();
        // The object lives in the enclosing function's frame.
        let (offsets, size, align) = self.block_layout(&cap_types);
        let key = self.block_key(id);
        let invoke = match self.block_fns.get(&key) {
            Some(b) => b.invoke,
            None => {
                let f = self.block_function(id, e.ty.ty, params, body, &captures)?;
                self.block_fns.insert(key, BlockFn { invoke: f, literal: id, size, align });
                f
            }
        };
        let obj = self.block_alloca(size, align)?;
        if self.spirv() {
            // Clang's header: runtimes copy an enqueued block by its size.
            let i32t = self.ctx.i32_type();
            self.b.build_store(obj, i32t.const_int(size, false))?;
            let at = self.byte_offset(obj, 4)?;
            self.b.build_store(at, i32t.const_int(align, false))?;
            let at = self.byte_offset(obj, 8)?;
            self.b.build_store(at, self.ptr_ty(AddrSpace::Generic).const_null())?;
        } else {
            self.b.build_store(obj, invoke.as_global_value().as_pointer_value())?;
        }
        for (i, (&l, &t)) in captures.iter().zip(&cap_types).enumerate() {
            let slot = self.byte_offset(obj, offsets[i])?;
            let src = self.local_ptr(l)?;
            if self.copied_whole(t) {
                self.copy_object(slot, src, t)?;
            } else {
                let v = self.load_value(src, t, false)?;
                self.store_value(slot, t, v, false)?;
            }
        }
        self.debug_at(e.span);
        let bt = self.mem_ty(e.ty.ty)?;
        Ok(self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, obj.into(), bt))
    }

    /// The block object's layout: the invoke pointer, then the captured
    /// values, each at its alignment; byte offsets, size and alignment.
    /// SPIR-V has no function pointers (and every SPIR-V block call is
    /// direct): there the object starts with clang's header instead, the
    /// object's `int` size and alignment and a null invoke pointer, which
    /// OpenCL runtimes read to copy an enqueued block.
    fn block_layout(&self, caps: &[TypeId]) -> (Vec<u64>, u64, u64) {
        let ptr = self.types.pointer_size;
        let (mut at, mut align) = if self.spirv() { (8 + ptr, ptr.max(4)) } else { (ptr, ptr) };
        let mut offsets = Vec::with_capacity(caps.len());
        for &t in caps {
            let (size, a) = self.types.size_align(t).unwrap_or((0, 1));
            at = at.next_multiple_of(a.max(1));
            offsets.push(at);
            at += size;
            align = align.max(a);
        }
        (offsets, at.max(1).next_multiple_of(align), align)
    }

    /// Stack storage for a block object.
    fn block_alloca(&mut self, size: u64, align: u64) -> R<inkwell::values::PointerValue<'ctx>> {
        let t = self.ctx.i8_type().array_type(size as u32);
        self.at_entry(|g| {
            let obj = g.b.build_alloca(t, "block")?;
            if let Some(i) = obj.as_instruction() {
                let _ = i.set_alignment(align as u32);
            }
            Ok(obj)
        })
    }

    /// The invoke function's LLVM type: `ret (block object, params…)`,
    /// records passed and returned as functions pass them (a pointer to
    /// the caller's copy; an `sret` pointer after the block object).
    fn invoke_type(&mut self, block_ty: TypeId) -> R<inkwell::types::FunctionType<'ctx>> {
        let TypeKind::Block { ret, params } = self.kind(block_ty).clone() else { return ice("a block without a block type") };
        let mut ps: Vec<BasicMetadataTypeEnum> = vec![self.ptr_ty(AddrSpace::Generic).into()];
        let sret = self.is_record(ret.ty);
        if sret {
            ps.push(self.ptr_ty(AddrSpace::Private).into());
        }
        for p in &params {
            ps.push(self.param_ty(p.ty)?);
        }
        if self.cpu_abi() {
            ps.push(self.ptr_ty(AddrSpace::Private).into());
        }
        Ok(match if sret { None } else { self.value_ty(ret.ty)? } {
            Some(r) => r.fn_type(&ps, false),
            None => self.ctx.void_type().fn_type(&ps, false),
        })
    }

    fn block_function(&mut self, id: ExprId, block_ty: TypeId, params: &'a [LocalId], body: &'a [Stmt], captures: &[LocalId]) -> R<FunctionValue<'ctx>> {
        let TypeKind::Block { ret, .. } = self.kind(block_ty).clone() else { return ice("a block without a block type") };
        let sret = self.is_record(ret.ty);
        let fty = self.invoke_type(block_ty)?;
        let name = format!("{}.block.{}", self.fs().name, id.0);
        let f = self.module.add_function(&name, fty, Some(Linkage::Internal));
        if self.spirv() {
            f.set_call_conventions(super::CC_SPIR_FUNC);
        }
        for a in ["convergent", "nounwind"] {
            self.add_fn_attr(f, a);
        }
        self.fp_attrs(f);
        let cap_types: Vec<TypeId> = captures.iter().map(|l| self.local_info(*l).ty.ty).collect();
        // Generate it now, then come back to the enclosing function.
        let saved_block = self.b.get_insert_block();
        let saved_dbg = self.debug_save();
        let span = self.expr_info(id).span;
        let entry = self.ctx.append_basic_block(f, "entry");
        let outer = self.fs.take().expect("a block literal is inside a function");
        self.fs = Some(FnState {
            ret: Some(ret).filter(|r| !matches!(self.kind(r.ty), TypeKind::Void)),
            ..FnState::new(outer.name, outer.exprs, outer.local_infos, f, entry)
        });
        if self.cpu_abi() {
            let n = f.count_params();
            self.fs_mut().wi = f.get_nth_param(n.saturating_sub(1)).map(|p| p.into_pointer_value());
        }
        self.b.position_at_end(entry);
        self.debug_function(&name, span, f, true);
        self.debug_at(span);
        let result = (|| -> R<()> {
            let Some(obj) = f.get_nth_param(0) else { return ice("an invoke function without its block") };
            let values = self.captured_values(&cap_types, obj.into_pointer_value())?;
            for ((&l, &t), v) in captures.iter().zip(&cap_types).zip(values) {
                let slot = self.alloca(t, &self.local_info(l).name.clone())?;
                if self.copied_whole(t) {
                    self.copy_object(slot, v.into_pointer_value(), t)?;
                } else {
                    self.store_value(slot, t, v, false)?;
                }
                self.fs_mut().locals[l.0 as usize] = Some(slot);
            }
            let first = if sret {
                let Some(r) = f.get_nth_param(1) else { return ice("an invoke function without its sret pointer") };
                self.fs_mut().sret = Some(r.into_pointer_value());
                2
            } else {
                1
            };
            for (k, &p) in params.iter().enumerate() {
                let Some(v) = f.get_nth_param(k as u32 + first) else { return ice("a block parameter without an LLVM parameter") };
                let t = self.local_info(p).ty.ty;
                let slot = if self.is_record(t) {
                    // The caller's copy, the block's own.
                    v.into_pointer_value()
                } else {
                    let slot = self.alloca(t, &self.local_info(p).name.clone())?;
                    self.store_value(slot, t, v, false)?;
                    slot
                };
                self.fs_mut().locals[p.0 as usize] = Some(slot);
            }
            let start = self.ctx.append_basic_block(f, "body");
            self.b.build_unconditional_branch(start)?;
            self.b.position_at_end(start);
            self.stmts(body)?;
            if self.current_block_open() {
                self.emit_default_return()?;
            }
            self.terminate_blocks(f)
        })();
        self.debug_restore(saved_dbg);
        self.fs = Some(outer);
        if let Some(b) = saved_block {
            self.b.position_at_end(b);
        }
        result?;
        Ok(f)
    }

    /// A call of a block value (a block variable or a literal: what the
    /// checker lets a block be), straight to its invoke function.
    pub(super) fn call_block(&mut self, callee: ExprId, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        // Evaluating a literal generates its invoke function.
        let obj = self.value(callee)?;
        let known = self.known_block(callee);
        let mut vals: Vec<BasicMetadataValueEnum> = vec![obj.into()];
        let sret = if self.is_record(ty) { Some(self.alloca(ty, "ret")?) } else { None };
        if let Some(r) = sret {
            vals.push(r.into());
        }
        for &a in args {
            vals.push(self.call_arg(a)?);
        }
        if let Some(wi) = self.fs().wi {
            vals.push(wi.into());
        }
        // The checker lets blocks be named or written only (OpenCL C 2.0
        // §6.12.5), so every block called is known.
        let Some(f) = known else { return ice("a call of a block that is not a block variable or literal") };
        let call = self.b.build_call(f, &vals, "")?;
        if self.spirv() {
            call.set_call_convention(super::CC_SPIR_FUNC);
        }
        if let Some(r) = sret {
            return Ok(Some(self.load_aggregate(r, ty)?));
        }
        Ok(call.try_as_basic_value().basic())
    }

    /// The invoke function of the block an expression evaluates to, when
    /// it is known statically.
    fn known_block(&mut self, e: ExprId) -> Option<FunctionValue<'ctx>> {
        self.block_of(e).map(|b| b.invoke)
    }

    /// The literal of the block an expression is, where it is one or a
    /// block variable initialised from one (generated or not).
    pub(super) fn literal_of(&self, e: ExprId) -> Option<ExprId> {
        match &self.expr_info(e).kind {
            ExprKind::Convert { expr, .. } => self.literal_of(*expr),
            ExprKind::Load(inner) => match self.expr_info(*inner).kind {
                ExprKind::Local(l) => self.local_blocks.get(&l).map(|b| b.literal),
                _ => None,
            },
            ExprKind::BlockLiteral { .. } => Some(e),
            _ => None,
        }
    }

    /// The block an expression is (called or enqueued): a literal or a
    /// block variable naming one.
    pub(super) fn block_of(&self, e: ExprId) -> Option<BlockFn<'ctx>> {
        // Generated when the caller evaluated it.
        let literal = self.literal_of(e)?;
        self.block_fns.get(&self.block_key(literal)).copied()
    }

    /// After `Stmt::Local` initialized `l` from a block (a literal or
    /// another block variable): calls through `l` go straight to it.
    pub(super) fn note_block_local(&mut self, l: LocalId, init: &Init) {
        let &Init::Expr(e) = init else { return };
        if let Some(b) = self.block_of(e) {
            self.local_blocks.insert(l, b);
        }
    }

    /// A block literal's key in `block_fns`: expression ids number one
    /// function's arena (which its blocks share), so the arena too. A
    /// literal lowered again (a kernel's body in regions) finds its block.
    pub(super) fn block_key(&self, literal: ExprId) -> (*const hir::Expr, ExprId) {
        (self.fs().exprs.as_ptr(), literal)
    }

    /// The values of a block's captured variables (of types `cap_types`,
    /// in [`Gen::captures`]' order) in its block object `obj`: an
    /// aggregate's a pointer to its copy there, which the reader copies.
    pub(super) fn captured_values(&mut self, cap_types: &[TypeId], obj: inkwell::values::PointerValue<'ctx>) -> R<Vec<BasicValueEnum<'ctx>>> {
        let (offsets, _, _) = self.block_layout(cap_types);
        let mut values = Vec::with_capacity(cap_types.len());
        for (&t, &off) in cap_types.iter().zip(&offsets) {
            let field = self.byte_offset(obj, off)?;
            values.push(if self.copied_whole(t) { field.into() } else { self.load_value(field, t, false)? });
        }
        Ok(values)
    }

    /// The enclosing function's locals a block body uses (not its
    /// parameters, not locals declared inside it or in nested blocks), in
    /// first-use order.
    pub(super) fn captures(&self, params: &[LocalId], body: &[Stmt]) -> Vec<LocalId> {
        let exprs: &'a [hir::Expr] = self.fs().exprs;
        let mut used = Vec::new();
        let mut declared: Vec<LocalId> = params.to_vec();
        for s in body {
            super::regions::walk_decls(s, &mut declared);
            super::regions::visit_stmt_deep(exprs, s, &mut |e| match &exprs[e.0 as usize].kind {
                ExprKind::Local(l) => used.push(*l),
                ExprKind::BlockLiteral { params, body } => {
                    declared.extend(params.iter().copied());
                    body.iter().for_each(|s| super::regions::walk_decls(s, &mut declared));
                }
                ExprKind::StmtExpr { body, .. } => body.iter().for_each(|s| super::regions::walk_decls(s, &mut declared)),
                _ => {}
            });
        }
        let declared: HashSet<LocalId> = declared.into_iter().collect();
        let mut seen = HashSet::default();
        used.into_iter().filter(|l| !declared.contains(l) && seen.insert(*l)).collect()
    }

}

