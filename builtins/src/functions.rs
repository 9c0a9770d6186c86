//! The builtin functions of OpenCL C 2.0 (§6.13 of the OpenCL C
//! specification): for every name, its concrete overloads with parameter
//! and return types, what it requires (version, extensions), and what code
//! generation lowers it to.
//!
//! The table is Rust data, built group by group on first use
//! ([`std::sync::OnceLock`]) from compact per-family declarations in
//! [`table`] that expand gentypes into concrete overloads; [`groups`], a
//! generated index of which group defines each name, lets a lookup build
//! only that group. The `convert_*` and `as_*` families are not
//! stored: [`conversions`] decodes their names on demand, so the thousands of
//! conversion overloads cost nothing until one is called.
//!
//! Types here ([`Ty`]) are this crate's own small type language, not the
//! compiler's: sema maps its types to [`Ty`] to ask [`resolve`], and maps the
//! answer back. Nothing here knows about spans, diagnostics rendering or
//! LLVM.

mod conversions;
mod ext_inst;
mod groups;
mod resolve;
mod table;

use std::borrow::Cow;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::types::{Image, Scalar};

pub use conversions::{Rounding, conversion_names};
pub use ext_inst::OpenClStd;
pub use resolve::{ArgTy, ResolveError, Resolved, resolve, resolve_widening};

// ---------------------------------------------------------------------------
// Versions, extensions, requirements
// ---------------------------------------------------------------------------

/// An OpenCL C language version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    Cl10,
    Cl11,
    Cl12,
    Cl20,
    Cl30,
}

impl Version {
    pub fn name(self) -> &'static str {
        match self {
            Version::Cl10 => "OpenCL C 1.0",
            Version::Cl11 => "OpenCL C 1.1",
            Version::Cl12 => "OpenCL C 1.2",
            Version::Cl20 => "OpenCL C 2.0",
            Version::Cl30 => "OpenCL C 3.0",
        }
    }
}

/// The extensions that gate builtin overloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    Fp64,
    Fp16,
    Int64BaseAtomics,
    Int64ExtendedAtomics,
    GlobalInt32BaseAtomics,
    GlobalInt32ExtendedAtomics,
    LocalInt32BaseAtomics,
    LocalInt32ExtendedAtomics,
    Subgroups,
    DepthImages,
    GlMsaaSharing,
    ImageWrites3d,
}

impl Extension {
    pub const ALL: [Extension; 12] = [
        Extension::Fp64,
        Extension::Fp16,
        Extension::Int64BaseAtomics,
        Extension::Int64ExtendedAtomics,
        Extension::GlobalInt32BaseAtomics,
        Extension::GlobalInt32ExtendedAtomics,
        Extension::LocalInt32BaseAtomics,
        Extension::LocalInt32ExtendedAtomics,
        Extension::Subgroups,
        Extension::DepthImages,
        Extension::GlMsaaSharing,
        Extension::ImageWrites3d,
    ];

    /// The `#pragma OPENCL EXTENSION` name.
    pub fn name(self) -> &'static str {
        match self {
            Extension::Fp64 => "cl_khr_fp64",
            Extension::Fp16 => "cl_khr_fp16",
            Extension::Int64BaseAtomics => "cl_khr_int64_base_atomics",
            Extension::Int64ExtendedAtomics => "cl_khr_int64_extended_atomics",
            Extension::GlobalInt32BaseAtomics => "cl_khr_global_int32_base_atomics",
            Extension::GlobalInt32ExtendedAtomics => "cl_khr_global_int32_extended_atomics",
            Extension::LocalInt32BaseAtomics => "cl_khr_local_int32_base_atomics",
            Extension::LocalInt32ExtendedAtomics => "cl_khr_local_int32_extended_atomics",
            Extension::Subgroups => "cl_khr_subgroups",
            Extension::DepthImages => "cl_khr_depth_images",
            Extension::GlMsaaSharing => "cl_khr_gl_msaa_sharing",
            Extension::ImageWrites3d => "cl_khr_3d_image_writes",
        }
    }

    pub fn from_name(name: &str) -> Option<Extension> {
        Extension::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The version from which the extension's functions are core, so that
    /// they need no extension there. Depth images and 3D image writes became
    /// core in OpenCL C 2.0.
    pub fn core_since(self) -> Option<Version> {
        match self {
            Extension::DepthImages | Extension::ImageWrites3d => Some(Version::Cl20),
            _ => None,
        }
    }

    fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// A set of extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ExtSet(u32);

impl ExtSet {
    pub const EMPTY: ExtSet = ExtSet(0);

    pub fn all() -> ExtSet {
        Extension::ALL.into_iter().fold(ExtSet::EMPTY, ExtSet::with)
    }

    pub fn with(self, e: Extension) -> ExtSet {
        ExtSet(self.0 | e.bit())
    }

    pub fn union(self, other: ExtSet) -> ExtSet {
        ExtSet(self.0 | other.0)
    }

    pub fn contains(self, e: Extension) -> bool {
        self.0 & e.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Extension> {
        Extension::ALL.into_iter().filter(move |e| self.contains(*e))
    }
}

/// What the compilation offers: the language version and the enabled
/// extensions. Pointers are 64-bit (see [`Ty`] on `size_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctx {
    pub version: Version,
    pub extensions: ExtSet,
}

impl Ctx {
    /// The given version with no extensions enabled.
    pub fn new(version: Version) -> Ctx {
        Ctx { version, extensions: ExtSet::EMPTY }
    }

    pub fn with(mut self, e: Extension) -> Ctx {
        self.extensions = self.extensions.with(e);
        self
    }

    /// The given version with every extension enabled.
    pub fn all_extensions(version: Version) -> Ctx {
        Ctx { version, extensions: ExtSet::all() }
    }

    fn has(&self, e: Extension) -> bool {
        self.extensions.contains(e) || e.core_since().is_some_and(|v| self.version >= v)
    }
}

/// What an overload (or a constant) needs: a version range and every one of
/// a set of extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    pub min_version: Version,
    /// The last version that has it; `None` when it was never removed.
    pub max_version: Option<Version>,
    pub extensions: ExtSet,
}

/// The first unmet part of a [`Requirement`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    Version(Version),
    RemovedAfter(Version),
    Extension(Extension),
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Version(v) => write!(f, "requires {}", v.name()),
            Missing::RemovedAfter(v) => write!(f, "is not available after {}", v.name()),
            Missing::Extension(e) => write!(f, "requires {}", e.name()),
        }
    }
}

impl Requirement {
    pub const NONE: Requirement = Requirement { min_version: Version::Cl10, max_version: None, extensions: ExtSet::EMPTY };

    pub fn since(v: Version) -> Requirement {
        Requirement { min_version: v, ..Requirement::NONE }
    }

    pub fn ext(e: Extension) -> Requirement {
        Requirement { extensions: ExtSet::EMPTY.with(e), ..Requirement::NONE }
    }

    /// Both requirements at once.
    pub fn and(self, other: Requirement) -> Requirement {
        Requirement {
            min_version: self.min_version.max(other.min_version),
            max_version: match (self.max_version, other.max_version) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            extensions: self.extensions.union(other.extensions),
        }
    }

    pub fn check(&self, ctx: &Ctx) -> Result<(), Missing> {
        if ctx.version < self.min_version {
            return Err(Missing::Version(self.min_version));
        }
        if let Some(max) = self.max_version
            && ctx.version > max
        {
            return Err(Missing::RemovedAfter(max));
        }
        match self.extensions.iter().find(|e| !ctx.has(*e)) {
            Some(e) => Err(Missing::Extension(e)),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------
// The type language of signatures
// ---------------------------------------------------------------------------

/// An OpenCL address space, numbered as SPIR numbers them (`as u32`).
/// The semantic checker uses this same type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    Private = 0,
    Global = 1,
    Constant = 2,
    Local = 3,
    Generic = 4,
}

impl AddrSpace {
    /// May a pointer to `self` convert implicitly to a pointer to `to`?
    /// (OpenCL C 2.0 §6.5.5: named spaces convert to generic, except
    /// `__constant`, which is disjoint from generic.)
    pub fn converts_implicitly_to(self, to: AddrSpace) -> bool {
        self == to || (to == AddrSpace::Generic && self != AddrSpace::Constant)
    }

    /// May a pointer to `self` be cast explicitly to a pointer to `to`?
    /// Generic casts to every named space but `__constant`; named spaces
    /// never cast to one another.
    pub fn casts_explicitly_to(self, to: AddrSpace) -> bool {
        self.converts_implicitly_to(to) || (self == AddrSpace::Generic && to != AddrSpace::Constant)
    }

    pub fn keyword(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Constant => "__constant",
            AddrSpace::Local => "__local",
            AddrSpace::Generic => "__generic",
        }
    }
}

/// An image or pipe access qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn keyword(self) -> &'static str {
        match self {
            Access::ReadOnly => "read_only",
            Access::WriteOnly => "write_only",
            Access::ReadWrite => "read_write",
        }
    }
}

/// A type in a builtin signature.
///
/// `bool` is `Scalar(Scalar::Bool)`. `cl_mem_fence_flags`,
/// `kernel_enqueue_flags_t` and `clk_profiling_info` are written as the
/// integer types they are typedefs of (`uint`, `int`, `int`).
///
/// Pointer-sized integers: the target has 64-bit pointers, where clang makes
/// `size_t` a typedef of `ulong` and `ptrdiff_t`/`intptr_t` of `long`.
/// Signatures keep the spec's spelling (`Scalar::Size`) so prototypes read
/// like the spec, but matching treats `Size` as `ULong` and `PtrDiff` as
/// `Long` (see [`Ty::canonical`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Scalar(Scalar),
    /// Element type and width (2, 3, 4, 8 or 16).
    Vector(Scalar, u8),
    Pointer(Box<PointerTy>),
    Image(Image, Access),
    Sampler,
    Event,
    Queue,
    NdRange,
    ClkEvent,
    ReserveId,
    /// A pipe; the packet type is erased (the [`Special::PipePacket`] check
    /// relates it to the pointer argument).
    Pipe(Access),
    /// `atomic_int` etc.; `None` is `atomic_flag`.
    Atomic(Option<Scalar>),
    /// The `memory_order` enum: an `int`-compatible enumeration.
    MemoryOrder,
    /// The `memory_scope` enum: an `int`-compatible enumeration.
    MemoryScope,
    /// A block literal or block variable (`void (^)(…)`), for
    /// `enqueue_kernel`; sema checks its parameters ([`Special::Block`]).
    Block,
    /// A struct, union or enum of the program, by its name (no builtin
    /// takes one: for mangling the program's own overloads).
    Named(String),
}

/// The target of a pointer type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PointerTy {
    /// `Void` in a parameter means "a pointer to any type".
    pub pointee: Ty,
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl Ty {
    pub const VOID: Ty = Ty::Void;
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const INT: Ty = Ty::Scalar(Scalar::Int);
    pub const UINT: Ty = Ty::Scalar(Scalar::UInt);
    pub const LONG: Ty = Ty::Scalar(Scalar::Long);
    pub const ULONG: Ty = Ty::Scalar(Scalar::ULong);
    pub const FLOAT: Ty = Ty::Scalar(Scalar::Float);
    pub const SIZE: Ty = Ty::Scalar(Scalar::Size);

    /// A scalar when `n` is 1, else a vector.
    pub fn vec(s: Scalar, n: u8) -> Ty {
        if n == 1 { Ty::Scalar(s) } else { Ty::Vector(s, n) }
    }

    pub fn ptr(pointee: Ty, space: AddrSpace) -> Ty {
        Ty::Pointer(Box::new(PointerTy { pointee, space, is_const: false, is_volatile: false }))
    }

    pub fn const_ptr(pointee: Ty, space: AddrSpace) -> Ty {
        Ty::Pointer(Box::new(PointerTy { pointee, space, is_const: true, is_volatile: false }))
    }

    pub fn volatile_ptr(pointee: Ty, space: AddrSpace) -> Ty {
        Ty::Pointer(Box::new(PointerTy { pointee, space, is_const: false, is_volatile: true }))
    }

    /// The element type of a scalar or vector.
    pub fn element(&self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) | Ty::Vector(s, _) => Some(*s),
            _ => None,
        }
    }

    /// 1 for a scalar, the width of a vector, `None` otherwise.
    pub fn width(&self) -> Option<u8> {
        match self {
            Ty::Scalar(_) => Some(1),
            Ty::Vector(_, n) => Some(*n),
            _ => None,
        }
    }

    /// The type with pointer-sized integers replaced by the 64-bit types
    /// they are typedefs of, for matching.
    pub fn canonical(&self) -> Ty {
        match self {
            Ty::Scalar(s) => Ty::Scalar(canonical_scalar(*s)),
            Ty::Vector(s, n) => Ty::Vector(canonical_scalar(*s), *n),
            Ty::Atomic(Some(s)) => Ty::Atomic(Some(canonical_scalar(*s))),
            Ty::Pointer(p) => Ty::Pointer(Box::new(PointerTy { pointee: p.pointee.canonical(), ..**p })),
            other => other.clone(),
        }
    }
}

pub(crate) fn canonical_scalar(s: Scalar) -> Scalar {
    match s {
        Scalar::Size => Scalar::ULong,
        Scalar::PtrDiff => Scalar::Long,
        s => s,
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::Scalar(s) => f.write_str(s.name()),
            Ty::Vector(s, n) => write!(f, "{}{n}", s.name()),
            Ty::Pointer(p) => {
                if p.is_const {
                    f.write_str("const ")?;
                }
                if p.is_volatile {
                    f.write_str("volatile ")?;
                }
                write!(f, "{} {}*", p.space.keyword(), p.pointee)
            }
            Ty::Image(i, a) => write!(f, "{} {}", a.keyword(), i.name()),
            Ty::Sampler => f.write_str("sampler_t"),
            Ty::Event => f.write_str("event_t"),
            Ty::Queue => f.write_str("queue_t"),
            Ty::NdRange => f.write_str("ndrange_t"),
            Ty::ClkEvent => f.write_str("clk_event_t"),
            Ty::ReserveId => f.write_str("reserve_id_t"),
            Ty::Pipe(a) => write!(f, "{} pipe gentype", a.keyword()),
            Ty::Atomic(None) => f.write_str("atomic_flag"),
            Ty::Atomic(Some(Scalar::Size)) => f.write_str("atomic_size_t"),
            Ty::Atomic(Some(Scalar::PtrDiff)) => f.write_str("atomic_ptrdiff_t"),
            Ty::Atomic(Some(s)) => write!(f, "atomic_{}", s.name()),
            Ty::MemoryOrder => f.write_str("memory_order"),
            Ty::MemoryScope => f.write_str("memory_scope"),
            Ty::Block => f.write_str("void (^)(...)"),
            Ty::Named(name) => f.write_str(name),
        }
    }
}

// ---------------------------------------------------------------------------
// Overloads and their lowering
// ---------------------------------------------------------------------------

/// One concrete signature of a builtin function.
#[derive(Clone, Debug, PartialEq)]
pub struct Overload {
    pub name: Cow<'static, str>,
    pub params: Vec<Ty>,
    pub ret: Ty,
    /// Takes further arguments after `params` (`printf`, `enqueue_kernel`'s
    /// local sizes).
    pub variadic: bool,
    pub requirement: Requirement,
    pub lowering: Lowering,
    pub attrs: Attrs,
}

impl Overload {
    /// The overload as a C prototype, e.g. `float4 clamp(float4, float, float)`.
    pub fn prototype(&self) -> String {
        let mut s = format!("{} {}(", self.ret, self.name);
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&p.to_string());
        }
        if self.variadic {
            s.push_str(if self.params.is_empty() { "..." } else { ", ..." });
        }
        s.push(')');
        s
    }
}

/// Properties that matter to optimisation and to checking beyond types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Attrs {
    /// Must not be made control-dependent on more values (barriers,
    /// work-group and sub-group functions).
    pub convergent: bool,
    pub purity: Purity,
    pub special: Special,
}

/// How a builtin touches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Purity {
    /// The result depends on the arguments only (`sin`, `get_global_id`).
    Const,
    /// Reads memory through its arguments but writes none (`vload4`).
    Pure,
    /// May write memory or synchronise.
    #[default]
    Effects,
}

/// Rules beyond parameter types that sema must check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Special {
    #[default]
    None,
    /// The first argument must be a string literal (`printf`).
    FormatLiteral,
    /// The pointer argument's pointee must be the pipe's packet type.
    PipePacket,
    /// `to_global` etc.: the result points to the argument's pointee type
    /// (the signature says `void`).
    KeepPointee,
    /// `enqueue_kernel` etc.: the block must take no arguments, or (with the
    /// variadic size arguments) one `__local void*` per size.
    Block,
    /// `vec_step`: an operator that also accepts a type name.
    Operator,
}

/// What code generation maps a builtin to. Codegen matches on this, never
/// on names.
///
/// For atomics, barriers and fences the optional `memory_order` and
/// `memory_scope` arguments are found from the parameter types
/// ([`Ty::MemoryOrder`], [`Ty::MemoryScope`]); when absent the order is
/// `seq_cst` and the scope `device` (C11-style forms) or relaxed/device
/// (1.x `atomic_*`/`atom_*`, recognisable by a non-atomic pointee).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lowering {
    WorkItem(WorkItemFn),
    /// An OpenCL.std extended instruction, applied to the whole vector.
    Ext(OpenClStd),
    /// SPIR-V `OpDot` (there is no OpenCL.std `dot`).
    Dot,
    /// SPIR-V core relational instructions.
    Relational(RelOp),
    Barrier(Group),
    Fence(FenceKind),
    AtomicRmw(AtomicOp),
    AtomicLoad,
    AtomicStore,
    AtomicInit,
    /// C11 compare-exchange: `expected` by pointer, returns `bool`.
    AtomicCompareExchange { weak: bool },
    /// 1.x `atomic_cmpxchg`/`atom_cmpxchg`: returns the old value.
    AtomicCmpxchgOld,
    AtomicFlagTestAndSet,
    AtomicFlagClear,
    /// `convert_<T>[_sat][_<rounding>]`.
    Convert { sat: bool, rounding: Option<Rounding> },
    /// `as_<T>`: a bit reinterpretation.
    AsType,
    /// `vec_step`: a constant.
    VecStep,
    /// `vload<n>` (`half: false`) or `vload[a]_half[<n>]`; `n` is 1 for the
    /// scalar `vload_half`.
    VLoad { n: u8, half: bool, aligned: bool },
    VStore { n: u8, half: bool, aligned: bool, rounding: Option<Rounding> },
    Shuffle,
    Shuffle2,
    Printf,
    Image(ImageOp),
    WorkGroup(GroupOp),
    SubGroup(GroupOp),
    Pipe(PipeOp),
    Enqueue(EnqueueOp),
    /// `to_global`, `to_local`, `to_private`: a checked generic-pointer cast.
    AddrSpaceCast(AddrSpace),
    GetFence,
    AsyncCopy { strided: bool },
    WaitGroupEvents,
    Prefetch,
    /// One of clang's (GCC's) own `__builtin_*` functions that is no
    /// OpenCL builtin under another name.
    Gnu(GnuOp),
}

/// clang's `__builtin_*` functions with a lowering of their own (those that
/// are OpenCL builtins under another name, `__builtin_sqrtf`, lower as
/// that builtin). Integer operands are unsigned of the width the name
/// says (`__builtin_clzl`: 64 bits), results as clang's prototypes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GnuOp {
    /// `__builtin_expect(v, expected)`: `v`.
    Expect,
    /// `__builtin_expect_with_probability(v, expected, p)`: `v`.
    ExpectWithProbability,
    /// `__builtin_assume(cond)`: not evaluated; an optimisation hint.
    Assume,
    /// `__builtin_unreachable()`: control never gets here.
    Unreachable,
    /// `__builtin_trap()`: stops the program (on SPIR-V, as unreachable).
    Trap,
    /// `__builtin_debugtrap()`: a breakpoint where the target has one.
    DebugTrap,
    /// Leading zero bits; the width when zero (GCC leaves that undefined).
    Clz,
    /// Trailing zero bits; the width when zero.
    Ctz,
    Popcount,
    /// Popcount modulo 2.
    Parity,
    /// One plus the index of the least significant set bit; 0 for 0.
    Ffs,
    /// Leading bits equal to the sign bit, less one.
    Clrsb,
    ByteSwap,
    BitReverse,
    RotateLeft,
    RotateRight,
    /// `__builtin_inf`, `__builtin_huge_val` and their `f` forms.
    Inf,
    /// `__builtin_nan("payload")`: a quiet NaN (its string a literal).
    Nan,
    /// `__builtin_prefetch(p, rw, locality)`: a hint, nothing on these
    /// targets.
    Prefetch,
    /// `__builtin_constant_p(e)`: whether `e` is a constant, decided at
    /// compile time (any one argument: the prototype is `int(...)`).
    ConstantP,
    /// `__builtin_memcpy(dst, src, n)` (`overlap: false`) and
    /// `__builtin_memmove`: `dst`, `n` bytes of `src` copied there.
    MemCopy { overlap: bool },
    /// `__builtin_memset(dst, c, n)`: `dst`, its `n` bytes set to `c`.
    MemSet,
}

/// Work-item (and sub-group geometry) queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkItemFn {
    WorkDim,
    GlobalSize,
    GlobalId,
    LocalSize,
    EnqueuedLocalSize,
    LocalId,
    NumGroups,
    GroupId,
    GlobalOffset,
    GlobalLinearId,
    LocalLinearId,
    SubGroupSize,
    MaxSubGroupSize,
    NumSubGroups,
    EnqueuedNumSubGroups,
    SubGroupId,
    SubGroupLocalId,
}

/// SPIR-V core relational operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelOp {
    /// `OpFOrdEqual`
    IsEqual,
    /// `OpFUnordNotEqual`
    IsNotEqual,
    IsGreater,
    IsGreaterEqual,
    IsLess,
    IsLessEqual,
    IsLessGreater,
    IsOrdered,
    IsUnordered,
    IsFinite,
    IsInf,
    IsNan,
    IsNormal,
    SignBit,
    Any,
    All,
}

/// The execution scope of a barrier or collective function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    WorkGroup,
    SubGroup,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceKind {
    /// `mem_fence`: orders loads and stores.
    ReadWrite,
    Read,
    Write,
    /// `atomic_work_item_fence(flags, order, scope)`.
    AtomicWorkItem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// `read_image{f,i,ui,h}`; `sampled` when a sampler is passed.
    Read { sampled: bool },
    Write,
    Width,
    Height,
    Depth,
    ChannelDataType,
    ChannelOrder,
    Dim,
    ArraySize,
    NumSamples,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Min,
    Max,
}

/// Work-group and sub-group collective operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupOp {
    All,
    Any,
    Broadcast,
    Reduce(ArithOp),
    ScanInclusive(ArithOp),
    ScanExclusive(ArithOp),
    ReserveReadPipe,
    ReserveWritePipe,
    CommitReadPipe,
    CommitWritePipe,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipeOp {
    /// `read_pipe(p, ptr)`, or with a reservation `read_pipe(p, rid, i, ptr)`.
    Read { reserved: bool },
    Write { reserved: bool },
    ReserveRead,
    ReserveWrite,
    CommitRead,
    CommitWrite,
    IsValidReserveId,
    NumPackets,
    MaxPackets,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnqueueOp {
    /// `enqueue_kernel`; `events` when the wait-list/ret-event arguments are
    /// present, `local_sizes` when variadic local-memory sizes follow.
    Kernel { events: bool, local_sizes: bool },
    WorkGroupSize,
    PreferredWorkGroupSizeMultiple,
    SubGroupCountForNdRange,
    MaxSubGroupSizeForNdRange,
    Marker,
    RetainEvent,
    ReleaseEvent,
    CreateUserEvent,
    IsValidEvent,
    SetUserEventStatus,
    CaptureEventProfilingInfo,
    GetDefaultQueue,
    /// `ndrange_<dims>D`.
    NdRange { dims: u8 },
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

pub(crate) struct Table {
    by_name: HashMap<&'static str, Vec<Overload>>,
}

/// Group `g` of the table (see [`table::build_group`]), built on first use.
fn group(g: usize) -> &'static Table {
    static GROUPS: [OnceLock<Table>; table::GROUPS] = [const { OnceLock::new() }; table::GROUPS];
    GROUPS[g].get_or_init(|| table::build_group(g))
}

/// The stored overloads of a builtin name (every version and extension);
/// `None` for names that are not stored, including the decoded
/// `convert_*`/`as_*` families (see [`overloads`]). Builds only the group
/// that defines the name ([`groups::group_of`]).
pub fn lookup(name: &str) -> Option<&'static [Overload]> {
    group(groups::group_of(name)?).by_name.get(name).map(Vec::as_slice)
}

/// Every overload of a builtin name: stored ones, or for `convert_*` and
/// `as_*` the ones decoded from the name.
pub fn overloads(name: &str) -> Option<Cow<'static, [Overload]>> {
    if let Some(o) = lookup(name) {
        return Some(Cow::Borrowed(o));
    }
    conversions::decode(name).map(Cow::Owned)
}

/// Whether `name` names a builtin function (in some version).
pub fn is_builtin(name: &str) -> bool {
    lookup(name).is_some() || conversions::decode(name).is_some()
}

/// Whether clang-22 also has `name` as a builtin of its own, so that its
/// `__has_builtin(name)` is 1 where the function exists: its `__builtin_*`
/// functions, C library
/// functions it knows (`sqrt`, `printf`, …) and OpenCL 2.0's language
/// builtins (pipes, `enqueue_kernel`, `to_global`, …). Other names of this
/// table are functions of clang's OpenCL headers, not builtins.
pub fn is_clang_builtin(name: &str) -> bool {
    name.starts_with("__builtin_") || CLANG_BUILTINS.binary_search(&name).is_ok()
}

/// The names of this table for which clang-22's `__has_builtin` is 1 in
/// some OpenCL C version (read off it for every name, `-cl-std=CL1.0` to
/// `CL3.0`), sorted.
const CLANG_BUILTINS: &[&str] = &[
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil",
    "commit_read_pipe", "commit_write_pipe", "copysign", "cos", "cosh", "enqueue_kernel", "erf",
    "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod",
    "frexp", "get_kernel_max_sub_group_size_for_ndrange",
    "get_kernel_preferred_work_group_size_multiple", "get_kernel_sub_group_count_for_ndrange",
    "get_kernel_work_group_size", "get_pipe_max_packets", "get_pipe_num_packets", "hypot", "ilogb",
    "ldexp", "lgamma", "log", "log10", "log1p", "log2", "logb", "modf", "nan", "nextafter", "pow",
    "printf", "read_pipe", "remainder", "remquo", "reserve_read_pipe", "reserve_write_pipe",
    "rint", "round", "sin", "sinh", "sqrt", "sub_group_commit_read_pipe",
    "sub_group_commit_write_pipe", "sub_group_reserve_read_pipe", "sub_group_reserve_write_pipe",
    "tan", "tanh", "tgamma", "to_global", "to_local", "to_private", "trunc",
    "work_group_commit_read_pipe", "work_group_commit_write_pipe", "work_group_reserve_read_pipe",
    "work_group_reserve_write_pipe", "write_pipe",
];

/// The stored names, in no particular order.
pub fn names() -> impl Iterator<Item = &'static str> {
    (0..table::GROUPS).flat_map(|g| group(g).by_name.keys().copied())
}

/// Every stored overload of OpenCL C's builtins (§6.13), in no particular
/// order: not clang's `__builtin_*` functions ([`clang_overloads`]).
pub fn all_overloads() -> impl Iterator<Item = &'static Overload> {
    (0..table::GROUPS).filter(|&g| g != table::CLANG_GROUP).flat_map(|g| group(g).by_name.values().flatten())
}

/// clang's `__builtin_*` functions, with the names they are stored under
/// (an overload's own name is the OpenCL builtin's where it is one under
/// another name: `__builtin_sqrtf` is `sqrt`).
pub fn clang_overloads() -> impl Iterator<Item = (&'static str, &'static Overload)> {
    group(table::CLANG_GROUP).by_name.iter().flat_map(|(&k, v)| v.iter().map(move |o| (k, o)))
}

#[cfg(test)]
mod tests;
