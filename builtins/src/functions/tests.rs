//! Tests of the table and of resolution, written as calls with C type
//! spellings so they read like the kernels they stand for.

use super::*;
use crate::types::{self, BuiltinType};

/// Parses a C type spelling as tests write it: `float4`,
/// `const __global float*`, `volatile __generic atomic_int*`,
/// `read_only image2d_t`, `memory_order`.
fn ty(s: &str) -> Ty {
    let (base, pointer) = match s.strip_suffix('*') {
        Some(b) => (b.trim(), true),
        None => (s, false),
    };
    let mut is_const = false;
    let mut is_volatile = false;
    let mut space = AddrSpace::Private;
    let mut access = Access::ReadOnly;
    let mut word = "";
    for w in base.split_whitespace() {
        match w {
            "const" => is_const = true,
            "volatile" => is_volatile = true,
            "__private" => space = AddrSpace::Private,
            "__global" => space = AddrSpace::Global,
            "__local" => space = AddrSpace::Local,
            "__constant" => space = AddrSpace::Constant,
            "__generic" => space = AddrSpace::Generic,
            "read_only" => access = Access::ReadOnly,
            "write_only" => access = Access::WriteOnly,
            "read_write" => access = Access::ReadWrite,
            w => word = w,
        }
    }
    let t = match word {
        "void" => Ty::Void,
        "bool" => Ty::BOOL,
        "memory_order" => Ty::MemoryOrder,
        "memory_scope" => Ty::MemoryScope,
        "pipe" => Ty::Pipe(access),
        "block" => Ty::Block,
        w => match Scalar::from_name(w).map(BuiltinType::Scalar).or_else(|| types::lookup(w)) {
            Some(BuiltinType::Scalar(s)) => Ty::Scalar(s),
            Some(BuiltinType::Vector(s, n)) => Ty::Vector(s, n),
            Some(BuiltinType::Image(i)) => Ty::Image(i, access),
            Some(BuiltinType::Atomic(a)) => Ty::Atomic(a),
            Some(BuiltinType::Opaque(o)) => match o {
                types::Opaque::Sampler => Ty::Sampler,
                types::Opaque::Event => Ty::Event,
                types::Opaque::Queue => Ty::Queue,
                types::Opaque::NdRange => Ty::NdRange,
                types::Opaque::ClkEvent => Ty::ClkEvent,
                types::Opaque::ReserveId => Ty::ReserveId,
                types::Opaque::MemFenceFlags => Ty::UINT,
                types::Opaque::MemoryOrder => Ty::MemoryOrder,
                types::Opaque::MemoryScope => Ty::MemoryScope,
            },
            None => panic!("test type {s:?}"),
        },
    };
    if pointer {
        Ty::Pointer(Box::new(PointerTy { pointee: t, space, is_const, is_volatile }))
    } else {
        t
    }
}

fn args(spellings: &[&str]) -> Vec<ArgTy> {
    spellings.iter().map(|s| ArgTy::of(ty(s))).collect()
}

const CL12: Ctx = Ctx { version: Version::Cl12, extensions: ExtSet::EMPTY };
const CL20: Ctx = Ctx { version: Version::Cl20, extensions: ExtSet::EMPTY };

fn fp64(ctx: Ctx) -> Ctx {
    ctx.with(Extension::Fp64)
}

/// Resolves and returns the chosen prototype, or the error message.
fn check(name: &str, spellings: &[&str], ctx: Ctx) -> String {
    check_args(name, &args(spellings), ctx)
}

fn check_args(name: &str, args: &[ArgTy], ctx: Ctx) -> String {
    match resolve(name, args, &ctx) {
        Ok(o) => o.prototype(),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn representative_calls() {
    assert_eq!(check("get_global_id", &["uint"], CL12), "size_t get_global_id(uint)");
    let zero = [ArgTy::int_constant(Ty::INT, 0)];
    assert_eq!(check_args("get_global_id", &zero, CL12), "size_t get_global_id(uint)");
    assert_eq!(check("clamp", &["float4", "float", "float"], CL12), "float4 clamp(float4, float, float)");
    assert_eq!(check("clamp", &["float4", "float4", "float4"], CL12), "float4 clamp(float4, float4, float4)");
    assert_eq!(check("clamp", &["int2", "int", "int"], CL12), "int2 clamp(int2, int, int)");
    assert_eq!(check("dot", &["float3", "float3"], CL12), "float dot(float3, float3)");
    assert_eq!(check("isequal", &["float4", "float4"], CL12), "int4 isequal(float4, float4)");
    assert_eq!(check("isequal", &["double2", "double2"], fp64(CL12)), "long2 isequal(double2, double2)");
    assert_eq!(check("isequal", &["double", "double"], fp64(CL12)), "int isequal(double, double)");
    assert_eq!(check("isnan", &["half8"], CL12.with(Extension::Fp16)), "short8 isnan(half8)");
    assert_eq!(
        check("vload4", &["size_t", "const __global float*"], CL20),
        "float4 vload4(size_t, const __global float*)"
    );
    // A non-const global pointer prefers the global overload over the
    // generic one, and an int offset converts.
    assert_eq!(check("vload4", &["int", "__global float*"], CL20), "float4 vload4(size_t, const __global float*)");
    assert_eq!(
        check("vload2", &["size_t", "const __constant uchar*"], CL12),
        "uchar2 vload2(size_t, const __constant uchar*)"
    );
    assert_eq!(
        check("atomic_fetch_add_explicit", &["volatile __generic atomic_int*", "int", "memory_order", "memory_scope"], CL20),
        "int atomic_fetch_add_explicit(volatile __generic atomic_int*, int, memory_order, memory_scope)"
    );
    // From a global atomic, with plain int order arguments.
    assert_eq!(
        check("atomic_fetch_add_explicit", &["__global atomic_uint*", "uint", "int"], CL20),
        "uint atomic_fetch_add_explicit(volatile __generic atomic_uint*, uint, memory_order)"
    );
    assert_eq!(
        check("read_imagef", &["read_only image2d_t", "sampler_t", "float2"], CL12),
        "float4 read_imagef(read_only image2d_t, sampler_t, float2)"
    );
    assert_eq!(
        check("read_imagef", &["read_only image2d_depth_t", "sampler_t", "int2"], CL20),
        "float read_imagef(read_only image2d_depth_t, sampler_t, int2)"
    );
    assert_eq!(
        check("write_imageui", &["read_write image2d_array_t", "int4", "uint4"], CL20),
        "void write_imageui(read_write image2d_array_t, int4, uint4)"
    );
    assert_eq!(check("get_image_dim", &["read_only image3d_t"], CL12), "int4 get_image_dim(read_only image3d_t)");
    assert_eq!(check("select", &["float4", "float4", "uint4"], CL12), "float4 select(float4, float4, uint4)");
    assert_eq!(check("shuffle", &["float4", "uint8"], CL12), "float8 shuffle(float4, uint8)");
    assert_eq!(check("upsample", &["short", "ushort"], CL12), "int upsample(short, ushort)");
    assert_eq!(check("abs", &["char16"], CL12), "uchar16 abs(char16)");
    assert_eq!(check("fract", &["float4", "__local float4*"], CL12), "float4 fract(float4, __local float4*)");
    assert_eq!(check("fract", &["float4", "__generic float4*"], CL20), "float4 fract(float4, __generic float4*)");
    assert_eq!(check("frexp", &["float2", "int2*"], CL12), "float2 frexp(float2, __private int2*)");
    assert_eq!(check("nan", &["uint4"], CL12), "float4 nan(uint4)");
    assert_eq!(check("ldexp", &["float8", "int"], CL12), "float8 ldexp(float8, int)");
    // float -> float beats float -> double; int 2 converts.
    assert_eq!(check("pow", &["float", "int"], fp64(CL12)), "float pow(float, float)");
    assert_eq!(check("cross", &["float3", "float3"], CL12), "float3 cross(float3, float3)");
    assert_eq!(check("vstore_half_rte", &["float", "size_t", "__global half*"], CL12), "void vstore_half_rte(float, size_t, __global half*)");
    assert_eq!(check("vload_half", &["size_t", "const __constant half*"], CL12), "float vload_half(size_t, const __constant half*)");
    assert_eq!(check("vloada_half4", &["size_t", "__local half*"], CL12), "float4 vloada_half4(size_t, const __local half*)");
    assert_eq!(check("barrier", &["int"], CL12), "void barrier(uint)");
    assert_eq!(check("work_group_barrier", &["uint", "memory_scope"], CL20), "void work_group_barrier(uint, memory_scope)");
    assert_eq!(check("upsample", &["uint4", "uint4"], CL12), "ulong4 upsample(uint4, uint4)");
    assert_eq!(check("atomic_inc", &["__global int*"], CL12), "int atomic_inc(volatile __global int*)");
    assert_eq!(check("atomic_xchg", &["__local float*", "float"], CL12), "float atomic_xchg(volatile __local float*, float)");
    assert_eq!(
        check("atomic_compare_exchange_strong", &["__global atomic_int*", "int*", "int"], CL20),
        "bool atomic_compare_exchange_strong(volatile __generic atomic_int*, __generic int*, int)"
    );
    assert_eq!(check("work_group_reduce_add", &["float"], CL20), "float work_group_reduce_add(float)");
    assert_eq!(check("work_group_broadcast", &["int", "size_t", "size_t"], CL20), "int work_group_broadcast(int, size_t, size_t)");
    assert_eq!(check("get_image_num_samples", &["read_only image2d_msaa_t"], CL20.with(Extension::GlMsaaSharing)), "int get_image_num_samples(read_only image2d_msaa_t)");
}

#[test]
fn conversions_and_as_type() {
    assert_eq!(check("convert_uchar4_sat_rte", &["float4"], CL12), "uchar4 convert_uchar4_sat_rte(float4)");
    let o = resolve("convert_uchar4_sat_rte", &args(&["float4"]), &CL12).unwrap();
    assert_eq!(o.lowering, Lowering::Convert { sat: true, rounding: Some(Rounding::Rte) });
    assert_eq!(check("convert_float", &["int"], CL12), "float convert_float(int)");
    assert_eq!(check("convert_int2", &["ulong2"], CL12), "int2 convert_int2(ulong2)");
    assert_eq!(check("as_float", &["uint"], CL12), "float as_float(uint)");
    assert_eq!(check("as_int3", &["float4"], CL12), "int3 as_int3(float4)");
    assert_eq!(check("as_int3", &["float3"], CL12), "int3 as_int3(float3)");
    assert_eq!(check("as_uchar4", &["int"], CL12), "uchar4 as_uchar4(int)");
    assert!(check("as_int2", &["float4"], CL12).starts_with("error: no overload of `as_int2`"));
    // Widths must agree; doubles need cl_khr_fp64.
    assert!(check("convert_int4", &["float2"], CL12).starts_with("error: no overload"));
    assert_eq!(check("convert_int", &["double"], CL12), "error: `convert_int` requires cl_khr_fp64");
    assert_eq!(check("convert_int", &["double"], fp64(CL12)), "int convert_int(double)");
    assert!(is_builtin("convert_short16_sat_rtn"));
    assert!(!is_builtin("convert_float_sat"));
}

#[test]
fn errors() {
    let e = resolve("get_globl_id", &args(&["uint"]), &CL12).unwrap_err();
    match &e {
        ResolveError::NoSuchFunction { suggestions, .. } => {
            assert_eq!(suggestions.first().map(String::as_str), Some("get_global_id"), "{suggestions:?}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(e.to_string(), "`get_globl_id` is not a builtin function; did you mean `get_global_id`?");
    match resolve("convert_int4_sta", &args(&["float4"]), &CL12).unwrap_err() {
        ResolveError::NoSuchFunction { suggestions, .. } => assert_eq!(suggestions, ["convert_int4_sat"]),
        other => panic!("{other:?}"),
    }
    // Wrong arguments list the closest few candidates, not hundreds.
    match resolve("clamp", &args(&["float4", "int2", "float"]), &CL12).unwrap_err() {
        ResolveError::NoMatchingOverload { candidates, total, .. } => {
            assert!(candidates.len() <= 4, "{candidates:?}");
            assert!(total > 50, "{total}");
            assert!(candidates[0].starts_with("float4 clamp(float4, "), "{candidates:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(check("to_global", &["__generic float*"], CL12), "error: `to_global` requires OpenCL C 2.0");
    let e = resolve("to_global", &args(&["__generic float*"]), &CL12).unwrap_err();
    assert!(matches!(e, ResolveError::NotAvailable { missing: Missing::Version(Version::Cl20), .. }));
    assert_eq!(check("sqrt", &["double"], CL12), "error: `sqrt` requires cl_khr_fp64");
    assert_eq!(check("sqrt", &["double"], fp64(CL12)), "double sqrt(double)");
    assert_eq!(check("work_group_all", &["int"], CL12), "error: `work_group_all` requires OpenCL C 2.0");
    assert_eq!(check("ctz", &["int"], CL12), "error: `ctz` requires OpenCL C 2.0");
    assert_eq!(check("sub_group_all", &["int"], CL20), "error: `sub_group_all` requires cl_khr_subgroups");
    assert_eq!(check("sub_group_all", &["int"], CL20.with(Extension::Subgroups)), "int sub_group_all(int)");
    assert_eq!(
        check("atom_add", &["__global long*", "long"], CL12),
        "error: `atom_add` requires cl_khr_int64_base_atomics"
    );
    assert_eq!(check("atom_add", &["__global int*", "int"], CL12), "error: `atom_add` requires cl_khr_global_int32_base_atomics");
    assert_eq!(check("read_imageh", &["read_only image2d_t", "sampler_t", "float2"], CL12), "error: `read_imageh` requires cl_khr_fp16");
    assert_eq!(
        check("write_imagef", &["write_only image3d_t", "int4", "float4"], CL12),
        "error: `write_imagef` requires cl_khr_3d_image_writes"
    );
    assert_eq!(
        check("write_imagef", &["write_only image3d_t", "int4", "float4"], CL20),
        "void write_imagef(write_only image3d_t, int4, float4)"
    );
    // Conversions apply equally to float, double and half: ambiguous, as
    // in clang, once fp64 is enabled.
    assert_eq!(check("sqrt", &["int"], CL12), "float sqrt(float)");
    assert!(check("sqrt", &["int"], fp64(CL12)).starts_with("error: call to `sqrt` is ambiguous"));
    assert!(check("max", &["int", "uint"], CL12).starts_with("error: call to `max` is ambiguous"));
    assert_eq!(check("dot", &["float8", "float8"], CL12).split(';').next(), Some("error: no overload of `dot` matches these arguments"));
}

#[test]
fn special_arguments() {
    let fmt = [ArgTy::string_literal(), ArgTy::of(Ty::INT), ArgTy::of(Ty::FLOAT)];
    let o = resolve("printf", &fmt, &CL12).unwrap();
    assert_eq!(o.prototype(), "int printf(const __constant char*, ...)");
    assert_eq!(o.attrs.special, Special::FormatLiteral);
    assert_eq!(check_args("printf", &fmt, Ctx::new(Version::Cl11)), "error: `printf` requires OpenCL C 1.2");
    // Zero for an event_t.
    let copy = [
        ArgTy::of(ty("__local float4*")),
        ArgTy::of(ty("__global float4*")),
        ArgTy::of(Ty::SIZE),
        ArgTy::int_constant(Ty::INT, 0),
    ];
    assert_eq!(
        check_args("async_work_group_copy", &copy, CL12),
        "event_t async_work_group_copy(__local float4*, const __global float4*, size_t, event_t)"
    );
    let o = resolve("to_global", &args(&["__generic float*"]), &CL20).unwrap();
    assert_eq!(o.attrs.special, Special::KeepPointee);
    assert_eq!(o.lowering, Lowering::AddrSpaceCast(AddrSpace::Global));
    assert_eq!(check("to_local", &["const __generic int*"], CL20), "const __local void* to_local(const __generic void*)");
    assert_eq!(check("read_pipe", &["read_only pipe", "int*"], CL20), "int read_pipe(read_only pipe gentype, __generic void*)");
    assert!(check("read_pipe", &["write_only pipe", "int*"], CL20).starts_with("error: no overload"));
    // enqueue_kernel with NULL events and a block.
    let enqueue = [
        ArgTy::of(Ty::Queue),
        ArgTy::int_constant(Ty::INT, 0),
        ArgTy::of(Ty::NdRange),
        ArgTy::int_constant(Ty::INT, 0),
        ArgTy::null_pointer(),
        ArgTy::null_pointer(),
        ArgTy::of(Ty::Block),
    ];
    let o = resolve("enqueue_kernel", &enqueue, &CL20).unwrap();
    assert_eq!(o.lowering, Lowering::Enqueue(EnqueueOp::Kernel { events: true, local_sizes: false }));
    let local = [ArgTy::of(Ty::Queue), ArgTy::of(Ty::INT), ArgTy::of(Ty::NdRange), ArgTy::of(Ty::Block), ArgTy::of(Ty::UINT), ArgTy::of(Ty::UINT)];
    let o = resolve("enqueue_kernel", &local, &CL20).unwrap();
    assert_eq!(o.lowering, Lowering::Enqueue(EnqueueOp::Kernel { events: false, local_sizes: true }));
    assert!(resolve("barrier", &args(&["uint"]), &CL12).unwrap().attrs.convergent);
    assert!(resolve("work_group_any", &args(&["int"]), &CL20).unwrap().attrs.convergent);
    assert!(!resolve("sin", &args(&["float"]), &CL12).unwrap().attrs.convergent);
    assert_eq!(resolve("sin", &args(&["float"]), &CL12).unwrap().attrs.purity, Purity::Const);
    assert_eq!(resolve("vec_step", &args(&["float3"]), &CL12).unwrap().attrs.special, Special::Operator);
}

#[test]
fn a_scalar_widens_to_a_vector_parameter_only_when_asked() {
    let color = args(&["write_only image2d_t", "int2", "float"]);
    assert!(matches!(resolve("write_imagef", &color, &CL12), Err(ResolveError::NoMatchingOverload { .. })));
    assert_eq!(resolve_widening("write_imagef", &color, &CL12).unwrap().prototype(), "void write_imagef(write_only image2d_t, int2, float4)");
    // Converted to the element type first.
    let unsigned = resolve_widening("write_imageui", &color, &CL12).unwrap();
    assert_eq!(unsigned.params[2], ty("uint4"));
    // The forms with scalar parameters stay better than widening.
    assert_eq!(resolve_widening("clamp", &args(&["float4", "float", "float"]), &CL12).unwrap().params[1], ty("float"));
    // No vector widens to another.
    assert!(resolve_widening("write_imagef", &args(&["write_only image2d_t", "int2", "float2"]), &CL12).is_err());
}

/// A name for each lowering variant; the exhaustive match makes adding a
/// variant without listing it here a compile error.
fn variant(l: &Lowering) -> &'static str {
    match l {
        Lowering::WorkItem(_) => "WorkItem",
        Lowering::Ext(_) => "Ext",
        Lowering::Dot => "Dot",
        Lowering::Relational(_) => "Relational",
        Lowering::Barrier(_) => "Barrier",
        Lowering::Fence(_) => "Fence",
        Lowering::AtomicRmw(_) => "AtomicRmw",
        Lowering::AtomicLoad => "AtomicLoad",
        Lowering::AtomicStore => "AtomicStore",
        Lowering::AtomicInit => "AtomicInit",
        Lowering::AtomicCompareExchange { .. } => "AtomicCompareExchange",
        Lowering::AtomicCmpxchgOld => "AtomicCmpxchgOld",
        Lowering::AtomicFlagTestAndSet => "AtomicFlagTestAndSet",
        Lowering::AtomicFlagClear => "AtomicFlagClear",
        Lowering::Convert { .. } => "Convert",
        Lowering::AsType => "AsType",
        Lowering::VecStep => "VecStep",
        Lowering::VLoad { .. } => "VLoad",
        Lowering::VStore { .. } => "VStore",
        Lowering::Shuffle => "Shuffle",
        Lowering::Shuffle2 => "Shuffle2",
        Lowering::Printf => "Printf",
        Lowering::Image(_) => "Image",
        Lowering::WorkGroup(_) => "WorkGroup",
        Lowering::SubGroup(_) => "SubGroup",
        Lowering::Pipe(_) => "Pipe",
        Lowering::Enqueue(_) => "Enqueue",
        Lowering::AddrSpaceCast(_) => "AddrSpaceCast",
        Lowering::GetFence => "GetFence",
        Lowering::AsyncCopy { .. } => "AsyncCopy",
        Lowering::WaitGroupEvents => "WaitGroupEvents",
        Lowering::Prefetch => "Prefetch",
        Lowering::Gnu(_) => "Gnu",
    }
}

const VARIANTS: [&str; 33] = [
    "WorkItem", "Ext", "Dot", "Relational", "Barrier", "Fence", "AtomicRmw", "AtomicLoad", "AtomicStore",
    "AtomicInit", "AtomicCompareExchange", "AtomicCmpxchgOld", "AtomicFlagTestAndSet", "AtomicFlagClear",
    "Convert", "AsType", "VecStep", "VLoad", "VStore", "Shuffle", "Shuffle2", "Printf", "Image", "WorkGroup",
    "SubGroup", "Pipe", "Enqueue", "AddrSpaceCast", "GetFence", "AsyncCopy", "WaitGroupEvents", "Prefetch", "Gnu",
];

fn conversion_overloads() -> &'static [Overload] {
    static ALL: OnceLock<Vec<Overload>> = OnceLock::new();
    ALL.get_or_init(|| conversion_names().iter().flat_map(|n| overloads(n).unwrap().into_owned()).collect())
}

#[test]
fn every_lowering_is_produced() {
    let mut seen = std::collections::BTreeSet::new();
    for o in all_overloads().chain(conversion_overloads().iter()).chain(clang_overloads().map(|(_, o)| o)) {
        seen.insert(variant(&o.lowering));
    }
    for v in VARIANTS {
        assert!(seen.contains(v), "no overload lowers to {v}");
    }
    assert_eq!(seen.len(), VARIANTS.len());
    // Every OpenCL.std instruction listed is used by some overload.
    let used: std::collections::HashSet<OpenClStd> = all_overloads()
        .filter_map(|o| match o.lowering {
            Lowering::Ext(e) => Some(e),
            _ => None,
        })
        .collect();
    for e in OpenClStd::ALL {
        assert!(used.contains(e), "{} is unused", e.name());
    }
}

/// A rough family of each overload, for the counts below.
fn family(o: &Overload) -> &'static str {
    use OpenClStd as E;
    match o.lowering {
        Lowering::WorkItem(_) => "work-item",
        Lowering::Ext(e) if e.name().starts_with("s_") || e.name().starts_with("u_") => "integer",
        Lowering::Ext(E::Clz | E::Ctz | E::Popcount | E::Rotate) => "integer",
        Lowering::Ext(
            E::Fclamp | E::Degrees | E::FmaxCommon | E::FminCommon | E::Mix | E::Radians | E::Step | E::Smoothstep | E::Sign,
        ) => "common",
        Lowering::Ext(
            E::Cross | E::Distance | E::Length | E::Normalize | E::FastDistance | E::FastLength | E::FastNormalize,
        )
        | Lowering::Dot => "geometric",
        Lowering::Ext(E::Bitselect | E::Select) | Lowering::Relational(_) => "relational",
        Lowering::Ext(_) => "math",
        Lowering::VLoad { .. } | Lowering::VStore { .. } => "vector data",
        Lowering::Barrier(_) | Lowering::Fence(_) => "synchronization",
        Lowering::AtomicRmw(_)
        | Lowering::AtomicLoad
        | Lowering::AtomicStore
        | Lowering::AtomicInit
        | Lowering::AtomicCompareExchange { .. }
        | Lowering::AtomicCmpxchgOld
        | Lowering::AtomicFlagTestAndSet
        | Lowering::AtomicFlagClear => "atomics",
        Lowering::Convert { .. } | Lowering::AsType => "conversions",
        Lowering::Image(_) => "images",
        Lowering::WorkGroup(_) => "work-group",
        Lowering::SubGroup(_) => "sub-group",
        Lowering::Pipe(_) => "pipes",
        Lowering::Enqueue(_) => "enqueue",
        Lowering::AsyncCopy { .. } | Lowering::WaitGroupEvents | Lowering::Prefetch => "async copies",
        Lowering::AddrSpaceCast(_) | Lowering::GetFence => "address space",
        Lowering::Shuffle | Lowering::Shuffle2 | Lowering::Printf | Lowering::VecStep => "misc vector",
        Lowering::Gnu(_) => "clang",
    }
}

#[test]
fn family_counts_are_plausible() {
    let conversions = conversion_overloads();
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for o in all_overloads().chain(conversions.iter()) {
        *counts.entry(family(o)).or_default() += 1;
    }
    let stored = all_overloads().count();
    println!("{stored} stored overloads under {} names, {} decoded conversion overloads", names().count(), conversions.len());
    for (f, n) in &counts {
        println!("  {f:16} {n}");
    }
    let minimum = [
        ("work-item", 11),
        ("math", 1500),
        ("integer", 900),
        ("common", 250),
        ("geometric", 50),
        ("relational", 450),
        ("vector data", 950),
        ("synchronization", 8),
        ("atomics", 200),
        ("conversions", 6000),
        ("images", 300),
        ("work-group", 60),
        ("sub-group", 60),
        ("pipes", 13),
        ("enqueue", 20),
        ("async copies", 200),
        ("address space", 7),
        ("misc vector", 400),
    ];
    for (f, min) in minimum {
        let n = counts.get(f).copied().unwrap_or(0);
        assert!(n >= min, "{f}: {n} < {min}");
    }
}

fn valid(t: &Ty) -> bool {
    match t {
        Ty::Vector(s, n) => {
            crate::types::VECTOR_WIDTHS.contains(n) && !matches!(s, Scalar::Bool | Scalar::Size | Scalar::PtrDiff)
        }
        Ty::Pointer(p) => !matches!(p.pointee, Ty::Pointer(_)) && valid(&p.pointee),
        Ty::Atomic(Some(s)) => !matches!(s, Scalar::Bool | Scalar::Half | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort),
        _ => true,
    }
}

#[test]
fn table_integrity() {
    let conversions = conversion_overloads();
    let mut by_name: HashMap<&str, Vec<&Overload>> = HashMap::default();
    for o in all_overloads().chain(conversions.iter()) {
        by_name.entry(&o.name).or_default().push(o);
        for t in o.params.iter().chain([&o.ret]) {
            assert!(valid(t), "{}: invalid type {t}", o.prototype());
        }
        assert!(o.params.iter().all(|p| *p != Ty::Void), "{}", o.prototype());
        assert!(o.requirement.max_version.is_none_or(|m| m >= o.requirement.min_version));
        // Every overload is available with every extension in 2.0.
        assert!(o.requirement.check(&Ctx::all_extensions(Version::Cl20)).is_ok(), "{}", o.prototype());
        if o.attrs.convergent {
            assert_ne!(o.attrs.purity, Purity::Const, "{}", o.prototype());
        }
    }
    for (name, list) in &by_name {
        let mut seen = std::collections::HashSet::new();
        for o in list {
            let sig: Vec<Ty> = o.params.iter().map(Ty::canonical).collect();
            assert!(seen.insert(sig), "duplicate signature {}", o.prototype());
        }
        assert!(lookup(name).is_some() || overloads(name).is_some());
    }
}

/// Calling any overload with exactly its parameter types picks it: no two
/// overloads tie on an exact call.
#[test]
fn every_overload_is_reachable() {
    let ctx = Ctx::all_extensions(Version::Cl20);
    for name in names() {
        for o in lookup(name).unwrap() {
            let args: Vec<ArgTy> = o.params.iter().cloned().map(ArgTy::of).collect();
            match resolve(name, &args, &ctx) {
                Ok(r) => assert_eq!(r.prototype(), o.prototype()),
                Err(e) => panic!("{}: {e}", o.prototype()),
            }
        }
    }
}

#[test]
fn lookup_and_requirements() {
    assert!(lookup("get_global_id").is_some());
    assert!(lookup("convert_int").is_none(), "conversions are decoded, not stored");
    assert!(overloads("convert_int").is_some());
    assert!(lookup("nonexistent").is_none());
    let sin = lookup("sin").unwrap();
    assert_eq!(sin.len(), 18);
    let double = sin.iter().find(|o| o.ret == Ty::Scalar(Scalar::Double)).unwrap();
    assert!(double.requirement.extensions.contains(Extension::Fp64));
    let fetch = lookup("atomic_fetch_add").unwrap();
    let long = fetch.iter().find(|o| o.ret == Ty::LONG).unwrap();
    assert!(long.requirement.extensions.contains(Extension::Int64BaseAtomics));
    assert_eq!(long.requirement.min_version, Version::Cl20);
    // vload_half needs no cl_khr_fp16; vload2 of half does.
    assert!(lookup("vload_half").unwrap().iter().all(|o| o.requirement.extensions.is_empty()));
    assert!(lookup("vload2").unwrap().iter().any(|o| o.requirement.extensions.contains(Extension::Fp16)));
    // The generic forms are 2.0 only.
    let fract = lookup("fract").unwrap();
    assert!(fract.iter().filter(|o| o.prototype().contains("__generic")).all(|o| o.requirement.min_version == Version::Cl20));
    assert!(Extension::ALL.iter().all(|e| Extension::from_name(e.name()) == Some(*e)));
}

/// `groups.rs` names the group of every stored name, and only those:
/// regenerated from the groups themselves (`CLC_BLESS=1` writes it), so
/// a family that gains a name cannot leave it unreachable. No name is in
/// two groups.
#[test]
fn group_index_is_current() {
    let mut names: Vec<(&str, usize)> = (0..super::table::GROUPS).flat_map(|g| super::table::build_group(g).by_name.into_keys().map(move |n| (n, g))).collect();
    names.sort();
    for w in names.windows(2) {
        assert_ne!(w[0].0, w[1].0, "{} is in groups {} and {}", w[0].0, w[0].1, w[1].1);
    }
    let mut text = String::from(
        "//! Generated by `functions::tests::group_index_is_current`\n//! (`CLC_BLESS=1 cargo test -p clc-builtins group_index`): which group of\n//! [`super::table::build_group`] defines each stored builtin name.\n\n/// Every stored name and its group, sorted by name.\nconst GROUP_OF: &[(&str, u8)] = &[\n",
    );
    for (n, g) in &names {
        text.push_str(&format!("    ({n:?}, {g}),\n"));
    }
    text.push_str("];\n\n/// The group that defines `name`, `None` if no group does.\npub(super) fn group_of(name: &str) -> Option<usize> {\n    GROUP_OF.binary_search_by(|&(n, _)| n.cmp(name)).ok().map(|i| GROUP_OF[i].1 as usize)\n}\n");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/functions/groups.rs");
    if std::env::var_os("CLC_BLESS").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let current = std::fs::read_to_string(path).unwrap();
    assert!(current == text, "src/functions/groups.rs is out of date: run `CLC_BLESS=1 cargo test -p clc-builtins group_index`");
    for (n, g) in &names {
        assert_eq!(super::groups::group_of(n), Some(*g), "{n}");
    }
    assert_eq!(super::groups::group_of("no_such_builtin"), None);
}

#[test]
fn clang_builtins_are_sorted_names_of_the_table() {
    assert!(super::CLANG_BUILTINS.windows(2).all(|w| w[0] < w[1]));
    for n in super::CLANG_BUILTINS {
        assert!(lookup(n).is_some(), "{n}");
    }
    assert!(is_clang_builtin("sqrt") && is_clang_builtin("to_global"));
    assert!(!is_clang_builtin("get_global_id") && !is_clang_builtin("convert_int"));
}
