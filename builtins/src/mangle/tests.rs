//! Manglings checked against clang 22.
//!
//! `clang22_spir64.txt` and `clang22_spir.txt` hold one overload a line,
//! `<clang's symbol> <name>(<parameter types>)`, the types written as
//! [`Ty`]'s `Display` writes them. They cover every overload of the builtin
//! table and a sample of `convert_*`, and were generated with clang-22 from
//! the probe file [`clang_probe`] prints:
//!
//! ```sh
//! cargo test -p clc-builtins mangle::tests::clang_probe -- --ignored --exact --nocapture \
//!     | sed -n '/^\/\/ BEGIN PROBE/,/^\/\/ END PROBE/p' > /tmp/probe.cl
//! cd builtins/src/mangle
//! python3 regen.py /tmp/probe.cl spir64 > clang22_spir64.txt
//! python3 regen.py /tmp/probe.cl spir --differing-from clang22_spir64.txt > clang22_spir.txt
//! ```
//!
//! `regen.py` compiles the probe with
//! `clang-22 -cc1 -triple <triple>-unknown-unknown -cl-std=CL2.0 -finclude-default-header -emit-llvm -O0`
//! and takes each overload's symbol from clang's output: the callee of a
//! call of the builtin through clang's header where that is not an Itanium
//! name (`printf`, pipes, `enqueue_kernel`, `to_global`, …), else the
//! parameter encoding clang gives an overloadable function defined with
//! exactly the overload's parameter types (the call alone would not do:
//! in OpenCL 2.0 clang's header declares only the generic-pointer forms of
//! `vload4` etc., so a call with a `__global` pointer names the generic
//! one; 4728 of the 6216 names were also confirmed by the call).
//! `clang22_spir.txt`, for 32-bit pointers, keeps only the lines whose
//! symbol differs from the 64-bit one. A few hand-written cases below cover
//! what no builtin has, checked the same way on
//! `__attribute__((overloadable))` declarations.

use std::collections::HashMap;

use super::*;
use crate::functions::{Overload, all_overloads, overloads};
use crate::types::{self, BuiltinType, Opaque};

/// Parses a type as [`Ty`]'s `Display` writes it: `float4`,
/// `const __global float*`, `volatile __generic atomic_int*`,
/// `read_only image2d_t`, `read_only pipe gentype`, `void (^)(...)`.
fn ty(s: &str) -> Ty {
    if s == "void (^)(...)" {
        return Ty::Block;
    }
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
            "pipe" => word = "pipe",
            "gentype" => {}
            w => word = w,
        }
    }
    let t = match word {
        "void" => Ty::Void,
        "bool" => Ty::BOOL,
        "pipe" => Ty::Pipe(access),
        "size_t" => Ty::SIZE,
        "ptrdiff_t" => Ty::Scalar(Scalar::PtrDiff),
        w => match Scalar::from_name(w).map(BuiltinType::Scalar).or_else(|| types::lookup(w)) {
            Some(BuiltinType::Scalar(s)) => Ty::Scalar(s),
            Some(BuiltinType::Vector(s, n)) => Ty::Vector(s, n),
            Some(BuiltinType::Image(i)) => Ty::Image(i, access),
            Some(BuiltinType::Atomic(a)) => Ty::Atomic(a),
            Some(BuiltinType::Opaque(o)) => match o {
                Opaque::Sampler => Ty::Sampler,
                Opaque::Event => Ty::Event,
                Opaque::Queue => Ty::Queue,
                Opaque::NdRange => Ty::NdRange,
                Opaque::ClkEvent => Ty::ClkEvent,
                Opaque::ReserveId => Ty::ReserveId,
                Opaque::MemFenceFlags => Ty::UINT,
                Opaque::MemoryOrder => Ty::MemoryOrder,
                Opaque::MemoryScope => Ty::MemoryScope,
            },
            None => panic!("test type {s:?}"),
        },
    };
    if pointer { Ty::Pointer(Box::new(PointerTy { pointee: t, space, is_const, is_volatile })) } else { t }
}

/// Parses `name(type, type, …)` into the name and the parameter types.
fn prototype(s: &str) -> (&str, Vec<Ty>) {
    let (name, rest) = s.split_once('(').unwrap_or_else(|| panic!("prototype {s:?}"));
    let list = rest.strip_suffix(')').unwrap_or_else(|| panic!("prototype {s:?}"));
    let params = if list.is_empty() { Vec::new() } else { list.split(", ").map(ty).collect() };
    (name, params)
}

/// The `(symbol, prototype)` lines of a table file.
fn table(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once(' ').unwrap_or_else(|| panic!("table line {l:?}")))
        .collect()
}

/// Checks every line of a table, reporting all mismatches at once.
fn check_table(text: &str, width: PointerWidth) -> usize {
    let lines = table(text);
    let mut wrong = Vec::new();
    for (expected, proto) in &lines {
        let (name, params) = prototype(proto);
        let got = mangle_for(name, &params, width);
        if got != *expected {
            wrong.push(format!("{proto}: clang {expected}, we {got}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} wrong:\n{}", wrong.len(), lines.len(), wrong.join("\n"));
    lines.len()
}

#[test]
fn matches_clang_spir64() {
    let n = check_table(include_str!("clang22_spir64.txt"), PointerWidth::Bits64);
    assert!(n > 1000, "only {n} lines");
}

#[test]
fn matches_clang_spir32() {
    let n = check_table(include_str!("clang22_spir.txt"), PointerWidth::Bits32);
    assert!(n > 20, "only {n} lines");
}

/// Cases no builtin has, from clang-22 on `__attribute__((overloadable))`
/// declarations (the block one in C with `-fblocks`). In `baz`, clang's
/// declaration also had a `signed char` (`a`) after `uchar`, which [`Ty`]
/// cannot express; it is left out of both columns (scalars are not
/// substitution candidates, so nothing else moves).
#[test]
fn hand_checked() {
    let cases: &[(&str, &str)] = &[
        // Private pointees write no address space but are still
        // substitution candidates (`S3_` is `float4`, not the pointer).
        (
            "_Z3fooPfPVKfPU3AS1VKDv4_fPU3AS1S3_Pi",
            "foo(__private float*, const volatile __private float*, const volatile __global float4*, __global float4*, __private int*)",
        ),
        ("_Z2vpPU3AS1vPvS2_PU3AS1Kv", "vp(__global void*, __private void*, __private void*, const __global void*)"),
        // `__constant` pointees are const only when written so.
        ("_Z4ptrsPU3AS2iPU3AS2Dv4_i", "ptrs(__constant int*, __constant int4*)"),
        // Pipes: access and packet type are not in the name.
        ("_Z3bar8ocl_pipe8ocl_pipe", "bar(read_only pipe gentype, write_only pipe gentype)"),
        (
            "_Z3baz9ndrange_tS_14ocl_image2d_roS0_11ocl_samplerS1_9ocl_eventS2_9ocl_queueS3_12ocl_clkeventS4_13ocl_reserveidS5_mllmbchstlmj",
            "baz(ndrange_t, ndrange_t, read_only image2d_t, read_only image2d_t, sampler_t, sampler_t, event_t, event_t, \
             queue_t, queue_t, clk_event_t, clk_event_t, reserve_id_t, reserve_id_t, size_t, ptrdiff_t, ptrdiff_t, size_t, \
             bool, char, uchar, short, ushort, long, ulong, uint)",
        ),
        (
            "_Z3img14ocl_image1d_ro21ocl_image1d_buffer_wo20ocl_image1d_array_rw20ocl_image2d_array_ro20ocl_image2d_depth_ro\
             19ocl_image2d_msaa_ro25ocl_image2d_array_msaa_ro25ocl_image2d_msaa_depth_ro31ocl_image2d_array_msaa_depth_ro",
            "img(read_only image1d_t, write_only image1d_buffer_t, read_write image1d_array_t, read_only image2d_array_t, \
             read_only image2d_depth_t, read_only image2d_msaa_t, read_only image2d_array_msaa_t, \
             read_only image2d_msaa_depth_t, read_only image2d_array_msaa_depth_t)",
        ),
        // Atomic types compare by value type: `atomic_size_t` is
        // `atomic_ulong` (`S7_`), `atomic_flag` is `atomic_int`.
        (
            "_Z2atPU3AS1VU7_AtomicjPU3AS3VU7_AtomiclPU3AS4VU7_AtomicmPU3AS4VU7_AtomicfPU3AS4VU7_AtomicdS7_PU3AS4VS2_PU3AS4VU7_AtomiciSF_",
            "at(volatile __global atomic_uint*, volatile __local atomic_long*, volatile __generic atomic_ulong*, \
             volatile __generic atomic_float*, volatile __generic atomic_double*, volatile __generic atomic_size_t*, \
             volatile __generic atomic_ptrdiff_t*, volatile __generic atomic_flag*, volatile __generic atomic_ptrdiff_t*)",
        ),
        (
            "_Z2atPU3AS1U7_AtomiciPU3AS1KiPU3AS1ViS3_",
            "at(__global atomic_int*, const __global int*, volatile __global int*, const __global int*)",
        ),
        ("_Z1fU13block_pointerFvvES0_", "f(void (^)(...), void (^)(...))"),
        // clang's header declares `ndrange_2D(const size_t[2])`, a private
        // pointer (the table's generic forms are not in the header).
        ("_Z10ndrange_2DPKm", "ndrange_2D(const __private size_t*)"),
        (
            "_Z10ndrange_3DPKmS0_S0_",
            "ndrange_3D(const __private size_t*, const __private size_t*, const __private size_t*)",
        ),
    ];
    for (expected, proto) in cases {
        let (name, params) = prototype(proto);
        assert_eq!(mangle(name, &params), *expected, "{proto}");
    }
}

/// A program's overloads: records and enums by name, and the address
/// spaces as clang-22 writes them for x86-64 (by name, `__private`
/// included) next to SPIR's (`clang-22 -cl-std=CL2.0 -S -emit-llvm` of
/// `__attribute__((overloadable))` definitions, with and without
/// `--target=spirv64`).
#[test]
fn program_overloads_with_named_address_spaces() {
    let named = |s: &str| Ty::Named(s.to_string());
    let pointer = |pointee: Ty, space: AddrSpace, is_const: bool| Ty::Pointer(Box::new(PointerTy { pointee, space, is_const, is_volatile: false }));
    let t = named("T");
    let params = [t.clone(), pointer(t.clone(), AddrSpace::Global, false), pointer(named("A"), AddrSpace::Generic, true)];
    assert_eq!(itanium_with("get", &params, PointerWidth::Bits64, Spaces::Named), "_Z3get1TPU8CLglobalS_PU9CLgenericK1A");
    assert_eq!(itanium_with("get", &params, PointerWidth::Bits64, Spaces::Numbered), "_Z3get1TPU3AS1S_PU3AS4K1A");
    let spaces: Vec<Ty> = [AddrSpace::Global, AddrSpace::Local, AddrSpace::Constant, AddrSpace::Private, AddrSpace::Private].into_iter().map(|s| pointer(Ty::INT, s, false)).collect();
    assert_eq!(itanium_with("f", &spaces, PointerWidth::Bits64, Spaces::Named), "_Z1fPU8CLglobaliPU7CLlocaliPU10CLconstantiPU9CLprivateiS6_");
    assert_eq!(itanium_with("f", &spaces, PointerWidth::Bits64, Spaces::Numbered), "_Z1fPU3AS1iPU3AS3iPU3AS2iPiS6_");
    assert_eq!(itanium_with("get", &[named("E"), named("U")], PointerWidth::Bits64, Spaces::Named), "_Z3get1E1U");
}

#[test]
fn spir32_pointer_sized_integers() {
    let (name, params) =
        prototype("baz(size_t, ptrdiff_t, volatile __generic atomic_size_t*, volatile __generic atomic_uint*)");
    assert_eq!(mangle_for(name, &params, PointerWidth::Bits32), "_Z3bazjiPU3AS4VU7_AtomicjS1_");
}

#[test]
fn substitution_indices_run_in_base_36() {
    assert_eq!(base36(0), "0");
    assert_eq!(base36(9), "9");
    assert_eq!(base36(10), "A");
    assert_eq!(base36(35), "Z");
    assert_eq!(base36(36), "10");
    // 40 distinct vectors, then the 38th again: index 37 is `S10_`.
    let mut params: Vec<Ty> = Vec::new();
    for s in [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
    ] {
        for n in types::VECTOR_WIDTHS {
            params.push(Ty::Vector(s, n));
        }
    }
    params.push(params[37].clone());
    assert!(mangle("f", &params).ends_with("S10_"), "{}", mangle("f", &params));
}

#[test]
fn odd_input_does_not_panic() {
    let deep = (0..50)
        .fold(Ty::FLOAT, |t, i| if i % 2 == 0 { Ty::ptr(t, AddrSpace::Global) } else { Ty::Vector(Scalar::Bool, 0) });
    for name in ["", "ünïcode", "enqueue_kernel", "read_pipe", "get_pipe_num_packets"] {
        let _ = mangle(name, &[]);
        let _ = mangle(name, &[deep.clone(), Ty::Block, Ty::Void, Ty::Atomic(None)]);
        let _ = mangle_for(name, &[Ty::Scalar(Scalar::Size)], PointerWidth::Bits32);
    }
    assert_eq!(mangle("", &[]), "_Z0v");
}

/// Every stored overload mangles, and overloads of one name with different
/// parameter lists get different names: different Itanium names, or
/// different runtime functions where the Itanium names agree (pipes of
/// either access are all `8ocl_pipe`, but clang calls
/// `__get_pipe_num_packets_ro` or `_wo`). (The converse does not hold: clang
/// calls `__to_global` for both `to_global(void*)` and
/// `to_global(const void*)`.)
#[test]
fn all_overloads_mangle_distinctly() {
    let mut seen: HashMap<(String, String, String), &Overload> = HashMap::new();
    let mut count = 0;
    for o in all_overloads() {
        count += 1;
        let itanium_name = itanium(&o.name, &o.params, PointerWidth::Bits64);
        assert!(itanium_name.starts_with(&format!("_Z{}{}", o.name.len(), o.name)), "{itanium_name}");
        let symbol = mangle(&o.name, &o.params);
        if clang_runtime_name(&o.name, &o.params).is_none() {
            assert_eq!(symbol, itanium_name);
        }
        if let Some(prev) = seen.insert((o.name.to_string(), itanium_name.clone(), symbol.clone()), o) {
            let same = prev.params.iter().map(Ty::canonical).eq(o.params.iter().map(Ty::canonical));
            assert!(same, "{} and {} both mangle to {itanium_name} ({symbol})", prev.prototype(), o.prototype());
        }
    }
    assert!(count > 5000, "only {count} overloads");
}

/// Prints a `.cl` file with two probes for every overload (and a sample of
/// `convert_*`), one a line, each followed by a comment with the prototype:
/// `t<i>` calls the builtin through clang's header, `d<i>` defines an
/// overloadable function with exactly the overload's parameter types. See
/// the module docs and `regen.py` for how the tables are made from it.
#[test]
#[ignore = "generates the clang probe; run by hand"]
fn clang_probe() {
    let mut protos: Vec<Overload> = all_overloads().cloned().collect();
    for name in
        ["convert_float4", "convert_uchar8_sat_rte", "convert_int16_rtz", "convert_half2_rtn", "convert_ulong3_sat"]
    {
        protos.extend(overloads(name).into_iter().flat_map(|o| o.into_owned()));
    }
    let mut probes: Vec<(String, String, String)> = protos.iter().map(probe).collect();
    probes.sort();
    probes.dedup();
    println!("// BEGIN PROBE");
    for ext in ["cl_khr_fp16", "cl_khr_fp64", "cl_khr_gl_msaa_sharing", "cl_khr_depth_images", "cl_khr_subgroups"] {
        println!("#pragma OPENCL EXTENSION {ext} : enable");
    }
    for (i, (proto, decls, call)) in probes.iter().enumerate() {
        println!("void t{i}({decls}) {{ {call}; }} // {proto}");
        println!("void __attribute__((overloadable)) d{i}({decls}) {{}} // {proto}");
    }
    println!("// END PROBE");
}

/// The prototype, the parameter declarations and a call of one overload.
fn probe(o: &Overload) -> (String, String, String) {
    let mut decls = Vec::new();
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        match p {
            // Blocks cannot be parameters; they only appear in calls.
            Ty::Block if i + 1 < o.params.len() => args.push("^(__local void *l){}".to_string()),
            Ty::Block => args.push("^{}".to_string()),
            _ if o.name == "printf" => args.push("\"\"".to_string()),
            _ => {
                decls.push(match p {
                    Ty::Pipe(a) => format!("{} pipe int a{i}", a.keyword()),
                    // Pipe packets must match the pipe's `int`.
                    Ty::Pointer(ptr) if ptr.pointee == Ty::Void && o.name.contains("pipe") => {
                        format!("{} int* a{i}", if ptr.is_const { "const __generic" } else { "__generic" })
                    }
                    p => format!("{p} a{i}"),
                });
                args.push(format!("a{i}"));
            }
        }
    }
    let sig = o.params.iter().map(Ty::to_string).collect::<Vec<_>>().join(", ");
    (format!("{}({sig})", o.name), decls.join(", "), format!("{}({})", o.name, args.join(", ")))
}
