//! Every overload of the math table (OpenCL C 2.0 §6.13.2, `half_*` and
//! `native_*` included) builds for the CPU: for `float`, `double` and
//! `half`, scalar and every vector width, pointer arguments in every
//! address space. One program per element type holds one call of each
//! overload (reading its arguments from and writing its results to
//! memory, so nothing folds away); `jit::build` reports any function the
//! CPU target does not provide. Values are checked by
//! `tests/tests/math_accuracy.rs`.

use clc::jit::{BuildOptions, build};
use clc_builtins::functions::{AddrSpace, Ctx, Lowering, Overload, Ty, Version, all_overloads};
use clc_builtins::types::Scalar;

/// The math overloads whose floating-point type is `elem`.
fn overloads(elem: Scalar) -> Vec<&'static Overload> {
    let ctx = Ctx::all_extensions(Version::Cl20);
    let mut v: Vec<&Overload> = all_overloads()
        .filter(|o| matches!(o.lowering, Lowering::Ext(op) if clc::codegen::is_math(op)))
        .filter(|o| o.requirement.check(&ctx).is_ok())
        .filter(|o| o.params.first().and_then(Ty::element).or(o.ret.element()) == Some(elem) || o.ret.element() == Some(elem))
        .collect();
    v.sort_by_key(|o| o.prototype());
    v
}

/// A kernel calling overload `o`, numbered `i`.
fn call(i: usize, o: &Overload) -> String {
    let mut decls = String::new();
    let mut args = Vec::new();
    let mut after = String::new();
    for (k, p) in o.params.iter().enumerate() {
        match p {
            Ty::Pointer(pt) => {
                let t = &pt.pointee;
                match pt.space {
                    AddrSpace::Global => args.push(format!("(global {t} *)(out + 64)")),
                    AddrSpace::Local => {
                        decls.push_str(&format!("local {t} l{k};"));
                        args.push(format!("&l{k}"));
                        after.push_str(&format!("*(global {t} *)(out + 64) = l{k};"));
                    }
                    space => {
                        decls.push_str(&format!("{t} p{k};"));
                        if space == AddrSpace::Generic {
                            decls.push_str(&format!("generic {t} *g{k} = &p{k};"));
                            args.push(format!("g{k}"));
                        } else {
                            args.push(format!("&p{k}"));
                        }
                        after.push_str(&format!("*(global {t} *)(out + 64) = p{k};"));
                    }
                }
            }
            t => args.push(format!("*(global const {t} *)(in + {})", 64 * k)),
        }
    }
    format!(
        "kernel void k{i}(global const uchar *in, global uchar *out) {{ {decls} *(global {} *)out = {}({}); {after} }}\n",
        o.ret,
        o.name,
        args.join(", ")
    )
}

fn check(elem: Scalar) {
    let os = overloads(elem);
    assert!(os.len() > 500, "{} math overloads of {elem:?}", os.len());
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    for (i, o) in os.iter().enumerate() {
        src.push_str(&call(i, o));
    }
    // Unoptimised: the calls are what matters, and -O2 over a thousand
    // kernels would take most of the test's time.
    let opts = BuildOptions { std: clc::options::ClStd::Cl20, opt_level: 0, ..BuildOptions::default() };
    let p = build(&src, "probe.cl", &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.kernels().len(), os.len());
}

#[test]
fn every_float_math_overload_builds() {
    check(Scalar::Float);
}

#[test]
fn every_double_math_overload_builds() {
    check(Scalar::Double);
}

#[test]
fn every_half_math_overload_builds() {
    check(Scalar::Half);
}
