//! HIR → LLVM IR.
//!
//! One [`Gen`] per module. Types map as OpenCL C wants them in memory:
//! `bool` is `i1` as a value and `i8` in memory, 3-element vectors are
//! LLVM `<3 x T>` (which LLVM sizes and aligns as 4 elements), structs are
//! packed LLVM structs with explicit padding so that the layout is exactly
//! [`Types::record_layout`]'s (including `packed` and `aligned`), unions
//! are byte arrays of their size. Pointers carry the SPIR address-space
//! numbers (private 0, global 1, constant 2, local 3, generic 4) on every
//! target; on x86-64 these are ordinary address spaces whose casts are
//! no-ops.
//!
//! Kernels get the `spir_kernel` calling convention on SPIR-V (C on native
//! targets), external linkage and the OpenCL kernel metadata; other
//! functions are internal, with clc's own convention, so the inliner may
//! fold them away; those another program may call (not `static`) are
//! also exported through a wrapper with clang's C convention ([`abi`]),
//! which is how calls of functions declared but not defined are made too.
//! Every
//! function is `convergent` (as clang does for OpenCL) so that no pass
//! makes a barrier control-dependent on more values.
//!
//! Builtins are lowered by [`builtins`]: to LLVM instructions where LLVM
//! has them (atomics, fences, conversions, vector loads and stores,
//! `as_type`), to LLVM intrinsics on native targets where they compute
//! exactly the OpenCL function, and otherwise to calls of the function's
//! Itanium-mangled name, as clang emits them — the SPIR-V back end maps
//! those to OpenCL.std extended instructions and builtin variables, and the
//! CPU runtime and builtin library provide them on native targets.

mod abi;
mod blocks;
mod builtins;
mod convert;
mod cpu;
mod cpu_enqueue;
mod cpu_pipes;
mod debug;
mod expr;
mod images;
mod init;
mod libclang;
mod libcommon;
mod libint;
mod libmath;
mod meta;
mod pipes;
mod printf;
pub(crate) use pipes::is_pipe_function;
mod regions;
mod spirv_enqueue;
mod stmt;
mod uniform;
mod xsplit;

use super::{CodegenOptions, InternalError};
use crate::options::Target;
use crate::sema::Program;
use crate::sema::hir::{self, ExprId, LocalId};
use crate::sema::types::{QualType, TypeId, TypeKind, Types};
use crate::source::{SourceMap, Span};
use clc_builtins::functions::AddrSpace;
use clc_builtins::types::{Opaque, Scalar};
use inkwell::AddressSpace;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::llvm_sys;
use inkwell::module::{Linkage, Module};
use inkwell::types::{AnyType, AsTypeRef, BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FunctionType, StructType};
use inkwell::values::{AsValueRef, BasicValue, BasicValueEnum, FunctionValue, GlobalValue, InstructionValue, IntValue, PointerValue};
use rustc_hash::FxHashMap as HashMap;

pub use libmath::{CType, Prec, is_math, libm_symbol, libm_symbols};

type R<T> = Result<T, InternalError>;

/// Named metadata marking a module whose group code keeps vectors lane by
/// lane (the optimiser then scalarises it; see `emit::optimize`).
pub const SCALARIZE_MD: &str = "clc.scalarize";

impl From<BuilderError> for InternalError {
    fn from(e: BuilderError) -> InternalError {
        InternalError { function: None, message: format!("LLVM builder: {e}") }
    }
}

fn ice<T>(message: impl Into<String>) -> R<T> {
    Err(InternalError { function: None, message: message.into() })
}

/// SPIR calling conventions (LLVM's `CallingConv::SPIR_FUNC`/`SPIR_KERNEL`).
const CC_SPIR_FUNC: u32 = 75;
const CC_SPIR_KERNEL: u32 = 76;

/// Lowers a checked program (with its typed functions) into a module for
/// `opts.target`: every program the checker accepts lowers on both
/// targets; a failure is clc's own, an [`InternalError`].
pub fn lower<'ctx>(
    ctx: &'ctx Context,
    program: &Program,
    sm: &SourceMap,
    name: &str,
    opts: &CodegenOptions,
) -> Result<Module<'ctx>, InternalError> {
    let module = ctx.create_module(name);
    let mut g = Gen {
        ctx,
        module,
        b: ctx.create_builder(),
        program,
        types: &program.types,
        opts,
        sm,
        funcs: Vec::new(),
        kernel_entries: HashMap::default(),
        globals: Vec::new(),
        records: HashMap::default(),
        strings: HashMap::default(),
        declared: HashMap::default(),
        fs: None,
        dbg: None,
        samplers: HashMap::default(),
        const_eval: false,
        block_fns: HashMap::default(),
        local_blocks: HashMap::default(),
        block_entries: HashMap::default(),
        block_kernels: HashMap::default(),
        local_mem_size: 0,
        kernel_descs: Vec::new(),
        reqd_size: None,
        local_offsets: HashMap::default(),
        chunk: regions::chunk_for(opts),
    };
    if opts.debug_info {
        g.dbg = Some(debug::Debug::new(&g.module, name, opts.opt_level > 0));
    }
    g.module_header();
    g.declare_globals()?;
    g.declare_functions()?;
    for (i, f) in program.functions.iter().enumerate() {
        g.define_function(i, f).map_err(|mut e| {
            e.function.get_or_insert_with(|| f.name.clone());
            e
        })?;
    }
    g.export_functions()?;
    if g.spirv() {
        // An image reaches each image builtin as the function's own
        // parameter, never through a phi or select: LLVM 22's back end
        // types such a merged value as a pointer to the image, and
        // spirv-val refuses the OpSampledImage made of it. SimplifyCFG
        // would merge calls on different images in a switch's cases
        // into one call on a phi of them (darktable's
        // `laplacian_assemble`); `nomerge` stops that.
        for f in g.module.get_functions() {
            if f.count_basic_blocks() == 0 && f.get_name().to_bytes().windows(9).any(|w| w == b"ocl_image") {
                g.add_fn_attr(f, "nomerge");
            }
        }
    }
    if g.cpu_abi() {
        g.kernel_table()?;
        // A kernel the region lowering replaced (and no one calls) would
        // only cost optimisation time.
        for (i, f) in program.functions.iter().enumerate() {
            let llfn = g.funcs[i];
            if f.kernel && llfn.as_global_value().as_pointer_value().get_first_use().is_none() {
                // SAFETY: the function has no uses.
                unsafe { llfn.delete() };
            }
        }
    }
    g.program_metadata();
    if let Some(d) = &g.dbg {
        d.finalize();
    }
    Ok(g.module)
}

/// Where an lvalue is.
#[derive(Clone)]
enum Place<'ctx> {
    /// An object of `ty` at `ptr`.
    Mem { ptr: PointerValue<'ctx>, ty: TypeId, volatile: bool },
    /// Some lanes of the vector of type `vec` at `ptr` (swizzles, `v[i]`).
    Lanes { ptr: PointerValue<'ctx>, vec: TypeId, lanes: Lanes<'ctx> },
}

#[derive(Clone)]
enum Lanes<'ctx> {
    Fixed(Vec<u8>),
    Dynamic(IntValue<'ctx>),
}

/// The function being generated.
struct FnState<'a, 'ctx> {
    /// The function's name (for `__local` variables' symbols).
    name: &'a str,
    /// The expression and local arenas being lowered.
    exprs: &'a [hir::Expr],
    local_infos: &'a [hir::Local],
    llfn: FunctionValue<'ctx>,
    /// Storage of each local (parameters included), once declared.
    locals: Vec<Option<PointerValue<'ctx>>>,
    /// Where new allocas go: the entry block, before its terminator.
    entry: BasicBlock<'ctx>,
    labels: HashMap<String, BasicBlock<'ctx>>,
    cases: HashMap<hir::CaseId, BasicBlock<'ctx>>,
    /// `(break target, continue target)` of the enclosing loops and
    /// switches (`continue` is `None` for a switch).
    jumps: Vec<(BasicBlock<'ctx>, Option<BasicBlock<'ctx>>)>,
    ret: Option<QualType>,
    /// The `sret` pointer when the function returns a record.
    sret: Option<PointerValue<'ctx>>,
    /// The work-item parameter (CPU runtime ABI).
    wi: Option<PointerValue<'ctx>>,
    /// Lowering a kernel for its whole work-group (region loops).
    group: Option<regions::GroupMode<'ctx>>,
}

impl<'a, 'ctx> FnState<'a, 'ctx> {
    /// The state at the start of lowering into `llfn` (entry block
    /// `entry`) from the arenas `exprs` and `local_infos`: no local
    /// stored yet, no jumps, no return type, no work-item, not in group
    /// mode (callers set what differs).
    fn new(name: &'a str, exprs: &'a [hir::Expr], local_infos: &'a [hir::Local], llfn: FunctionValue<'ctx>, entry: BasicBlock<'ctx>) -> Self {
        FnState {
            name,
            exprs,
            local_infos,
            llfn,
            locals: vec![None; local_infos.len()],
            entry,
            labels: HashMap::default(),
            cases: HashMap::default(),
            jumps: Vec::new(),
            ret: None,
            sret: None,
            wi: None,
            group: None,
        }
    }
}

pub(super) struct Gen<'a, 'ctx> {
    ctx: &'ctx Context,
    module: Module<'ctx>,
    b: Builder<'ctx>,
    program: &'a Program,
    types: &'a Types,
    opts: &'a CodegenOptions,
    #[allow(dead_code)]
    sm: &'a SourceMap,
    /// The LLVM function of each HIR function, by index.
    funcs: Vec<FunctionValue<'ctx>>,
    /// SPIR-V: the entry points of kernels that other functions call. An
    /// entry point cannot be called there (SPIR_KERNEL), so such a
    /// kernel's body is a function of its own (`funcs`), which the entry
    /// point calls.
    kernel_entries: HashMap<usize, FunctionValue<'ctx>>,
    /// The LLVM global of each program-scope variable, by [`hir::GlobalId`].
    globals: Vec<GlobalValue<'ctx>>,
    records: HashMap<u32, StructType<'ctx>>,
    /// String literals, shared by content and address space.
    strings: HashMap<(Vec<u8>, u16), GlobalValue<'ctx>>,
    /// Builtin functions declared so far, by LLVM name.
    declared: HashMap<String, FunctionValue<'ctx>>,
    fs: Option<FnState<'a, 'ctx>>,
    /// `-g`: the debug-info builder.
    dbg: Option<debug::Debug<'ctx>>,
    /// Program-scope samplers (SPIR-V) by global index: their encoding.
    samplers: HashMap<u32, i128>,
    /// Evaluating a constant initializer: loads of read-only objects fold
    /// to their initializers.
    const_eval: bool,
    /// Block literals generated, by expression (see [`Gen::block_key`]).
    block_fns: HashMap<(*const hir::Expr, ExprId), blocks::BlockFn<'ctx>>,
    /// Block variables of the current function and the block each holds.
    local_blocks: HashMap<LocalId, blocks::BlockFn<'ctx>>,
    /// Work-group entries of enqueued blocks and their launch flags, by
    /// invoke function.
    block_entries: HashMap<FunctionValue<'ctx>, (FunctionValue<'ctx>, u64)>,
    /// SPIR-V block kernels' functions of enqueued blocks, by invoke
    /// function: their tag (`spirv_enqueue.rs`).
    block_kernels: HashMap<FunctionValue<'ctx>, u32>,
    /// Bytes of `__local` variables of the kernel being generated.
    local_mem_size: u64,
    /// Kernels with a work-group entry: (function index, entry, local
    /// memory bytes, flags).
    kernel_descs: Vec<(usize, FunctionValue<'ctx>, u64, u32)>,
    /// The `reqd_work_group_size` of the kernel whose work-group entry is
    /// being built: a dimension of size 1 is a constant to its loops.
    reqd_size: Option<[u64; 3]>,
    /// Offsets of the current kernel's `__local` variables in its group's
    /// local memory.
    local_offsets: HashMap<LocalId, u64>,
    /// Work-items per chunk of a divergent loop (see `regions`).
    chunk: u64,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    fn spirv(&self) -> bool {
        self.opts.target.is_spirv()
    }

    fn module_header(&self) {
        let triple = match &self.opts.target {
            Target::Spirv64 => "spirv64-unknown-unknown".to_string(),
            Target::Spirv32 => "spirv32-unknown-unknown".to_string(),
            Target::Host => "x86_64-unknown-linux-gnu".to_string(),
            Target::Native(t) => t.clone(),
        };
        self.module.set_triple(&inkwell::targets::TargetTriple::create(&triple));
    }

    // -----------------------------------------------------------------
    // Types
    // -----------------------------------------------------------------

    fn kind(&self, t: TypeId) -> &'a TypeKind {
        self.types.kind(t)
    }

    fn addr_space(space: AddrSpace) -> AddressSpace {
        AddressSpace::from(space as u16)
    }

    fn ptr_ty(&self, space: AddrSpace) -> inkwell::types::PointerType<'ctx> {
        self.ctx.ptr_type(Self::addr_space(space))
    }

    fn int_ty(&self, bits: u32) -> inkwell::types::IntType<'ctx> {
        match bits {
            1 => self.ctx.bool_type(),
            8 => self.ctx.i8_type(),
            16 => self.ctx.i16_type(),
            32 => self.ctx.i32_type(),
            128 => self.ctx.i128_type(),
            _ => self.ctx.i64_type(),
        }
    }

    fn size_bits(&self) -> u32 {
        self.opts.target.pointer_bits()
    }

    fn scalar_bits(&self, s: Scalar) -> u32 {
        (self.types.scalar_size(s) * 8) as u32
    }

    /// The LLVM type of a scalar as a value (`bool` is `i1`).
    fn scalar_ty(&self, s: Scalar) -> BasicTypeEnum<'ctx> {
        match s {
            Scalar::Bool => self.ctx.bool_type().into(),
            Scalar::Half => self.ctx.f16_type().into(),
            Scalar::Float => self.ctx.f32_type().into(),
            Scalar::Double => self.ctx.f64_type().into(),
            _ => self.int_ty(self.scalar_bits(s)).into(),
        }
    }

    /// The type of a value of `t` (`None` for `void`).
    fn value_ty(&mut self, t: TypeId) -> R<Option<BasicTypeEnum<'ctx>>> {
        Ok(Some(match self.kind(t) {
            TypeKind::Void => return Ok(None),
            TypeKind::Scalar(s) => self.scalar_ty(*s),
            _ => return self.mem_ty(t).map(Some),
        }))
    }

    /// The type of a value of `t`, which must not be `void`.
    fn vty(&mut self, t: TypeId) -> R<BasicTypeEnum<'ctx>> {
        match self.value_ty(t)? {
            Some(t) => Ok(t),
            None => ice("a value of type void"),
        }
    }

    /// The type of an object of `t` in memory.
    fn mem_ty(&mut self, t: TypeId) -> R<BasicTypeEnum<'ctx>> {
        Ok(match self.kind(t) {
            TypeKind::Void => self.ctx.i8_type().into(),
            TypeKind::Scalar(Scalar::Bool) => self.ctx.i8_type().into(),
            TypeKind::Scalar(s) => self.scalar_ty(*s),
            TypeKind::Vector(s, n) => match self.scalar_ty(*s) {
                BasicTypeEnum::IntType(i) => i.vec_type(*n as u32).into(),
                BasicTypeEnum::FloatType(f) => f.vec_type(*n as u32).into(),
                _ => return ice("a vector of a non-scalar"),
            },
            TypeKind::Pointer(p) => self.ptr_ty(p.space).into(),
            TypeKind::Array(e, n) => {
                let et = self.mem_ty(e.ty)?;
                init::array_type(et, n.unwrap_or(0))
            }
            TypeKind::Function { .. } => self.ptr_ty(AddrSpace::Private).into(),
            TypeKind::Record(idx) => self.record_ty(*idx)?.into(),
            TypeKind::Enum(_) => self.ctx.i32_type().into(),
            TypeKind::Atomic(Some(s)) => self.scalar_ty(*s),
            TypeKind::Atomic(None) => self.ctx.i32_type().into(),
            // A sampler is its integer encoding on the CPU; on SPIR-V a
            // handle made by `__translate_sampler_initializer` (clang's
            // representation, which the SPIR-V back end turns into
            // OpConstantSampler / OpTypeSampler).
            TypeKind::Opaque(Opaque::Sampler) if self.spirv() => self.ptr_ty(AddrSpace::Constant).into(),
            TypeKind::Opaque(Opaque::Sampler | Opaque::MemFenceFlags | Opaque::MemoryOrder | Opaque::MemoryScope) => self.ctx.i32_type().into(),
            TypeKind::Opaque(Opaque::NdRange) => self.ndrange_ty()?,
            // Queues and device events on SPIR-V: integers as wide as a
            // pointer, which `spirv_fixup::enqueue` types (LLVM 22's back
            // end gives a private array of pointers, a wait list, the size
            // of one element when its first element is loaded directly).
            TypeKind::Opaque(Opaque::Queue | Opaque::ClkEvent) if self.spirv() => self.int_ty(self.size_bits()).into(),
            // Opaque handles: pointers into the global space (how clang
            // represents them for SPIR before target types).
            TypeKind::Image(..) | TypeKind::Pipe(..) | TypeKind::Opaque(_) => self.ptr_ty(AddrSpace::Global).into(),
            TypeKind::Block { .. } => self.ptr_ty(AddrSpace::Generic).into(),
        })
    }

    /// `ndrange_t`'s LLVM type.
    fn ndrange_ty(&mut self) -> R<BasicTypeEnum<'ctx>> {
        let st = self.int_ty(self.size_bits());
        let arr = st.array_type(3);
        // SPIR-V consumers' ndrange_t starts with a 32-bit dimension count
        // (clang's and the translator's); the CPU runtime's with a size_t.
        let dims: BasicTypeEnum = if self.spirv() { self.ctx.i32_type().into() } else { st.into() };
        Ok(self.ctx.struct_type(&[dims, arr.into(), arr.into(), arr.into()], false).into())
    }

    /// `ndrange_<dims>D(…)`: one size is the global size, two global and
    /// local, three offset, global and local (values for 1D, arrays of
    /// `dims` otherwise); a local size left out is 0 (the runtime
    /// chooses).
    fn ndrange(&mut self, dims: u8, args: &[ExprId], ty: TypeId) -> R<BasicValueEnum<'ctx>> {
        let st = self.int_ty(self.size_bits());
        let s = st.get_bit_width() as u64 / 8;
        let nd = self.alloca(ty, "ndrange")?;
        let lt = self.mem_ty(ty)?;
        self.b.build_store(nd, lt.const_zero())?;
        let dims_ty = if self.spirv() { self.ctx.i32_type() } else { st };
        self.b.build_store(nd, dims_ty.const_int(dims as u64, false))?;
        // The fields after the dimension count: offset, global, local.
        let (offset, global, local) = (s, 4 * s, 7 * s);
        let fields: &[u64] = match args.len() {
            1 => &[global],
            2 => &[global, local],
            _ => &[offset, global, local],
        };
        for (&a, &off) in args.iter().zip(fields) {
            let v = self.value(a)?;
            for d in 0..dims as u64 {
                let x = if dims == 1 {
                    v.into_int_value()
                } else {
                    let at = self.byte_offset(v.into_pointer_value(), s * d)?;
                    self.b.build_load(st, at, "")?.into_int_value()
                };
                let x = self.b.build_int_z_extend_or_bit_cast(x, st, "")?;
                let slot = self.byte_offset(nd, off + s * d)?;
                self.b.build_store(slot, x)?;
            }
        }
        self.load_aggregate(nd, ty)
    }

    /// A record as a packed LLVM struct with explicit padding, so that the
    /// field offsets are exactly sema's layout. A union is one byte array.
    fn record_ty(&mut self, idx: u32) -> R<StructType<'ctx>> {
        if let Some(t) = self.records.get(&idx) {
            return Ok(*t);
        }
        let r = &self.types.records[idx as usize];
        let kw = if r.is_union { "union" } else { "struct" };
        let name = format!("{kw}.{}", r.name.clone().unwrap_or_else(|| "anon".into()));
        let st = self.ctx.opaque_struct_type(&name);
        self.records.insert(idx, st);
        let Some(layout) = self.types.record_layout(idx) else {
            // An incomplete type: only used through pointers.
            return Ok(st);
        };
        let i8t = self.ctx.i8_type();
        let mut body: Vec<BasicTypeEnum> = Vec::new();
        if r.is_union {
            body.push(i8t.array_type(layout.size as u32).into());
        } else {
            let fields = r.fields.clone().unwrap_or_default();
            let mut at = 0u64;
            for (f, off) in fields.iter().zip(&layout.offsets) {
                if *off > at {
                    body.push(i8t.array_type((*off - at) as u32).into());
                }
                body.push(self.mem_ty(f.ty.ty)?);
                at = off + self.types.size_align(f.ty.ty).map_or(0, |s| s.0);
            }
            if layout.size > at {
                body.push(i8t.array_type((layout.size - at) as u32).into());
            }
        }
        st.set_body(&body, true);
        Ok(st)
    }

    /// The LLVM struct index of field `field` of record `idx` (after the
    /// padding members).
    fn field_index(&self, idx: u32, field: u32) -> u32 {
        let r = &self.types.records[idx as usize];
        let Some(layout) = self.types.record_layout(idx) else { return field };
        let fields = r.fields.as_deref().unwrap_or(&[]);
        let mut at = 0u64;
        let mut index = 0u32;
        for (i, (f, off)) in fields.iter().zip(&layout.offsets).enumerate() {
            if *off > at {
                index += 1;
            }
            if i as u32 == field {
                return index;
            }
            index += 1;
            at = off + self.types.size_align(f.ty.ty).map_or(0, |s| s.0);
        }
        index
    }

    fn align_of(&self, t: TypeId) -> u32 {
        self.types.size_align(t).map_or(1, |(_, a)| a.max(1) as u32)
    }

    fn is_record(&self, t: TypeId) -> bool {
        matches!(self.kind(t), TypeKind::Record(_) | TypeKind::Opaque(Opaque::NdRange))
    }

    /// Is an object of `t` copied whole rather than loaded as a value (a
    /// record, `ndrange_t` too, or an array)?
    fn copied_whole(&self, t: TypeId) -> bool {
        self.is_record(t) || matches!(self.kind(t), TypeKind::Array(..))
    }

    /// The LLVM function type of a HIR function type. Records are passed
    /// by pointer (`byval`) and returned through an `sret` pointer, as
    /// clang does for SPIR.
    fn fn_ty(&mut self, t: TypeId) -> R<FunctionType<'ctx>> {
        let TypeKind::Function { ret, params, variadic } = self.kind(t).clone() else {
            return ice("a function without a function type");
        };
        let mut ps: Vec<BasicMetadataTypeEnum> = Vec::new();
        let sret = self.is_record(ret.ty);
        if sret {
            ps.push(self.ptr_ty(AddrSpace::Private).into());
        }
        for p in &params {
            ps.push(self.param_ty(p.ty)?);
        }
        if self.cpu_abi() {
            // The work-item.
            ps.push(self.ptr_ty(AddrSpace::Private).into());
        }
        Ok(match if sret { None } else { self.value_ty(ret.ty)? } {
            Some(r) => r.fn_type(&ps, variadic),
            None => self.ctx.void_type().fn_type(&ps, variadic),
        })
    }

    // -----------------------------------------------------------------
    // Program-scope declarations
    // -----------------------------------------------------------------

    fn declare_globals(&mut self) -> R<()> {
        for (i, g) in self.program.globals.iter().enumerate() {
            if self.spirv() && matches!(self.kind(g.ty.ty), TypeKind::Opaque(Opaque::Sampler)) {
                // A program-scope sampler is a constant: its uses become
                // sampler initializers (and no variable is emitted).
                let v = match &g.init {
                    Some(hir::Init::Expr(e)) => int_constant(&g.init_exprs, *e),
                    _ => None,
                };
                let Some(v) = v else { return ice("a program-scope sampler without a constant initializer") };
                self.samplers.insert(i as u32, v);
                let gv = self.module.add_global(self.ctx.i32_type(), Some(Self::addr_space(AddrSpace::Constant)), &g.name);
                gv.set_initializer(&self.ctx.i32_type().const_int(v as u64, false));
                gv.set_constant(true);
                gv.set_linkage(Linkage::Internal);
                self.globals.push(gv);
                continue;
            }
            let t = self.mem_ty(g.ty.ty)?;
            let gv = self.module.add_global(t, Some(Self::addr_space(g.ty.space)), &g.name);
            gv.set_alignment(self.align_of(g.ty.ty));
            gv.set_initializer(&const_zero(t));
            if g.ty.space == AddrSpace::Constant || g.ty.quals.is_const {
                gv.set_constant(true);
            }
            self.globals.push(gv);
        }
        // Initializers may take the address of any global: declare all
        // first.
        for (i, g) in self.program.globals.iter().enumerate() {
            if self.samplers.contains_key(&(i as u32)) {
                continue;
            }
            if let Some(init) = &g.init {
                let v = self.const_init(&g.init_exprs, init, g.ty)?;
                self.globals[i] = self.set_global_init(self.globals[i], v);
            }
        }
        Ok(())
    }

    fn declare_functions(&mut self) -> R<()> {
        let called = if self.spirv() { self.called_functions() } else { Default::default() };
        let overloaded = {
            let mut count: HashMap<&str, u32> = HashMap::default();
            for f in &self.program.functions {
                *count.entry(f.name.as_str()).or_default() += 1;
            }
            count
        };
        for f in &self.program.functions {
            let fty = self.fn_ty(f.ty.ty)?;
            // Overloadable functions share a C name: give each its own
            // symbol (`name.1`, …). Kernels cannot be overloaded.
            let name = if overloaded[f.name.as_str()] > 1 && !f.kernel {
                format!("{}.{}", f.name, self.funcs.len())
            } else {
                f.name.clone()
            };
            // On the CPU the runtime calls a kernel's work-group entry,
            // not the kernel.
            let linkage = if f.kernel && !self.cpu_abi() { None } else { Some(Linkage::Internal) };
            let index = self.funcs.len();
            let called_kernel = f.kernel && self.spirv() && called.contains(&index);
            let llfn = if called_kernel {
                let entry = self.module.add_function(&name, fty, linkage);
                entry.set_call_conventions(CC_SPIR_KERNEL);
                self.function_attrs(entry, f.ty.ty)?;
                self.kernel_entries.insert(index, entry);
                self.module.add_function(&format!("{name}.body"), fty, Some(Linkage::Internal))
            } else {
                self.module.add_function(&name, fty, linkage)
            };
            if self.spirv() {
                llfn.set_call_conventions(if f.kernel && !called_kernel { CC_SPIR_KERNEL } else { CC_SPIR_FUNC });
            }
            self.function_attrs(llfn, f.ty.ty)?;
            if f.kernel && self.cpu_abi() {
                // Inlined into its work-group loop before anything else
                // optimises it: the body is optimised once, in place.
                self.add_fn_attr(llfn, "alwaysinline");
            }
            if (!f.kernel || called_kernel) && self.spirv() && self.passes_handles(f.ty.ty) {
                // Only kernel parameters are pipes on SPIR-V (`pipes.rs`);
                // queues and events flow through no call (`spirv_enqueue.rs`);
                // an image reaches the builtin that uses it in the function
                // that has it as a parameter (LLVM 22's back end types an
                // image parameter from its uses there: one only passed on
                // to another function became a `uchar` pointer, which
                // spirv-val refuses as that function's argument).
                self.add_fn_attr(llfn, "alwaysinline");
            }
            self.funcs.push(llfn);
        }
        Ok(())
    }

    /// What every function clc defines has: `convergent` (barriers and
    /// work-group functions may be inside), `nounwind`, the options'
    /// floating-point attributes, `byval`/`sret` on records.
    fn function_attrs(&mut self, llfn: FunctionValue<'ctx>, t: TypeId) -> R<()> {
        for attr in ["convergent", "nounwind"] {
            self.add_fn_attr(llfn, attr);
        }
        self.fp_attrs(llfn);
        self.param_attrs(llfn, t)
    }

    /// The functions some function of the program calls, by index.
    fn called_functions(&self) -> rustc_hash::FxHashSet<usize> {
        let mut called = rustc_hash::FxHashSet::default();
        for f in &self.program.functions {
            for e in &f.exprs {
                if let hir::ExprKind::Call { func: Some(id), .. } = &e.kind {
                    called.insert(id.0 as usize);
                }
            }
        }
        called
    }

    /// Does a function of type `t` take or return a pipe, a reservation
    /// id, a queue, a device event or an image?
    fn passes_handles(&self, t: TypeId) -> bool {
        let TypeKind::Function { ret, params, .. } = self.kind(t) else { return false };
        std::iter::once(ret).chain(params).any(|p| matches!(self.kind(p.ty), TypeKind::Pipe(..) | TypeKind::Image(..) | TypeKind::Opaque(Opaque::ReserveId | Opaque::Queue | Opaque::ClkEvent)))
    }

    fn add_fn_attr(&self, f: FunctionValue<'ctx>, name: &str) {
        let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(name);
        f.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_enum_attribute(kind, 0));
    }

    /// `byval`/`sret` on record parameters.
    fn param_attrs(&mut self, f: FunctionValue<'ctx>, t: TypeId) -> R<()> {
        let TypeKind::Function { ret, params, .. } = self.kind(t).clone() else { return Ok(()) };
        let mut i = 0;
        if self.is_record(ret.ty) {
            let st = self.mem_ty(ret.ty)?;
            let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("sret");
            f.add_attribute(inkwell::attributes::AttributeLoc::Param(0), self.ctx.create_type_attribute(kind, st.as_any_type_enum()));
            i = 1;
        }
        for p in &params {
            if self.is_record(p.ty) {
                let st = self.mem_ty(p.ty)?;
                let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("byval");
                f.add_attribute(inkwell::attributes::AttributeLoc::Param(i), self.ctx.create_type_attribute(kind, st.as_any_type_enum()));
                let align = inkwell::attributes::Attribute::get_named_enum_kind_id("align");
                f.add_attribute(inkwell::attributes::AttributeLoc::Param(i), self.ctx.create_enum_attribute(align, self.align_of(p.ty) as u64));
            }
            i += 1;
        }
        Ok(())
    }

    /// Function attributes for the floating-point options.
    fn fp_attrs(&self, f: FunctionValue<'ctx>) {
        let fp = &self.opts.fp;
        let set = |k: &str, v: &str| {
            f.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_string_attribute(k, v));
        };
        let relaxed = fp.fast_relaxed_math;
        if relaxed || fp.finite_math_only {
            set("no-infs-fp-math", "true");
            set("no-nans-fp-math", "true");
        }
        if relaxed || fp.no_signed_zeros || fp.unsafe_math {
            set("no-signed-zeros-fp-math", "true");
        }
        if relaxed || fp.unsafe_math {
            set("unsafe-fp-math", "true");
            set("approx-func-fp-math", "true");
        }
        if fp.denorms_are_zero {
            set("denormal-fp-math-f32", "preserve-sign,preserve-sign");
        }
    }

    /// The fast-math flags every floating-point instruction gets.
    fn fast_math_flags(&self) -> u32 {
        use llvm_sys::*;
        let fp = &self.opts.fp;
        let mut flags = 0;
        if fp.fast_relaxed_math || fp.mad_enable || fp.unsafe_math {
            flags |= LLVMFastMathAllowContract;
        }
        if fp.fast_relaxed_math || fp.finite_math_only {
            flags |= LLVMFastMathNoNaNs | LLVMFastMathNoInfs;
        }
        if fp.fast_relaxed_math || fp.no_signed_zeros || fp.unsafe_math {
            flags |= LLVMFastMathNoSignedZeros;
        }
        if fp.fast_relaxed_math || fp.unsafe_math {
            flags |= LLVMFastMathAllowReassoc | LLVMFastMathAllowReciprocal | LLVMFastMathApproxFunc;
        }
        flags
    }

    /// A parameter of type `t` as functions and blocks take it: a record
    /// by pointer (`byval`), other values as themselves.
    fn param_ty(&mut self, t: TypeId) -> R<BasicMetadataTypeEnum<'ctx>> {
        Ok(if self.is_record(t) { self.ptr_ty(AddrSpace::Private).into() } else { self.vty(t)?.into() })
    }

    // -----------------------------------------------------------------
    // Functions
    // -----------------------------------------------------------------

    fn fs(&self) -> &FnState<'a, 'ctx> {
        self.fs.as_ref().expect("inside a function")
    }

    fn fs_mut(&mut self) -> &mut FnState<'a, 'ctx> {
        self.fs.as_mut().expect("inside a function")
    }

    fn define_function(&mut self, index: usize, f: &'a hir::Function) -> R<()> {
        let llfn = self.funcs[index];
        let entry = self.ctx.append_basic_block(llfn, "entry");
        let ret = match self.kind(f.ty.ty) {
            TypeKind::Function { ret, .. } => Some(*ret).filter(|r| !matches!(self.kind(r.ty), TypeKind::Void)),
            _ => None,
        };
        self.fs = Some(FnState { ret, ..FnState::new(&f.name, &f.exprs, &f.locals, llfn, entry) });
        self.local_mem_size = 0;
        self.local_offsets.clear();
        if self.cpu_abi() {
            let n = llfn.count_params();
            self.fs_mut().wi = llfn.get_nth_param(n.saturating_sub(1)).map(|p| p.into_pointer_value());
            if let Some(wi) = self.fs().wi {
                wi.set_name("wi");
            }
        }
        self.b.position_at_end(entry);
        self.debug_function(&f.name, f.span, llfn, !f.kernel);
        self.debug_at(f.span);
        let mut param_no = 0u32;
        if ret.is_some_and(|r| self.is_record(r.ty)) {
            let p = llfn.get_nth_param(0).map(|p| p.into_pointer_value());
            self.fs_mut().sret = p;
            param_no = 1;
        }
        for &pid in &f.params {
            let local = &f.locals[pid.0 as usize];
            let Some(v) = llfn.get_nth_param(param_no) else {
                return ice("a parameter without an LLVM parameter");
            };
            param_no += 1;
            if !local.name.is_empty() {
                v.set_name(&local.name);
            }
            let slot = if self.is_record(local.ty.ty) {
                // `byval`: the callee owns this copy.
                v.into_pointer_value()
            } else {
                if let TypeKind::Pipe(_, access) = self.kind(local.ty.ty)
                    && f.kernel
                    && self.spirv()
                    && !self.kernel_entries.contains_key(&index)
                {
                    self.assign_pipe_type(v.into_pointer_value(), *access)?;
                }
                if matches!(self.kind(local.ty.ty), TypeKind::Opaque(Opaque::Queue)) && f.kernel && self.spirv() && !self.kernel_entries.contains_key(&index) {
                    self.queue_parameter(v)?;
                }
                let slot = self.alloca(local.ty.ty, &local.name)?;
                self.store_value(slot, local.ty.ty, v, false)?;
                slot
            };
            self.fs_mut().locals[pid.0 as usize] = Some(slot);
        }
        let body = self.ctx.append_basic_block(llfn, "body");
        self.b.build_unconditional_branch(body)?;
        self.b.position_at_end(body);
        self.stmts(&f.body)?;
        // Falling off the end: `return;` for void, an undefined value
        // otherwise (C allows it when the caller does not use the value).
        if self.current_block_open() {
            self.emit_default_return()?;
        }
        self.terminate_blocks(llfn)?;
        self.local_blocks.clear();
        if let Some(&entry) = self.kernel_entries.get(&index) {
            self.kernel_metadata(f, entry)?;
            self.debug_end_function();
            self.fs = None;
            return self.kernel_entry_body(f, entry, llfn);
        }
        if f.kernel {
            self.kernel_metadata(f, llfn)?;
        }
        self.debug_end_function();
        self.fs = None;
        if f.kernel && self.cpu_abi() {
            self.work_group_entry(index)?;
        }
        Ok(())
    }

    /// The entry point of a kernel other functions call: it calls the
    /// kernel's body (its pipe parameters typed first, `pipes.rs`).
    fn kernel_entry_body(&mut self, f: &'a hir::Function, entry: FunctionValue<'ctx>, body: FunctionValue<'ctx>) -> R<()> {
        let block = self.ctx.append_basic_block(entry, "entry");
        self.b.position_at_end(block);
        let params = entry.get_params();
        for (&pid, p) in f.params.iter().zip(&params) {
            let local = &f.locals[pid.0 as usize];
            if !local.name.is_empty() {
                p.set_name(&local.name);
            }
            if let TypeKind::Pipe(_, access) = self.kind(local.ty.ty) {
                self.assign_pipe_type(p.into_pointer_value(), *access)?;
            }
            if matches!(self.kind(local.ty.ty), TypeKind::Opaque(Opaque::Queue)) {
                self.queue_parameter(*p)?;
            }
        }
        let args: Vec<inkwell::values::BasicMetadataValueEnum> = params.iter().map(|&p| p.into()).collect();
        let call = self.b.build_call(body, &args, "")?;
        call.set_call_convention(CC_SPIR_FUNC);
        self.b.build_return(None)?;
        Ok(())
    }

    /// Gives blocks left without a terminator (after a `return`, labels
    /// never reached) an `unreachable`, so the function verifies.
    fn terminate_blocks(&mut self, llfn: FunctionValue<'ctx>) -> R<()> {
        let mut bb = llfn.get_first_basic_block();
        while let Some(b) = bb {
            if b.get_terminator().is_none() {
                self.b.position_at_end(b);
                self.b.build_unreachable()?;
            }
            bb = b.get_next_basic_block();
        }
        Ok(())
    }

    fn emit_default_return(&mut self) -> R<()> {
        match self.fs().ret {
            Some(r) if self.fs().sret.is_none() => {
                let t = self.vty(r.ty)?;
                self.b.build_return(Some(&t.const_zero()))?;
            }
            _ => {
                self.b.build_return(None)?;
            }
        }
        Ok(())
    }

    fn current_block_open(&self) -> bool {
        self.b.get_insert_block().is_some_and(|b| b.get_terminator().is_none())
    }

    /// Starts a fresh block after a jump, so that following (dead) code has
    /// somewhere to go.
    fn continue_in_new_block(&mut self, name: &str) {
        let bb = self.ctx.append_basic_block(self.fs().llfn, name);
        self.b.position_at_end(bb);
    }

    /// Builds with `f` at the end of the entry block (before its branch),
    /// then comes back: storage made there dominates every use.
    fn at_entry<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let entry = self.fs().entry;
        let here = self.b.get_insert_block();
        match entry.get_terminator() {
            Some(term) => self.b.position_before(&term),
            None => self.b.position_at_end(entry),
        }
        let r = f(self);
        if let Some(h) = here {
            self.b.position_at_end(h);
        }
        r
    }

    /// Generates the body of `f` (named `name` in debug info, at `span`;
    /// `local` to the unit or not) with `body`, positioned in its entry
    /// block, then comes back to where the builder was: its block, debug
    /// location and function state.
    fn build_body(&mut self, f: FunctionValue<'ctx>, name: &str, span: Span, local: bool, body: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let saved_block = self.b.get_insert_block();
        let saved_dbg = self.debug_save();
        let saved_fs = self.fs.take();
        self.b.position_at_end(self.ctx.append_basic_block(f, "entry"));
        self.debug_function(name, span, f, local);
        self.debug_at(span);
        let r = body(self);
        self.debug_end_function();
        self.debug_restore(saved_dbg);
        self.fs = saved_fs;
        if let Some(bb) = saved_block {
            self.b.position_at_end(bb);
        }
        r
    }

    /// Stack storage for an object of `t`, allocated in the entry block.
    fn alloca(&mut self, t: TypeId, name: &str) -> R<PointerValue<'ctx>> {
        let lt = self.mem_ty(t)?;
        let align = self.align_of(t);
        // An array of events on SPIR-V: marked for `spirv_fixup`, which
        // gives its variable the array type LLVM 22 does not.
        let name = match self.kind(t) {
            TypeKind::Array(e, Some(n)) if self.spirv() && matches!(self.kind(e.ty), TypeKind::Opaque(Opaque::Event)) => {
                format!("{name}{}{n}", crate::codegen::spirv_fixup::EVENT_ARRAY_MARK)
            }
            _ => name.to_string(),
        };
        self.at_entry(|g| {
            let p = g.b.build_alloca(lt, &name)?;
            if let Some(inst) = p.as_instruction() {
                let _ = inst.set_alignment(align);
            }
            Ok(p)
        })
    }

    // -----------------------------------------------------------------
    // Loads and stores
    // -----------------------------------------------------------------

    /// Tells LLVM, on the CPU target, that an access through `ptr` in the
    /// local address space never touches the memory of one in the global
    /// or constant address space, and the reverse: a group's local memory
    /// is an arena of its own, and OpenCL gives no way to reach it through
    /// a global pointer. Two scopes of one domain carry this
    /// (`!alias.scope` and `!noalias`, LLVM's scoped no-alias metadata);
    /// accesses through generic and private pointers get none.
    ///
    /// Without it the loop vectoriser, which cannot compare pointers of
    /// different address spaces in its run-time alias checks, left every
    /// work-item loop that copies between global and local memory scalar
    /// (a tiled transpose: "cannot identify array bounds").
    fn mark_space(&mut self, access: InstructionValue<'ctx>, ptr: PointerValue<'ctx>) {
        if self.spirv() {
            return;
        }
        let local = match ptr.get_type().get_address_space() {
            a if a == Self::addr_space(AddrSpace::Local) => true,
            a if a == Self::addr_space(AddrSpace::Global) || a == Self::addr_space(AddrSpace::Constant) => false,
            _ => return,
        };
        let domain = self.ctx.metadata_node(&[self.ctx.metadata_string("clc.address-spaces").into()]);
        let scope = |name: &str| self.ctx.metadata_node(&[self.ctx.metadata_string(name).into(), domain.into()]);
        let (own, other) = if local { (scope("clc.local"), scope("clc.global")) } else { (scope("clc.global"), scope("clc.local")) };
        let _ = access.set_metadata(self.ctx.metadata_node(&[own.into()]), self.ctx.get_kind_id("alias.scope"));
        let _ = access.set_metadata(self.ctx.metadata_node(&[other.into()]), self.ctx.get_kind_id("noalias"));
    }

    /// Loads a value of `t` from `ptr` (`bool` from its byte).
    fn load_value(&mut self, ptr: PointerValue<'ctx>, t: TypeId, volatile: bool) -> R<BasicValueEnum<'ctx>> {
        let lt = self.mem_ty(t)?;
        let v = self.b.build_load(lt, ptr, "")?;
        if let Some(i) = v.as_instruction_value() {
            self.mark_space(i, ptr);
            let _ = i.set_alignment(self.align_of(t));
            if volatile {
                let _ = i.set_volatile(true);
            }
        }
        if matches!(self.kind(t), TypeKind::Scalar(Scalar::Bool)) {
            let z = self.ctx.i8_type().const_zero();
            return Ok(self.b.build_int_compare(inkwell::IntPredicate::NE, v.into_int_value(), z, "")?.into());
        }
        Ok(v)
    }

    fn store_value(&mut self, ptr: PointerValue<'ctx>, t: TypeId, v: BasicValueEnum<'ctx>, volatile: bool) -> R<()> {
        let v = if matches!(self.kind(t), TypeKind::Scalar(Scalar::Bool)) && v.get_type() == self.ctx.bool_type().into() {
            self.b.build_int_z_extend(v.into_int_value(), self.ctx.i8_type(), "")?.into()
        } else {
            v
        };
        let s = self.b.build_store(ptr, v)?;
        self.mark_space(s, ptr);
        let _ = s.set_alignment(self.align_of(t));
        if volatile {
            let _ = s.set_volatile(true);
        }
        Ok(())
    }

    /// Copies an object of `t` (records, arrays).
    fn copy_object(&mut self, dst: PointerValue<'ctx>, src: PointerValue<'ctx>, t: TypeId) -> R<()> {
        let (size, align) = self.types.size_align(t).unwrap_or((0, 1));
        let n = self.int_ty(64).const_int(size, false);
        self.b.build_memcpy(dst, align as u32, src, align as u32, n).map_err(|e| InternalError { function: None, message: e.to_string() })?;
        Ok(())
    }

    fn expr_info(&self, id: ExprId) -> &'a hir::Expr {
        let exprs: &'a [hir::Expr] = self.fs().exprs;
        &exprs[id.0 as usize]
    }

    fn local_info(&self, id: LocalId) -> &'a hir::Local {
        let locals: &'a [hir::Local] = self.fs().local_infos;
        &locals[id.0 as usize]
    }
}

/// The value of an integer constant expression: literals, builtin
/// constants (a sampler's `CLK_*` flags), integer conversions (to a
/// sampler too), negation, and arithmetic where operands and result lie
/// in `0..=i32::MAX` (a macro's `2 * R + 1`): there every integer type
/// computes the same value (no wrapping, C's division rounding as Rust's).
pub(super) fn int_constant(exprs: &[hir::Expr], id: ExprId) -> Option<i128> {
    use crate::parse::ast::{BinOp, UnOp};
    match &exprs.get(id.0 as usize)?.kind {
        hir::ExprKind::Int(v) => Some(*v),
        hir::ExprKind::BuiltinConst(name) => match clc_builtins::constants::constant(name)?.value {
            clc_builtins::constants::ConstValue::Int(v) => Some(v),
            _ => None,
        },
        hir::ExprKind::Convert { kind: hir::ConvKind::IntResize { .. } | hir::ConvKind::IntToOpaque, expr } => int_constant(exprs, *expr),
        hir::ExprKind::Convert { kind: hir::ConvKind::ToBool, expr } => int_constant(exprs, *expr).map(|v| i128::from(v != 0)),
        hir::ExprKind::Unary { op: UnOp::Neg, expr } => int_constant(exprs, *expr).map(|v| -v),
        hir::ExprKind::Unary { op: UnOp::Not, expr } => int_constant(exprs, *expr).map(|v| i128::from(v == 0)),
        hir::ExprKind::Cond { cond, then, else_ } => int_constant(exprs, if int_constant(exprs, *cond)? != 0 { *then } else { *else_ }),
        hir::ExprKind::Binary { op, lhs, rhs, .. } => {
            let small = |v: i128| (0..=i128::from(i32::MAX)).contains(&v);
            let a = int_constant(exprs, *lhs).filter(|&v| small(v))?;
            // `&&` and `||` decided by their left side need no right one.
            match op {
                BinOp::And if a == 0 => return Some(0),
                BinOp::Or if a != 0 => return Some(1),
                _ => {}
            }
            let b = int_constant(exprs, *rhs).filter(|&v| small(v))?;
            let v = match op {
                BinOp::And | BinOp::Or => i128::from(b != 0),
                BinOp::Lt => i128::from(a < b),
                BinOp::Gt => i128::from(a > b),
                BinOp::Le => i128::from(a <= b),
                BinOp::Ge => i128::from(a >= b),
                BinOp::Eq => i128::from(a == b),
                BinOp::Ne => i128::from(a != b),
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div if b != 0 => a / b,
                BinOp::Rem if b != 0 => a % b,
                BinOp::Shl if b < 31 => a << b,
                BinOp::Shr if b < 31 => a >> b,
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                _ => return None,
            };
            small(v).then_some(v)
        }
        _ => None,
    }
}

/// The all-zero constant of a type.
fn const_zero(t: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    t.const_zero()
}

/// Raw-API helpers on [`BasicValueEnum`] that work the same for scalars and
/// vectors.
impl<'ctx> Gen<'_, 'ctx> {
    fn raw(&self, v: llvm_sys::prelude::LLVMValueRef) -> BasicValueEnum<'ctx> {
        // SAFETY: every raw value passed here was just built by an LLVM-C
        // builder call and is a first-class value of a basic type.
        unsafe { BasicValueEnum::new(v) }
    }

    fn binop(&self, op: llvm_sys::LLVMOpcode, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: the builder is positioned (every caller builds inside a
        // function) and the operands have the same type.
        let v = unsafe { llvm_sys::core::LLVMBuildBinOp(self.b.as_mut_ptr(), op, a.as_value_ref(), b.as_value_ref(), c"".as_ptr()) };
        self.with_fmf(v);
        self.raw(v)
    }

    fn with_fmf(&self, v: llvm_sys::prelude::LLVMValueRef) {
        let flags = self.fast_math_flags();
        // SAFETY: `v` is a live value; flags only apply to FP operations.
        unsafe {
            if flags != 0 && llvm_sys::core::LLVMIsAInstruction(v).is_null().then_some(()).is_none() && llvm_sys::core::LLVMCanValueUseFastMathFlags(v) != 0 {
                llvm_sys::core::LLVMSetFastMathFlags(v, flags);
            }
        }
    }

    fn cast(&self, op: llvm_sys::LLVMOpcode, v: BasicValueEnum<'ctx>, t: BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx> {
        if v.get_type() == t && op != llvm_sys::LLVMOpcode::LLVMAddrSpaceCast {
            return v;
        }
        // SAFETY: as for `binop`; `t` is a type of the same context.
        let r = unsafe { llvm_sys::core::LLVMBuildCast(self.b.as_mut_ptr(), op, v.as_value_ref(), t.as_type_ref(), c"".as_ptr()) };
        self.raw(r)
    }

    fn icmp(&self, p: llvm_sys::LLVMIntPredicate, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binop`.
        let r = unsafe { llvm_sys::core::LLVMBuildICmp(self.b.as_mut_ptr(), p, a.as_value_ref(), b.as_value_ref(), c"".as_ptr()) };
        self.raw(r)
    }

    fn fcmp(&self, p: llvm_sys::LLVMRealPredicate, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binop`.
        let r = unsafe { llvm_sys::core::LLVMBuildFCmp(self.b.as_mut_ptr(), p, a.as_value_ref(), b.as_value_ref(), c"".as_ptr()) };
        self.with_fmf(r);
        self.raw(r)
    }

    fn select(&self, c: BasicValueEnum<'ctx>, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binop`; `c` is i1 or a vector of i1 of a's width.
        let r = unsafe { llvm_sys::core::LLVMBuildSelect(self.b.as_mut_ptr(), c.as_value_ref(), a.as_value_ref(), b.as_value_ref(), c"".as_ptr()) };
        self.raw(r)
    }

    fn fneg(&self, v: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binop`.
        let r = unsafe { llvm_sys::core::LLVMBuildFNeg(self.b.as_mut_ptr(), v.as_value_ref(), c"".as_ptr()) };
        self.raw(r)
    }

    /// The constant `n` of type `t` (splatted for vectors; `t` integer or
    /// float, scalar or vector).
    fn const_of(&self, t: BasicTypeEnum<'ctx>, n: f64, int: i128) -> BasicValueEnum<'ctx> {
        match t {
            BasicTypeEnum::IntType(i) => i.const_int(int as u64, false).into(),
            BasicTypeEnum::FloatType(f) => f.const_float(n).into(),
            BasicTypeEnum::VectorType(v) => {
                let e = self.const_of(v.get_element_type(), n, int);
                let lanes: Vec<BasicValueEnum> = (0..v.get_size()).map(|_| e).collect();
                const_vector(&lanes)
            }
            other => other.const_zero(),
        }
    }

    fn const_int(&self, t: BasicTypeEnum<'ctx>, v: i128) -> BasicValueEnum<'ctx> {
        self.const_of(t, v as f64, v)
    }
}

/// The poison value of a type.
pub(super) fn poison(t: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    // SAFETY: a poison constant of a first-class type.
    unsafe { BasicValueEnum::new(llvm_sys::core::LLVMGetPoison(t.as_type_ref())) }
}

/// A constant vector of constant lanes.
fn const_vector<'ctx>(lanes: &[BasicValueEnum<'ctx>]) -> BasicValueEnum<'ctx> {
    let mut raw: Vec<llvm_sys::prelude::LLVMValueRef> = lanes.iter().map(|l| l.as_value_ref()).collect();
    // SAFETY: `raw` holds constants of one type.
    unsafe { BasicValueEnum::new(llvm_sys::core::LLVMConstVector(raw.as_mut_ptr(), raw.len() as u32)) }
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod coverage_tests;
