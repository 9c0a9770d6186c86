//! Every valid corpus kernel compiled to SPIR-V by the `clc` binary (one
//! process per file: LLVM 22's SPIR-V back end is not safe to run twice
//! in one process, see `codegen::emit`) passes `spirv-val` for the OpenCL
//! environment of its dialect.

use std::path::Path;
use std::process::Command;

fn std_of(src: &str) -> &'static str {
    let first = src.lines().next().unwrap_or("");
    if first.contains("-cl-std=CL1") { "opencl1.2" } else { "opencl2.0" }
}

#[test]
fn every_valid_corpus_kernel_is_valid_spirv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let include = root.join("corpus/include");
    let out_dir = std::env::temp_dir().join(format!("clc-spirv-val-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut files: Vec<_> = ["corpus/valid", "sema/hir"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let (mut validated, mut failures) = (0, Vec::new());
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let env = std_of(&src);
        let cl_std = if env == "opencl1.2" { "-cl-std=CL1.2" } else { "-cl-std=CL2.0" };
        for (spirv, opt) in [("spirv64", "-O2"), ("spirv64", "-O0"), ("spirv32", "-O2")] {
            let spv = out_dir.join(format!("{}.{spirv}{opt}.spv", f.file_stem().unwrap().to_string_lossy()));
            let target = format!("--target={spirv}");
            let out = Command::new(env!("CARGO_BIN_EXE_clc"))
                .args([cl_std, target.as_str(), opt, "-c", "-I"])
                .arg(&include)
                .arg(f)
                .arg("-o")
                .arg(&spv)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() {
                failures.push(format!("{} ({spirv} {opt}): clc failed: {err}", f.display()));
                continue;
            }
            let val = Command::new("spirv-val").args(["--target-env", env]).arg(&spv).output();
            match val {
                Ok(v) if v.status.success() => {
                    validated += 1;
                    // Builtins become instructions and builtin variables:
                    // no function is left for the consumer to link.
                    let dis = Command::new("spirv-dis").arg(&spv).output().expect("spirv-dis (spirv-tools) is required");
                    let text = String::from_utf8_lossy(&dis.stdout);
                    for line in text.lines().filter(|l| l.contains("LinkageAttributes") && l.ends_with("Import") && !l.contains("__spirv_BuiltIn")) {
                        failures.push(format!("{} ({spirv}): unresolved import: {}", f.display(), line.trim()));
                    }
                    for edge in critical_edges(&text) {
                        failures.push(format!("{} ({spirv} {opt}): critical edge {edge}", f.display()));
                    }
                    for sampler in shared_samplers(&text) {
                        failures.push(format!("{} ({spirv} {opt}): constant sampler {sampler} used by several functions", f.display()));
                    }
                }
                Ok(v) => failures.push(format!("{} ({spirv} {opt}): spirv-val: {}{}", f.display(), String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&v.stderr))),
                Err(e) => panic!("cannot run spirv-val ({e}); install it with `cargo xtask setup` or `apt-get install spirv-tools`"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), files.len() * 3, failures.join("\n"));
    assert!(validated >= 170, "only {validated} SPIR-V modules validated");
}

/// The critical edges of a disassembled module (`from -> to`): edges from
/// a block with several to a block with several (clc splits them all, for
/// consumers that read SPIR-V back into LLVM IR; see `codegen::emit`).
fn critical_edges(text: &str) -> Vec<String> {
    let mut succs: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [label, "=", "OpLabel"] => succs.push((label.to_string(), Vec::new())),
            ["OpBranch", to] => succs.last_mut().unwrap().1.push(to.to_string()),
            ["OpBranchConditional", _, t, f, ..] => succs.last_mut().unwrap().1.extend([t.to_string(), f.to_string()]),
            // OpSwitch %selector %default (literal %label)*
            ["OpSwitch", _, default, cases @ ..] => {
                let s = &mut succs.last_mut().unwrap().1;
                s.push(default.to_string());
                s.extend(cases.iter().skip(1).step_by(2).map(|l| l.to_string()));
            }
            _ => {}
        }
    }
    let mut preds = std::collections::HashMap::<&str, usize>::new();
    for (_, to) in &succs {
        for t in to {
            *preds.entry(t).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for (from, to) in &succs {
        for t in to.iter().filter(|t| to.len() > 1 && preds[t.as_str()] > 1) {
            out.push(format!("{from} -> {t}"));
        }
    }
    out
}

/// The OpConstantSamplers of a disassembled module that more than one
/// function uses (Intel's CPU runtime cannot link such a module; clc gives
/// each function its own, see `codegen::spirv_fixup`).
fn shared_samplers(text: &str) -> Vec<String> {
    let samplers: Vec<&str> = text.lines().filter(|l| l.contains("= OpConstantSampler")).filter_map(|l| l.split_whitespace().next()).collect();
    let mut users: std::collections::HashMap<&str, std::collections::HashSet<&str>> = std::collections::HashMap::new();
    let mut function = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [id, "=", "OpFunction", ..] => function = Some(*id),
            ["OpFunctionEnd"] => function = None,
            [_, "=", "OpSampledImage" | "OpFunctionCall", operands @ ..] => {
                for w in operands.iter().filter(|w| samplers.contains(w)) {
                    users.entry(w).or_default().extend(function);
                }
            }
            _ => {}
        }
    }
    let mut shared: Vec<String> = users.into_iter().filter(|(_, fs)| fs.len() > 1).map(|(s, _)| s.to_string()).collect();
    shared.sort();
    shared
}

/// Corpus 038's shape: a loop whose switch shares targets between cases
/// and reaches the latch straight. Every edge into a block with phis is
/// the only one from its parent (OpPhi names a parent once; readers that
/// give each OpPhi pair one phi entry agree with LLVM's edge count), and
/// no edge is critical (Intel's CPU runtime crashed on the latch edge).
#[test]
fn switches_in_loops_leave_no_critical_edges() {
    let src = "int sw(int x) {
                   int r = 0;
                   switch (x) { case 0: r += 1; case 1: case 2: r += 2; break; default: r = -1; case 5: r += 3; break; case 'a': r = 97; }
                   return r;
               }
               kernel void k(global int *out, int n) {
                   int acc = 0;
                   for (int j = 0; j < n; j++) acc += sw(j);
                   out[0] = acc;
               }";
    for opt in ["-O0", "-O1", "-O2"] {
        let text = valid_spirv("switch", src, opt);
        assert_eq!(critical_edges(&text), Vec::<String>::new(), "{opt}: {text}");
        for phi in text.lines().filter(|l| l.contains("= OpPhi")) {
            // %r = OpPhi %type (%value %parent)*
            let parents: Vec<&str> = phi.split_whitespace().skip(5).step_by(2).collect();
            let distinct: std::collections::HashSet<_> = parents.iter().collect();
            assert_eq!(distinct.len(), parents.len(), "{opt}: {phi}");
        }
        if opt == "-O2" {
            assert!(text.contains("OpSwitch") && text.contains("OpPhi"), "the shape under test: {text}");
        }
    }
}

/// Vector builtins with scalar operands (`clamp(long4, long, long)` and
/// the like): OpenCL.std takes vectors, and the scalars are splat in the
/// IR (an OpVectorShuffle). LLVM's back end would splat them with an
/// OpCompositeConstruct, on which Intel's CPU runtime crashes, or, for
/// ldexp's exponent, not at all (invalid SPIR-V).
#[test]
fn scalar_operands_of_vector_builtins_are_splat() {
    let src = "kernel void k(global long4 *l, global const long *s, global float4 *f, global const float *g, global const int *e) {
                   l[0] = clamp(l[1], s[0], s[1]);
                   l[2] = max(l[3], s[2]);
                   f[0] = fmax(f[1], g[0]) + mix(f[2], f[3], g[1]) + step(g[2], f[4]) + smoothstep(g[3], g[4], f[5]);
                   f[6] = ldexp(f[7], e[0]) + clamp(f[8], g[5], g[6]);
               }";
    for opt in ["-O0", "-O2"] {
        let text = valid_spirv("splat", src, opt);
        let calls = text.lines().filter(|l| l.contains("OpExtInst %v4")).count();
        assert!(calls >= 8, "{opt}: {calls} vector calls in {text}");
        assert!(!text.contains("OpCompositeConstruct"), "{opt}: {text}");
    }
}

/// `vloada_half3` steps by four halves; LLVM 22 writes every vloada_halfn
/// as OpenCL.std's vload_halfn (three for n = 3), so clc computes the
/// address and loads at offset 0.
#[test]
fn vloada_half3_steps_by_four() {
    let src = "kernel void k(global const half *p, global float4 *o, ulong i) {
                   o[0] = (float4)(vloada_half3(i, p), 1.0f);
                   o[1] = vloada_half4(i, p);
               }";
    for opt in ["-O0", "-O2"] {
        let text = valid_spirv("vloada", src, opt);
        let loads: Vec<&str> = text.lines().filter(|l| l.contains("vload_halfn")).collect();
        assert_eq!(loads.len(), 2, "{opt}: {text}");
        for l in loads {
            let w: Vec<&str> = l.split_whitespace().collect();
            // %r = OpExtInst %type %set vload_halfn %offset %p n
            match w[w.len() - 1] {
                "3" => {
                    let offset = w[w.len() - 3];
                    let zero = offset == "%ulong_0" || text.lines().any(|d| d.trim() == format!("{offset} = OpConstantNull %ulong") || d.trim() == format!("{offset} = OpConstant %ulong 0"));
                    assert!(zero, "{opt}: offset 0: {l}\n{text}");
                }
                "4" => assert_eq!(w[w.len() - 3], "%i", "{opt}: {l}"),
                n => panic!("{opt}: vload_halfn of {n}: {l}"),
            }
        }
    }
}

/// `work_group_broadcast` with two or three local ids: the id vector is
/// built with OpCompositeInsert (Intel's CPU runtime crashed on LLVM's
/// OpCompositeConstruct of run-time ids).
#[test]
fn work_group_broadcast_builds_its_local_id_vector() {
    let src = "kernel void k(global const int *a, global int *o, ulong x, ulong y) {
                   size_t i = get_global_id(0);
                   o[i] = work_group_broadcast(a[i], x, y) + work_group_broadcast(a[i], x, (size_t)1, y) + work_group_broadcast(a[i], x);
               }";
    for opt in ["-O0", "-O2"] {
        let text = valid_spirv("broadcast", src, opt);
        assert_eq!(text.matches("OpGroupBroadcast").count(), 3, "{opt}: {text}");
        assert!(!text.contains("OpCompositeConstruct"), "{opt}: {text}");
        assert!(!text.lines().any(|l| l.contains("LinkageAttributes") && l.contains("Broadcast")), "{opt}: {text}");
    }
}

/// printf's variadic arguments on SPIR-V get C's promotions, as clang
/// passes them: `bool`, `char` and `short` as `int` (Intel's CPU runtime
/// printed garbage for a `char` passed as it is), `half` as `float`.
#[test]
fn printf_arguments_are_promoted() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
               kernel void k(global const char *c, global const short *s, global const half *h, global const float *f) {
                   printf(\"%hhd %hu %d %f %f\\n\", c[0], (ushort)s[0], c[1] > 0, h[0], f[0]);
               }";
    let dir = std::env::temp_dir().join(format!("clc-spirv-printf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("printf.cl");
    std::fs::write(&file, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-cl-std=CL2.0", "--target=spirv64", "-O2", "-S", "-emit-llvm", "-o", "-"]).arg(&file).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ir = String::from_utf8_lossy(&out.stdout);
    let call = ir.lines().find(|l| l.contains("call") && l.contains("@printf(")).unwrap_or_else(|| panic!("{ir}"));
    let args = &call[call.find("@printf(").unwrap()..];
    assert_eq!(args.matches("i32 ").count(), 3, "{call}");
    assert_eq!(args.matches("float ").count(), 2, "{call}");
    assert!(!args.contains("i8 ") && !args.contains("i16 ") && !args.contains("i1 ") && !args.contains("half "), "{call}");
}

/// Program-scope constants clc shapes itself: unions initialized by a
/// member other than their first (a union filled by the member had a
/// `[0 x i8]` pad, which LLVM's SPIR-V back end typed two ways), arrays
/// of them, and arrays whose zero runs are `zeroinitializer` arrays in a
/// packed struct.
#[test]
fn union_and_sparse_array_constants_are_valid_spirv() {
    let src = "typedef union { int i; float f; } U;
               typedef union { char c; int4 v; } W;
               constant U u = { .f = 1.5f };
               constant U us[200] = { [1].f = 1.5f, [150].i = 7 };
               constant W w = { .c = 3 };
               constant int t[1000] = { 1, 2, [999] = 3 };
               global int g[500] = { [400] = 4 };
               kernel void k(global float *o, int i) { o[0] = u.f + us[i].f + w.c + t[i] + g[i]; g[i] = 1; }";
    for opt in ["-O0", "-O2"] {
        valid_spirv("constants", src, opt);
    }
}

/// Selects of whole vectors on one condition, of every element type and
/// width: `c ? a : b` of a scalar `c`, of vectors and of comparison
/// results, and a branch swapping two vectors (pyFAI's
/// `_merge_azimuthal`), which LLVM's optimiser makes selects of. SPIR-V
/// before 1.4 selects per component, from a condition with as many
/// components as the result; LLVM 22's back end writes the scalar
/// condition, and clc splats it (`codegen::emit`). From 1.4 on the scalar
/// condition is valid and stays.
#[test]
fn vector_selects_on_one_condition_have_a_condition_per_component() {
    for (t, env) in [("char", Some("opencl2.0")), ("ushort", Some("opencl2.0")), ("int", Some("opencl2.0")), ("long", Some("opencl2.0")), ("float", Some("opencl2.0")), ("double", Some("opencl2.0")), ("half", None)] {
        // spirv-val 2023.1 refuses the Float16 capability in OpenCL
        // environments: `half` is validated in its default one.
        let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
        for n in [2, 3, 4, 8, 16] {
            src += &format!(
                "kernel void k{n}(global {t}{n} *o, global const int *c) {{
                     {t}{n} a = o[0], b = o[1], x, y;
                     o[2] = c[0] ? a : b;
                     o[3] = c[1] > 3 ? a + b : a * b;
                     o[4] = as_{t}{n}(c[2] ? a < b : a > b);
                     if (a.s1 < b.s1) {{ x = b; y = a; }} else {{ x = a; y = b; }}
                     o[5] = x - y * y;
                 }}\n"
            );
        }
        for opt in ["-O0", "-O1", "-O2"] {
            let text = valid_spirv_for("select", &src, &["-cl-std=CL2.0", "--target=spirv64", opt], env);
            let selects = vector_selects(&text);
            if opt != "-O0" {
                assert!(selects.len() >= 5 * 4, "{t} {opt}: the shape under test, {} vector selects: {text}", selects.len());
            }
            assert!(selects.iter().all(|&(_, vector_condition)| vector_condition), "{t} {opt}: {selects:?}\n{text}");
        }
        let text = valid_spirv_for("select", &src, &["-cl-std=CL2.0", "--target=spirv64", "-O1", "-fspirv-version=1.4"], Some("spv1.4"));
        assert!(vector_selects(&text).iter().any(|&(_, vector_condition)| !vector_condition), "{t} 1.4: {text}");
    }
}

/// Shapes from darktable's kernels that LLVM 22's SPIR-V back end wrote
/// invalid: an image only passed on to another function (typed a `uchar`
/// pointer: "OpFunctionCall Argument ... does not match"), calls on
/// different images in a switch's cases (merged into one call on a phi of
/// pointers to images: "Expected Image to be of type OpTypeImage"), and a
/// splat of one lane of a loaded `float4` (a `<1 x float>` load:
/// "Illegal number of components (1) for TypeVector").
#[test]
fn images_through_calls_and_one_lane_splats_are_valid_spirv() {
    let src = "constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
               float lap(read_only image2d_t a, read_only image2d_t b, int x, int y, int w, int h) {
                   float c = 0.0f;
                   for (int j = 0; j < h; j++)
                       for (int i = 0; i < w; i++)
                           c += read_imagef(a, s, (int2)(x + i, y + j)).x * read_imagef(b, s, (int2)(x - i, y - j)).y + (float)(i * j);
                   return c - read_imagef(a, s, (int2)(x, y)).z;
               }
               float at(read_only image2d_t a, read_only image2d_t b, int i) {
                   return read_imagef(a, s, (int2)(i, 0)).x - read_imagef(b, s, (int2)(0, i)).y;
               }
               kernel void k(read_only image2d_t in, read_only image2d_t g0, read_only image2d_t g1, read_only image2d_t g2,
                             global float4 *o, global const float *w, int a, int lo) {
                   float2 lk[6];
                   for (int i = 0; i < 6; i++) { lk[i].x = w[i]; lk[i].y = w[i + 6]; }
                   float4 S = 0.0f;
                   for (int y = 0; y < a; y++)
                       for (int x = 0; x < a; x++)
                           S += read_imagef(in, s, (int2)(x, y)) * lk[x].x * lk[y].y;
                   float l0, l1, m;
                   switch (lo) {
                       case 0: l0 = lap(g0, g1, a, lo, 3, 3); l1 = lap(g1, g2, a, lo, 3, 3); m = at(g0, g1, a); break;
                       case 1: l0 = lap(g1, g2, a, lo, 3, 3); l1 = lap(g2, g0, a, lo, 3, 3); m = at(g1, g2, a); break;
                       default: l0 = lap(g2, g0, a, lo, 3, 3); l1 = lap(g0, g1, a, lo, 3, 3); m = at(g2, g0, a); break;
                   }
                   o[0] = S + l0 * l1 + m;
               }";
    for opt in ["-O0", "-O1", "-O2"] {
        // spirv-val's OpenCL environments before 2.2 take SPIR-V 1.0 only.
        for (version, env) in [("1.0", "opencl1.2"), ("1.2", "opencl2.2")] {
            let args = ["-cl-std=CL1.2", "--target=spirv64", opt, &format!("-fspirv-version={version}")];
            let text = valid_spirv_for("images", src, &args, Some(env));
            assert!(!text.contains("OpTypeVector %float 1"), "{opt}: {text}");
        }
    }
}

/// The OpSelects of vectors in a disassembled module, each with whether
/// its condition is a vector.
fn vector_selects(text: &str) -> Vec<(String, bool)> {
    let vectors: std::collections::HashSet<&str> = text.lines().filter(|l| l.contains("= OpTypeVector")).filter_map(|l| l.split_whitespace().next()).collect();
    let types: std::collections::HashMap<&str, &str> = text
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [id, "=", _, ty, ..] => Some((id, ty)),
            _ => None,
        })
        .collect();
    text.lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            // %r = OpSelect %type %condition %a %b
            [_, "=", "OpSelect", ty, condition, _, _] if vectors.contains(ty) => Some((l.trim().to_string(), types.get(condition).is_some_and(|c| vectors.contains(c)))),
            _ => None,
        })
        .collect()
}

/// `src` compiled by the `clc` binary (OpenCL C 2.0, spirv64, `opt`),
/// checked by `spirv-val` for OpenCL 2.0; its disassembly.
fn valid_spirv(name: &str, src: &str, opt: &str) -> String {
    valid_spirv_for(name, src, &["-cl-std=CL2.0", "--target=spirv64", opt], Some("opencl2.0"))
}

/// `src` compiled by the `clc` binary with `args`, checked by `spirv-val`
/// for the environment `env` (its default, SPIR-V 1.0, for `None`); its
/// disassembly.
fn valid_spirv_for(name: &str, src: &str, args: &[&str], env: Option<&str>) -> String {
    let dir = std::env::temp_dir().join(format!("clc-spirv-val-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.cl"));
    std::fs::write(&file, src).unwrap();
    let spv = dir.join(format!("{name}.spv"));
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(args).arg("-c").arg(&file).arg("-o").arg(&spv).output().unwrap();
    assert!(out.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let env_args = env.map(|e| vec!["--target-env", e]).unwrap_or_default();
    let val = Command::new("spirv-val").args(env_args).arg(&spv).output().expect("spirv-val (spirv-tools) is required");
    assert!(val.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&val.stderr));
    let dis = Command::new("spirv-dis").arg(&spv).output().expect("spirv-dis (spirv-tools) is required");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&dis.stdout).to_string()
}

/// `get_image_channel_order` of every image type and access qualifier is
/// an OpImageQueryOrder (LLVM 22 leaves a call of an import, which
/// `codegen::spirv_fixup` rewrites), plus OpenCL's `CLK_R` (4272), with
/// no import or Linkage capability left. spirv-val 2023.1 refuses the
/// Sampled1D and SampledBuffer capabilities in OpenCL environments (in
/// clang-22's modules too), so kernels of 1D images are validated in its
/// default one.
#[test]
fn channel_orders_are_image_queries() {
    let cl20_2d = ["read_only image2d_t", "write_only image2d_t", "read_write image2d_t", "read_only image3d_t", "write_only image3d_t", "read_write image2d_array_t", "read_only image2d_depth_t", "write_only image2d_array_depth_t"];
    let cl20_1d = ["read_only image1d_t", "write_only image1d_array_t", "read_write image1d_buffer_t"];
    let cl12_2d = ["read_only image2d_t", "write_only image2d_t", "read_only image3d_t", "read_only image2d_array_t"];
    let cl12_1d = ["read_only image1d_t", "write_only image1d_array_t", "read_only image1d_buffer_t"];
    let kernel = |images: &[&str]| {
        let params: Vec<String> = images.iter().enumerate().map(|(i, t)| format!("{t} i{i}")).collect();
        let body: String = (0..images.len()).map(|i| format!("o[{i}] = get_image_channel_order(i{i}); ")).collect();
        format!("kernel void k({}, global int *o) {{ {body}}}", params.join(", "))
    };
    let mut runs = Vec::new();
    for (target, opt) in [("--target=spirv64", "-O0"), ("--target=spirv64", "-O2"), ("--target=spirv32", "-O2")] {
        runs.push(([target, opt, "-cl-std=CL2.0"], &cl20_2d[..], Some("opencl2.0")));
        runs.push(([target, opt, "-cl-std=CL2.0"], &cl20_1d[..], None));
    }
    runs.push((["--target=spirv64", "-O2", "-cl-std=CL1.2"], &cl12_2d[..], Some("opencl1.2")));
    runs.push((["--target=spirv64", "-O2", "-cl-std=CL1.2"], &cl12_1d[..], None));
    for (args, images, env) in runs {
        let text = valid_spirv_for("order", &kernel(images), &args, env);
        assert_eq!(text.matches("= OpImageQueryOrder").count(), images.len(), "{args:?} {images:?}: {text}");
        assert!(text.contains("OpConstant %uint 4272"), "{args:?} {images:?}: {text}");
        assert!(!text.contains("LinkageAttributes") && !text.contains("OpCapability Linkage"), "{args:?} {images:?}: {text}");
    }
}

/// Async copies: OpGroupAsyncCopy's Event is a null of OpTypeEvent when
/// the program passes 0 (LLVM 22 wrote a null pointer, which Intel's
/// runtime refuses; `codegen::spirv_fixup` repairs it), a real event when
/// one is shared, and the stride is 64-bit (the plain copy becomes the
/// strided one with stride 1).
#[test]
fn async_copies_pass_events_and_64_bit_strides() {
    let src = "kernel void k(global const int *in, global int *out, local int *tmp) {
                   event_t e = async_work_group_copy(tmp, in, 64, 0);
                   wait_group_events(1, &e);
                   event_t f = async_work_group_strided_copy(out, tmp, 32, 2, 0);
                   f = async_work_group_strided_copy(out + 1, tmp + 32, 32, 2, f);
                   wait_group_events(1, &f);
               }";
    for opt in ["-O0", "-O2"] {
        let text = valid_spirv("async", src, opt);
        // `%id = OpTypeEvent`, `%id = OpConstantNull %event`.
        let defined = |what: &str| -> Vec<String> { text.lines().filter(|l| l.contains(what)).filter_map(|l| l.split_whitespace().next().map(str::to_string)).collect() };
        let event = defined("= OpTypeEvent");
        assert_eq!(event.len(), 1, "{opt}: {text}");
        let nulls = defined(&format!("= OpConstantNull {}", event[0]));
        let copies: Vec<Vec<&str>> = text.lines().filter(|l| l.contains("OpGroupAsyncCopy")).map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(copies.len(), 3, "{opt}: {text}");
        // %r = OpGroupAsyncCopy %type %scope %dst %src %num %stride %event
        for c in &copies {
            assert!(c[8].starts_with("%ulong"), "{opt}: a 64-bit stride: {c:?}");
        }
        assert!(nulls.iter().any(|n| n == copies[0][9]) && nulls.iter().any(|n| n == copies[1][9]), "{opt}: null events: {copies:?}\n{text}");
        // The shared event: the second copy's (through `f`'s variable at -O0).
        assert!(!nulls.iter().any(|n| n == copies[2][9]), "{opt}: the shared event: {copies:?}");
    }
}

/// Pipes beyond tests/spirv_exec/pipes.cl (which Intel's runtime runs):
/// sub-group reservations, pipe and reservation parameters of functions,
/// reservations merged by a phi, a kernel with unused pipes, a kernel
/// calling a kernel.
const PIPES_MORE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
typedef struct { int a; float b; char c; } P;
int take(read_only pipe P p, reserve_id_t r, global P *d) { return read_pipe(p, r, 0, d); }
kernel void k(read_only pipe P p, global P *d, int c) {
    reserve_id_t s;
    if (c > 3) s = reserve_read_pipe(p, 4); else s = work_group_reserve_read_pipe(p, 4);
    if (is_valid_reserve_id(s)) take(p, s, d + 1);
    reserve_id_t sg = sub_group_reserve_read_pipe(p, 1);
    if (is_valid_reserve_id(sg)) { read_pipe(p, sg, 0, d + 2); sub_group_commit_read_pipe(p, sg); }
}
kernel void w(write_only pipe float4 q, global float4 *src) {
    reserve_id_t r = sub_group_reserve_write_pipe(q, 2);
    if (is_valid_reserve_id(r)) { write_pipe(q, r, 1, src); sub_group_commit_write_pipe(q, r); }
    write_pipe(q, src + 1);
    src[2].x = get_pipe_num_packets(q) + get_pipe_max_packets(q);
}
kernel void unused(write_only pipe float4 q, read_only pipe char r) {}
kernel void calls(read_only pipe P p, global P *d, int c) { k(p, d, c); }
"#;

/// Pipes for every SPIR-V target, level and version: valid; every pipe
/// parameter an OpTypePipe of its access (LLVM's IR would have it a
/// pointer); every reservation an OpTypeReserveId (LLVM's a pointer) and
/// never an OpSelect's; SPIR-V 1.0 by default although LLVM 22 writes
/// pipes from 1.1 on only, without 1.1's MaxByteOffset; no imports.
#[test]
fn pipes_are_pipes_in_every_version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv_exec/pipes.cl");
    let dir = std::env::temp_dir().join(format!("clc-spirv-val-pipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let more = dir.join("more.cl");
    std::fs::write(&more, PIPES_MORE).unwrap();
    for file in [root.as_path(), more.as_path()] {
        for (target, opt, version, env) in [
            ("spirv64", "-O2", None, "opencl2.0"),
            ("spirv64", "-O0", None, "opencl2.0"),
            ("spirv32", "-O2", None, "opencl2.0"),
            ("spirv64", "-O2", Some("1.1"), "spv1.1"),
            ("spirv64", "-O0", Some("1.2"), "opencl2.2"),
        ] {
            let what = format!("{} {target} {opt} {version:?}", file.display());
            let spv = dir.join("p.spv");
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_clc"));
            cmd.args(["-cl-std=CL2.0", &format!("--target={target}"), opt, "-c"]);
            if let Some(v) = version {
                cmd.arg(format!("-fspirv-version={v}"));
            }
            let out = cmd.arg(file).arg("-o").arg(&spv).output().unwrap();
            assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
            let val = Command::new("spirv-val").args(["--target-env", env]).arg(&spv).output().expect("spirv-val (spirv-tools) is required");
            assert!(val.status.success(), "{what}: {}", String::from_utf8_lossy(&val.stderr));
            let dis = Command::new("spirv-dis").arg(&spv).output().expect("spirv-dis (spirv-tools) is required");
            let text = String::from_utf8_lossy(&dis.stdout);
            assert!(text.contains(&format!("; Version: {}", version.unwrap_or("1.0"))), "{what}: {text}");
            if version.is_none() {
                assert!(!text.contains("MaxByteOffset"), "{what}");
            }
            // id -> the instruction defining it.
            let defs: std::collections::HashMap<&str, &str> = text.lines().filter_map(|l| l.trim().split_once(" = ")).collect();
            let type_of = |id: &str| defs.get(id).copied().unwrap_or("");
            let pipes = text.lines().filter(|l| l.contains("OpFunctionParameter") && ["%p ", "%q ", "%r ", "%p_", "%q_", "%r_"].iter().any(|n| l.trim().starts_with(n)));
            let mut count = 0;
            for l in pipes {
                let ty = l.split_whitespace().last().unwrap();
                assert!(type_of(ty).starts_with("OpTypePipe"), "{what}: pipe parameter `{}` of type {}", l.trim(), type_of(ty));
                count += 1;
            }
            assert!(count >= 3, "{what}: {count} pipe parameters");
            let mut reservations = 0;
            for l in text.lines().filter(|l| l.contains("ReservePipePackets") || l.contains("ReserveReadPipePackets") || l.contains("ReserveWritePipePackets")) {
                let ty = l.split_whitespace().nth(3).unwrap();
                assert_eq!(type_of(ty), "OpTypeReserveId", "{what}: {}", l.trim());
                reservations += 1;
            }
            assert!(reservations >= 2, "{what}: {reservations} reservations");
            for l in text.lines().filter(|l| l.contains("OpSelect ") || l.contains("OpPhi ")) {
                let ty = l.split_whitespace().nth(3).unwrap();
                assert!(!(l.contains("OpSelect") && type_of(ty) == "OpTypeReserveId"), "{what}: {}", l.trim());
            }
            for l in text.lines().filter(|l| l.contains("LinkageAttributes") && l.ends_with("Import") && !l.contains("__spirv_BuiltIn")) {
                panic!("{what}: unresolved import: {}", l.trim());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reservations in memory (arrays of them, their addresses passed to a
/// function that stores one, copies between arrays by a run-time index,
/// an undefined one merged with a reservation): valid at every level, on
/// both SPIR-V targets; every load and store of one goes through a
/// pointer to OpTypeReserveId (LLVM's goes through a pointer to a pointer
/// type, and its loads give that pointer type).
#[test]
fn reservations_in_memory_are_valid_spirv() {
    let src = "static void put(reserve_id_t *r, read_only pipe int p) { *r = reserve_read_pipe(p, 1); }
               kernel void k(read_only pipe int p, global int *d, int i, int c) {
                   reserve_id_t a[2][3], b[4], u;
                   for (int j = 0; j < 6; j++) put(&a[j / 3][j % 3], p);
                   b[i & 3] = a[i & 1][c % 3];
                   if (c) u = b[i & 3];
                   if (c && is_valid_reserve_id(u)) read_pipe(p, u, 0, d);
                   for (int j = 0; j < 6; j++) commit_read_pipe(p, a[j / 3][j % 3]);
               }";
    for (target, opt) in [("spirv64", "-O0"), ("spirv64", "-O1"), ("spirv64", "-O2"), ("spirv32", "-O2"), ("spirv32", "-O0")] {
        let text = valid_spirv_for("reservations_in_memory", src, &["-cl-std=CL2.0", &format!("--target={target}"), opt], Some("opencl2.0"));
        let defs: std::collections::HashMap<&str, &str> = text.lines().filter_map(|l| l.trim().split_once(" = ")).collect();
        let type_of = |id: &str| defs.get(id).copied().unwrap_or("");
        let reserve_id = text.lines().find_map(|l| l.trim().strip_suffix(" = OpTypeReserveId")).unwrap_or_else(|| panic!("{target} {opt}: no OpTypeReserveId\n{text}"));
        let points_to_reservations = |pointer: &str| type_of(type_of(pointer).split_whitespace().nth(1).unwrap_or("")).ends_with(&format!(" {reserve_id}"));
        let mut accesses = 0;
        for l in text.lines().map(str::trim) {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words.as_slice() {
                [_, "=", "OpLoad", ty, pointer, ..] if *ty == reserve_id => {
                    assert!(points_to_reservations(pointer), "{target} {opt}: {l}");
                    accesses += 1;
                }
                ["OpStore", pointer, value, ..] if type_of(value).split_whitespace().nth(1) == Some(reserve_id) => {
                    assert!(points_to_reservations(pointer), "{target} {opt}: {l}");
                    accesses += 1;
                }
                _ => {}
            }
        }
        if opt == "-O0" {
            assert!(accesses >= 3, "{target} {opt}: {accesses} loads and stores of reservations\n{text}");
        }
    }
}

/// Blocks taking and returning structs: the invoke functions take a
/// pointer to the caller's copy and return through an sret pointer.
#[test]
fn blocks_pass_structs_by_pointer() {
    let src = "typedef struct { int a; float b; char c[3]; } S;
               kernel void k(global int *d, global S *s) {
                   int g = get_global_id(0);
                   int bias = d[g];
                   S (^mk)(int) = ^(int v) { S r = { v + bias, v * 0.5f, { 1, 2, 3 } }; return r; };
                   float (^get)(S, int) = ^(S x, int k) { x.a += 100; return x.b + x.a + k + x.c[2]; };
                   S t = mk(g);
                   s[g] = t;
                   d[g] = (int)get(t, 7) + t.a;
               }";
    for opt in ["-O0", "-O2"] {
        let text = valid_spirv("block_structs", src, opt);
        if opt == "-O0" {
            assert!(text.lines().filter(|l| l.contains("OpFunctionCall")).count() >= 2, "{text}");
        }
    }
}

/// Program-scope blocks, block variables initialized from others,
/// literals called where they are written and enqueued program-scope
/// blocks (each call a direct OpFunctionCall: SPIR-V has no function
/// pointers; these were 'not supported' or internal errors).
#[test]
fn program_scope_blocks_and_aliases_are_called_and_enqueued() {
    let src = "typedef int (^bl_t)(int);
               bl_t triple = ^(int x) { return 3 * x; };
               bl_t same = triple;
               global int staged[4];
               void (^stage)(void) = ^{ staged[get_global_id(0)] = triple((int)get_global_id(0)); };
               kernel void k(global int *o) {
                   int base = o[0];
                   bl_t add = ^(int x) { return x + base; };
                   bl_t alias = add;
                   o[1] = same(o[0]) + ^(int x) { return x * 7; }(o[0]) + alias(1) + ((bl_t)add)(2);
                   void (^copy)(void) = ^{ o[get_global_id(0)] = staged[get_global_id(0)]; };
                   void (^copy_again)(void) = copy;
                   clk_event_t e;
                   enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &e, stage);
                   enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &e, NULL, copy_again);
                   release_event(e);
               }";
    for target in ["--target=spirv64", "--target=spirv32"] {
        for opt in ["-O0", "-O2"] {
            let text = valid_spirv_for("program_scope_blocks", src, &["-cl-std=CL2.0", target, opt], Some("opencl2.0"));
            assert_eq!(text.lines().filter(|l| l.contains("OpEnqueueKernel")).count(), 2, "{target} {opt}: {text}");
        }
    }
}

/// A program-scope sampler whose initializer has a logical operator
/// (`A | B || C`, which is 1), a conditional or any other integer
/// constant expression is an OpConstantSampler of that value (they were
/// internal errors).
#[test]
fn sampler_initializers_fold_logical_operators() {
    let src = "__constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE || CLK_FILTER_NEAREST;
               __constant sampler_t t = (CLK_ADDRESS_REPEAT > 0) ? CLK_FILTER_LINEAR : CLK_FILTER_NEAREST;
               kernel void k(read_only image2d_t i, global float4 *o) { o[0] = read_imagef(i, s, (int2)(0)); }";
    let text = valid_spirv("sampler_logical", src, "-O2");
    assert!(text.contains("OpConstantSampler %spirv_Sampler None 1 Nearest"), "{text}");
    let text = valid_spirv("sampler_ternary", &src.replace("read_imagef(i, s,", "read_imagef(i, t,"), "-O2");
    assert!(text.contains("OpConstantSampler %spirv_Sampler None 0 Linear"), "{text}");
    // Any integer constant expression (here -14: the checker folds it).
    let odd = src.replace("CLK_ADDRESS_CLAMP_TO_EDGE || CLK_FILTER_NEAREST", "CLK_ADDRESS_CLAMP_TO_EDGE - CLK_FILTER_NEAREST");
    let text = valid_spirv("sampler_negative", &odd, "-O2");
    assert!(text.contains("OpConstantSampler %spirv_Sampler ClampToEdge 0 Linear"), "{text}");
}

/// More device-side enqueue than Intel's runtime runs: a select of events
/// (a branch: OpSelect takes no opaque type), retained and released
/// through a phi, the sub-group queries, an unused queue parameter and a
/// block enqueued from a function a kernel calls.
const ENQUEUE_MORE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
void spawn(global int *out, queue_t q) { enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), ^{ out[get_global_id(0)] = 1; }); }
kernel void more(global int *out, queue_t q, queue_t unused, int n) {
  clk_event_t evs[2];
  evs[0] = create_user_event();
  evs[1] = create_user_event();
  clk_event_t pick = (n & 1) ? evs[0] : evs[1];
  retain_event(pick);
  out[1] = is_valid_event(pick);
  release_event(pick);
  spawn(out, q);
  void (^blk)(local void *) = ^(local void *p) { ((local int *)p)[0] = n; };
  size_t g[3] = {2, 2, 2};
  ndrange_t nd = ndrange_3D(g, g);
  out[2] = get_kernel_sub_group_count_for_ndrange(nd, blk) + get_kernel_max_sub_group_size_for_ndrange(nd, blk);
  out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, nd, 2, evs, NULL, blk, (uint)n);
  release_event(evs[0]);
  release_event(evs[1]);
}
"#;

/// Device-side enqueue is SPIR-V's DeviceEnqueue instructions (LLVM 22
/// cannot lower it: `codegen::spirv_fixup::enqueue` turns clc's
/// placeholders into them): queues and events typed OpTypeQueue and
/// OpTypeDeviceEvent (kernel parameters too), each Invoke a function
/// named like clang's block kernels with a kernel of that name, no
/// placeholder or import left.
#[test]
fn device_side_enqueue_is_instructions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv_exec/enqueue.cl");
    let exec = std::fs::read_to_string(root).unwrap();
    for (src, kernels) in [(exec.as_str(), 5), (ENQUEUE_MORE, 2)] {
        for (target, opt) in [("--target=spirv64", "-O0"), ("--target=spirv64", "-O2"), ("--target=spirv32", "-O2"), ("--target=spirv32", "-O0")] {
            let args = [target, opt, "-cl-std=CL2.0"];
            let text = valid_spirv_for("enqueue", src, &args, Some("opencl2.0"));
            let what = format!("{args:?}");
            assert!(text.contains("OpCapability DeviceEnqueue"), "{what}: {text}");
            assert!(!text.contains("__clc_spirv_"), "{what}: a placeholder is left: {text}");
            for l in text.lines().filter(|l| l.contains("LinkageAttributes") && l.ends_with("Import") && !l.contains("__spirv_BuiltIn")) {
                panic!("{what}: unresolved import: {}", l.trim());
            }
            let defs: std::collections::HashMap<&str, &str> = text.lines().filter_map(|l| l.trim().split_once(" = ")).collect();
            let type_of = |id: &str| defs.get(id).copied().unwrap_or("");
            // The type of a value: its definition's result type's.
            let value_type = |id: &str| type_of(type_of(id).split_whitespace().nth(1).unwrap_or(""));
            // Each Invoke: an exported function with a kernel of its name.
            let enqueues: Vec<&str> = text.lines().filter(|l| l.contains("= OpEnqueueKernel ")).collect();
            assert!(!enqueues.is_empty(), "{what}: {text}");
            for l in &enqueues {
                let ops: Vec<&str> = l.split_whitespace().collect();
                // %r = OpEnqueueKernel %int %queue %flags %nd %n %wait %ret %invoke …
                assert_eq!(value_type(ops[4]), "OpTypeQueue", "{what}: {l}");
                let invoke = ops[10].trim_start_matches('%');
                assert!(invoke.contains("_block_invoke_") && invoke.ends_with("_kernel"), "{what}: {l}");
                assert!(text.lines().any(|e| e.contains("OpEntryPoint Kernel") && e.contains(&format!("\"{invoke}\""))), "{what}: no kernel {invoke}");
                assert!(!text.lines().any(|e| e.contains("OpEntryPoint Kernel") && e.contains(&format!("%{invoke} "))), "{what}: the Invoke {invoke} is an entry point");
            }
            let block_kernels = text.lines().filter(|e| e.contains("OpEntryPoint Kernel") && e.contains("_block_invoke_")).count();
            assert_eq!(block_kernels, kernels, "{what}: {text}");
            // Events: results, operands and phis are OpTypeDeviceEvent.
            for l in text.lines().filter(|l| l.contains("OpReleaseEvent") || l.contains("OpRetainEvent") || l.contains("OpIsValidEvent") || l.contains("OpSetUserEventStatus")) {
                let ops: Vec<&str> = l.split_whitespace().collect();
                let ev = if l.contains("OpIsValidEvent") { ops[4] } else { ops[1] };
                assert_eq!(value_type(ev), "OpTypeDeviceEvent", "{what}: {l} ({ev} = {})", type_of(ev));
            }
            for l in text.lines().filter(|l| l.contains("OpSelect ")) {
                let ty = l.split_whitespace().nth(3).unwrap();
                assert!(!matches!(type_of(ty), "OpTypeDeviceEvent" | "OpTypeQueue"), "{what}: {}", l.trim());
            }
            if src == ENQUEUE_MORE {
                assert!(text.contains("= OpGetKernelNDrangeSubGroupCount ") && text.contains("= OpGetKernelNDrangeMaxSubGroupSize "), "{what}");
                let queues = text.lines().filter(|l| l.contains("OpFunctionParameter") && type_of(l.split_whitespace().last().unwrap()) == "OpTypeQueue").count();
                assert!(queues >= 2, "{what}: {queues} queue parameters: {text}");
            } else {
                assert!(text.contains("= OpEnqueueMarker ") && text.contains("OpCaptureEventProfilingInfo") && text.contains("= OpGetKernelWorkGroupSize "), "{what}");
            }
        }
    }
}

/// LLVM 22's printf check looks a format's type up in the wrong
/// function: a kernel of two parameters calling printf and a function
/// defined after it failed at -O0 ("SPV_EXT_relaxed_printf_string_
/// address_space is required"). clc lets the back end use the extension
/// and drops it again: the format is a constant, the module needs none.
#[test]
fn printf_formats_stay_constants_whatever_follows() {
    let src = "void g(global int *p);\nkernel void k(global int *d, int n) { printf(\"%d\\n\", n); g(d); }\nvoid g(global int *p) { *p = 1; }\n";
    for args in [["--target=spirv64", "-O0", "-cl-std=CL2.0"], ["--target=spirv32", "-O0", "-cl-std=CL1.2"], ["--target=spirv64", "-O2", "-cl-std=CL2.0"]] {
        let env = if args[2] == "-cl-std=CL1.2" { "opencl1.2" } else { "opencl2.0" };
        let text = valid_spirv_for("printf_order", src, &args, Some(env));
        assert!(text.contains("printf"), "{args:?}: {text}");
        assert!(!text.contains("OpExtension"), "{args:?}: {text}");
    }
}

/// A private array of pointers indexed by constants only: LLVM 22's back
/// end typed its variable as one element (8 bytes for 24: Intel's runtime
/// then wrote past it) where clc indexed it with element GEPs; array
/// elements are addressed through the array's type on SPIR-V.
#[test]
fn private_arrays_of_pointers_keep_their_size() {
    let src = "kernel void k(global int *out, global int *a, global int *b, int n) {\n  global int *ps[3];\n  ps[0] = a; ps[1] = b; ps[2] = a;\n  global int *pick;\n  if (n) pick = ps[0]; else pick = ps[1];\n  out[0] = *pick;\n}\n";
    for args in [["--target=spirv64", "-O0", "-cl-std=CL2.0"], ["--target=spirv32", "-O0", "-cl-std=CL2.0"]] {
        let text = valid_spirv_for("pointer_array", src, &args, Some("opencl2.0"));
        let var = text.lines().find(|l| l.trim().starts_with("%ps = OpVariable")).unwrap_or_else(|| panic!("{args:?}: no %ps: {text}"));
        let ty = var.split_whitespace().nth(3).unwrap();
        let def = text.lines().find(|l| l.trim().starts_with(&format!("{ty} = "))).unwrap();
        let pointee = def.split_whitespace().last().unwrap();
        let pointee_def = text.lines().find(|l| l.trim().starts_with(&format!("{pointee} = "))).unwrap();
        assert!(pointee_def.contains("OpTypeArray"), "{args:?}: {var} -> {def} -> {pointee_def}");
    }
}

/// `event_t evs[N]`: LLVM 22 typed its variable as one OpTypeEvent (the
/// second event stored past it); `spirv_fixup` gives it its array type,
/// the lowering's mark gone from the name.
#[test]
fn event_arrays_keep_their_length() {
    let src = "kernel void k(global float *out, local float *buf, int i) {\n  event_t evs[3];\n  evs[0] = async_work_group_copy(buf, out, 4, 0);\n  evs[1] = async_work_group_copy(out + 4, buf, 4, 0);\n  evs[2] = async_work_group_copy(out + 8, buf, 4, 0);\n  wait_group_events(3, evs);\n  wait_group_events(1, &evs[i]);\n}\n";
    for args in [["--target=spirv64", "-O0", "-cl-std=CL2.0"], ["--target=spirv64", "-O2", "-cl-std=CL2.0"], ["--target=spirv32", "-O0", "-cl-std=CL1.2"]] {
        let env = if args[2] == "-cl-std=CL1.2" { "opencl1.2" } else { "opencl2.0" };
        let text = valid_spirv_for("event_array", src, &args, Some(env));
        assert!(!text.contains("__clc_events_"), "{args:?}: {text}");
        let defs: std::collections::HashMap<&str, &str> = text.lines().filter_map(|l| l.trim().split_once(" = ")).collect();
        let named = text.lines().find_map(|l| l.trim().strip_prefix("OpName ").and_then(|r| r.strip_suffix(" \"evs\""))).unwrap_or_else(|| panic!("{args:?}: no evs: {text}"));
        let var = defs[named];
        let ptr = defs[var.split_whitespace().nth(1).unwrap()];
        let array = defs[ptr.split_whitespace().last().unwrap()];
        assert!(array.starts_with("OpTypeArray"), "{args:?}: {named} = {var}; {ptr}; {array}");
        let (elem, len) = (array.split_whitespace().nth(1).unwrap(), array.split_whitespace().nth(2).unwrap());
        assert_eq!(defs[elem], "OpTypeEvent", "{args:?}");
        assert!(defs[len].ends_with(" 3"), "{args:?}: {}", defs[len]);
    }
}

/// Calls of functions another program defines, taking and returning
/// records, follow clang's SPIR convention (a `byval` pointer to a copy,
/// the result through an `sret` pointer; E0901 before), and a function
/// the program defines is exported with the same convention.
#[test]
fn external_functions_pass_records_by_pointer() {
    let src = "typedef struct { float x, y; int n; } P;
               typedef union { float f; uint u; } U;
               struct Big { long a, b, c; };
               P ext_scale(P p, float s);
               U ext_bits(U u, char c);
               struct Big ext_big(struct Big b, P p);
               P shift(P p, int k) { p.n += k; return p; }
               kernel void k(global P *ps, global uint *us, global long *ls) {
                   int g = get_global_id(0);
                   P p = ext_scale(ps[g], 2.0f);
                   U u = { .f = p.x };
                   us[g] = ext_bits(u, (char)g).u;
                   struct Big b = { g, 2, 3 };
                   ls[g] = ext_big(b, shift(p, 1)).c;
                   ps[g] = p;
               }";
    for (target, opt) in [("spirv64", "-O0"), ("spirv64", "-O2"), ("spirv32", "-O0"), ("spirv32", "-O2")] {
        let text = valid_spirv_for("ext_structs", src, &["-cl-std=CL2.0", &format!("--target={target}"), opt], Some("opencl2.0"));
        for f in ["ext_scale", "ext_bits", "ext_big"] {
            assert!(text.contains(&format!("LinkageAttributes \"{f}\" Import")), "{target} {opt}: {f} is not imported:\n{text}");
        }
        assert!(text.contains("LinkageAttributes \"shift\" Export"), "{target} {opt}:\n{text}");
        // The record arguments and results: ByVal and Sret parameters.
        assert!(text.lines().filter(|l| l.contains("FuncParamAttr ByVal")).count() >= 4, "{target} {opt}:\n{text}");
        assert!(text.lines().filter(|l| l.contains("FuncParamAttr Sret")).count() >= 4, "{target} {opt}:\n{text}");
    }
}
