//! OpenCL metadata: per-kernel argument information and attributes, and
//! the program's OpenCL version, in clang's SPIR format (which LLVM's
//! SPIR-V back end and OpenCL runtimes read).

use super::{Gen, R};
use crate::sema::hir;
use crate::sema::types::{TypeId, TypeKind};
use clc_builtins::functions::{Access, AddrSpace};
use clc_builtins::types::Scalar;
use inkwell::types::BasicType;
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue};

impl<'ctx> Gen<'_, 'ctx> {
    fn md_str(&self, s: &str) -> BasicMetadataValueEnum<'ctx> {
        self.ctx.metadata_string(s).into()
    }

    fn md_i32(&self, v: u64) -> BasicMetadataValueEnum<'ctx> {
        self.ctx.i32_type().const_int(v, false).into()
    }

    /// Attaches `!kind !{vals}` to a function. Built with the metadata API
    /// (`LLVMMDNodeInContext2`): the value-based one turns a one-element
    /// node into a bare value, which is not a node.
    fn set_fn_md(&self, f: FunctionValue<'ctx>, kind: &str, vals: &[BasicMetadataValueEnum<'ctx>]) {
        use inkwell::llvm_sys::core as c;
        let id = self.ctx.get_kind_id(kind);
        // SAFETY: `f` and every value are live and belong to this context;
        // metadata strings are unwrapped from their value wrappers.
        unsafe {
            let ctx = c::LLVMGetModuleContext(self.module.as_mut_ptr());
            let mut mds: Vec<_> = vals
                .iter()
                .map(|v| match v {
                    BasicMetadataValueEnum::MetadataValue(m) => c::LLVMValueAsMetadata(m.as_value_ref()),
                    other => c::LLVMValueAsMetadata(other.as_value_ref()),
                })
                .collect();
            let node = c::LLVMMDNodeInContext2(ctx, mds.as_mut_ptr(), mds.len());
            c::LLVMGlobalSetMetadata(f.as_value_ref(), id, node);
        }
    }

    /// `kernel_arg_*`, `reqd_work_group_size`, `work_group_size_hint`,
    /// `vec_type_hint` on a kernel.
    pub(super) fn kernel_metadata(&mut self, f: &hir::Function, llfn: FunctionValue<'ctx>) -> R<()> {
        let mut spaces = Vec::new();
        let mut access = Vec::new();
        let mut tys = Vec::new();
        let mut base = Vec::new();
        let mut quals = Vec::new();
        let mut names = Vec::new();
        for p in &f.params {
            let l = &f.locals[p.0 as usize];
            let t = l.ty.ty;
            let (space, q) = match self.kind(t) {
                TypeKind::Pointer(pt) => {
                    let mut q = Vec::new();
                    // Data in the constant space is read-only: clang says
                    // `const` for it too.
                    if pt.quals.is_const || pt.space == AddrSpace::Constant {
                        q.push("const");
                    }
                    if l.ty.quals.is_restrict {
                        q.push("restrict");
                    }
                    if pt.quals.is_volatile {
                        q.push("volatile");
                    }
                    (pt.space as u64, q.join(" "))
                }
                TypeKind::Image(..) => (AddrSpace::Global as u64, String::new()),
                TypeKind::Pipe(..) => (AddrSpace::Global as u64, "pipe".to_string()),
                _ => (0, if l.ty.quals.is_const { "const".to_string() } else { String::new() }),
            };
            spaces.push(self.md_i32(space));
            let acc = match self.kind(t) {
                TypeKind::Image(_, a) | TypeKind::Pipe(_, a) => match a {
                    Access::ReadOnly => "read_only",
                    Access::WriteOnly => "write_only",
                    Access::ReadWrite => "read_write",
                },
                _ => "none",
            };
            access.push(self.md_str(acc));
            tys.push(self.md_str(&self.arg_type_name(t, false)));
            base.push(self.md_str(&self.arg_type_name(t, true)));
            quals.push(self.md_str(&q));
            names.push(self.md_str(&l.name));
        }
        self.set_fn_md(llfn, "kernel_arg_addr_space", &spaces);
        self.set_fn_md(llfn, "kernel_arg_access_qual", &access);
        self.set_fn_md(llfn, "kernel_arg_type", &tys);
        self.set_fn_md(llfn, "kernel_arg_base_type", &base);
        self.set_fn_md(llfn, "kernel_arg_type_qual", &quals);
        if self.opts.kernel_arg_info {
            self.set_fn_md(llfn, "kernel_arg_name", &names);
        }
        if let Some([x, y, z]) = f.reqd_work_group_size {
            let v = [self.md_i32(x), self.md_i32(y), self.md_i32(z)];
            self.set_fn_md(llfn, "reqd_work_group_size", &v);
        }
        if let Some([x, y, z]) = f.work_group_size_hint {
            let v = [self.md_i32(x), self.md_i32(y), self.md_i32(z)];
            self.set_fn_md(llfn, "work_group_size_hint", &v);
        }
        if let Some(hint) = &f.vec_type_hint {
            if let Some((t, signed)) = self.hint_type(hint) {
                let v = [t.into(), self.md_i32(signed as u64)];
                self.set_fn_md(llfn, "vec_type_hint", &v);
            }
        }
        Ok(())
    }

    /// The `vec_type_hint` type as an undefined value of it, and whether it
    /// is signed (clang's encoding).
    fn hint_type(&self, hint: &str) -> Option<(inkwell::values::BasicValueEnum<'ctx>, bool)> {
        let split = hint.find(|c: char| c.is_ascii_digit()).unwrap_or(hint.len());
        let (name, n) = hint.split_at(split);
        let s = Scalar::from_name(name)?;
        let st = self.scalar_ty(s);
        let t = match n.parse::<u32>() {
            Ok(n) => match st {
                inkwell::types::BasicTypeEnum::IntType(i) => i.vec_type(n).as_basic_type_enum(),
                inkwell::types::BasicTypeEnum::FloatType(f) => f.vec_type(n).as_basic_type_enum(),
                other => other,
            },
            Err(_) => st,
        };
        let signed = matches!(s, Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long);
        Some((undef(t), signed))
    }

    /// A parameter type as clang writes it in `kernel_arg_type` (`float*`,
    /// `uint4`) or `kernel_arg_base_type` (vectors spelt out).
    fn arg_type_name(&self, t: TypeId, base: bool) -> String {
        match self.kind(t) {
            TypeKind::Pointer(p) => format!("{}*", self.arg_type_name(p.ty, base)),
            TypeKind::Vector(s, n) if base => format!("{} __attribute__((ext_vector_type({n})))", s.name()),
            TypeKind::Image(img, _) => img.name().to_string(),
            TypeKind::Pipe(e, _) => self.arg_type_name(e.ty, base),
            TypeKind::Scalar(Scalar::Size) => "size_t".into(),
            TypeKind::Scalar(Scalar::PtrDiff) => "ptrdiff_t".into(),
            _ => self.types.display(t),
        }
    }

    /// `!opencl.ocl.version` (and `!opencl.spir.version` for SPIR-V): the
    /// OpenCL C version the program was written in.
    pub(super) fn program_metadata(&self) {
        let v = self.opts.std.version();
        let (major, minor) = (v / 100, (v % 100) / 10);
        let node = self.ctx.metadata_node(&[self.md_i32(major as u64), self.md_i32(minor as u64)]);
        let _ = self.module.add_global_metadata("opencl.ocl.version", &node);
        if self.spirv() {
            let spir = self.ctx.metadata_node(&[self.md_i32(1), self.md_i32(2)]);
            let _ = self.module.add_global_metadata("opencl.spir.version", &spir);
        }
    }
}

fn undef(t: inkwell::types::BasicTypeEnum<'_>) -> inkwell::values::BasicValueEnum<'_> {
    // SAFETY: an undef of a first-class type.
    unsafe { inkwell::values::BasicValueEnum::new(inkwell::llvm_sys::core::LLVMGetUndef(inkwell::types::AsTypeRef::as_type_ref(&t))) }
}
