//! Device-side enqueue on SPIR-V (OpenCL C 2.0 §6.13.17; SPIR-V's
//! DeviceEnqueue instructions).
//!
//! LLVM 22's back end cannot lower `enqueue_kernel` (clang-22 crashes in
//! it) and clc's IR cannot carry `queue_t` and `clk_event_t` as target
//! types (inkwell has none): they are integers as wide as a pointer here
//! (as pointers, the back end typed a private wait list as one event). Each
//! builtin becomes a call of an imported placeholder,
//! `__clc_spirv_<instruction>` (`spirv_fixup::enqueue` has the list),
//! whose arguments are the instruction's operands in order; the SPIR-V
//! repair turns each call into its instruction, types queues and events
//! as OpTypeQueue and OpTypeDeviceEvent, and drops the placeholders.
//! Operands the instruction takes as an id of a function (Invoke) are
//! passed as a tag, an `i32` constant naming the function
//! `__clc_block_invoke_<tag>_kernel`, made per enqueued block: it calls
//! the block's invoke function with the block object and the `__local`
//! pointers, as clang's `__<caller>_block_invoke_kernel`. The repair makes
//! it the Invoke operand and adds a kernel of the same name that calls it
//! (the translator's shape: Intel's CPU runtime runs an enqueued block
//! only so, a function named like clang's block kernels with an entry
//! point of the same name).
//!
//! The operands are the SPIRV-LLVM-Translator's, which OpenCL runtimes
//! read (Intel's CPU runtime runs them): ND Range is a pointer to the
//! `ndrange_t` (`byval`, so that the back end types it as the struct),
//! each local size a pointer to a `size_t` holding it, the block object a
//! `__generic` pointer with its size and alignment. Functions that take
//! or return queues or events are inlined on SPIR-V (see
//! `passes_handles`), so only loads, stores, phis and placeholders see
//! them.

use super::{CC_SPIR_FUNC, Gen, R, ice};
use crate::codegen::spirv_fixup::enqueue::{PLACEHOLDER_PREFIX, block_kernel_name};
use crate::sema::hir::ExprId;
use crate::sema::types::{TypeId, TypeKind};
use crate::source::Span;
use clc_builtins::functions::{AddrSpace, EnqueueOp, Purity};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::{AsTypeRef, BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue};

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// An `Lowering::Enqueue` builtin on SPIR-V.
    pub(super) fn spirv_enqueue_builtin(&mut self, op: EnqueueOp, args: &[ExprId], ty: TypeId, span: Span) -> R<Option<BasicValueEnum<'ctx>>> {
        let i32t = self.ctx.i32_type();
        let handle = self.int_ty(self.size_bits());
        let generic = self.ptr_ty(AddrSpace::Generic);
        let status = Some(i32t.into());
        let (name, vals, ret): (String, Vec<BasicValueEnum<'ctx>>, Option<BasicTypeEnum<'ctx>>) = match op {
            EnqueueOp::NdRange { dims } => return self.ndrange(dims, args, ty).map(Some),
            EnqueueOp::GetDefaultQueue => ("GetDefaultQueue".into(), vec![], Some(handle.into())),
            EnqueueOp::CreateUserEvent => ("CreateUserEvent".into(), vec![], Some(handle.into())),
            EnqueueOp::RetainEvent => ("RetainEvent".into(), vec![self.value(args[0])?], None),
            EnqueueOp::ReleaseEvent => ("ReleaseEvent".into(), vec![self.value(args[0])?], None),
            EnqueueOp::IsValidEvent => ("IsValidEvent".into(), vec![self.value(args[0])?], Some(self.ctx.bool_type().into())),
            EnqueueOp::SetUserEventStatus => ("SetUserEventStatus".into(), vec![self.value(args[0])?, self.i32_arg(args[1])?], None),
            EnqueueOp::CaptureEventProfilingInfo => {
                let value = self.value(args[2])?;
                ("CaptureEventProfilingInfo".into(), vec![self.value(args[0])?, self.i32_arg(args[1])?, value], None)
            }
            EnqueueOp::Marker => {
                let wait = self.generic_arg(args[2])?;
                let ret_event = self.generic_arg(args[3])?;
                ("EnqueueMarker".into(), vec![self.value(args[0])?, self.i32_arg(args[1])?, wait, ret_event], status)
            }
            EnqueueOp::WorkGroupSize | EnqueueOp::PreferredWorkGroupSizeMultiple => {
                let Some(block) = self.block_operands(args[0], span)? else { return self.zero_of(ty) };
                let name = if op == EnqueueOp::WorkGroupSize { "GetKernelWorkGroupSize" } else { "GetKernelPreferredWorkGroupSizeMultiple" };
                (name.into(), block.to_vec(), status)
            }
            EnqueueOp::SubGroupCountForNdRange | EnqueueOp::MaxSubGroupSizeForNdRange => {
                let nd = self.aggregate_ptr(args[0])?;
                let Some(block) = self.block_operands(args[1], span)? else { return self.zero_of(ty) };
                let name = if op == EnqueueOp::SubGroupCountForNdRange { "GetKernelNDrangeSubGroupCount" } else { "GetKernelNDrangeMaxSubGroupSize" };
                let mut vals = vec![nd.into()];
                vals.extend(block);
                (name.into(), vals, status)
            }
            EnqueueOp::Kernel { events, local_sizes } => {
                let q = self.value(args[0])?;
                let flags = self.i32_arg(args[1])?;
                let nd = self.aggregate_ptr(args[2])?;
                let (n, wait, ret_event, rest) = if events {
                    (self.i32_arg(args[3])?, self.generic_arg(args[4])?, self.generic_arg(args[5])?, &args[6..])
                } else {
                    let null = generic.const_null().into();
                    (i32t.const_zero().into(), null, null, &args[3..])
                };
                let Some(block) = self.block_operands(rest[0], span)? else { return self.zero_of(ty) };
                let mut vals = vec![q, flags, nd.into(), n, wait, ret_event];
                vals.extend(block);
                // Each local size in a `size_t` of its own.
                let sizes = if local_sizes { &rest[1..] } else { &[][..] };
                let st = self.int_ty(self.size_bits());
                let arr = self.at_entry(|g| Ok(g.b.build_alloca(st.array_type(sizes.len().max(1) as u32), "local.sizes")?))?;
                for (i, &s) in sizes.iter().enumerate() {
                    let v = self.value(s)?.into_int_value();
                    let v = self.b.build_int_z_extend_or_bit_cast(v, st, "")?;
                    let slot = self.byte_offset(arr, i as u64 * st.get_bit_width() as u64 / 8)?;
                    self.b.build_store(slot, v)?;
                    vals.push(slot.into());
                }
                (format!("EnqueueKernel_{}", sizes.len()), vals, status)
            }
        };
        let byval = matches!(op, EnqueueOp::Kernel { .. } | EnqueueOp::SubGroupCountForNdRange | EnqueueOp::MaxSubGroupSizeForNdRange);
        let nd_at = if matches!(op, EnqueueOp::Kernel { .. }) { 2 } else { 0 };
        let f = self.placeholder(&name, ret, &vals, byval.then_some(nd_at))?;
        let call_args: Vec<BasicMetadataValueEnum> = vals.iter().map(|&v| v.into()).collect();
        let call = self.b.build_call(f, &call_args, "")?;
        call.set_call_convention(CC_SPIR_FUNC);
        let Some(r) = call.try_as_basic_value().basic() else { return Ok(None) };
        Ok(Some(match op {
            EnqueueOp::GetDefaultQueue | EnqueueOp::CreateUserEvent => r,
            _ => self.int_result(r.into_int_value(), ty)?,
        }))
    }

    /// Marks a kernel's `queue_t` parameter as a queue (the placeholder
    /// `QueueParameter` stands for no instruction), so that it is one even
    /// where nothing uses it: runtimes set it as a queue.
    pub(super) fn queue_parameter(&mut self, v: BasicValueEnum<'ctx>) -> R<()> {
        let f = self.placeholder("QueueParameter", None, &[v], None)?;
        let call = self.b.build_call(f, &[v.into()], "")?;
        call.set_call_convention(CC_SPIR_FUNC);
        Ok(())
    }

    /// An integer argument as the `i32` an instruction takes.
    fn i32_arg(&mut self, e: ExprId) -> R<BasicValueEnum<'ctx>> {
        let v = self.value(e)?.into_int_value();
        Ok(self.b.build_int_truncate_or_bit_cast(v, self.ctx.i32_type(), "")?.into())
    }

    /// A pointer argument in the generic address space (the builder
    /// leaves one already there as it is).
    fn generic_arg(&mut self, e: ExprId) -> R<BasicValueEnum<'ctx>> {
        let v = self.value(e)?;
        Ok(self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, v, self.ptr_ty(AddrSpace::Generic).into()))
    }

    /// The operands naming a block: its kernel's tag, the block object,
    /// its size and alignment; `None` after a diagnostic.
    fn block_operands(&mut self, block: ExprId, span: Span) -> R<Option<[BasicValueEnum<'ctx>; 4]>> {
        let obj = self.value(block)?;
        // The checker lets blocks be named or written only.
        let Some(b) = self.block_of(block) else { return ice("an enqueued block that is not a block variable or literal") };
        let TypeKind::Block { params, .. } = self.kind(self.expr_info(b.literal).ty.ty).clone() else { return ice("an enqueued block without a block type") };
        let tag = self.block_kernel(b.invoke, params.len(), span)?;
        let i32t = self.ctx.i32_type();
        let obj = self.cast(inkwell::llvm_sys::LLVMOpcode::LLVMAddrSpaceCast, obj, self.ptr_ty(AddrSpace::Generic).into());
        Ok(Some([i32t.const_int(tag as u64, false).into(), obj, i32t.const_int(b.size, false).into(), i32t.const_int(b.align, false).into()]))
    }

    /// The tag of the block kernel function (see the module's
    /// documentation) of the block with invoke function `invoke` and
    /// `num_locals` `__local` pointer parameters, made once.
    fn block_kernel(&mut self, invoke: FunctionValue<'ctx>, num_locals: usize, span: Span) -> R<u32> {
        if let Some(&tag) = self.block_kernels.get(&invoke) {
            return Ok(tag);
        }
        let tag = self.block_kernels.len() as u32;
        let mut params: Vec<BasicMetadataTypeEnum> = vec![self.ptr_ty(AddrSpace::Generic).into()];
        params.extend(std::iter::repeat_n(BasicMetadataTypeEnum::from(self.ptr_ty(AddrSpace::Local)), num_locals));
        let name = block_kernel_name(tag);
        // Exported: kept, and named in the SPIR-V.
        let f = self.module.add_function(&name, self.ctx.void_type().fn_type(&params, false), None);
        f.set_call_conventions(CC_SPIR_FUNC);
        for a in ["convergent", "nounwind"] {
            self.add_fn_attr(f, a);
        }
        let args: Vec<BasicMetadataValueEnum> = f.get_param_iter().map(|p| p.into()).collect();
        self.build_body(f, &name, span, false, |g| {
            let call = g.b.build_call(invoke, &args, "")?;
            call.set_call_convention(CC_SPIR_FUNC);
            g.b.build_return(None)?;
            Ok(())
        })?;
        self.block_kernels.insert(invoke, tag);
        Ok(tag)
    }

    /// The placeholder `__clc_spirv_<name>` taking `vals`' types, declared
    /// once; `byval` marks the parameter that is a `ndrange_t` (so that the
    /// back end types the pointer as the struct).
    fn placeholder(&mut self, name: &str, ret: Option<BasicTypeEnum<'ctx>>, vals: &[BasicValueEnum<'ctx>], byval: Option<usize>) -> R<FunctionValue<'ctx>> {
        let tys: Vec<BasicMetadataTypeEnum> = vals.iter().map(|v| v.get_type().into()).collect();
        let f = self.declare(&format!("{PLACEHOLDER_PREFIX}{name}"), ret, &tys, false, false, Purity::Effects);
        if let Some(i) = byval {
            let nd = self.ndrange_ty()?;
            let kind = Attribute::get_named_enum_kind_id("byval");
            // SAFETY: a struct type of this context.
            let any = unsafe { inkwell::types::AnyTypeEnum::new(nd.as_type_ref()) };
            f.add_attribute(AttributeLoc::Param(i as u32), self.ctx.create_type_attribute(kind, any));
        }
        Ok(f)
    }
}
