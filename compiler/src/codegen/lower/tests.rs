//! Lowering tests: the IR of small programs, and every valid corpus
//! kernel lowered and verified for each target.

use super::super::CodegenOptions;
use crate::diag::Diagnostics;
use crate::options::{ClStd, Target};
use crate::sema::{SemaOptions, check};
use crate::source::SourceMap;
use inkwell::context::Context;

/// Compiles `src` to verified LLVM IR text for `target`, or the messages
/// of whatever failed.
pub(crate) fn ir_for(src: &str, target: Target, std: ClStd) -> Result<String, String> {
    ir_at(None, src, target, std)
}

/// As [`ir_for`], for a file at `path` (so its `#include`s resolve).
pub(crate) fn ir_at(path: Option<&std::path::Path>, src: &str, target: Target, std: ClStd) -> Result<String, String> {
    let mut sm = SourceMap::new();
    let main = match path {
        Some(p) => sm.add_real(p, src.to_string()),
        None => sm.add_virtual("t.cl", src.to_string()),
    };
    let mut diags = Diagnostics::default();
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/include");
    let pp_opts = crate::pp::PpOptions { std, target: target.clone(), include_dirs: vec![include], ..Default::default() };
    let out = crate::pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let tu = crate::parse::parse(&sm, &out, std, &mut diags);
    let p = check(&tu, &SemaOptions::new(std, target.clone(), &out.pragmas), &mut diags);
    if diags.has_errors() {
        return Err(diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("\n"));
    }
    let ctx = Context::create();
    let opts = CodegenOptions { target, std, ..Default::default() };
    let m = super::lower(&ctx, &p, &sm, "t", &opts).map_err(|e| e.to_string())?;
    m.verify().map_err(|e| e.to_string())?;
    Ok(m.print_to_string().to_string())
}

pub(crate) fn ir(src: &str) -> String {
    match ir_for(src, Target::Host, ClStd::Cl20) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_simple_kernel_lowers_and_verifies() {
    let t = ir("kernel void add(global const float *a, global const float *b, global float *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }");
    // The CPU runtime's ABI: the kernel takes the work-item, the runtime
    // calls its work-group entry, and a table describes it.
    assert!(t.contains("define internal void @add(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr %wi)"), "{t}");
    assert!(t.contains("define void @__clc_wg_add(ptr noalias"), "{t}");
    assert!(t.contains("@__clc_kernel_table = constant"), "{t}");
    assert!(!t.contains("get_global_id"), "{t}");
    assert!(t.contains("fadd float"), "{t}");
    assert!(t.contains("!kernel_arg_addr_space"), "{t}");
}

/// The `-cl-std=` of a corpus file's `// RUN:` line.
fn std_of(src: &str) -> ClStd {
    let first = src.lines().next().unwrap_or("");
    first.split_whitespace().find_map(|w| w.strip_prefix("-cl-std=")).and_then(ClStd::parse).unwrap_or_default()
}

#[test]
fn every_valid_corpus_kernel_lowers_and_verifies_for_each_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let mut files = Vec::new();
    for dir in ["corpus/valid", "sema/hir"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cl") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 60);
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        for target in [Target::Host, Target::Spirv64] {
            if let Err(e) = ir_at(Some(f), &src, target.clone(), std_of(&src)) {
                failures.push(format!("{} ({target:?}): {}", f.display(), e.lines().take(6).collect::<Vec<_>>().join("\n")));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}


/// The IR of one function of a program (at -O0, as lowered): its body as
/// clc lowers it, `name.clc` where the function is exported as `name`.
fn function_ir(src: &str, name: &str) -> String {
    let text = ir(src);
    let start = text.find(&format!("@{name}.clc(")).or_else(|| text.find(&format!("@{name}("))).and_then(|i| text[..i].rfind("define ")).unwrap_or_else(|| panic!("no function {name} in\n{text}"));
    let end = text[start..].find("\n}\n").map_or(text.len(), |e| start + e + 2);
    text[start..end].to_string()
}

#[test]
fn ir_arithmetic_shifts_division_and_comparisons() {
    insta::assert_snapshot!(function_ir(
        "kernel void k(global int *o, int a, int b, uint u, float f) { o[0] = a << b; o[1] = u >> b; o[2] = a / b; o[3] = a < b; o[4] = f != f; o[5] = a * b + 1; }",
        "k"
    ));
}

#[test]
fn ir_vectors_swizzles_literals_and_select() {
    insta::assert_snapshot!(function_ir(
        "kernel void k(global float4 *v, global int4 *m) { float4 a = v[0]; a.xz = a.yw; v[1] = (float4)(a.xy, 1.0f, 2.0f); m[0] = a > 0.5f; v[2] = m[0] ? a : a * 2.0f; }",
        "k"
    ));
}

#[test]
fn ir_atomics_with_orders_and_scopes() {
    insta::assert_snapshot!(function_ir(
        "kernel void k(global atomic_int *a, local atomic_int *l, global int *o, memory_order mo) {
             o[0] = atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group);
             atomic_store_explicit(l, 2, memory_order_release);
             int e = 0;
             o[1] = atomic_compare_exchange_strong_explicit(a, &e, 3, memory_order_acq_rel, memory_order_acquire, memory_scope_device);
             o[2] = atomic_load_explicit(a, mo);
             o[3] = atomic_inc(o);
         }",
        "k"
    ));
}

#[test]
fn ir_kernel_metadata_on_spirv() {
    let t = ir_for(
        "kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4))) void k(global const float *restrict a, local int *l, constant uint4 *c, read_only image2d_t img, int n) { }",
        Target::Spirv64,
        ClStd::Cl20,
    )
    .unwrap();
    let start = t.find("define").unwrap();
    insta::assert_snapshot!(t[start..].to_string());
}

#[test]
fn spirv_channel_data_types_are_opencl_values() {
    // LLVM 22's SPIR-V back end gives SPIR-V's enumerant (0 for
    // SNORM_INT8); OpenCL's CLK_SNORM_INT8 is 0x10D0 = 4304, and
    // tests/spirv_exec/run.py checks the value on another implementation.
    let t = ir_for("kernel void k(read_only image2d_t a, global int *o) { o[0] = get_image_channel_data_type(a); }", Target::Spirv64, ClStd::Cl20).unwrap();
    let call = t.lines().find(|l| l.contains("call spir_func i32 @_Z27get_image_channel_data_type14ocl_image2d_ro")).unwrap_or_else(|| panic!("{t}"));
    let result = call.trim().split(' ').next().unwrap();
    assert!(t.contains(&format!("add i32 {result}, 4304")) || t.contains(&format!("add nsw i32 {result}, 4304")), "{t}");
    // On the CPU the runtime's descriptor holds OpenCL's value already.
    let t = ir_for("kernel void k(read_only image2d_t a, global int *o) { o[0] = get_image_channel_data_type(a); }", Target::Host, ClStd::Cl20).unwrap();
    assert!(!t.contains("4304"), "{t}");
}

#[test]
fn spirv_channel_orders_are_opencl_values() {
    // As for the data type: SPIR-V's enumerant (0 for R) plus OpenCL's
    // CLK_R, 0x10B0 = 4272. The call stays an import in LLVM 22's output,
    // which `spirv_fixup` makes an OpImageQueryOrder.
    let src = "kernel void k(write_only image3d_t a, global int *o) { o[0] = get_image_channel_order(a); }";
    let t = ir_for(src, Target::Spirv64, ClStd::Cl20).unwrap();
    let call = t.lines().find(|l| l.contains("call spir_func i32 @_Z23get_image_channel_order14ocl_image3d_wo")).unwrap_or_else(|| panic!("{t}"));
    let result = call.trim().split(' ').next().unwrap();
    assert!(t.contains(&format!("add i32 {result}, 4272")) || t.contains(&format!("add nsw i32 {result}, 4272")), "{t}");
    let t = ir_for(src, Target::Host, ClStd::Cl20).unwrap();
    assert!(!t.contains("4272"), "{t}");
}

#[test]
fn every_valid_corpus_kernel_compiles_to_a_native_object_with_debug_info_at_o0_and_o3() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let include = root.join("corpus/include");
    let mut failures = Vec::new();
    let mut compiled = 0;
    for e in std::fs::read_dir(root.join("corpus/valid")).unwrap() {
        let f = e.unwrap().path();
        let src = std::fs::read_to_string(&f).unwrap();
        let std = std_of(&src);
        let mut sm = SourceMap::new();
        let main = sm.add_real(&f, src.clone());
        let mut diags = Diagnostics::default();
        let pp_opts = crate::pp::PpOptions { std, include_dirs: vec![include.clone()], ..Default::default() };
        let out = crate::pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
        let tu = crate::parse::parse(&sm, &out, std, &mut diags);
        let p = check(&tu, &SemaOptions::new(std, Target::Host, &out.pragmas), &mut diags);
        assert!(!diags.has_errors(), "{}", f.display());
        for level in [0, 3] {
            let opts = CodegenOptions { std, opt_level: level, debug_info: true, ..Default::default() };
            match super::super::compile(&p, &sm, &f.display().to_string(), &opts, super::super::OutputKind::Object) {
                Ok(obj) => {
                    assert_eq!(&obj[..4], b"\x7fELF");
                    assert!(obj.windows(11).any(|w| w == b".debug_line"), "{}: no line table", f.display());
                    compiled += 1;
                }
                Err(e) => failures.push(format!("{} -O{level}: {e}", f.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compiled >= 120, "{compiled}");
}

#[test]
fn ir_control_flow_switch_goto_and_short_circuit() {
    insta::assert_snapshot!(function_ir(
        "int f(int x, int y) {
             switch (x) { case 1: x = 5; case 2: return x; default: break; }
             if (x > 0 && y > 0) goto out;
             while (x < 10) { x++; if (x == 7) break; }
         out:
             return x || y;
         }
         kernel void k(global int *o) { o[0] = f(o[1], o[2]); }",
        "f"
    ));
}

#[test]
fn ir_program_scope_variables_structs_unions_and_brace_elision() {
    let t = ir("typedef struct { char c; int i; float4 v; } S;
                typedef union { int i; float f; } U;
                constant int m[2][2] = { 1, 2, 3 };
                global S s = { 'x', 7, (float4)(1.0f) };
                constant U u = { .f = 1.5f };
                global int counter;
                constant char msg[8] = \"hi\";
                kernel void k(global int *o) { local float tile[16]; tile[0] = s.v.y; o[0] = m[1][0] + u.i + counter + msg[1] + (int)tile[0]; }");
    let globals: String = t.lines().filter(|l| l.starts_with('@')).map(|l| format!("{l}\n")).collect();
    insta::assert_snapshot!(globals);
}

#[test]
fn huge_arrays_keep_their_zeros_as_one_constant() {
    // Found by the fuzzer: a 2^31 x 3 constant array with three rows
    // initialized made a tree node per element, and the allocation
    // aborted; a 10^8 array with its last element designated took minutes
    // in LLVM's printer. Zero runs are `zeroinitializer` arrays in a packed
    // struct (as clang makes them); sizes past 2^32 elements keep their
    // length.
    let t = ir("constant float matrix[2147483647][3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, [2] = { [2] = 1.0f } };
                constant int t[100000000] = { 1, 2, [99999999] = 3 };
                constant char c[4294967297] = { 1, 2 };
                constant int small[70] = { 1 };
                constant int few[60] = { 1 };
                kernel void k(global float *o, long i) { o[0] = matrix[i][1] + t[i] + c[i] + small[i] + few[i]; }");
    let global = |name: &str| t.lines().find(|l| l.starts_with(&format!("@{name} "))).unwrap_or_else(|| panic!("@{name} in {t}")).to_string();
    assert!(global("matrix").contains("constant <{ [3 x [3 x float]], [2147483644 x [3 x float]] }> <{ [3 x [3 x float]] [[3 x float] [float 1.000000e+00, float 0.000000e+00, float 0.000000e+00], [3 x float] [float 0.000000e+00, float 1.000000e+00, float 0.000000e+00], [3 x float] [float 0.000000e+00, float 0.000000e+00, float 1.000000e+00]], [2147483644 x [3 x float]] zeroinitializer }>"), "{}", global("matrix"));
    assert!(global("t").contains("<{ [2 x i32] [i32 1, i32 2], [99999997 x i32] zeroinitializer, [1 x i32] [i32 3] }>"), "{}", global("t"));
    assert!(global("c").contains("<{ [2 x i8] c\"\\01\\02\", [4294967295 x i8] zeroinitializer }>"), "{}", global("c"));
    assert!(global("small").contains("<{ [1 x i32] [i32 1], [69 x i32] zeroinitializer }>"), "{}", global("small"));
    // Under 64 zeros in a row: the plain array, as written.
    assert!(global("few").contains("constant [60 x i32] [i32 1, i32 0,"), "{}", global("few"));
    assert!(t.len() < 100_000, "the IR lists every element: {} bytes", t.len());
}

#[test]
fn ir_conversions_and_builtins_on_the_cpu() {
    insta::assert_snapshot!(function_ir(
        "kernel void k(global float4 *f, global int4 *i, global uchar4 *c, global uint *u) {
             c[0] = convert_uchar4_sat(i[0]);
             i[1] = convert_int4_rte(f[0]);
             f[1] = fmin(f[0], 1.0f) + sqrt(f[0]) + as_float4(i[0]);
             u[0] = popcount(u[1]) + clz(u[2]) + rotate(u[3], 3u);
             f[2] = vload4(1, (global float *)f);
         }",
        "k"
    ));
}

#[test]
fn a_cast_of_a_comma_expression_is_not_a_vector_literal() {
    // Found by the fuzzer: `(int)(a, b)` evaluates `a`, then casts `b`.
    let t = ir("kernel void k(global int *o) { o[0] = (int)(o[1]++, 2.5f); float f = (float)(1, 2); o[2] = (int)f; }");
    assert!(t.contains("fptosi") || t.contains("store i32 2"), "{t}");
}

#[test]
fn functions_declared_but_not_defined_are_external_declarations() {
    // Found by the fuzzer. Another program may define them (clLinkProgram);
    // overloadable ones get clang's Itanium names.
    let t = ir("int plain(int);
                float __attribute__((overloadable)) norm(float x);
                int __attribute__((overloadable)) norm(int x);
                float __attribute__((overloadable)) norm(float x) { return x < 0 ? -x : x; }
                kernel void k(global int *o, global float *f) { o[0] = plain(o[1]) + norm(o[2]); f[0] = norm(f[1]); }");
    assert!(t.contains("declare i32 @plain(i32)"), "{t}");
    assert!(t.contains("declare i32 @_Z4normi(i32)"), "{t}");
    assert!(t.contains("define internal float @norm(float"), "{t}");
}

/// IR for `src` with code-generation options.
fn ir_with(src: &str, opts: CodegenOptions) -> String {
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let out = crate::pp::preprocess(&mut sm, main, &Default::default(), &mut diags);
    let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
    let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
    assert!(!diags.has_errors());
    let ctx = Context::create();
    let m = super::lower(&ctx, &p, &sm, "t", &opts).unwrap();
    m.verify().unwrap();
    m.print_to_string().to_string()
}

#[test]
fn floating_point_options_reach_the_ir() {
    let src = "kernel void k(global float *o, float a, float b) { o[0] = a * b + o[1]; o[2] = a / b; }";
    let plain = ir_with(src, CodegenOptions::default());
    // FP_CONTRACT is on by default: a * b + c in one expression fuses.
    assert!(plain.contains("llvm.fmuladd.f32"), "{plain}");
    assert!(!plain.contains("fdiv fast") && !plain.contains("nnan"), "{plain}");
    let fp = crate::options::FpOptions { fast_relaxed_math: true, ..Default::default() };
    let fast = ir_with(src, CodegenOptions { fp, ..Default::default() });
    assert!(fast.contains("fdiv fast float") || fast.contains("fdiv reassoc nnan ninf nsz arcp contract afn float"), "{fast}");
    assert!(fast.contains("\"no-nans-fp-math\"=\"true\"") && fast.contains("\"unsafe-fp-math\"=\"true\""), "{fast}");
    let fp = crate::options::FpOptions { denorms_are_zero: true, finite_math_only: true, ..Default::default() };
    let daz = ir_with(src, CodegenOptions { fp, ..Default::default() });
    assert!(daz.contains("\"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\""), "{daz}");
    assert!(daz.contains("fdiv nnan ninf float"), "{daz}");
    let fp = crate::options::FpOptions { mad_enable: true, ..Default::default() };
    let mad = ir_with("kernel void k(global float *o, float a, float b) { float t = a * b; o[0] = t + o[1]; }", CodegenOptions { fp, ..Default::default() });
    assert!(mad.contains("fmul contract float") && mad.contains("fadd contract float"), "{mad}");
    // `#pragma OPENCL FP_CONTRACT OFF` before the kernel: no fusion.
    let src_off = format!("#pragma OPENCL FP_CONTRACT OFF\n{src}");
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src_off.clone());
    let mut diags = Diagnostics::default();
    let out = crate::pp::preprocess(&mut sm, main, &Default::default(), &mut diags);
    let spans: Vec<_> = out.pragmas.iter().filter_map(|p| matches!(p.kind, crate::pp::PragmaKind::FpContract(crate::pp::Switch::Off)).then_some((p.span, false))).collect();
    assert_eq!(spans.len(), 1);
    let off = ir_with(&src_off, CodegenOptions { fp_contract: spans, ..Default::default() });
    assert!(!off.contains("fmuladd"), "{off}");
}

#[test]
fn kernel_argument_names_with_cl_kernel_arg_info() {
    let src = "kernel void k(global float *data, int count) { }";
    assert!(!ir_with(src, CodegenOptions::default()).contains("kernel_arg_name"));
    let t = ir_with(src, CodegenOptions { kernel_arg_info: true, ..Default::default() });
    assert!(t.contains("!{!\"data\", !\"count\"}"), "{t}");
}

#[test]
fn a_directed_rounding_conversion_is_inline_and_evaluates_its_argument_once() {
    // convert_float_rtz(int) is computed inline (convert.rs) from the value
    // already computed: the increment happens once, and nothing is called.
    let t = function_ir("kernel void k(global int *o, global float *f) { f[0] = convert_float_rtz(o[0]++); }", "k");
    assert_eq!(t.matches("store i32").count(), 1, "{t}");
    assert!(t.contains("sitofp i32"), "{t}");
    assert!(!t.contains("convert_float_rtz"), "{t}");
}

#[test]
fn images_read_and_write_inline_for_the_common_formats() {
    use clc_runtime::image::{INLINE_FORMATS, TexelKind};
    // A sampler-less read and a write of float texels: the read a switch
    // on the descriptor's format tag with a case for every float inline
    // format, the write a test of the normalized formats' range (one
    // conversion for all, then a switch storing each) and a switch over
    // the others; the runtime's function called for the other formats.
    // Code for baseline x86-64 (not for this machine): the conversion
    // rounds with `cvtps2dq`, and four lanes are narrowed to bytes or
    // words with SSE2's packs, not a `trunc`.
    let t = function_ir("kernel void k(read_only image2d_t a, write_only image2d_t b) { int2 p = (int2)(get_global_id(0), 0); write_imagef(b, p, read_imagef(a, p)); }", "k");
    assert_eq!(t.matches("switch i32").count(), 3, "{t}");
    assert_eq!(t.matches("@llvm.x86.sse2.cvtps2dq(<4 x float>").count(), 1, "{t}");
    assert!(!t.contains("fptosi") && !t.contains("trunc <4 x i32>"), "{t}");
    // RGBA8 and BGRA8 (bytes), RGBA16 (words, offset into the signed range).
    assert_eq!(t.matches("@llvm.x86.sse2.packuswb.128(").count(), 2, "{t}");
    assert_eq!(t.matches("@llvm.x86.sse2.packssdw.128(").count(), 3, "{t}");
    // The other formats: the runtime's functions, through this module's
    // stubs, called with `preserve_allcc` (the kernel's registers live
    // across the call) and the coordinates and colour by value.
    assert_eq!(t.matches("call preserve_allcc <4 x i32> @__clc_image_read_call(ptr %").count(), 1, "{t}");
    assert_eq!(t.matches("call preserve_allcc void @__clc_image_write_call(ptr %").count(), 1, "{t}");
    assert!(!t.contains("call void %") && !t.contains("alloca <4 x i32>"), "{t}");
    let text = ir("kernel void k(read_only image2d_t a, write_only image2d_t b) { int2 p = (int2)(get_global_id(0), 0); write_imagef(b, p, read_imagef(a, p)); }");
    for stub in ["__clc_image_read_call", "__clc_image_write_call"] {
        let def = text.lines().find(|l| l.starts_with("define") && l.contains(&format!("@{stub}("))).unwrap_or_else(|| panic!("no {stub} in\n{text}"));
        assert!(def.starts_with("define internal preserve_allcc "), "{def}");
    }
    let start = text.find("define internal preserve_allcc <4 x i32> @__clc_image_read_call(").expect("the read stub");
    let stub = &text[start..start + text[start..].find("\n}\n").expect("its end")];
    assert_eq!(stub.matches("alloca <4 x i32>").count(), 2, "{stub}");
    assert_eq!(stub.matches("call void %0(ptr addrspace(1) %1, i32 %2, i32 %3, ptr ").count(), 1, "{stub}");
    for f in INLINE_FORMATS.iter().filter(|f| f.ty.texel() == TexelKind::Float) {
        assert_eq!(t.matches(&format!("i32 {}, label", f.inline_tag())).count(), 2, "{f:?} in {t}");
    }
    for f in INLINE_FORMATS.iter().filter(|f| f.ty.texel() != TexelKind::Float) {
        assert!(!t.contains(&format!("i32 {}, label", f.inline_tag())), "{f:?} in {t}");
    }
    assert!(t.contains("load <4 x i8>") && t.contains("store i32") && t.contains("store i64") && t.contains("fdiv <4 x float>"), "{t}");
    // 32-bit x86: no SSE2 in its baseline, so neither SSE2's intrinsics
    // nor `preserve_allcc` (an x86-64 convention).
    let t = ir_for("kernel void k(read_only image2d_t a, write_only image2d_t b) { int2 p = (int2)(get_global_id(0), 0); write_imagef(b, p, read_imagef(a, p)); }", Target::Native("i686-unknown-linux-gnu".into()), ClStd::Cl20).unwrap_or_else(|e| panic!("{e}"));
    assert!(!t.contains("llvm.x86.sse2") && !t.contains("preserve_allcc") && t.contains("@__clc_image_write_call("), "{t}");
    // Depth images always call the runtime.
    let t = function_ir("kernel void d(read_only image2d_depth_t a, sampler_t s, global float *o) { o[0] = read_imagef(a, s, (float2)(0.5f, 0.5f)); }", "d");
    assert!(!t.contains("switch") && t.contains("@__clc_image_read_call("), "{t}");
}

/// The loops over a group's work-items (regions, and the regions storing
/// work-group functions' arguments) in the work-group entry of kernel `k`.
fn work_item_loops(src: &str, k: &str) -> usize {
    function_ir(src, &format!("__clc_wg_{k}")).lines().filter(|l| l.starts_with("wi.head")).count()
}

/// Consecutive statements with work-group functions store all their
/// arguments at the end of the work-item loop before them, and join the
/// run of plain statements after them: the corpus kernel with ten in a
/// row between plain statements loops over its work-items twice (22 when
/// each statement had a loop for its arguments and one of its own),
/// combining the calls' values in two passes over the group (integer
/// reductions, any and all, which vectorise; the scans and the float sum;
/// nine passes when each call had one). No local is kept per work-item:
/// `x` is used in the first loop only, the results in the second only.
#[test]
fn consecutive_work_group_functions_share_work_item_loops() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/valid/043_work_group_functions.cl")).unwrap();
    let entry = function_ir(&src, "__clc_wg_wg_functions");
    assert_eq!(entry.lines().filter(|l| l.starts_with("wi.head")).count(), 2, "{entry}");
    assert_eq!(entry.lines().filter(|l| l.starts_with("wg.head")).count(), 2, "{entry}");
    for l in ["x", "sum", "mn", "incl", "first", "fsum"] {
        assert!(entry.contains(&format!("%{l} = alloca ")) && !entry.contains(&format!("%{l} = alloca i32, i64 %")) && !entry.contains(&format!("%{l} = alloca float, i64 %")), "{l}: {entry}");
    }
    // Both passes' back edges ask LLVM not to unroll them at run time
    // (each runs once per group), with loop IDs of their own; the first
    // (integer reductions, any, all) to vectorise without interleaving,
    // the second (scans, the float sum) not to vectorise.
    let backs: Vec<&str> = entry.lines().filter(|l| l.contains("br label %wg.head") && l.contains(", !llvm.loop ")).collect();
    assert_eq!(backs.len(), 2, "{entry}");
    let text = ir(&src);
    let expected = [r#"!{!"llvm.loop.interleave.count", i32 1}"#, r#"!{!"llvm.loop.vectorize.enable", i1 false}"#];
    for (b, hint) in backs.into_iter().zip(expected) {
        let id = b.rsplit("!llvm.loop ").next().unwrap_or_default();
        let node = text.lines().find(|l| l.starts_with(&format!("{id} = "))).unwrap_or_else(|| panic!("no node {id}"));
        assert!(node.starts_with(&format!("{id} = distinct !{{{id}, !")), "{node}");
        let options: Vec<&str> = node.trim_end_matches('}').split(", ").skip(1).collect();
        assert_eq!(options.len(), 2, "{node}");
        let defined = |option: &str, value: &str| text.lines().any(|l| l == format!("{option} = {value}"));
        assert!(defined(options[0], r#"!{!"llvm.loop.unroll.runtime.disable"}"#), "{node} in {text}");
        assert!(defined(options[1], hint), "{node}: {hint} in {text}");
    }
}

/// Work-group functions computed together whose arguments compute the
/// same value read one array of the work-items' values: the corpus kernel
/// passes `x` to seven of its ten calls and stores four arrays (`x`,
/// `x < 0`, `x > 0`, `(float)x`), not ten. Same shape but another type or
/// operand is another value; where one argument of the batch has a side
/// effect, nothing is shared (`c++` between two `x`).
#[test]
fn work_group_functions_of_one_value_share_its_array() {
    let arrays = |src: &str, k: &str| function_ir(src, &format!("__clc_wg_{k}")).lines().filter(|l| l.contains("%wg.arg") && l.contains(" = alloca ")).count();
    let corpus = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/valid/043_work_group_functions.cl")).unwrap();
    assert_eq!(arrays(&corpus, "wg_functions"), 4);
    let src = "kernel void k(global int *o, global const int *in) {
                   size_t g = get_global_id(0);
                   int x = in[g], y = in[g + 1];
                   int a = work_group_reduce_add(x);
                   int b = work_group_scan_inclusive_max(x);
                   long c = work_group_reduce_add((long)x);
                   int d = work_group_reduce_min(x + 1);
                   int e = work_group_reduce_max(x + 1);
                   int f = work_group_reduce_max(y + 1);
                   int h = work_group_reduce_add(in[g] * 2) + work_group_broadcast(in[g] * 2, 0);
                   o[g] = a + b + (int)c + d + e + f + h;
               }
               kernel void side(global int *o, global const int *in) {
                   int x = in[get_global_id(0)], c = 0;
                   o[get_global_id(0)] = work_group_reduce_add(x) + work_group_reduce_add(c++) + work_group_reduce_min(x) + c;
               }";
    // x, (long)x, x + 1, y + 1, in[g] * 2.
    assert_eq!(arrays(src, "k"), 5);
    assert_eq!(arrays(src, "side"), 3);
}

/// A region's comparisons known on part of the group's x range (see
/// `xsplit`) have their bounds computed in 64 bits where the comparisons
/// are of 32-bit types, in 128 where one is wider (`jit`'s
/// `known_comparisons_hold_on_their_part_of_the_group` runs both near
/// their types' limits).
#[test]
fn known_range_bounds_are_as_wide_as_their_comparisons() {
    let src = |t: &str| {
        format!(
            "kernel void k(global int *o, {t} n, local int *l) {{
                 {t} v = get_global_id(0);
                 l[get_local_id(0)] = 0;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (v < n) l[get_local_id(0)] = 1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[v] = l[get_local_id(0)];
             }}"
        )
    };
    for (t, wide) in [("int", false), ("uint", false), ("long", true), ("ulong", true)] {
        let entry = function_ir(&src(t), "__clc_wg_k");
        assert!(entry.contains("x.known"), "{t}: {entry}");
        assert_eq!(entry.contains("i128"), wide, "{t}: {entry}");
    }
}

/// In a function with group-level loops only the regions inside them run
/// in parts along x (see `xsplit`); without such loops every region
/// does. The parts' blocks are `x.before`, `x.known` and `x.after`, each
/// named once per region (LLVM numbers the repeats).
#[test]
fn regions_outside_group_loops_run_in_parts_only_without_loops() {
    let parts = |src: &str, k: &str| -> Vec<String> {
        function_ir(src, &format!("__clc_wg_{k}"))
            .lines()
            .filter_map(|l| l.split(':').next().filter(|b| ["x.before", "x.known", "x.after"].iter().any(|p| b.starts_with(p) && !b.contains(".end")) && !b.contains(' ')))
            .map(|b| b.trim_end_matches(|c: char| c.is_ascii_digit()).to_string())
            .collect()
    };
    let bench = |f: &str| std::fs::read_to_string(format!("{}/../bench/kernels/runtime/{f}.cl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    // The tree reduction: its loop's `if (lid < s)` only, not the load
    // (`gid < n ? … : 0`) before it nor the `lid == 0` after it.
    assert_eq!(parts(&bench("reduction"), "reduction"), ["x.known"]);
    // The transpose has no loop: both its bound checks.
    assert_eq!(parts(&bench("transpose"), "transpose"), ["x.known", "x.after", "x.known", "x.after"]);
    // 047: the tile loads in the loop, not the final store.
    let corpus = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/valid/047_sgemm_tiled.cl")).unwrap();
    assert_eq!(parts(&corpus, "sgemm_tiled"), ["x.known", "x.after"]);
}

/// The loop over a group's work-items (in a plain kernel, and each one of
/// a kernel in regions) asks LLVM not to unroll it at run time: after
/// vectorisation that would copy the scalar remainder loop (a prologue and
/// an unrolled body), about a tenth of compiling 001, 046 and 054, for
/// the last few work-items of a row.
#[test]
fn work_item_loops_are_not_unrolled_at_run_time() {
    for (src, k, loops) in [
        ("kernel void add(global const float *a, global const float *b, global float *c, uint n) { size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }", "add", 1),
        ("kernel void two(global float *a, local float *t) { size_t l = get_local_id(0); t[l] = a[l]; barrier(CLK_LOCAL_MEM_FENCE); a[l] = t[l] + t[0]; }", "two", 2),
    ] {
        let text = ir(src);
        let entry = function_ir(src, &format!("__clc_wg_{k}"));
        assert_eq!(entry.lines().filter(|l| l.starts_with("wi.head")).count(), loops, "{entry}");
        let backs: Vec<&str> = entry.lines().filter(|l| l.contains("br label %wi.head") && l.contains(", !llvm.loop ")).collect();
        assert_eq!(backs.len(), loops, "{entry}");
        for b in backs {
            let id = b.rsplit("!llvm.loop ").next().unwrap_or_default();
            let node = text.lines().find(|l| l.starts_with(&format!("{id} = "))).unwrap_or_else(|| panic!("no node {id}"));
            let option = node.trim_end_matches('}').rsplit(", ").next().unwrap();
            assert!(text.lines().any(|l| l == format!("{option} = !{{!\"llvm.loop.unroll.runtime.disable\"}}")), "{node} in {text}");
        }
    }
}

/// Which statements with work-group functions share the loop storing
/// their arguments (see `regions::collective_batch`): the work-item loops
/// of a kernel whose body is `x`, `y` declared, then `stmts`, then a
/// store of `r`. Arguments are stored at the end of the loop before: a
/// statement batched with the one before adds no loop, one that is not
/// adds one (the loop it ends), one whose calls are not flat two (and a
/// round more for a nested call).
#[test]
fn work_group_functions_are_batched_only_where_exact() {
    let loops = |stmts: &str| {
        let src = format!(
            "kernel void k(global const int *in, global int *o) {{
                 size_t g = get_global_id(0);
                 int x = in[g], y = in[g + 1], c = 0, r = 0;
                 {stmts}
                 o[g] = r + c;
             }}"
        );
        work_item_loops(&src, "k")
    };
    for (stmts, want) in [
        // Quiet declarations, then a statement with a side effect: one
        // loop of arguments, then one for everything after.
        ("int a = work_group_reduce_add(x); int b = work_group_scan_inclusive_max(y) * 2; r = work_group_broadcast(x, 0) + a + b;", 2),
        ("int a = work_group_any(x > 0) + work_group_all(y > 0); float b = work_group_reduce_min((float)x); r = a + (int)b;", 2),
        // A later argument reads a local declared in the batch.
        ("int a = work_group_reduce_add(x); int b = work_group_reduce_add(a + x); r = b;", 3),
        ("int a = work_group_reduce_add(x); int b = work_group_broadcast(y, a & 0); r = a + b;", 3),
        // A side effect before a later statement: a write, an increment,
        // an assignment in an initializer, a store through a math
        // function's pointer argument, a statement between.
        ("r = work_group_reduce_add(x); int b = work_group_reduce_add(y); c = b;", 3),
        ("int a = work_group_reduce_add(x) + c++; int b = work_group_reduce_add(c); r = a + b;", 3),
        ("int a = (r = work_group_reduce_add(x)); int b = work_group_reduce_add(r); c = a + b;", 3),
        ("float a = work_group_reduce_add((float)x) + frexp((float)y, &c); int b = work_group_reduce_add(c); r = (int)a + b;", 3),
        // A math function without pointer arguments is quiet.
        ("float a = work_group_reduce_add((float)x) + sqrt((float)y); int b = work_group_reduce_add(c); r = (int)a + b;", 2),
        ("int a = work_group_reduce_add(x) + o[g]; o[g] = 1; int b = work_group_reduce_add(y); r = a + b;", 3),
        // A later argument with a side effect, or a nested call (two
        // rounds: the inner call's arguments first).
        ("int a = work_group_reduce_add(x) + c; int b = work_group_reduce_add(c++); r = a + b;", 4),
        ("int a = work_group_reduce_add(x); int b = work_group_reduce_add(work_group_broadcast(y, 0)); r = a + b;", 5),
    ] {
        assert_eq!(loops(stmts), want, "{stmts}");
    }
}

/// A private loop with a small constant trip count stays in the work-item
/// (LLVM unrolls it there), even though its counter is no group-level one:
/// it runs as often for every work-item, so it is not divergent. A loop
/// whose bound differs between work-items is.
#[test]
fn small_constant_private_loops_are_not_divergent() {
    let fixed = ir("kernel void k(global float *d) { size_t i = get_global_id(0); float acc = d[i]; for (int k = 0; k < 4; k++) acc *= 0.5f; d[i] = acc; }");
    assert!(!fixed.contains("d.chunk"), "{fixed}");
    let varying = ir("kernel void k(global float *d) { int i = get_global_id(0); float acc = d[i]; for (int k = 0; k < i % 4; k++) acc *= 0.5f; d[i] = acc; }");
    assert!(varying.contains("d.chunk"), "{varying}");
    // Two counters from constants: run at compile time, 5 iterations.
    let two = |init: &str, body: &str| ir(&format!("kernel void k(global float *d) {{ int i = get_global_id(0); float acc = d[i]; int a, b; for ({init}; a < b; a++, b--) {{ {body} }} d[i] = acc; }}"));
    let fixed = two("a = 0, b = 10", "acc *= 0.5f;");
    assert!(!fixed.contains("d.chunk"), "{fixed}");
    // 50 iterations: more than LLVM unrolls; from a work-item's value;
    // a counter the body writes: chunked as before.
    for (init, body) in [("a = 0, b = 100", "acc *= 0.5f;"), ("a = i, b = 10", "acc *= 0.5f;"), ("a = 0, b = 10", "acc *= 0.5f; a += acc > 1.0f;")] {
        let t = two(init, body);
        assert!(t.contains("d.chunk"), "{init}; {body}: {t}");
    }
}

/// Records of every class passed to and returned from functions another
/// program defines (E0901 before), and a function this program defines
/// exported with the same convention: the declarations and the export's
/// wrapper, for x86-64 (clang-22's System V classification, the same
/// types it emits) and SPIR-V (`byval`/`sret`).
const FOREIGN_RECORDS: &str = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
    struct I { int a; };                   struct C3 { char a, b, c; };
    struct F2 { float a, b; };             struct FI { float a; int b; };
    struct F3 { float a, b, c; };          struct DI { double a; int b; };
    struct B24 { long a, b, c; };          struct __attribute__((packed)) P { char c; int i; };
    union U { float f; int i; };           struct V3 { float3 v; };
    struct V2F { float2 v; float x; };     struct AC { char c[5]; };
    struct E {};                           struct L2 { long a, b; };
    struct I i_(struct I);                 struct C3 c3_(struct C3);
    struct F2 f2_(struct F2);              struct FI fi_(struct FI);
    struct F3 f3_(struct F3);              struct DI di_(struct DI);
    struct B24 b24_(struct B24);           struct P p_(struct P);
    union U u_(union U);                   struct V3 v3_(struct V3);
    struct V2F v2f_(struct V2F);           struct AC ac_(struct AC);
    struct E e_(struct E, char c, bool b);
    int spill(long, long, long, long, long, struct L2, long, struct P);
    float8 f8_(float8);                    char4 c4_(char4);
    struct F3 shift(struct F3 p, int k) { p.a += k; return p; }
    static struct F3 hidden(struct F3 p) { return p; }
    kernel void k(global int *o, global float8 *f) {
        struct L2 l = { 1, 2 };
        struct E e;
        o[0] = i_((struct I){ 1 }).a + c3_((struct C3){ 1, 2, 3 }).c + f2_((struct F2){ 1, 2 }).b + fi_((struct FI){ 1, 2 }).b
             + f3_((struct F3){ 1, 2, 3 }).c + di_((struct DI){ 1, 2 }).b + b24_((struct B24){ 1, 2, 3 }).c + p_((struct P){ 1, 2 }).i
             + u_((union U){ 1 }).i + v3_((struct V3){ (float3)1 }).v.x + v2f_((struct V2F){ (float2)1, 2 }).x + ac_((struct AC){ { 1 } }).c[0]
             + spill(1, 2, 3, 4, 5, l, 6, (struct P){ 1, 2 }) + c4_((char4)o[1]).x + shift(hidden((struct F3){ 1, 2, 3 }), 2).a;
        e_(e, (char)o[2], o[3] != 0);
        f[0] = f8_(f[1]);
    }";

/// The declarations of `text` and the definition of the function `name`.
fn declarations_and(text: &str, name: &str) -> String {
    let mut out: Vec<&str> = text.lines().filter(|l| l.starts_with("declare") && !l.contains("@llvm.") && !l.contains("@_Z")).collect();
    let start = text.find(&format!("@{name}(")).and_then(|i| text[..i].rfind("define ")).unwrap_or_else(|| panic!("no function {name} in\n{text}"));
    let end = text[start..].find("\n}\n").map_or(text.len(), |e| start + e + 2);
    out.push(&text[start..end]);
    out.join("\n")
}

#[test]
fn ir_foreign_records_on_x86_64() {
    let text = ir(FOREIGN_RECORDS);
    // A `static` function is not exported; its body keeps clc's own
    // convention (`byval` pointer, `sret`, the work-item last).
    assert!(text.contains("define internal void @hidden(ptr sret(%struct.F3) %0, ptr byval(%struct.F3) align 4 %p, ptr %wi)"), "{text}");
    assert!(text.contains("define internal void @shift.clc("), "{text}");
    insta::assert_snapshot!(declarations_and(&text, "shift"));
}

#[test]
fn ir_foreign_records_on_spirv() {
    let text = ir_for(FOREIGN_RECORDS, Target::Spirv64, ClStd::Cl20).unwrap();
    assert!(text.contains("define internal spir_func void @hidden("), "{text}");
    insta::assert_snapshot!(declarations_and(&text, "shift"));
}

/// Overloads of every parameter kind an export takes, with clang-22's
/// symbols for them (`clang -cl-std=CL2.0 -S -emit-llvm`, x86-64 and
/// `--target=spirv64`): records and enums by their tag or typedef name,
/// pointees' address spaces by name on x86-64 and by number on SPIR-V,
/// substitutions across both. Overloads taking records were left
/// unexported before, and pointers' address spaces were written by
/// number on x86-64 (no clang object linked with them).
const OVERLOADS: &str = "struct A { int a; }; struct B { float b; };
    typedef struct { int t; } T;
    typedef enum { E0, E1 } E;
    union U { int i; float f; };
    int __attribute__((overloadable)) get(struct A a) { return a.a; }
    int __attribute__((overloadable)) get(struct B b) { return (int)b.b; }
    int __attribute__((overloadable)) get(T t, global T *p, const struct A *q) { return t.t + p->t + q->a; }
    int __attribute__((overloadable)) get(E e, union U u) { return e + u.i; }
    int __attribute__((overloadable)) f(global int *a, local int *b, constant int *c, private int *d, int *e) { return 0; }
    int __attribute__((overloadable)) twice(int x) { return 2 * x; }
    float __attribute__((overloadable)) twice(float x) { return 2 * x; }";

#[test]
fn overloads_are_exported_under_clangs_names() {
    let x86 = ir(OVERLOADS);
    let spirv = ir_for(OVERLOADS, Target::Spirv64, ClStd::Cl20).unwrap();
    for (text, symbols) in [
        (&x86, ["_Z3get1A", "_Z3get1B", "_Z3get1TPU8CLglobalS_PU9CLgenericK1A", "_Z3get1E1U", "_Z1fPU8CLglobaliPU7CLlocaliPU10CLconstantiPU9CLprivateiPU9CLgenerici", "_Z5twicei", "_Z5twicef"]),
        (&spirv, ["_Z3get1A", "_Z3get1B", "_Z3get1TPU3AS1S_PU3AS4K1A", "_Z3get1E1U", "_Z1fPU3AS1iPU3AS3iPU3AS2iPiPU3AS4i", "_Z5twicei", "_Z5twicef"]),
    ] {
        let exported: Vec<&str> = text.lines().filter(|l| l.starts_with("define ") && !l.starts_with("define internal")).filter_map(|l| l.split('@').nth(1)?.split('(').next()).collect();
        assert_eq!(exported, symbols, "{text}");
    }
    // OpenCL C 1.2: a pointer without an address space is private, the
    // same type as the `private int *` before it (a substitution).
    let cl12 = ir_for(OVERLOADS, Target::Host, ClStd::Cl12).unwrap();
    assert!(cl12.contains("@_Z1fPU8CLglobaliPU7CLlocaliPU10CLconstantiPU9CLprivateiS6_("), "{cl12}");
}

#[test]
fn a_lone_overloadable_function_is_mangled() {
    // clang mangles a function declared overloadable even with no other
    // overload (they were called and exported under their plain names,
    // which no clang object defines or calls).
    let t = ir("__attribute__((overloadable)) int f(int);
                __attribute__((overloadable)) int g(int x) { return x + 1; }
                int h(int x) { return x * 2; }
                kernel void k(global int *o) { o[0] = f(1) + g(2) + h(3); }");
    assert!(t.contains("declare i32 @_Z1fi(i32"), "{t}");
    assert!(t.contains("define i32 @_Z1gi(i32"), "{t}");
    assert!(t.contains("define i32 @h(i32"), "{t}");
    assert!(!t.contains("@f(") && !t.lines().any(|l| l.starts_with("define i32 @g(")), "{t}");
}

/// Loops with every unrolling hint, as clang-22 turns them into loop
/// properties (`clang -cl-std=CL2.0 -S -emit-llvm -O0`).
const UNROLL_HINTS: &str = "kernel void k(global int *a, int n) {
    #pragma unroll
    for (int i = 0; i < n; i++) a[i] += 1;
    #pragma unroll 4
    for (int i = 0; i < n; i++) a[i] += 2;
    #pragma unroll 1
    for (int i = 0; i < n; i++) a[i] += 3;
    int j = 0;
    #pragma nounroll
    while (j < n) { j++; if (a[j] == 3) continue; a[j] = 0; }
    __attribute__((opencl_unroll_hint)) for (int i = 0; i < n; i++) { if (i == 2) continue; a[i] += 5; }
    __attribute__((opencl_unroll_hint(1))) for (int i = 0; i < n; i++) a[i] += 6;
    __attribute__((opencl_unroll_hint(8), opencl_unroll_hint)) for (int i = 0; i < n; i++) a[i] += 7;
    j = 0;
    __attribute__((opencl_unroll_hint(3))) do { a[j] *= 3; j++; } while (j < n);
    #pragma unroll 2
    __attribute__((opencl_unroll_hint(5))) for (int i = 0; i < n; i++) a[i] += 8;
    for (int i = 0; i < n; i++)
        #pragma unroll 2
        for (int k = 0; k < i; k++) a[k] += 9;
}";

/// The control flow and loop IDs of a function's IR: block labels,
/// branches and the `llvm.loop` nodes.
fn loop_ids(text: &str, name: &str) -> String {
    let start = text.find(&format!("@{name}(")).and_then(|i| text[..i].rfind("define ")).unwrap_or_else(|| panic!("no function {name} in\n{text}"));
    let end = text[start..].find("\n}\n").map_or(text.len(), |e| start + e + 2);
    let body = text[start..end].lines().filter(|l| l.ends_with(':') || l.contains(": ") && !l.starts_with(' ') || l.trim_start().starts_with("br "));
    let nodes = text.lines().filter(|l| l.starts_with('!') && (l.contains("distinct") || l.contains("llvm.loop")));
    body.chain(nodes).collect::<Vec<_>>().join("\n")
}

#[test]
fn ir_loop_unroll_hints_on_spirv() {
    let t = ir_for(UNROLL_HINTS, Target::Spirv64, ClStd::Cl20).unwrap();
    insta::assert_snapshot!(loop_ids(&t, "k"));
}

/// On the CPU the hints of loops lowered per work-item are as on SPIR-V;
/// of a loop at group level (a barrier in it, or a lockstep loop: the
/// work-item loops move inside it) only `nounroll` stays, the back edges
/// of the work-item loops keep their own properties, and a loop inside a
/// region keeps its hint.
#[test]
fn unroll_hints_of_loops_at_group_level() {
    let src = "kernel void k(global int *a, local int *t, int n) {
        int l = get_local_id(0);
        #pragma nounroll
        for (int s = 1; s < 64; s *= 2) { t[l] = a[l]; barrier(CLK_LOCAL_MEM_FENCE); a[l] += t[(l + s) % 64]; barrier(CLK_LOCAL_MEM_FENCE); }
        #pragma unroll 4
        for (int s = 0; s < n; s++) { t[l] = s; barrier(CLK_LOCAL_MEM_FENCE); }
        int acc = 0;
        #pragma unroll 2
        for (int i = 0; i < n; i++) acc += a[l * n + i];
        a[l] = acc;
    }";
    let text = ir(src);
    let ids = loop_ids(&text, "__clc_wg_k");
    let node = |back: &str| {
        let id = back.rsplit("!llvm.loop ").next().unwrap_or_default();
        let node = text.lines().find(|l| l.starts_with(&format!("{id} = "))).unwrap_or_else(|| panic!("no node {id}"));
        let prop = node.trim_end_matches('}').rsplit(", ").next().unwrap_or_default();
        text.lines().find(|l| l.starts_with(&format!("{prop} = "))).unwrap_or_default().to_string()
    };
    let backs = |to: &str| ids.lines().filter(|l| l.contains(&format!("br label %{to}")) && l.contains("!llvm.loop")).collect::<Vec<_>>();
    let group: Vec<&str> = backs("g.loop.cond");
    assert_eq!(group.len(), 1, "{ids}");
    assert!(node(group[0]).ends_with(r#"!{!"llvm.loop.unroll.disable"}"#), "{ids}");
    assert!(!text.contains(r#"!{!"llvm.loop.unroll.count", i32 4}"#), "{ids}");
    let inner = backs("for.cond");
    assert_eq!(inner.len(), 1, "{ids}");
    assert!(node(inner[0]).ends_with(r#"!{!"llvm.loop.unroll.count", i32 2}"#), "{ids}");
    let items = backs("wi.head");
    assert!(items.len() >= 3, "{ids}");
    for b in items {
        assert!(node(b).ends_with(r#"!{!"llvm.loop.unroll.runtime.disable"}"#), "{b} in {ids}");
    }
    // A loop whose bound differs between work-items, run for chunks of
    // them: its iterations keep `nounroll`, `#pragma unroll` is dropped.
    let chunked = |pragma: &str| {
        let src = format!("kernel void k(global float *d) {{ int i = get_global_id(0); float acc = d[i];\n{pragma}\nfor (int k = 0; k < i % 4; k++) acc *= 0.5f; d[i] = acc; }}");
        let text = ir(&src);
        let again = loop_ids(&text, "__clc_wg_k").lines().find(|l| l.contains("label %d.chunk,")).unwrap_or_else(|| panic!("{text}")).to_string();
        (text, again)
    };
    let (text, again) = chunked("#pragma nounroll");
    let id = again.rsplit("!llvm.loop ").next().unwrap_or_default();
    assert!(text.lines().any(|l| l.starts_with(&format!("{id} = distinct !{{{id}, !"))), "{again}");
    assert!(text.contains(r#"!{!"llvm.loop.unroll.disable"}"#), "{text}");
    let (text, again) = chunked("#pragma unroll 2");
    assert!(!again.contains("!llvm.loop") && !text.contains("llvm.loop.unroll.count"), "{text}");
}

/// LLVM does what the hints ask at -O2. `x = x * 3 + b[i]` is a
/// recurrence, which LLVM does not vectorise; for baseline x86-64 it
/// unrolls the loop four times at run time (four loads, and one in the
/// loop for the rest): eight with `#pragma unroll 8`, not at all with
/// `#pragma nounroll`. A loop of 8 iterations, which LLVM unrolls whole,
/// stays a loop with `#pragma nounroll`.
#[test]
fn unroll_hints_take_effect_at_o2() {
    let recurrence = |name: &str, pragma: &str| {
        format!(
            "kernel void {name}(global int *a, global const int *b, int n) {{
                 int g = get_global_id(0), x = 0;
                 {pragma}
                 for (int i = 0; i < n; i++) x = x * 3 + b[g * n + i];
                 a[g] = x;
             }}\n"
        )
    };
    let src = recurrence("by8", "#pragma unroll 8")
        + &recurrence("plain", "")
        + &recurrence("never", "#pragma nounroll")
        + "kernel void kept(global int *a) {
               int g = get_global_id(0), x = a[g];
               #pragma nounroll
               for (int i = 0; i < 8; i++) x += x >> i;
               a[g] = x;
           }
           kernel void whole(global int *a) {
               int g = get_global_id(0), x = a[g];
               for (int i = 0; i < 8; i++) x += x >> i;
               a[g] = x;
           }";
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src);
    let mut diags = Diagnostics::default();
    let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions::default(), &mut diags);
    let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
    let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
    assert!(!diags.has_errors());
    let opts = CodegenOptions { opt_level: 2, ..Default::default() };
    let ll = super::super::compile(&p, &sm, "t", &opts, super::super::OutputKind::LlvmIr).unwrap();
    let text = String::from_utf8(ll).unwrap();
    let body = |k: &str| {
        let start = text.find(&format!("@__clc_wg_{k}(")).and_then(|i| text[..i].rfind("define ")).unwrap_or_else(|| panic!("no {k} in\n{text}"));
        let end = text[start..].find("\n}\n").map_or(text.len(), |e| start + e + 2);
        text[start..end].to_string()
    };
    let loads = |k: &str| body(k).lines().filter(|l| l.contains(" = load i32, ptr addrspace(1)")).count();
    assert_eq!(loads("plain"), 4 + 1, "{}", body("plain"));
    assert_eq!(loads("by8"), 8 + 1, "{}", body("by8"));
    assert_eq!(loads("never"), 1, "{}", body("never"));
    let shifts_by_counter = |k: &str| body(k).lines().filter(|l| l.contains(" = ashr i32 ") && l.contains(", %i.")).count();
    assert_eq!(shifts_by_counter("kept"), 1, "{}", body("kept"));
    assert_eq!(shifts_by_counter("whole"), 0, "{}", body("whole"));
}

/// With `-g` every loop's ID starts with its start and end locations (the
/// loop's first token, its body's last character), as clang-22's do, and
/// keeps its unrolling properties after them; the IR stays valid.
#[test]
fn loops_carry_their_locations_with_debug_info() {
    let text = ir_with(UNROLL_HINTS, CodegenOptions { target: Target::Spirv64, debug_info: true, ..Default::default() });
    let node = |id: &str| text.lines().find_map(|l| l.strip_prefix(&format!("{id} = "))).unwrap_or_else(|| panic!("no {id} in {text}"));
    let line_col = |id: &str| {
        let n = node(id);
        let field = |f: &str| n.split(&format!("{f}: ")).nth(1).and_then(|r| r.split([',', ')']).next()).unwrap_or_else(|| panic!("{id} = {n}")).parse::<u32>().unwrap();
        assert!(n.starts_with("!DILocation("), "{id} = {n}");
        (field("line"), field("column"))
    };
    let mut ids: Vec<&str> = text.lines().filter_map(|l| l.split("!llvm.loop ").nth(1)).collect();
    ids.sort();
    ids.dedup();
    let mut loops: Vec<((u32, u32), (u32, u32), usize)> = ids
        .iter()
        .filter_map(|id| {
            let ops: Vec<&str> = node(id).strip_prefix("distinct !{")?.trim_end_matches('}').split(", ").collect();
            assert_eq!(ops[0], *id);
            Some((line_col(ops[1]), line_col(ops[2]), ops.len() - 3))
        })
        .collect();
    loops.sort();
    let expected = [
        ((3, 5), (3, 42), 1),   // #pragma unroll: `for` to `;`
        ((5, 5), (5, 42), 1),   // #pragma unroll 4
        ((7, 5), (7, 42), 1),   // #pragma unroll 1
        ((10, 5), (10, 61), 1), // #pragma nounroll: `while` to `}`
        ((11, 5), (11, 104), 1),
        ((12, 5), (12, 81), 1),
        ((13, 5), (13, 101), 2),
        ((15, 5), (15, 79), 1), // `do` to the condition's `)`, as clang's
        ((17, 5), (17, 81), 1), // the attribute starts the statement
        ((18, 5), (20, 46), 0), // no hint: locations only
        ((20, 9), (20, 46), 1),
    ];
    assert_eq!(loops, expected, "{text}");
}

/// With `-g`, lines are the presumed ones `#line` gives, in the file it
/// names (a lexical block of that file inside the function), as clang-22
/// places them; a function that starts after the directive is in that file.
#[test]
fn debug_lines_follow_line_directives() {
    let src = "kernel void k(global int *p) {\n    p[0] = 1;\n#line 100 \"gen.cl\"\n    p[1] = 2;\n}\n#line 7\nkernel void m(global int *p) { p[2] = 3; }\n";
    let text = ir_with(src, CodegenOptions { target: Target::Spirv64, debug_info: true, ..Default::default() });
    let node = |id: &str| text.lines().find_map(|l| l.strip_prefix(&format!("{id} = "))).unwrap_or_else(|| panic!("no {id} in {text}"));
    let field = |n: &str, f: &str| n.split(&format!("{f}: ")).nth(1).and_then(|r| r.split([',', ')']).next()).map(str::to_string);
    let file_name = |scope: &str| {
        let n = node(scope);
        let file = field(n, "file").unwrap_or_else(|| panic!("{scope} = {n}"));
        field(node(&file), "filename").unwrap_or_default()
    };
    // Every store's location: (line, column, file of its scope).
    let mut stores: Vec<(u32, u32, String)> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("store i32"))
        .filter_map(|l| l.split("!dbg ").nth(1))
        .map(|id| {
            let n = node(id);
            let scope = field(n, "scope").unwrap();
            (field(n, "line").unwrap().parse().unwrap(), field(n, "column").unwrap().parse().unwrap(), file_name(&scope))
        })
        .collect();
    stores.sort();
    let expected = [(2, 7, "\"t.cl\"".to_string()), (7, 34, "\"gen.cl\"".to_string()), (100, 7, "\"gen.cl\"".to_string())];
    assert_eq!(stores, expected, "{text}");
    assert!(text.contains("!DILexicalBlock("), "{text}");
}
