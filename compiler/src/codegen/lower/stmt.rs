//! Statements and control flow.

use super::{Gen, R, ice};
use crate::sema::hir::{ExprId, LoopMeta, Stmt, Unroll};
use inkwell::debug_info::DILocation;
use clc_builtins::functions::AddrSpace;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{AnyValueEnum, InstructionValue, IntValue};

impl<'a, 'ctx> Gen<'a, 'ctx> {
    pub(super) fn stmts(&mut self, body: &'a [Stmt]) -> R<()> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    /// A block for a label, made on first mention (`goto` may come first).
    fn label_block(&mut self, name: &str) -> BasicBlock<'ctx> {
        if let Some(b) = self.fs().labels.get(name) {
            return *b;
        }
        let b = self.ctx.append_basic_block(self.fs().llfn, &format!("label.{name}"));
        self.fs_mut().labels.insert(name.to_string(), b);
        b
    }

    /// Branches to `to` unless the current block already ended.
    fn jump(&mut self, to: BasicBlock<'ctx>) -> R<()> {
        if self.current_block_open() {
            self.b.build_unconditional_branch(to)?;
        }
        Ok(())
    }

    /// A condition as `i1`.
    pub(super) fn truth(&mut self, cond: ExprId) -> R<inkwell::values::IntValue<'ctx>> {
        let t = self.expr_info(cond).ty.ty;
        let v = self.value(cond)?;
        Ok(self.is_nonzero(v, t)?.into_int_value())
    }

    fn stmt(&mut self, s: &'a Stmt) -> R<()> {
        let f = self.fs().llfn;
        match s {
            Stmt::Expr(e) => {
                self.rvalue(*e)?;
            }
            Stmt::Local { local, init } => {
                let info = self.local_info(*local);
                let ptr = self.local_ptr(*local)?;
                if let Some(init) = init {
                    match info.ty.space {
                        AddrSpace::Private | AddrSpace::Generic => {
                            self.init_local(ptr, info.ty, init)?;
                            self.note_block_local(*local, init);
                        }
                        AddrSpace::Local => return ice("an initialized __local variable"),
                        _ => {
                            // A `__constant` (or static) variable: its
                            // initializer is a constant, set once.
                            let v = self.const_value(init, info.ty)?;
                            let name = format!("{}.{}", self.fs().name, info.name);
                            if let Some(g) = self.module.get_global(&name) {
                                let g = self.set_global_init(g, v);
                                self.fs_mut().locals[local.0 as usize] = Some(g.as_pointer_value());
                            }
                        }
                    }
                }
            }
            Stmt::Block(b) => self.stmts(b)?,
            Stmt::If { cond, then, else_ } => {
                let c = self.truth(*cond)?;
                let tb = self.ctx.append_basic_block(f, "if.then");
                let end = self.ctx.append_basic_block(f, "if.end");
                let eb = if else_.is_some() { self.ctx.append_basic_block(f, "if.else") } else { end };
                self.b.build_conditional_branch(c, tb, eb)?;
                self.b.position_at_end(tb);
                self.stmts(then)?;
                self.jump(end)?;
                if let Some(e) = else_ {
                    self.b.position_at_end(eb);
                    self.stmts(e)?;
                    self.jump(end)?;
                }
                end.move_after(self.b.get_insert_block().expect("positioned")).ok();
                self.b.position_at_end(end);
            }
            Stmt::While { cond, body, meta } => {
                let head = self.ctx.append_basic_block(f, "while.cond");
                let bb = self.ctx.append_basic_block(f, "while.body");
                let end = self.ctx.append_basic_block(f, "while.end");
                let before = self.b.get_insert_block();
                self.jump(head)?;
                self.b.position_at_end(head);
                let c = self.truth(*cond)?;
                self.b.build_conditional_branch(c, bb, end)?;
                self.b.position_at_end(bb);
                self.loop_body(body, end, head)?;
                self.jump(head)?;
                self.unroll_hint(head, before, *meta);
                self.b.position_at_end(end);
            }
            Stmt::DoWhile { body, cond, meta } => {
                let bb = self.ctx.append_basic_block(f, "do.body");
                let cb = self.ctx.append_basic_block(f, "do.cond");
                let end = self.ctx.append_basic_block(f, "do.end");
                let before = self.b.get_insert_block();
                self.jump(bb)?;
                self.b.position_at_end(bb);
                self.loop_body(body, end, cb)?;
                self.jump(cb)?;
                self.b.position_at_end(cb);
                let c = self.truth(*cond)?;
                self.b.build_conditional_branch(c, bb, end)?;
                self.unroll_hint(bb, before, *meta);
                self.b.position_at_end(end);
            }
            Stmt::For { init, cond, step, body, meta } => {
                self.stmts(init)?;
                let before = self.b.get_insert_block();
                let head = self.ctx.append_basic_block(f, "for.cond");
                let bb = self.ctx.append_basic_block(f, "for.body");
                let inc = self.ctx.append_basic_block(f, "for.inc");
                let end = self.ctx.append_basic_block(f, "for.end");
                self.jump(head)?;
                self.b.position_at_end(head);
                match cond {
                    Some(c) => {
                        let c = self.truth(*c)?;
                        self.b.build_conditional_branch(c, bb, end)?;
                    }
                    None => {
                        self.b.build_unconditional_branch(bb)?;
                    }
                }
                self.b.position_at_end(bb);
                self.loop_body(body, end, inc)?;
                self.jump(inc)?;
                self.b.position_at_end(inc);
                if let Some(s) = step {
                    self.rvalue(*s)?;
                }
                self.jump(head)?;
                self.unroll_hint(head, before, *meta);
                self.b.position_at_end(end);
            }
            Stmt::Switch { cond, cases, default, body } => {
                let v = self.value(*cond)?.into_int_value();
                let end = self.ctx.append_basic_block(f, "sw.end");
                self.switch_head(v, cases, *default, end)?;
                self.fs_mut().jumps.push((end, None));
                let r = self.stmts(body);
                self.fs_mut().jumps.pop();
                r?;
                self.jump(end)?;
                end.move_after(self.b.get_insert_block().expect("positioned")).ok();
                self.b.position_at_end(end);
            }
            Stmt::Case(id) => {
                let Some(bb) = self.fs().cases.get(id).copied() else { return ice("a case label outside its switch") };
                self.jump(bb)?;
                self.b.position_at_end(bb);
            }
            Stmt::Label(name) => {
                let bb = self.label_block(name);
                self.jump(bb)?;
                self.b.position_at_end(bb);
            }
            Stmt::Goto(name) => {
                let bb = self.label_block(name);
                self.jump(bb)?;
                self.continue_in_new_block("after.goto");
            }
            Stmt::Break => {
                let Some(&(to, _)) = self.fs().jumps.last() else { return ice("break outside a loop or switch") };
                self.jump(to)?;
                self.continue_in_new_block("after.break");
            }
            Stmt::Continue => {
                let Some(to) = self.fs().jumps.iter().rev().find_map(|j| j.1) else { return ice("continue outside a loop") };
                self.jump(to)?;
                self.continue_in_new_block("after.continue");
            }
            Stmt::Return(v) => {
                self.emit_return(*v)?;
                self.continue_in_new_block("after.return");
            }
        }
        Ok(())
    }

    /// Gives the loop whose header is `head` its `llvm.loop` ID, as
    /// clang-22 does: the `llvm.loop.unroll.*` property of `meta.unroll`
    /// (see [`crate::codegen::llvm::LOOP_UNROLL_ENABLE`]) and, with `-g`,
    /// the loop's start and end locations; on every branch to the header
    /// from inside the loop (the back edge, and a `while` loop's
    /// `continue`s), all with the same loop ID, which LLVM requires of a
    /// loop's latches. `before` is the block the loop was entered from.
    pub(super) fn unroll_hint(&mut self, head: BasicBlock<'ctx>, before: Option<BasicBlock<'ctx>>, meta: LoopMeta) {
        use crate::codegen::llvm::{LOOP_UNROLL_COUNT, LOOP_UNROLL_DISABLE, LOOP_UNROLL_ENABLE};
        let props = match meta.unroll {
            None => vec![],
            Some(Unroll::Enable) => vec![(LOOP_UNROLL_ENABLE, None)],
            Some(Unroll::Disable) => vec![(LOOP_UNROLL_DISABLE, None)],
            Some(Unroll::Count { count, enable }) => {
                let mut p = vec![(LOOP_UNROLL_COUNT, Some(self.ctx.i32_type().const_int(count.into(), false)))];
                if enable {
                    p.push((LOOP_UNROLL_ENABLE, None));
                }
                p
            }
        };
        let at = self.debug_loop_locations(meta.span);
        if props.is_empty() && at.is_none() {
            return;
        }
        let mut latches = Vec::new();
        let mut u = head.get_first_use();
        while let Some(x) = u {
            if let AnyValueEnum::InstructionValue(i) = x.get_user()
                && i.get_parent() != before
            {
                latches.push(i);
            }
            u = x.get_next_use();
        }
        self.set_loop_properties(&latches, &props, at);
    }

    /// Sets one new loop ID with properties `props` (a name and, for
    /// most, a value) on each of the branches `latches`, after the loop's
    /// start and end locations `at` where given.
    pub(super) fn set_loop_properties(&self, latches: &[InstructionValue<'ctx>], props: &[(&str, Option<IntValue<'ctx>>)], at: Option<[DILocation<'ctx>; 2]>) {
        use inkwell::llvm_sys::core as llvm;
        use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
        use inkwell::llvm_sys::prelude::LLVMMetadataRef;
        use inkwell::values::AsValueRef;
        const KIND: &str = "llvm.loop";
        if latches.is_empty() {
            return;
        }
        // SAFETY: metadata of the live context; the loop ID refers to
        // itself, made through a temporary node that the replacement
        // deletes.
        unsafe {
            let ctx = llvm::LLVMGetModuleContext(self.module.as_mut_ptr());
            let node = |ops: &mut [LLVMMetadataRef]| llvm::LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
            let tmp = LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
            let mut ops = vec![tmp];
            ops.extend(at.iter().flatten().map(|l| l.as_mut_ptr()));
            for (name, value) in props {
                let mut prop = vec![llvm::LLVMMDStringInContext2(ctx, name.as_ptr().cast(), name.len())];
                prop.extend(value.map(|v| llvm::LLVMValueAsMetadata(v.as_value_ref())));
                ops.push(node(&mut prop));
            }
            let id = node(&mut ops);
            LLVMMetadataReplaceAllUsesWith(tmp, id);
            let kind = llvm::LLVMGetMDKindIDInContext(ctx, KIND.as_ptr().cast(), KIND.len() as u32);
            for l in latches {
                llvm::LLVMSetMetadata(l.as_value_ref(), kind, llvm::LLVMMetadataAsValue(ctx, id));
            }
        }
    }

    fn loop_body(&mut self, body: &'a [Stmt], brk: BasicBlock<'ctx>, cont: BasicBlock<'ctx>) -> R<()> {
        self.fs_mut().jumps.push((brk, Some(cont)));
        let r = self.stmts(body);
        self.fs_mut().jumps.pop();
        r
    }

    fn emit_return(&mut self, v: Option<ExprId>) -> R<()> {
        // In a region: this work-item is done.
        if self.fs().group.is_some() && self.region_return(v)? {
            return Ok(());
        }
        let Some(e) = v else {
            if self.fs().ret.is_some() {
                return self.emit_default_return();
            }
            self.b.build_return(None)?;
            return Ok(());
        };
        let t = self.expr_info(e).ty.ty;
        if let Some(sret) = self.fs().sret {
            let src = self.aggregate_ptr(e)?;
            self.copy_object(sret, src, t)?;
            self.b.build_return(None)?;
            return Ok(());
        }
        match self.rvalue(e)? {
            Some(val) if self.fs().ret.is_some() => {
                self.b.build_return(Some(&val))?;
            }
            _ => {
                // `return f();` with `void f()` in a void function.
                self.b.build_return(None)?;
            }
        }
        Ok(())
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The dispatch of a `switch` on `v`: a block per `case` and for
    /// `default` (registered for the `Case` markers of the body), `end`
    /// without a `default`; the builder is left in a fresh block for the
    /// body (code before the first label is unreachable). A case range of
    /// up to 64 values is that many values of the `switch` instruction, a
    /// larger one a range check on its way to `default` (as clang does).
    pub(super) fn switch_head(&mut self, v: inkwell::values::IntValue<'ctx>, cases: &[(i128, i128, crate::sema::hir::CaseId)], default: Option<crate::sema::hir::CaseId>, end: inkwell::basic_block::BasicBlock<'ctx>) -> R<()> {
        let f = self.fs().llfn;
        let t = v.get_type();
        let mut arms = Vec::with_capacity(cases.len());
        let mut ranges = Vec::new();
        for &(lo, hi, id) in cases {
            let bb = self.ctx.append_basic_block(f, "sw.case");
            self.fs_mut().cases.insert(id, bb);
            if hi < lo {
                // An empty range: its label is reached only from above.
            } else if hi - lo < 64 {
                arms.extend((lo..=hi).map(|x| (t.const_int(x as u64, true), bb)));
            } else {
                ranges.push((lo, hi, bb));
            }
        }
        let default_bb = match default {
            Some(id) => {
                let bb = self.ctx.append_basic_block(f, "sw.default");
                self.fs_mut().cases.insert(id, bb);
                bb
            }
            None => end,
        };
        if ranges.is_empty() {
            self.b.build_switch(v, default_bb, &arms)?;
        } else {
            let mut check = self.ctx.append_basic_block(f, "sw.range");
            self.b.build_switch(v, check, &arms)?;
            for (i, &(lo, hi, bb)) in ranges.iter().enumerate() {
                self.b.position_at_end(check);
                let off = self.b.build_int_sub(v, t.const_int(lo as u64, true), "range.off")?;
                let inside = self.b.build_int_compare(inkwell::IntPredicate::ULE, off, t.const_int((hi - lo) as u64, false), "in.range")?;
                let next = if i + 1 == ranges.len() { default_bb } else { self.ctx.append_basic_block(f, "sw.range") };
                self.b.build_conditional_branch(inside, bb, next)?;
                check = next;
            }
        }
        self.continue_in_new_block("sw.body");
        Ok(())
    }
}
