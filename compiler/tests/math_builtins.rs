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

/// A call of overload `o`, numbered `i`: the `__local` variables it needs
/// (at kernel scope) and a block making the call.
fn call(i: usize, o: &Overload) -> (String, String) {
    let mut locals = String::new();
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
                        locals.push_str(&format!("local {t} l{i}_{k};"));
                        args.push(format!("&l{i}_{k}"));
                        after.push_str(&format!("*(global {t} *)(out + 64) = l{i}_{k};"));
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
    (locals, format!("{{ {decls} *(global {} *)out = {}({}); {after} }}\n", o.ret, o.name, args.join(", ")))
}

fn check(elem: Scalar) {
    let os = overloads(elem);
    assert!(os.len() > 500, "{} math overloads of {elem:?}", os.len());
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    // 32 calls per kernel: fewer kernels build faster.
    let chunks: Vec<_> = os.chunks(32).collect();
    for (c, chunk) in chunks.iter().enumerate() {
        let (mut locals, mut body) = (String::new(), String::new());
        for (j, o) in chunk.iter().enumerate() {
            let (l, b) = call(c * 32 + j, o);
            locals.push_str(&l);
            body.push_str(&b);
        }
        src.push_str(&format!("kernel void k{c}(global const uchar *in, global uchar *out) {{ {locals}\n{body} }}\n"));
    }
    // Unoptimised: the calls are what matters, and -O2 over a thousand
    // calls would take most of the test's time.
    let opts = BuildOptions { std: clc::options::ClStd::Cl20, opt_level: 0, ..BuildOptions::default() };
    let p = build(&src, "probe.cl", &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.kernels().len(), chunks.len());
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

/// Runs `src`'s kernel `k(global const T *a, global const T *b, global T *o)`
/// over `a`, `b` (f32) built with `opts`, returning `o` (`outs` values per
/// work-item).
fn run_f32(src: &str, opts: &BuildOptions, a: &[f32], b: &[f32], outs: usize) -> Vec<f32> {
    use clc_runtime::{Arg, Buffer, NdRange};
    let p = build(src, "fp.cl", opts).unwrap_or_else(|e| panic!("{e}"));
    let (ba, bb, bo) = (Buffer::from_slice(a), Buffer::from_slice(b), Buffer::new(a.len() * outs * 4));
    let mut k = p.kernel("k").unwrap();
    k.set_arg(0, Arg::Buffer(&ba)).unwrap();
    k.set_arg(1, Arg::Buffer(&bb)).unwrap();
    k.set_arg(2, Arg::Buffer(&bo)).unwrap();
    k.launch(&NdRange::linear(a.len())).unwrap();
    bo.read::<f32>()
}

#[test]
fn denormals_are_zero_flushes_float_math_arguments_and_results() {
    // cbrt of a denormal is a normal number; exp(-100) is a denormal;
    // nextafter(0, 1) is the smallest denormal; a float denormal converted
    // to double is read as zero too (the kernel runs with MXCSR's DAZ:
    // -cl-denorms-are-zero lets both precisions flush).
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
               kernel void k(global const float *a, global const float *b, global float *o) {
                   size_t i = get_global_id(0);
                   o[4 * i] = cbrt(a[i]);
                   o[4 * i + 1] = exp(b[i]);
                   o[4 * i + 2] = nextafter(0.0f, a[i]);
                   o[4 * i + 3] = (float)(cbrt((double)a[i]) * 1e-30);
               }";
    let (a, b) = ([1e-40f32, -1e-40, 8.0], [-100.0f32, -100.0, 1.0]);
    let plain = run_f32(src, &BuildOptions::default(), &a, &b, 4);
    let mut opts = BuildOptions::default();
    opts.fp.denorms_are_zero = true;
    let daz = run_f32(src, &opts, &a, &b, 4);
    let cbrt = |x: f32| f64::from(x).cbrt() as f32;
    assert_eq!(plain[..4], [cbrt(1e-40), (-100f64).exp() as f32, f32::from_bits(1), (f64::from(1e-40f32).cbrt() * 1e-30) as f32]);
    assert!(plain[1] != 0.0 && plain[1] < f32::MIN_POSITIVE);
    assert!(plain[3] != 0.0);
    assert_eq!(daz[..4], [0.0, 0.0, 0.0, 0.0]);
    assert!(daz[4].is_sign_negative(), "a flushed -1e-40 keeps its sign: cbrt(-0) = -0");
    // Normal values are untouched.
    assert_eq!(daz[8..10], plain[8..10]);
    assert_eq!(daz[8], 2.0);
}

#[test]
fn fast_relaxed_math_keeps_finite_results_accurate() {
    // Under -cl-fast-relaxed-math LLVM may approximate (the calls carry
    // `afn`); clc's lowering computes the same functions, so finite
    // arguments still give results within a few ulp.
    let src = "kernel void k(global const float *a, global const float *b, global float *o) {
                   size_t i = get_global_id(0);
                   float x = a[i], y = b[i];
                   o[6 * i] = sinpi(x); o[6 * i + 1] = exp(x); o[6 * i + 2] = powr(y, x);
                   o[6 * i + 3] = rootn(y, 3); o[6 * i + 4] = erf(x); o[6 * i + 5] = hypot(x, y);
               }";
    let a: Vec<f32> = (0..256).map(|i| -4.0 + i as f32 * 0.031).collect();
    let b: Vec<f32> = (0..256).map(|i| 0.5 + i as f32 * 0.17).collect();
    let mut opts = BuildOptions::default();
    opts.fp.fast_relaxed_math = true;
    let got = run_f32(src, &opts, &a, &b, 6);
    unsafe extern "C" {
        fn erf(x: f64) -> f64;
    }
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        let (x, y) = (f64::from(x), f64::from(y));
        // SAFETY: a plain C library call.
        let want = [(std::f64::consts::PI * x).sin(), x.exp(), y.powf(x), y.cbrt(), unsafe { erf(x) }, x.hypot(y)];
        for (j, w) in want.iter().enumerate() {
            let g = f64::from(got[6 * i + j]);
            assert!((g - w).abs() <= w.abs() * 4.0 * f64::from(f32::EPSILON) + 1e-7, "function {j} at ({x}, {y}): {g} vs {w}");
        }
    }
}

/// fmod, remainder and remquo (its value and quotient) of `a` and `b`,
/// four results per work-item.
const REMAINDERS: &str = "kernel void k(global const float *a, global const float *b, global float *o) {
                              size_t i = get_global_id(0);
                              int q;
                              o[4 * i] = fmod(a[i], b[i]); o[4 * i + 1] = remainder(a[i], b[i]);
                              o[4 * i + 2] = remquo(a[i], b[i], &q); o[4 * i + 3] = q;
                          }";

#[test]
fn remainders_stay_exact_under_fast_relaxed_math() {
    // Their inline arithmetic (libmath's rem module) is exact operation by
    // operation, which contraction or reassociation cannot change.
    let mut a: Vec<f32> = (0..1024).map(|i| (1.0 + (i * 7919 % 1000) as f32 / 1000.0) * 2f32.powi(i % 90 - 20)).collect();
    let mut b: Vec<f32> = (0..1024).map(|i| (1.0 + (i * 104_729 % 997) as f32 / 997.0) * 2f32.powi(-(i % 100))).collect();
    // Ties: odd multiples of b/2.
    for i in (0..1024).step_by(8) {
        b[i] = 3.0 * 2f32.powi(-5);
        a[i] = (2 * i + 1) as f32 * b[i] / 2.0;
    }
    let mut opts = BuildOptions::default();
    opts.fp.fast_relaxed_math = true;
    let got = run_f32(REMAINDERS, &opts, &a, &b, 4);
    unsafe extern "C" {
        fn remquo(x: f64, y: f64, quo: *mut i32) -> f64;
    }
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        let (x, y) = (f64::from(x), f64::from(y));
        // SAFETY: a plain C library call writing through a valid pointer.
        let r = unsafe { remquo(x, y, &mut 0) };
        // OpenCL's quotient: the low seven bits of x/y to nearest even,
        // signed. |x| mod 128|y| keeps them; its quotient by |y| (below
        // 128) of two floats is a half-integer or at least 2^-25 from one,
        // which double division (error below 2^-46) keeps apart.
        let k = ((x.abs() % (128.0 * y.abs())) / y.abs()).round_ties_even() as i32 & 127;
        let q = if (x < 0.0) != (y < 0.0) { -k } else { k };
        let want = [x % y, r, r, f64::from(q)];
        let got: Vec<f64> = got[4 * i..4 * i + 4].iter().map(|&g| f64::from(g)).collect();
        assert_eq!(got, want, "fmod, remainder, remquo and its quotient of ({x:e}, {y:e})");
    }
}

#[test]
fn denormals_are_zero_flushes_remainder_arguments_and_results() {
    // A denormal x is 0 (its remainder 0), a denormal y is 0 (NaN), and a
    // denormal remainder of normal arguments is 0.
    let (a, b) = ([1e-40f32, 1.0, 1.5e-38], [1.0f32, 1e-40, 1.2e-38]);
    let plain = run_f32(REMAINDERS, &BuildOptions::default(), &a, &b, 4);
    let mut opts = BuildOptions::default();
    opts.fp.denorms_are_zero = true;
    let daz = run_f32(REMAINDERS, &opts, &a, &b, 4);
    assert_eq!(plain[..3], [1e-40, 1e-40, 1e-40]);
    assert_eq!(daz[..4], [0.0, 0.0, 0.0, 0.0]);
    assert!(daz[4..7].iter().all(|r| r.is_nan()) && !plain[4].is_nan(), "{plain:?} {daz:?}");
    // 1.5e-38 - 1.2e-38, exact.
    let rest = 1.5e-38f32 - 1.2e-38;
    assert!(rest > 0.0 && rest < f32::MIN_POSITIVE && plain[8] == rest, "{plain:?}");
    assert_eq!(daz[8..11], [0.0, 0.0, 0.0]);
}

#[test]
fn math_calls_do_not_keep_the_work_item_loop_scalar() {
    // Functions lowered to intrinsics and inline code leave the kernel's
    // work-item loop to the vectoriser (LLVM scalarises the intrinsic
    // calls inside the vector loop).
    let dir = std::env::temp_dir().join(format!("clc-math-vec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("v.cl");
    std::fs::write(
        &path,
        "kernel void k(global const float *a, global const float *b, global float *o, global int *e) {
             size_t i = get_global_id(0);
             float f;
             o[i] = fdim(a[i], b[i]) + hypot(a[i], b[i]) + ldexp(a[i], 3) + nextafter(a[i], b[i]) + fract(a[i], &f) + f
                  + maxmag(a[i], b[i]) + rootn(a[i], 3) + frexp(a[i], &e[i]) + logb(b[i]) + ilogb(b[i])
                  + powr(a[i], b[i]) + pown(a[i], 3) + sinpi(a[i]) + sin(b[i]) + fma(a[i], b[i], f);
         }",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = clc::driver::run_captured(&["-O2", "-S", "-emit-llvm", p, "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    // `powr` in the vector loop: LLVM's vector intrinsic, or glibc
    // libmvec's variant (codegen::vecmath).
    assert!(out.contains("<4 x float>") && (out.contains("call <4 x float> @llvm.pow.v4f32") || out.contains("call <4 x float> @_ZGVbN4vv_powf")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
