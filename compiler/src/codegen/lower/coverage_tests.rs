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
use clc_builtins::functions::{Overload, Ty, all_overloads, conversion_names, overloads};
use inkwell::context::Context;

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
    let m = super::lower(&ctx, &p, &sm, "t", &opts).unwrap();
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
        let m = super::lower(&ctx, &p, &sm, "v", &opts).unwrap();
        let tm = configure(&m, &opts).unwrap();
        optimize(&m, &tm, 2, false).unwrap();
        let ir = m.print_to_string().to_string();
        assert!(ir.contains("vector.body"), "{body}\n{ir}");
    }
}
