//! Vector variants of the C library's math functions for LLVM's
//! vectorisers, from glibc's libmvec.
//!
//! A kernel's work-item loop vectorises only if every call in it has a
//! vector form. LLVM's own vector math intrinsics (`llvm.exp.v8f32`) are
//! scalarised by the x86 back end into one `expf` call per lane, which
//! makes a loop calling `exp` slower vectorised than not. So, before the
//! optimiser runs, every scalar call of a function libmvec provides
//! (`llvm.exp.f32`, `erff`, …) gets the `vector-function-abi-variant`
//! attribute naming libmvec's entry points for the vector widths the
//! target can run (SSE always; AVX2 and AVX-512 where the target has
//! them), and those entry points are declared — what clang's
//! `-fveclib=libmvec` does through LLVM's target library info, which the C
//! API does not reach. The loop vectoriser then calls `_ZGVdN8v_expf` for
//! eight work-items at once.
//!
//! The mapping only names functions: the code that calls them needs glibc's
//! `libmvec.so.1` at run time. The JIT loads it into the process (and
//! [`inject`] is only asked for when it could); objects from `clc -c` are
//! linked with `-lmvec`, and `clc_runtime::Program::load` loads it before a
//! program that needs it.

use inkwell::attributes::AttributeLoc;
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{AsValueRef, CallSiteValue, FunctionValue};

/// Functions libmvec (glibc 2.35 and later) has vector variants of, by
/// their double-precision C names: (name, argument count, is the float
/// variant within OpenCL's bound, is the double one). Measured with
/// `python3 bench/libmvec/ulp_probe.py` (glibc 2.36): every variant is
/// within OpenCL C's ulp bounds except `logf` (3.8 ulp, bound 3) and
/// `cbrt`/`cbrtf` (2.8 ulp, bound 2), which stay scalar, and one AVX-512
/// variant ([`ISA_EXCEEDS`]).
const LIBMVEC: &[(&str, usize, bool, bool)] = &[
    ("sin", 1, true, true),
    ("cos", 1, true, true),
    ("tan", 1, true, true),
    ("asin", 1, true, true),
    ("acos", 1, true, true),
    ("atan", 1, true, true),
    ("atan2", 2, true, true),
    ("sinh", 1, true, true),
    ("cosh", 1, true, true),
    ("tanh", 1, true, true),
    ("asinh", 1, true, true),
    ("acosh", 1, true, true),
    ("atanh", 1, true, true),
    ("exp", 1, true, true),
    ("exp2", 1, true, true),
    ("exp10", 1, true, true),
    ("expm1", 1, true, true),
    ("log", 1, false, true),
    ("log2", 1, true, true),
    ("log10", 1, true, true),
    ("log1p", 1, true, true),
    ("pow", 2, true, true),
    ("cbrt", 1, false, false),
    ("erf", 1, true, true),
    ("erfc", 1, true, true),
    ("hypot", 2, true, true),
];

/// Variants of one ISA beyond OpenCL's bound where the others are within
/// it: (ISA, C name). `exp10f`'s AVX-512 variant is 3.76 ulp off (bound
/// 3; its AVX2 and SSE variants 1.72), measured by the same probe.
const ISA_EXCEEDS: &[(Isa, &str)] = &[(Isa::Avx512, "exp10f")];

/// An x86 vector ISA of the vector function ABI, with its register width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// `b`: SSE, 128 bits.
    Sse,
    /// `d`: AVX2, 256 bits.
    Avx2,
    /// `e`: AVX-512, 512 bits.
    Avx512,
}

impl Isa {
    fn letter(self) -> char {
        match self {
            Isa::Sse => 'b',
            Isa::Avx2 => 'd',
            Isa::Avx512 => 'e',
        }
    }

    fn bits(self) -> u32 {
        match self {
            Isa::Sse => 128,
            Isa::Avx2 => 256,
            Isa::Avx512 => 512,
        }
    }
}

/// The ISAs a target with these LLVM features (`+avx2,+fma,…`) can run,
/// narrowest first.
pub fn isas_for(features: &str) -> Vec<Isa> {
    let has = |f: &str| features.split(',').any(|x| x == format!("+{f}"));
    let mut isas = vec![Isa::Sse];
    if has("avx2") {
        isas.push(Isa::Avx2);
    }
    if has("avx512f") {
        isas.push(Isa::Avx512);
    }
    isas
}

/// The libmvec function computing `callee` (an LLVM math intrinsic or a C
/// library function on `float` or `double`), as (C name, argument count,
/// is it double).
#[cfg(test)]
fn libmvec_base(callee: &str) -> Option<(String, usize, bool)> {
    libmvec_base_for(callee, false)
}

/// As [`libmvec_base`]; `approximate` (the call allows approximate
/// functions: `native_`/`half_` builtins, `-cl-fast-relaxed-math`) also
/// takes the variants outside the full functions' bounds.
fn libmvec_base_for(callee: &str, approximate: bool) -> Option<(String, usize, bool)> {
    // `llvm.exp.f32` → (`exp`, float); `erff` → (`erf`, float).
    let (name, double) = if let Some(rest) = callee.strip_prefix("llvm.") {
        let (base, ty) = rest.rsplit_once('.')?;
        match ty {
            "f32" => (base.to_string(), false),
            "f64" => (base.to_string(), true),
            _ => return None,
        }
    } else if let Some(&(n, ..)) = LIBMVEC.iter().find(|(n, ..)| *n == callee) {
        (n.to_string(), true)
    } else {
        let base = callee.strip_suffix('f')?;
        (base.to_string(), false)
    };
    let &(n, args, float_ok, double_ok) = LIBMVEC.iter().find(|(n, ..)| *n == name)?;
    if !approximate && ((double && !double_ok) || (!double && !float_ok)) {
        return None;
    }
    Some((n.to_string(), args, double))
}

/// The vector variant's name, `_ZGV<isa>N<lanes><v per argument>_<name>`.
fn variant_name(isa: Isa, lanes: u32, args: usize, c_name: &str) -> String {
    format!("_ZGV{}N{}{}_{}", isa.letter(), lanes, "v".repeat(args), c_name)
}

/// Gives every scalar call in `module` of a function libmvec provides the
/// `vector-function-abi-variant` attribute for each of `isas`, and declares
/// the variants (kept alive for the vectoriser through
/// `llvm.compiler.used`). Returns how many calls were annotated.
pub fn inject(module: &Module<'_>, isas: &[Isa]) -> usize {
    let ctx = module.get_context();
    let mut annotated = 0;
    let mut used: Vec<FunctionValue> = Vec::new();
    let mut f = module.get_first_function();
    while let Some(func) = f {
        f = func.get_next_function();
        for bb in func.get_basic_block_iter() {
            for inst in bb.get_instructions() {
                let Ok(call) = CallSiteValue::try_from(inst) else { continue };
                let Some(callee) = call.get_called_fn_value() else { continue };
                let callee_name = callee.get_name().to_string_lossy().into_owned();
                // SAFETY: `call` is a live call instruction.
                let approximate = unsafe {
                    use inkwell::llvm_sys::core::{LLVMCanValueUseFastMathFlags, LLVMGetFastMathFlags};
                    let r = call.as_value_ref();
                    LLVMCanValueUseFastMathFlags(r) != 0 && LLVMGetFastMathFlags(r) & inkwell::llvm_sys::LLVMFastMathApproxFunc != 0
                };
                let Some((base, args, double)) = libmvec_base_for(&callee_name, approximate) else { continue };
                let fty = callee.get_type();
                let Some(elem) = fty.get_return_type() else { continue };
                let c_name = if double { base.clone() } else { format!("{base}f") };
                let elem_bits = if double { 64 } else { 32 };
                let mut variants = Vec::new();
                for &isa in isas {
                    if !approximate && ISA_EXCEEDS.contains(&(isa, c_name.as_str())) {
                        continue;
                    }
                    let lanes = isa.bits() / elem_bits;
                    let vname = variant_name(isa, lanes, args, &c_name);
                    let vty = match elem {
                        inkwell::types::BasicTypeEnum::FloatType(t) => t.vec_type(lanes),
                        _ => continue,
                    };
                    let params: Vec<BasicMetadataTypeEnum> = (0..args).map(|_| vty.into()).collect();
                    if module.get_function(&vname).is_none() {
                        used.push(module.add_function(&vname, vty.fn_type(&params, false), Some(Linkage::External)));
                    }
                    // `_ZGV_LLVM_N<lanes><v…>_<scalar callee>(<variant>)`.
                    variants.push(format!("_ZGV_LLVM_N{}{}_{}({})", lanes, "v".repeat(args), callee_name, vname));
                }
                if variants.is_empty() {
                    continue;
                }
                call.add_attribute(AttributeLoc::Function, ctx.create_string_attribute("vector-function-abi-variant", &variants.join(",")));
                annotated += 1;
            }
        }
    }
    if !used.is_empty() {
        keep_declarations(module, &used);
    }
    annotated
}

/// Appends the declarations to `llvm.compiler.used`, so no pass deletes
/// them before the vectoriser has had the chance to call them.
fn keep_declarations<'ctx>(module: &Module<'ctx>, decls: &[FunctionValue<'ctx>]) {
    let ctx = module.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let mut values: Vec<inkwell::values::PointerValue> = Vec::new();
    if let Some(old) = module.get_global("llvm.compiler.used") {
        if let Some(init) = old.get_initializer() {
            use inkwell::llvm_sys::core::{LLVMGetNumOperands, LLVMGetOperand};
            let arr = init.into_array_value();
            // SAFETY: a constant array's operands are its elements, here
            // pointers (what `llvm.compiler.used` holds).
            unsafe {
                for i in 0..LLVMGetNumOperands(arr.as_value_ref()).max(0) as u32 {
                    values.push(inkwell::values::PointerValue::new(LLVMGetOperand(arr.as_value_ref(), i)));
                }
            }
        }
        // SAFETY: the global is replaced below and has no other users.
        unsafe { old.delete() };
    }
    values.extend(decls.iter().map(|d| d.as_global_value().as_pointer_value()));
    let arr = ptr.const_array(&values);
    let g = module.add_global(arr.get_type(), None, "llvm.compiler.used");
    g.set_initializer(&arr);
    g.set_linkage(Linkage::Appending);
    g.set_section(Some("llvm.metadata"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_vector_function_abi() {
        assert_eq!(libmvec_base("llvm.exp.f32"), Some(("exp".into(), 1, false)));
        assert_eq!(libmvec_base("llvm.pow.f64"), Some(("pow".into(), 2, true)));
        assert_eq!(libmvec_base("erff"), Some(("erf".into(), 1, false)));
        assert_eq!(libmvec_base("erf"), Some(("erf".into(), 1, true)));
        assert_eq!(libmvec_base("hypotf"), Some(("hypot".into(), 2, false)));
        // No libmvec variant: left alone.
        assert_eq!(libmvec_base("llvm.sqrt.f32"), None);
        assert_eq!(libmvec_base("llvm.exp.f16"), None);
        assert_eq!(libmvec_base("tgammaf"), None);
        // Outside OpenCL's bounds: scalar.
        assert_eq!(libmvec_base("llvm.log.f32"), None);
        assert_eq!(libmvec_base("llvm.log.f64"), Some(("log".into(), 1, true)));
        assert_eq!(libmvec_base("cbrtf"), None);
        // Approximate calls (native_log, fast relaxed math) may use them.
        assert_eq!(libmvec_base_for("llvm.log.f32", true), Some(("log".into(), 1, false)));
        assert_eq!(libmvec_base("printf"), None);
        assert_eq!(variant_name(Isa::Avx2, 8, 1, "expf"), "_ZGVdN8v_expf");
        assert_eq!(variant_name(Isa::Sse, 2, 2, "pow"), "_ZGVbN2vv_pow");
        assert_eq!(isas_for("+sse4.2,+avx2,-avx512f"), vec![Isa::Sse, Isa::Avx2]);
        assert_eq!(isas_for(""), vec![Isa::Sse]);
    }

    /// After -O2 for a generic x86-64 (SSE only), the loop calls libmvec's
    /// 4-lane float variants; with AVX2 the 8-lane ones; without vector
    /// math, the scalar functions only.
    #[test]
    fn the_vectoriser_calls_libmvec() {
        let src = "kernel void k(global float *x) { size_t i = get_global_id(0); x[i] = exp(x[i]) + erf(x[i]); }";
        let ir = |features: &str, vector_math: bool| optimized_ir(src, features, vector_math);
        let generic = ir("", true);
        assert!(generic.contains("call <4 x float> @_ZGVbN4v_expf("), "{generic}");
        assert!(generic.contains("call <4 x float> @_ZGVbN4v_erff("), "{generic}");
        assert!(!generic.contains("_ZGVdN8v"), "{generic}");
        let avx2 = ir("+avx2,+fma", true);
        assert!(avx2.contains("call <8 x float> @_ZGVdN8v_expf("), "{avx2}");
        let off = ir("", false);
        assert!(!off.contains("_ZGV"), "{off}");
        // exp10f's AVX-512 variant is outside OpenCL's bound: the loop
        // calls the AVX2 one even where AVX-512 is there.
        let e = optimized_ir("kernel void k(global float *x) { size_t i = get_global_id(0); x[i] = exp10(x[i]); }", "+avx512f,+avx2,+fma", true);
        assert!(!e.contains("_ZGVeN16v_exp10f") && e.contains("call <8 x float> @_ZGVdN8v_exp10f("), "{e}");
        let e = optimized_ir(src, "+avx512f,+avx2,+fma", true);
        assert!(e.contains("call <16 x float> @_ZGVeN16v_expf("), "{e}");
    }

    /// A work-item loop calling any of the powers, roots and special
    /// functions vectorises for AVX2 (eight `float` lanes, four `double`),
    /// and its vector body calls no scalar function: these are inline IR
    /// (libmath's `wide` and `dd` modules) or libmvec's vector variants.
    #[test]
    fn powers_and_gamma_functions_vectorise() {
        let float_bodies = [
            "o[i] = pown(x, n[i]);",
            "o[i] = rootn(x, n[i]);",
            "o[i] = cbrt(x);",
            "o[i] = tgamma(x);",
            "o[i] = lgamma(x);",
            "int s; o[i] = lgamma_r(x, &s); n[i] = s;",
            "o[i] = pow(x, y) + powr(x, y) + hypot(x, y);",
            "o[i] = erf(x) + erfc(x);",
            "o[i] = log(x) + log2(y) + log10(x);",
        ];
        // double: rootn, cbrt and the gamma functions in double-double
        // (libmath's dd module), the others through libmvec.
        let double_bodies = [
            "d[i] = pown(dx, n[i]);",
            "d[i] = rootn(dx, n[i]);",
            "d[i] = cbrt(dx);",
            "d[i] = tgamma(dx);",
            "d[i] = lgamma(dx);",
            "int s; d[i] = lgamma_r(dx, &s); n[i] = s;",
            "d[i] = pow(dx, dy) + powr(dx, dy) + hypot(dx, dy);",
            "d[i] = erf(dx) + erfc(dx);",
        ];
        for body in float_bodies.iter().chain(&double_bodies) {
            let ir = work_item_loop_ir(body);
            let vector_body = vector_body(&ir).unwrap_or_else(|| panic!("{body}: no vector loop\n{ir}"));
            let scalar = scalar_calls(&vector_body);
            assert!(scalar.is_empty(), "{body}: scalar calls in the vector loop: {scalar:?}\n{vector_body}");
            assert!(vector_body.contains("<8 x float>") || vector_body.contains("<4 x double>"), "{body}: not AVX2-wide\n{vector_body}");
            // A vector intrinsic without a libmvec variant becomes calls
            // lane by lane in code generation.
            assert!(!vector_body.contains("@llvm.log"), "{body}: LLVM's vector log left\n{vector_body}");
            // float logs stay in float (`log_float`), at full width.
            if body.contains("log(x)") {
                assert!(!vector_body.contains("double"), "{body}: widened to double\n{vector_body}");
            }
        }
    }

    /// A work-item loop calling `fmod`, `remainder` or `remquo` (float and
    /// double) vectorises for AVX2 with no scalar call and no `frem` left
    /// in its vector body: they are inline integer and floating-point code
    /// (libmath's `rem` module), where `frem` became `fmodf` calls lane by
    /// lane in the back end and `remainderf`/`remquof` kept the loop scalar.
    #[test]
    fn remainders_vectorise() {
        let bodies = [
            "o[i] = fmod(x, y);",
            "o[i] = remainder(x, y);",
            "int q; o[i] = remquo(x, y, &q); n[i] = q;",
            "d[i] = fmod(dx, dy);",
            "d[i] = remainder(dx, dy);",
            "int q; d[i] = remquo(dx, dy, &q); n[i] = q;",
        ];
        for body in bodies {
            let ir = work_item_loop_ir(body);
            let vector_body = vector_body(&ir).unwrap_or_else(|| panic!("{body}: no vector loop\n{ir}"));
            let scalar = scalar_calls(&vector_body);
            assert!(scalar.is_empty(), "{body}: scalar calls in the vector loop: {scalar:?}\n{vector_body}");
            assert!(!vector_body.contains(" frem "), "{body}: frem in the vector loop\n{vector_body}");
            assert!(vector_body.contains("<8 x") || vector_body.contains("<4 x double>"), "{body}: not AVX2-wide\n{vector_body}");
        }
    }

    /// erf is computed from |x| (with x's sign), so calls whose arguments
    /// differ only in sign, as Black-Scholes' cnd(d) and cnd(-d) after
    /// inlining, become one vector call.
    #[test]
    fn erf_of_opposite_arguments_is_computed_once() {
        let src = "float cnd(float x) { return 0.5f * (1.0f + erf(x * 0.70710678f)); }
            kernel void k(global const float *a, global float *o) { size_t i = get_global_id(0); float d = a[i] * 3.0f; o[i] = cnd(d) - cnd(-d) + erf(-a[i]) + erf(a[i]); }";
        let ir = optimized_ir(src, "+avx2,+fma", true);
        let body = vector_body(&ir).unwrap_or_else(|| panic!("no vector loop\n{ir}"));
        assert_eq!(body.matches("@_ZGVdN8v_erff(").count(), 2, "{body}");
    }

    /// With AVX-512, work-item loops use 512-bit vectors (LLVM's x86 cost
    /// model would stop at 256 bits); with AVX2 they stay 256-bit.
    #[test]
    fn avx512_targets_get_512_bit_work_item_loops() {
        let src = "kernel void k(global const float *a, global float *c) { size_t i = get_global_id(0); c[i] = a[i] * 3.0f + 1.0f; }";
        let wide = optimized_ir(src, "+avx512f,+avx2,+fma", false);
        assert!(wide.contains("\"prefer-vector-width\"=\"512\"") && vector_body(&wide).is_some_and(|b| b.contains("<16 x float>")), "{wide}");
        let narrow = optimized_ir(src, "+avx2,+fma", false);
        assert!(!narrow.contains("prefer-vector-width") && vector_body(&narrow).is_some_and(|b| b.contains("<8 x float>") && !b.contains("<16 x float>")), "{narrow}");
    }

    /// Work-item loops that copy between global and local memory
    /// vectorise: the lowering tells LLVM that the two never alias
    /// (`mark_space`) and bounds the loops by the largest local size (the
    /// `!range` of its loads), so the local index stays consecutive.
    /// Without either, the loops of a tiled transpose stayed scalar.
    #[test]
    fn copies_between_global_and_local_memory_vectorise() {
        let ir = optimized_ir(
            "kernel void transpose(global const float *in, global float *out, int width, int height) {
                 local float tile[16][17];
                 int lx = get_local_id(0), ly = get_local_id(1);
                 int x = get_group_id(0) * 16 + lx, y = get_group_id(1) * 16 + ly;
                 if (x < width && y < height)
                     tile[ly][lx] = in[y * width + x];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 x = get_group_id(1) * 16 + lx;
                 y = get_group_id(0) * 16 + ly;
                 if (x < height && y < width)
                     out[y * height + x] = tile[lx][ly];
             }",
            "+avx2,+fma",
            false,
        );
        // The copy into the tile (consecutive on both sides, masked by
        // the bounds check); the copy out reads the tile's column, which
        // AVX2's cost model leaves scalar (with AVX-512 it vectorises too).
        let copy_in = ir.find("\nvector.body").map(|at| &ir[at..]).unwrap_or_else(|| panic!("no vector loop\n{ir}"));
        assert!(copy_in.contains("@llvm.masked.load.v8f32") && copy_in.contains("@llvm.masked.store.v8f32"), "{ir}");
    }

    /// A kernel whose work-item loop runs `body` on `x = a[i]`, `y = b[i]`
    /// (and `dx`, `dy`, the same as `double`), writing `o` (`float`), `d`
    /// (`double`) or `n` (`int`), optimised for AVX2.
    fn work_item_loop_ir(body: &str) -> String {
        let src = format!(
            "kernel void k(global const float *a, global const float *b, global int *n, global float *o, global double *d) {{
                 size_t i = get_global_id(0); float x = a[i], y = b[i]; double dx = x, dy = y; {body} }}"
        );
        optimized_ir(&src, "+avx2,+fma", true)
    }

    /// Every math function of §6.13.2 (float and double, the `half_` and
    /// `native_` variants), called in a work-item loop, leaves no scalar
    /// call in the loop's vector body (AVX2): inline IR or libmvec's vector
    /// variants.
    #[test]
    fn every_math_function_vectorises() {
        let unary = [
            "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt", "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs", "floor", "lgamma", "log",
            "log2", "log10", "log1p", "logb", "rint", "round", "rsqrt", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
        ];
        let binary = ["atan2", "atan2pi", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "maxmag", "minmag", "nextafter", "pow", "powr", "remainder"];
        let half_native = ["cos", "exp", "exp2", "exp10", "log", "log2", "log10", "recip", "rsqrt", "sin", "sqrt", "tan"];
        let mut bodies: Vec<(String, bool)> = Vec::new();
        for (t, x, y) in [("float", "x", "y"), ("double", "dx", "dy")] {
            let o = if t == "float" { "o" } else { "d" };
            let double = t == "double";
            for f in unary {
                bodies.push((format!("{o}[i] = {f}({x});"), double));
            }
            for f in binary {
                bodies.push((format!("{o}[i] = {f}({x}, {y});"), double));
            }
            bodies.extend([
                (format!("{o}[i] = fma({x}, {y}, {x}) + mad({x}, {y}, {y});"), double),
                (format!("n[i] = ilogb({x});"), double),
                (format!("{o}[i] = ldexp({x}, n[i]) + pown({x}, n[i]) + rootn({x}, n[i]);"), double),
                (format!("{t} p; {o}[i] = fract({x}, &p) + p;"), double),
                (format!("int e; {o}[i] = frexp({x}, &e) + e;"), double),
                (format!("{t} p; {o}[i] = modf({x}, &p) + p;"), double),
                (format!("int q; {o}[i] = remquo({x}, {y}, &q) + q;"), double),
                (format!("{t} c; {o}[i] = sincos({x}, &c) + c;"), double),
                (format!("int s; {o}[i] = lgamma_r({x}, &s) + s;"), double),
            ]);
        }
        for f in half_native {
            let arg = if f == "recip" || f == "rsqrt" || f == "sqrt" || f.starts_with("log") { "y" } else { "x" };
            bodies.push((format!("o[i] = half_{f}({arg}) + native_{f}({arg});"), false));
        }
        bodies.push(("o[i] = half_divide(x, y) + native_divide(x, y) + half_powr(y, x) + native_powr(y, x);".into(), false));
        let mut failures = Vec::new();
        for (body, _) in &bodies {
            let src = format!(
                "kernel void k(global const float *a, global const float *b, global int *n, global float *o, global double *d) {{
                     size_t i = get_global_id(0); float x = a[i], y = b[i]; double dx = x, dy = y; {body} }}"
            );
            let ir = optimized_ir(&src, "+avx2,+fma", true);
            match vector_body(&ir) {
                None => failures.push(format!("{body}: no vector loop")),
                Some(v) => {
                    let scalar = scalar_calls(&v);
                    if !scalar.is_empty() {
                        failures.push(format!("{body}: {scalar:?}"));
                    }
                    // LLVM's x86 back end computes a vector `frem` with a
                    // C library call per lane.
                    if v.contains(" frem ") {
                        failures.push(format!("{body}: frem"));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{} of {} do not vectorise:\n{}", failures.len(), bodies.len(), failures.join("\n"));
    }

    /// For x86-64's baseline (no FMA instruction, where LLVM turns
    /// `llvm.fma` into a C library call per lane), the double functions
    /// computed in double-double or by exact remainder steps use Dekker's
    /// products: their vector loops hold no fused multiply-add.
    #[test]
    fn double_double_code_needs_no_fma_instruction() {
        for body in ["d[i] = rootn(dx, n[i]);", "d[i] = cbrt(dx);", "d[i] = tgamma(dx);", "int s; d[i] = lgamma_r(dx, &s) + s;", "d[i] = fmod(dx, dy) + remainder(dx, dy);", "int q; d[i] = remquo(dx, dy, &q) + q;"] {
            let src = format!(
                "kernel void k(global const float *a, global const float *b, global int *n, global float *o, global double *d) {{
                     size_t i = get_global_id(0); float x = a[i], y = b[i]; double dx = x, dy = y; {body} }}"
            );
            let ir = optimized_ir(&src, "", true);
            let v = vector_body(&ir).unwrap_or_else(|| panic!("{body}: no vector loop\n{ir}"));
            assert!(!v.contains("@llvm.fma"), "{body}: fused multiply-adds on a target without them\n{v}");
        }
    }

    /// The calls in `body` that return a scalar (a vectorised call returns
    /// a vector; a scalar one computes one lane).
    fn scalar_calls(body: &str) -> Vec<&str> {
        let flags = ["tail", "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"];
        body.lines()
            .filter(|l| {
                let Some((_, rest)) = l.split_once(" call ") else { return false };
                let ty = rest.split_whitespace().find(|w| !flags.contains(w)).unwrap_or("");
                !ty.starts_with('<') && ty != "void"
            })
            .collect()
    }

    /// The instructions of the first vector loop body in `ir` (from the
    /// `vector.body` label to the next label).
    fn vector_body(ir: &str) -> Option<String> {
        let start = ir.find("\nvector.body")?;
        let rest = &ir[start + 1..];
        let end = rest.lines().skip(1).position(|l| !l.is_empty() && !l.starts_with(' ')).map_or(rest.lines().count(), |p| p + 1);
        Some(rest.lines().take(end).collect::<Vec<_>>().join("\n"))
    }

    /// `src` lowered for x86-64 and optimised at -O2 by a target machine
    /// with `features`, as LLVM IR.
    fn optimized_ir(src: &str, features: &str, vector_math: bool) -> String {
        use crate::codegen::{CodegenOptions, configure, lower, optimize};
        use crate::diag::Diagnostics;
        use crate::options::{ClStd, Target};
        use crate::sema::{SemaOptions, check};
        use crate::source::SourceMap;
        use inkwell::targets::{CodeModel, RelocMode, Target as LlvmTarget};
        let mut sm = SourceMap::new();
        let main = sm.add_virtual("v.cl", src.to_string());
        let mut diags = Diagnostics::default();
        let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions::default(), &mut diags);
        let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
        let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
        let ctx = inkwell::context::Context::create();
        let opts = CodegenOptions { opt_level: 2, ..Default::default() };
        assert!(!diags.has_errors());
        let m = lower(&ctx, &p, &sm, "v", &opts).unwrap();
        // The module's triple and layout, then a machine with the features.
        let _ = configure(&m, &opts).unwrap();
        let triple = m.get_triple();
        let target = LlvmTarget::from_triple(&triple).unwrap();
        let tm = target.create_target_machine(&triple, "x86-64", features, inkwell::OptimizationLevel::Default, RelocMode::PIC, CodeModel::Default).unwrap();
        let mut f = m.get_first_function();
        while let Some(func) = f {
            if func.count_basic_blocks() > 0 && !features.is_empty() {
                func.add_attribute(AttributeLoc::Function, ctx.create_string_attribute("target-features", features));
            }
            f = func.get_next_function();
        }
        optimize(&m, &tm, 2, vector_math).unwrap();
        m.print_to_string().to_string()
    }
}
