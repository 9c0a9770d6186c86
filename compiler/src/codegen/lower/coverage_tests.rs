//! Coverage of the builtin library on the CPU target: every overload of
//! the integer, common, geometric and relational families and every
//! conversion lowers to inline IR (LLVM instructions and intrinsics), so
//! nothing is left as an external call the JIT cannot resolve and every
//! call stays vectorisable.

use super::super::CodegenOptions;
use crate::diag::Diagnostics;
use crate::options::{ClStd, Target};
use crate::sema::{SemaOptions, check};
use crate::source::SourceMap;
use clc_builtins::functions::{Access, AddrSpace, Overload, Ty, Version, all_overloads, conversion_names, overloads};
use clc_builtins::types::Image;
use inkwell::context::Context;

/// The image types a kernel of the sweep takes one of per access
/// qualifier (multi-sample images are diagnosed as unsupported on the CPU).
const IMAGES: [Image; 8] = [
    Image::I1d,
    Image::I1dArray,
    Image::I1dBuffer,
    Image::I2d,
    Image::I2dArray,
    Image::I3d,
    Image::I2dDepth,
    Image::I2dArrayDepth,
];

/// The builtin names of the families this library covers (§6.13.3 to
/// §6.13.6).
const FAMILIES: &[&str] = &[
    // Integer.
    "abs",
    "abs_diff",
    "add_sat",
    "hadd",
    "rhadd",
    "clamp",
    "clz",
    "ctz",
    "mad_hi",
    "mad_sat",
    "mul_hi",
    "rotate",
    "sub_sat",
    "upsample",
    "popcount",
    "mad24",
    "mul24",
    "max",
    "min", // Common.
    "degrees",
    "mix",
    "radians",
    "step",
    "smoothstep",
    "sign", // Geometric.
    "dot",
    "cross",
    "distance",
    "length",
    "normalize",
    "fast_distance",
    "fast_length",
    "fast_normalize", // Relational.
    "isequal",
    "isnotequal",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isfinite",
    "isinf",
    "isnan",
    "isnormal",
    "isordered",
    "isunordered",
    "signbit",
    "any",
    "all",
    "bitselect",
    "select",
];

/// A block of a kernel that calls `o` on arguments read from `in` and
/// stores the result to `out`.
fn call_block(o: &Overload) -> String {
    let mut s = String::from("{ ");
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        s.push_str(&format!("{p} a{i} = *(global const {p} *)(in + {}); ", i * 128));
        args.push(format!("a{i}"));
    }
    s.push_str(&format!("*(global {} *)out = {}({}); }}\n", o.ret, o.name, args.join(", ")));
    s
}

fn is_value(t: &Ty) -> bool {
    matches!(t, Ty::Scalar(_) | Ty::Vector(..))
}

/// The functions a program calling each of `calls` leaves undefined after
/// lowering for the host, by mangled name.
fn undefined_after_lowering(calls: &[Overload]) -> Vec<String> {
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    src.push_str("kernel void k(global const uchar *in, global uchar *out) {\n");
    for o in calls {
        src.push_str(&call_block(o));
    }
    src.push_str("}\n");
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src);
    let mut diags = Diagnostics::default();
    let std = ClStd::Cl20;
    let pp_opts = crate::pp::PpOptions { std, target: Target::Host, ..Default::default() };
    let out = crate::pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = crate::parse::parse(&sm, &out, std, &mut diags);
    let p = check(&tu, &SemaOptions::new(std, Target::Host, &out.pragmas), &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.iter().map(|d| d.message.clone()).take(5).collect::<Vec<_>>());
    let ctx = Context::create();
    let opts = CodegenOptions { target: Target::Host, std, opt_level: 0, ..Default::default() };
    let m = super::lower(&ctx, &p, &sm, "t", &opts, &mut diags).unwrap();
    assert!(!diags.has_errors());
    m.verify().unwrap();
    let mut missing = Vec::new();
    let mut f = m.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        if func.count_basic_blocks() == 0 && !name.starts_with("llvm.") {
            missing.push(name);
        }
        f = func.get_next_function();
    }
    missing
}

fn family_overloads() -> Vec<Overload> {
    let mut v: Vec<Overload> =
        all_overloads().filter(|o| FAMILIES.contains(&o.name.as_ref()) && o.params.iter().all(is_value) && is_value(&o.ret)).cloned().collect();
    v.sort_by_key(|o| o.prototype());
    v
}

fn conversion_overloads() -> Vec<Overload> {
    conversion_names().iter().filter(|n| n.starts_with("convert_")).flat_map(|n| overloads(n).unwrap().into_owned()).collect()
}

#[test]
fn every_integer_common_geometric_and_relational_overload_lowers_inline() {
    let missing = undefined_after_lowering(&family_overloads());
    assert!(missing.is_empty(), "{} undefined: {missing:?}", missing.len());
}

#[test]
fn every_conversion_lowers_inline() {
    let missing = undefined_after_lowering(&conversion_overloads());
    assert!(missing.is_empty(), "{} undefined: {missing:?}", missing.len());
}

/// Calls of these builtins in a work-item loop do not stop LLVM's loop
/// vectoriser (generic x86-64, -O2): each body below gets a vector loop.
/// (`mad_sat` of 32-bit types is left out: on SSE2 the cost model keeps
/// its 64-bit clamps scalar.)
#[test]
fn work_item_loops_calling_these_builtins_vectorise() {
    use crate::codegen::{configure, optimize};
    let bodies = [
        "o[i] = hadd(x, y) + rhadd(x, y) + abs_diff(x, y);",
        "o[i] = mul_hi(x, y) + mad_hi(x, y, 3);",
        "o[i] = upsample((short)x, (ushort)y);",
        "o[i] = isless(f[i], g[i]) + isnan(f[i]) + signbit(g[i]) + isnormal(f[i]);",
        "o[i] = select(x, y, x - y) + bitselect(x, y, 0x0f0f);",
        "g[i] = convert_float_rtz(x) + convert_float_rtp((uint)y) + convert_float_rtn(f[i] * 2.0);",
        "g[i] = sign(f[i]) + step(f[i], g[i]) + smoothstep(0.0f, 1.0f, f[i]);",
    ];
    for body in bodies {
        let src = format!(
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nkernel void k(global const int *a, global const int *b, global long *o, global float *f, global float *g) {{ size_t i = get_global_id(0); int x = a[i], y = b[i]; {body} }}"
        );
        let mut sm = SourceMap::new();
        let main = sm.add_virtual("v.cl", src);
        let mut diags = Diagnostics::default();
        let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions::default(), &mut diags);
        let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
        let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
        assert!(!diags.has_errors(), "{body}: {:?}", diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>());
        let ctx = Context::create();
        let opts = CodegenOptions { opt_level: 2, ..Default::default() };
        let m = super::lower(&ctx, &p, &sm, "v", &opts, &mut diags).unwrap();
        let tm = configure(&m, &opts).unwrap();
        optimize(&m, &tm, 2, false).unwrap();
        let ir = m.print_to_string().to_string();
        assert!(ir.contains("vector.body"), "{body}\n{ir}");
    }
}

/// An expression of type `t` for argument `i` of a call, with the
/// declarations it needs first; `None` for the kinds this sweep leaves to
/// their own tests (multi-sample images, pipes, device-side enqueue).
fn argument(t: &Ty, i: usize) -> Option<(String, String)> {
    let at = i * 128;
    Some(match t {
        Ty::Scalar(_) | Ty::Vector(..) => (String::new(), format!("*(global const {t} *)(in + {at})")),
        Ty::MemoryOrder => (String::new(), "memory_order_relaxed".into()),
        Ty::MemoryScope => (String::new(), "memory_scope_work_group".into()),
        Ty::Event => (String::new(), "(event_t)0".into()),
        Ty::Image(image, access) if IMAGES.contains(image) => (String::new(), format!("{}_{}", image.name().trim_end_matches("_t"), access.keyword())),
        Ty::Sampler => (String::new(), "smp".into()),
        Ty::Pointer(p) => {
            let pointee = match &p.pointee {
                Ty::Void => "uchar".to_string(),
                v @ (Ty::Scalar(_) | Ty::Vector(..) | Ty::Atomic(_) | Ty::Event) => v.to_string(),
                _ => return None,
            };
            let q = format!("{}{}", if p.is_const { "const " } else { "" }, if p.is_volatile { "volatile " } else { "" });
            match p.space {
                AddrSpace::Global => (String::new(), format!("(global {q}{pointee} *)(out + {at})")),
                AddrSpace::Constant => (String::new(), format!("(constant {pointee} *)(cin + {at})")),
                AddrSpace::Local => (String::new(), format!("(local {q}{pointee} *)(lm + {at})")),
                AddrSpace::Generic => (String::new(), format!("({q}{pointee} *)(out + {at})")),
                AddrSpace::Private => (format!("{pointee} p{i}[16]; "), format!("p{i}")),
            }
        }
        _ => return None,
    })
}

/// A block calling `o`, or `None` where an argument is of a kind the sweep
/// leaves out.
fn any_call_block(o: &Overload) -> Option<String> {
    let mut decls = String::new();
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        let (d, a) = argument(p, i)?;
        decls.push_str(&d);
        args.push(a);
    }
    let call = format!("{}({})", o.name, args.join(", "));
    let use_it = match &o.ret {
        Ty::Void => format!("{call};"),
        Ty::Event => format!("event_t e = {call}; wait_group_events(1, &e);"),
        t @ (Ty::Scalar(_) | Ty::Vector(..)) => format!("*(global {t} *)out = {call};"),
        _ => return None,
    };
    Some(format!("{{ {decls}{use_it} }}\n"))
}

/// Every builtin overload of OpenCL C 2.0 whose arguments the sweep can
/// make (values, pointers to values and atomics in every address space,
/// memory orders and scopes, events, images and samplers) lowers for the
/// CPU without a diagnostic or a call the JIT cannot resolve (the C
/// library's math functions aside) and passes LLVM's verifier.
/// Multi-sample images, pipes and device-side enqueue, which the CPU
/// target diagnoses as unsupported, have their own tests.
#[test]
fn every_overload_lowers_for_the_cpu() {
    // (1.2 has no read_write images: its sweep leaves those overloads out.)
    for (std, version, least) in [(ClStd::Cl12, Version::Cl12, 5000), (ClStd::Cl20, Version::Cl20, 5900), (ClStd::Cl30, Version::Cl30, 5900)] {
        let mut by_name: std::collections::BTreeMap<&str, Vec<&Overload>> = Default::default();
        for o in all_overloads() {
            let r = &o.requirement;
            if r.min_version > version || r.max_version.is_some_and(|m| m < version) || o.variadic {
                continue;
            }
            by_name.entry(o.name.as_ref()).or_default().push(o);
        }
        let libm: Vec<&str> = crate::codegen::libm_symbols().collect();
        let mut swept = 0;
        let mut report = Vec::new();
        for (name, os) in &by_name {
            let blocks: Vec<String> = os.iter().filter(|o| std != ClStd::Cl12 || !reads_and_writes(o)).filter_map(|o| any_call_block(o)).collect();
            swept += blocks.len();
            if blocks.is_empty() {
                continue;
            }
            match undefined_in(std, &blocks) {
                Ok(m) => {
                    let m: Vec<String> = m.into_iter().filter(|f| !libm.contains(&f.as_str())).collect();
                    if !m.is_empty() {
                        report.push(format!("{name}: {} undefined, e.g. {:?}", m.len(), &m[..m.len().min(3)]));
                    }
                }
                Err(e) => report.push(format!("{name}: {e}")),
            }
        }
        assert!(report.is_empty(), "{std:?}:\n{}", report.join("\n"));
        // The sweep reaches the overloads it is meant for (5177, 6014 and
        // 6014 when it was written; OpenCL C 2.0 has 6162).
        assert!(swept > least, "{std:?}: only {swept} overloads swept");
    }
}

/// Does `o` take a `read_write` image?
fn reads_and_writes(o: &Overload) -> bool {
    o.params.iter().any(|p| matches!(p, Ty::Image(_, Access::ReadWrite)))
}

/// The functions left undefined after lowering a kernel made of `blocks`
/// for the host, or the errors on the way.
fn undefined_in(std: ClStd, blocks: &[String]) -> Result<Vec<String>, String> {
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    src.push_str("kernel void k(global const uchar *in, global uchar *out, local uchar *lm, constant uchar *cin, sampler_t smp");
    for image in IMAGES {
        for access in [Access::ReadOnly, Access::WriteOnly, Access::ReadWrite] {
            if std == ClStd::Cl12 && access == Access::ReadWrite {
                continue;
            }
            src.push_str(&format!(", {} {} {}_{}", access.keyword(), image.name(), image.name().trim_end_matches("_t"), access.keyword()));
        }
    }
    src.push_str(") {\n");
    for b in blocks {
        src.push_str(b);
    }
    src.push_str("}\n");
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src);
    let mut diags = Diagnostics::default();
    let std = ClStd::Cl20;
    let pp_opts = crate::pp::PpOptions { std, target: Target::Host, ..Default::default() };
    let out = crate::pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = crate::parse::parse(&sm, &out, std, &mut diags);
    let p = check(&tu, &SemaOptions::new(std, Target::Host, &out.pragmas), &mut diags);
    if diags.has_errors() {
        return Err(format!("{:?}", diags.iter().map(|d| d.message.clone()).take(2).collect::<Vec<_>>()));
    }
    let ctx = Context::create();
    let opts = CodegenOptions { target: Target::Host, std, opt_level: 0, ..Default::default() };
    let m = super::lower(&ctx, &p, &sm, "t", &opts, &mut diags).map_err(|e| format!("{e:?}"))?;
    if diags.has_errors() {
        return Err(format!("{:?}", diags.iter().map(|d| d.message.clone()).take(2).collect::<Vec<_>>()));
    }
    m.verify().map_err(|e| e.to_string())?;
    let mut missing = Vec::new();
    let mut f = m.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        if func.count_basic_blocks() == 0 && !name.starts_with("llvm.") {
            missing.push(name);
        }
        f = func.get_next_function();
    }
    Ok(missing)
}
