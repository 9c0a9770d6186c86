//! Kernels compiled ahead of time: `clc -c`, linked into a shared object
//! by the system's C compiler driver, loaded by the runtime without LLVM.

use clc_runtime::{AddressingMode, Arg, Buffer, ChannelOrder, ChannelType, FilterMode, Image, ImageFormat, ImageType, NdRange, Program, Sampler};
use std::process::Command;

#[test]
fn a_program_compiled_ahead_of_time_loads_and_runs() {
    let dir = std::env::temp_dir().join(format!("clc-aot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.cl");
    std::fs::write(
        &src,
        "kernel void scale(global float *x, float s) { x[get_global_id(0)] *= s; }
         kernel void expo(global float *x) { size_t i = get_global_id(0); x[i] = exp(x[i]); }
         kernel void sum(global const int *in, global int *out, local int *tmp) {
             int l = get_local_id(0);
             tmp[l] = in[get_global_id(0)];
             barrier(CLK_LOCAL_MEM_FENCE);
             if (l == 0) { int t = 0; for (int i = 0; i < get_local_size(0); i++) t += tmp[i]; out[get_group_id(0)] = t; }
         }
         kernel void flip(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
             int2 p = (int2)(get_global_id(0), get_global_id(1));
             write_imageui(dst, p, read_imageui(src, s, (int2)(get_image_width(src) - 1 - p.x, p.y)) + 1);
         }",
    )
    .unwrap();
    let obj = dir.join("k.o");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-O2", "-c"]).arg(&src).arg("-o").arg(&obj).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let so = dir.join("libk.so");
    let link = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(&so).output().expect("cc (the C compiler driver Rust links with) is required");
    assert!(link.status.success(), "{}", String::from_utf8_lossy(&link.stderr));

    let p = Program::load(&so).unwrap();
    let names: Vec<&str> = p.kernels().iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["scale", "expo", "sum", "flip"]);
    assert_eq!(p.kernels()[0].args[1].type_name, "float");

    let x = Buffer::from_slice(&(0..1000).map(|i| i as f32).collect::<Vec<_>>());
    let mut k = p.kernel("scale").unwrap();
    k.set_arg(0, Arg::Buffer(&x)).unwrap();
    k.set_arg(1, Arg::value(0.5f32)).unwrap();
    k.launch(&NdRange::linear(1000)).unwrap();
    assert!(x.read::<f32>().iter().enumerate().all(|(i, &v)| v == i as f32 * 0.5));

    // A vectorised `exp` calls glibc's libmvec, which the object was not
    // linked with: `Program::load` makes it available.
    let xs: Vec<f32> = (0..999).map(|i| i as f32 / 100.0 - 5.0).collect();
    let x = Buffer::from_slice(&xs);
    let mut k = p.kernel("expo").unwrap();
    k.set_arg(0, Arg::Buffer(&x)).unwrap();
    k.launch(&NdRange::linear(xs.len())).unwrap();
    for (got, v) in x.read::<f32>().iter().zip(&xs) {
        let want = (*v as f64).exp();
        assert!((*got as f64 - want).abs() <= 4.0 * f32::EPSILON as f64 * want, "exp({v}) = {got} vs {want}");
    }
    let obj_syms = Command::new("nm").arg("-u").arg(&obj).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    if !obj_syms.is_empty() {
        assert!(obj_syms.contains("_ZGVbN4v_expf"), "the object does not call libmvec:\n{obj_syms}");
    }

    let input: Vec<i32> = (0..512).collect();
    let (bi, bo) = (Buffer::from_slice(&input), Buffer::new(4 * 8));
    let mut k = p.kernel("sum").unwrap();
    k.set_arg(0, Arg::Buffer(&bi)).unwrap();
    k.set_arg(1, Arg::Buffer(&bo)).unwrap();
    k.set_arg(2, Arg::Local(64 * 4)).unwrap();
    k.launch(&NdRange { dims: 1, global: [512, 1, 1], offset: [0; 3], local: Some([64, 1, 1]) }).unwrap();
    let sums = bo.read::<i32>();
    for (g, s) in sums.iter().enumerate() {
        assert_eq!(*s, input[g * 64..(g + 1) * 64].iter().sum::<i32>());
    }
    // Images: the descriptor carries the runtime's read and write
    // functions, so the shared object needs no runtime symbol.
    let fmt = ImageFormat::new(ChannelOrder::R, ChannelType::UnsignedInt8);
    let src = Image::from_bytes(ImageType::Image2d, fmt, &[4, 2], &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let dst = Image::new(ImageType::Image2d, fmt, &[4, 2]).unwrap();
    let mut k = p.kernel("flip").unwrap();
    k.set_arg(0, Arg::Image(&src)).unwrap();
    k.set_arg(1, Arg::Sampler(Sampler::new(false, AddressingMode::None, FilterMode::Nearest))).unwrap();
    k.set_arg(2, Arg::Image(&dst)).unwrap();
    k.launch(&NdRange { dims: 2, global: [4, 2, 1], offset: [0; 3], local: None }).unwrap();
    assert_eq!(dst.read_bytes(), [5, 4, 3, 2, 9, 8, 7, 6]);
    assert!(Program::load(dir.join("missing.so")).unwrap_err().to_string().contains("cannot load"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Math builtins compiled ahead of time call the C library (`erf`,
/// `sinl` for `sinpi`, …): the shared object links with `-lm`.
#[test]
fn math_builtins_compiled_ahead_of_time_link_with_the_c_library() {
    let dir = std::env::temp_dir().join(format!("clc-aot-math-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("m.cl");
    std::fs::write(
        &src,
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
         kernel void m(global const double *x, global double *o) {
             size_t i = get_global_id(0);
             double4 v = vload4(i, x);
             int4 s; double4 c;
             double4 r = erf(v) + lgamma_r(v, &s) + sinpi(v) + cbrt(v) + sincos(v, &c) + pown(v, (int4)3);
             vstore4(r + c + convert_double4(s), i, o);
         }",
    )
    .unwrap();
    let obj = dir.join("m.o");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-O2", "-c"]).arg(&src).arg("-o").arg(&obj).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let so = dir.join("libm_kernels.so");
    let link = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(&so).arg("-lm").output().expect("cc is required");
    assert!(link.status.success(), "{}", String::from_utf8_lossy(&link.stderr));
    let p = Program::load(&so).unwrap();
    let xs: Vec<f64> = (0..64).map(|i| 0.37 + i as f64 * 0.21).collect();
    let (bx, bo) = (Buffer::from_slice(&xs), Buffer::new(64 * 8));
    let mut k = p.kernel("m").unwrap();
    k.set_arg(0, Arg::Buffer(&bx)).unwrap();
    k.set_arg(1, Arg::Buffer(&bo)).unwrap();
    k.launch(&NdRange::linear(16)).unwrap();
    unsafe extern "C" {
        fn erf(x: f64) -> f64;
        fn lgamma_r(x: f64, sign: *mut i32) -> f64;
    }
    for (x, got) in xs.iter().zip(bo.read::<f64>()) {
        let mut sign = 0;
        // SAFETY: plain C library calls.
        let (e, lg) = unsafe { (erf(*x), lgamma_r(*x, &mut sign)) };
        let want = e + lg + (std::f64::consts::PI * x).sin() + x.cbrt() + x.sin() + x.powi(3) + x.cos() + f64::from(sign);
        assert!((got - want).abs() <= want.abs() * 1e-12, "{x}: {got} vs {want}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of several kernels compiles on several threads, each part to
/// its own object, joined into one (`codegen::split`): the object
/// defines the same symbols as one compiled whole, and kernels share the
/// program-scope variables, constants and helpers as they would.
#[test]
fn kernels_compiled_on_several_threads_share_one_program() {
    let dir = std::env::temp_dir().join(format!("clc-aot-jobs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("j.cl");
    std::fs::write(
        &src,
        "__global int counter = 5;
         __global float history[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
         __constant float coeffs[4] = { 0.5f, 0.25f, 2.0f, -1.0f };
         float poly(float x) { return ((coeffs[3] * x + coeffs[2]) * x + coeffs[1]) * x + coeffs[0]; }
         kernel void bump(global int *seen) { seen[get_global_id(0)] = atomic_add(&counter, 1); }
         kernel void read_counter(global int *out) { out[0] = counter; history[get_global_id(0) & 3] += 1.0f; }
         kernel void read_history(global float *out) { size_t i = get_global_id(0); if (i < 4) out[i] = history[i]; }
         kernel void eval(global const float *x, global float *y, uint n) { size_t i = get_global_id(0); if (i < n) y[i] = poly(x[i]); }
         kernel void eval2(global const float2 *x, global float2 *y) { size_t i = get_global_id(0); y[i] = (float2)(poly(x[i].x), poly(x[i].y)) * coeffs[1]; }
         kernel void scan(global const int *in, global int *out, local int *tmp) {
             int l = get_local_id(0);
             out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]) + counter;
         }",
    )
    .unwrap();
    let mut symbols = Vec::new();
    for jobs in ["1", "2"] {
        let obj = dir.join(format!("j{jobs}.o"));
        let out = Command::new(env!("CARGO_BIN_EXE_clc")).env("CLC_JOBS", jobs).args(["-O2", "-c"]).arg(&src).arg("-o").arg(&obj).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // Defined symbols but the assembler's local labels.
        let nm = Command::new("nm").arg("--defined-only").arg(&obj).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
        let mut defined: Vec<String> = nm.lines().filter_map(|l| l.split_whitespace().last()).filter(|n| !n.starts_with(".L")).map(str::to_string).collect();
        defined.sort();
        symbols.push(defined);
        let so = dir.join(format!("libj{jobs}.so"));
        let link = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(&so).output().expect("cc is required");
        assert!(link.status.success(), "{}", String::from_utf8_lossy(&link.stderr));
        let p = Program::load(&so).unwrap();
        let names: Vec<&str> = p.kernels().iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["bump", "read_counter", "read_history", "eval", "eval2", "scan"], "jobs {jobs}");

        let seen = Buffer::new(4 * 64);
        let mut k = p.kernel("bump").unwrap();
        k.set_arg(0, Arg::Buffer(&seen)).unwrap();
        k.launch(&NdRange::linear(64)).unwrap();
        let mut s = seen.read::<i32>();
        s.sort();
        assert_eq!(s, (5..69).collect::<Vec<i32>>(), "jobs {jobs}: every work-item's atomic_add saw a distinct old value");
        let out = Buffer::new(4);
        let mut k = p.kernel("read_counter").unwrap();
        k.set_arg(0, Arg::Buffer(&out)).unwrap();
        k.launch(&NdRange { dims: 1, global: [4, 1, 1], offset: [0; 3], local: Some([1, 1, 1]) }).unwrap();
        assert_eq!(out.read::<i32>(), [69], "jobs {jobs}: the counter one kernel wrote, read by another");
        let h = Buffer::new(16);
        let mut k = p.kernel("read_history").unwrap();
        k.set_arg(0, Arg::Buffer(&h)).unwrap();
        k.launch(&NdRange::linear(4)).unwrap();
        assert_eq!(h.read::<f32>(), [2.0, 3.0, 4.0, 5.0], "jobs {jobs}");

        let poly = |x: f32| ((-1.0f32 * x + 2.0) * x + 0.25) * x + 0.5;
        let xs: Vec<f32> = (0..100).map(|i| i as f32 * 0.1 - 3.0).collect();
        let (bx, by) = (Buffer::from_slice(&xs), Buffer::from_slice(&[0f32; 100]));
        let mut k = p.kernel("eval").unwrap();
        k.set_arg(0, Arg::Buffer(&bx)).unwrap();
        k.set_arg(1, Arg::Buffer(&by)).unwrap();
        k.set_arg(2, Arg::value(90u32)).unwrap();
        k.launch(&NdRange::linear(100)).unwrap();
        for (i, (x, y)) in xs.iter().zip(by.read::<f32>()).enumerate() {
            let want = if i < 90 { poly(*x) } else { 0.0 };
            assert!((y - want).abs() <= 1e-4 * want.abs().max(1.0), "jobs {jobs}: eval({x}) = {y}, want {want}");
        }
        let by2 = Buffer::from_slice(&[0f32; 100]);
        let mut k = p.kernel("eval2").unwrap();
        k.set_arg(0, Arg::Buffer(&bx)).unwrap();
        k.set_arg(1, Arg::Buffer(&by2)).unwrap();
        k.launch(&NdRange::linear(50)).unwrap();
        for (x, y) in xs.iter().zip(by2.read::<f32>()) {
            let want = poly(*x) * 0.25;
            assert!((y - want).abs() <= 1e-4 * want.abs().max(1.0), "jobs {jobs}: eval2({x}) = {y}, want {want}");
        }
        let input: Vec<i32> = (0..64).map(|i| i % 7 - 3).collect();
        let (bi, bo) = (Buffer::from_slice(&input), Buffer::new(4 * 64));
        let mut k = p.kernel("scan").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Local(64)).unwrap();
        k.launch(&NdRange { dims: 1, global: [64, 1, 1], offset: [0; 3], local: Some([16, 1, 1]) }).unwrap();
        for (i, v) in bo.read::<i32>().iter().enumerate() {
            let g = i / 16 * 16;
            assert_eq!(*v, input[g..=i].iter().sum::<i32>() + 69, "jobs {jobs}: scan at {i}");
        }
    }
    assert_eq!(symbols[0], symbols[1], "one object or joined parts: the same symbols");
    assert!(symbols[0].iter().any(|s| s == "counter") && symbols[0].iter().any(|s| s == "coeffs"), "{:?}", symbols[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Compiles corpus file `name` (one kernel) with `clc -O2 -c` on `jobs`
/// threads into a shared object in `dir`: the program, and the outlined
/// functions the object defines (`__clc_wg_<kernel>.<loop>`).
fn build_with_jobs(dir: &std::path::Path, name: &str, jobs: &str) -> (Program, Vec<String>) {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let src = corpus.join("valid").join(format!("{name}.cl"));
    let obj = dir.join(format!("{name}{jobs}.o"));
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).env("CLC_JOBS", jobs).args(["-O2", "-c", "-I"]).arg(corpus.join("include")).arg(&src).arg("-o").arg(&obj).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let nm = Command::new("nm").arg("--defined-only").arg(&obj).output().expect("nm (binutils) is required");
    let outlined = String::from_utf8_lossy(&nm.stdout).lines().filter_map(|l| l.split_whitespace().last()).filter(|s| s.starts_with("__clc_wg_") && s.contains('.')).map(str::to_string).collect();
    let so = dir.join(format!("lib{name}{jobs}.so"));
    let link = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(&so).arg("-lm").output().expect("cc is required");
    assert!(link.status.success(), "{}", String::from_utf8_lossy(&link.stderr));
    (Program::load(&so).unwrap(), outlined)
}

/// One kernel lowered in regions, compiled on two threads: its loops are
/// outlined and compiled apart (`codegen::outline`), and the results are
/// those of the kernel compiled whole on one thread, and of Rust. The
/// kernels are the corpus's N-body step (local tiles, barriers in a
/// group-level loop) and work-group functions.
#[test]
fn a_kernel_in_regions_compiled_on_two_threads_computes_the_same() {
    let dir = std::env::temp_dir().join(format!("clc-aot-outline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Bodies with masses, positions and velocities from a simple formula;
    // the kernel's softening is 1e-3 squared.
    let n = 256usize;
    let pos: Vec<[f32; 4]> = (0..n).map(|i| [(i % 16) as f32 * 0.5, (i / 16) as f32 * 0.25, (i % 7) as f32 * 0.1, 1.0 + (i % 3) as f32]).collect();
    let vel0: Vec<[f32; 4]> = (0..n).map(|i| [0.01 * i as f32, 0.0, -0.02, 0.0]).collect();
    let dt = 0.01f32;
    let want_pos: Vec<[f32; 4]> = (0..n)
        .map(|i| {
            let p = pos[i];
            let mut acc = [0f64; 3];
            for q in &pos {
                let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
                let inv = 1.0 / ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) as f64 + 1e-6).sqrt();
                for k in 0..3 {
                    acc[k] += d[k] as f64 * q[3] as f64 * inv * inv * inv;
                }
            }
            let v: Vec<f64> = (0..3).map(|k| vel0[i][k] as f64 + acc[k] * dt as f64).collect();
            [(p[0] as f64 + v[0] * dt as f64) as f32, (p[1] as f64 + v[1] * dt as f64) as f32, (p[2] as f64 + v[2] * dt as f64) as f32, p[3]]
        })
        .collect();
    let input: Vec<i32> = (0..96).map(|i| (i * 7919) % 23 - 9).collect();
    for jobs in ["1", "2"] {
        let (p, outlined) = build_with_jobs(&dir, "052_nbody", jobs);
        assert_eq!(outlined.is_empty(), jobs == "1", "jobs {jobs}: outlined {outlined:?}");
        let flat = |v: &[[f32; 4]]| v.iter().flatten().copied().collect::<Vec<f32>>();
        let (bp, bo, bv) = (Buffer::from_slice(&flat(&pos)), Buffer::new(16 * n), Buffer::from_slice(&flat(&vel0)));
        let mut k = p.kernel("nbody_step").unwrap();
        k.set_arg(0, Arg::Buffer(&bp)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Buffer(&bv)).unwrap();
        k.set_arg(3, Arg::value(n as i32)).unwrap();
        k.set_arg(4, Arg::value(dt)).unwrap();
        k.set_arg(5, Arg::Local(64 * 16)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([64, 1, 1]) }).unwrap();
        for (i, (got, want)) in bo.read::<f32>().chunks(4).zip(&want_pos).enumerate() {
            for c in 0..4 {
                assert!((got[c] - want[c]).abs() <= 1e-3 * want[c].abs().max(1.0), "jobs {jobs}: body {i}.{c}: {} vs {}", got[c], want[c]);
            }
        }

        let (p, outlined) = build_with_jobs(&dir, "043_work_group_functions", jobs);
        assert_eq!(outlined.is_empty(), jobs == "1", "jobs {jobs}: outlined {outlined:?}");
        let (bi, bo, bf) = (Buffer::from_slice(&input), Buffer::new(4 * 96), Buffer::new(4 * 96));
        let mut k = p.kernel("wg_functions").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Buffer(&bf)).unwrap();
        k.launch(&NdRange { dims: 1, global: [96, 1, 1], offset: [0; 3], local: Some([32, 1, 1]) }).unwrap();
        let (out, fout) = (bo.read::<i32>(), bf.read::<f32>());
        for g in 0..96 {
            let (group, l) = (&input[g / 32 * 32..(g / 32 + 1) * 32], g % 32);
            let (sum, mn, mx) = (group.iter().sum::<i32>(), *group.iter().min().unwrap(), *group.iter().max().unwrap());
            let (incl, excl): (i32, i32) = (group[..=l].iter().sum(), group[..l].iter().sum());
            let smax = *group[..=l].iter().max().unwrap();
            let (anyneg, allpos) = (group.iter().any(|&x| x < 0) as i32, group.iter().all(|&x| x > 0) as i32);
            // Then the enqueued local size (32), the global and local
            // linear ids, the dimensions (1), the groups (3), the offset.
            let want = sum + mn + mx + incl + excl + smax + group[0] + anyneg + allpos + 32 + g as i32 + l as i32 + 1 + 3;
            assert_eq!(out[g], want, "jobs {jobs}: work-item {g}");
            assert_eq!(fout[g], sum as f32, "jobs {jobs}: work-item {g}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The corpus's tiled SGEMM on two threads: its tile loop (a group-level
/// loop around the tiles' loads and the products) is most of the kernel,
/// so the loops inside it are outlined too (`codegen::split::outline`);
/// the product is Rust's, as compiled whole on one thread. Sizes that are
/// not multiples of the tile leave partial tiles at the borders.
#[test]
fn a_tiled_kernel_compiled_on_two_threads_outlines_the_loops_in_its_tile_loop() {
    let dir = std::env::temp_dir().join(format!("clc-aot-tiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (m, n, k) = (40usize, 36usize, 50usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7919) % 101) as f32 * 0.01 - 0.5).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 104729) % 97) as f32 * 0.01 - 0.4).collect();
    for jobs in ["1", "2"] {
        let (p, outlined) = build_with_jobs(&dir, "047_sgemm_tiled", jobs);
        if jobs == "1" {
            assert!(outlined.is_empty(), "{outlined:?}");
        } else {
            // The tile loop, and loops outlined from it (its name, a dot,
            // the loop's block).
            let tile = outlined.iter().find(|f| f.starts_with("__clc_wg_sgemm_tiled.g.loop")).unwrap_or_else(|| panic!("{outlined:?}"));
            assert!(outlined.iter().any(|f| f.len() > tile.len() && f.starts_with(&format!("{tile}."))), "{outlined:?}");
        }
        let (ba, bb, bc) = (Buffer::from_slice(&a), Buffer::from_slice(&b), Buffer::from_slice(&vec![f32::NAN; m * n]));
        let mut kern = p.kernel("sgemm_tiled").unwrap();
        for (i, v) in [m, n, k].into_iter().enumerate() {
            kern.set_arg(i, Arg::value(v as i32)).unwrap();
        }
        kern.set_arg(3, Arg::Buffer(&ba)).unwrap();
        kern.set_arg(4, Arg::Buffer(&bb)).unwrap();
        kern.set_arg(5, Arg::Buffer(&bc)).unwrap();
        kern.launch(&NdRange { dims: 2, global: [48, 48, 1], offset: [0; 3], local: Some([16, 16, 1]) }).unwrap();
        let got = bc.read::<f32>();
        for r in 0..m {
            for c in 0..n {
                let want: f64 = (0..k).map(|x| a[r * k + x] as f64 * b[x * n + c] as f64).sum();
                assert!((got[r * n + c] as f64 - want).abs() <= 1e-4 * want.abs().max(1.0), "jobs {jobs}: C[{r}][{c}] = {} vs {want}", got[r * n + c]);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two kernels on two threads, the heavier one lowered in regions (the
/// corpus's 3-D stencil and tiled 2-D Jacobi step with a barrier): the
/// Jacobi kernel's loops are outlined and compiled on whichever thread is
/// free, beside the stencil compiled whole (`codegen::split`); both
/// compute what Rust computes, as compiled on one thread.
#[test]
fn a_kernel_in_regions_beside_another_compiled_on_two_threads_computes_the_same() {
    let dir = std::env::temp_dir().join(format!("clc-aot-beside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (nx, ny, nz) = (11usize, 9usize, 7usize);
    let cube: Vec<f32> = (0..nx * ny * nz).map(|i| ((i * 37) % 101) as f32 * 0.125 - 3.0).collect();
    let (c0, c1) = (0.5f32, 0.0625f32);
    let at = |x: usize, y: usize, z: usize| cube[(z * ny + y) * nx + x];
    let (w, h) = (40usize, 35usize);
    let plane: Vec<f32> = (0..w * h).map(|i| ((i * 53) % 97) as f32 * 0.25 - 7.0).collect();
    for jobs in ["1", "2"] {
        let (p, outlined) = build_with_jobs(&dir, "061_stencil_3d", jobs);
        if jobs == "1" {
            assert!(outlined.is_empty(), "{outlined:?}");
        } else {
            assert!(!outlined.is_empty() && outlined.iter().all(|f| f.starts_with("__clc_wg_jacobi2d.")), "jobs {jobs}: outlined {outlined:?}");
        }

        let (bi, bo) = (Buffer::from_slice(&cube), Buffer::from_slice(&vec![0f32; cube.len()]));
        let mut k = p.kernel("stencil7").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        for (a, v) in [(2, nx), (3, ny), (4, nz)] {
            k.set_arg(a, Arg::value(v as i32)).unwrap();
        }
        k.set_arg(5, Arg::value(c0)).unwrap();
        k.set_arg(6, Arg::value(c1)).unwrap();
        k.launch(&NdRange { dims: 3, global: [nx, ny, nz], offset: [0; 3], local: Some([4, 3, 7]) }).unwrap();
        let out = bo.read::<f32>();
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    let inner = x >= 1 && y >= 1 && z >= 1 && x < nx - 1 && y < ny - 1 && z < nz - 1;
                    let want = if inner {
                        c0 * at(x, y, z) + c1 * (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) + at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1))
                    } else {
                        0.0
                    };
                    let got = out[(z * ny + y) * nx + x];
                    assert!((got - want).abs() <= 1e-5 * want.abs().max(1.0), "jobs {jobs}: stencil7 at ({x}, {y}, {z}): {got} vs {want}");
                }
            }
        }

        let (bi, bo) = (Buffer::from_slice(&plane), Buffer::from_slice(&vec![0f32; w * h]));
        let mut k = p.kernel("jacobi2d").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::value(w as i32)).unwrap();
        k.set_arg(3, Arg::value(h as i32)).unwrap();
        k.launch(&NdRange { dims: 2, global: [48, 48, 1], offset: [0; 3], local: Some([16, 16, 1]) }).unwrap();
        let out = bo.read::<f32>();
        let px = |x: usize, y: usize| plane[y * w + x];
        for y in 0..h {
            for x in 0..w {
                let want = 0.25 * (px(x.saturating_sub(1), y) + px((x + 1).min(w - 1), y) + px(x, y.saturating_sub(1)) + px(x, (y + 1).min(h - 1)));
                let got = out[y * w + x];
                assert!((got - want).abs() <= 1e-5 * want.abs().max(1.0), "jobs {jobs}: jacobi2d at ({x}, {y}): {got} vs {want}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pipes compiled ahead of time: the lowering claims packets inline and
/// the runtime folds the claims in after the launch, so the shared object
/// needs no runtime symbol; a work-group reservation between barriers
/// (the region lowering) next to a consumer in one object.
#[test]
fn pipe_kernels_compiled_ahead_of_time() {
    let dir = std::env::temp_dir().join(format!("clc-aot-pipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("p.cl");
    std::fs::write(
        &src,
        "typedef struct { long id; float4 v; } Item;
         kernel void produce(write_only pipe Item p, local int *tmp) {
             int l = get_local_id(0);
             tmp[l] = get_global_id(0);
             barrier(CLK_LOCAL_MEM_FENCE);
             reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
             if (is_valid_reserve_id(r)) {
                 Item it = { tmp[get_local_size(0) - 1 - l], (float4)(l, 1, 2, 3) };
                 write_pipe(p, r, l, &it);
             }
             work_group_commit_write_pipe(p, r);
         }
         kernel void consume(read_only pipe Item p, global long *ids, global float *sums) {
             Item it = { -1, (float4)(0) };
             read_pipe(p, &it);
             size_t g = get_global_id(0);
             ids[g] = it.id;
             sums[g] = it.v.x + it.v.y + it.v.z + it.v.w;
         }",
    )
    .unwrap();
    let obj = dir.join("p.o");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-O2", "-c"]).arg(&src).arg("-o").arg(&obj).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let so = dir.join("libp.so");
    let link = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(&so).output().expect("cc is required");
    assert!(link.status.success(), "{}", String::from_utf8_lossy(&link.stderr));
    let p = Program::load(&so).unwrap();
    let pipe = clc_runtime::Pipe::new(32, 256).unwrap();
    let mut k = p.kernel("produce").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Local(4 * 50)).unwrap();
    k.launch(&NdRange { dims: 1, global: [200, 1, 1], offset: [0; 3], local: Some([50, 1, 1]) }).unwrap();
    assert_eq!(pipe.len().unwrap(), 200);
    let (ids, sums) = (Buffer::new(8 * 210), Buffer::new(4 * 210));
    let mut k = p.kernel("consume").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&ids)).unwrap();
    k.set_arg(2, Arg::Buffer(&sums)).unwrap();
    k.launch(&NdRange::linear(210)).unwrap();
    let mut got: Vec<(i64, f32)> = ids.read::<i64>().into_iter().zip(sums.read::<f32>()).collect();
    got.sort_by_key(|g| g.0);
    // Ten readers find the pipe empty; the others get each packet once:
    // work-item l of group g wrote id 50 g + 49 - l with lanes (l, 1, 2, 3).
    assert!(got[..10].iter().all(|&(id, s)| id == -1 && s == 0.0), "{:?}", &got[..10]);
    for (i, &(id, s)) in got[10..].iter().enumerate() {
        assert_eq!(id, i as i64);
        assert_eq!(s, (49 - i % 50) as f32 + 6.0, "packet {i}");
    }
    assert!(pipe.is_empty().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Records by value between programs (`tests/interop`): `def.cl` and
/// `caller.cl` compiled by clc as two programs, each linked into a shared
/// object of its own, the caller's against the definitions'. Rust calls
/// the definitions too, with `repr(C)` records (the platform's C ABI as
/// rustc implements it), so both sides are checked against the C ABI, not
/// only against each other; all three agree with values computed here.
#[cfg(target_arch = "x86_64")]
#[test]
fn records_by_value_between_programs_follow_the_c_abi() {
    use std::arch::x86_64::{__m128, _mm_setr_ps, _mm_storeu_ps};
    #[repr(C)]
    struct F2 {
        x: f32,
        y: f32,
    }
    #[repr(C)]
    struct FI {
        a: f32,
        b: i32,
    }
    #[repr(C)]
    struct F3 {
        a: f32,
        b: f32,
        c: f32,
    }
    #[repr(C)]
    struct DI {
        d: f64,
        i: i32,
    }
    #[repr(C)]
    struct B24 {
        a: i64,
        b: i64,
        c: i64,
    }
    #[repr(C, packed)]
    struct Pk {
        c: i8,
        i: i32,
    }
    #[repr(C)]
    union U {
        f: f32,
        i: i32,
    }
    #[repr(C)]
    struct AC {
        c: [i8; 5],
    }
    #[repr(C)]
    struct V4 {
        v: __m128,
    }
    // OpenCL's float2: 8 bytes, aligned to 8.
    #[repr(C, align(8))]
    struct Float2([f32; 2]);
    #[repr(C)]
    struct V2F {
        v: Float2,
        x: f32,
    }
    #[repr(C)]
    struct C3 {
        a: i8,
        b: i8,
        c: i8,
    }
    const N: usize = 32;
    let dir = std::env::temp_dir().join(format!("clc-aot-interop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    for (name, lib, link) in [("def", "libdef.so", vec![]), ("caller", "libcaller.so", vec!["-L".to_string(), dir.display().to_string(), "-ldef".into(), format!("-Wl,-rpath,{}", dir.display())])] {
        let obj = dir.join(format!("{name}.o"));
        let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-O2", "-c"]).arg(src.join(format!("{name}.cl"))).arg("-o").arg(&obj).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let so = Command::new("cc").arg("-shared").arg(&obj).arg("-o").arg(dir.join(lib)).args(&link).output().expect("cc is required");
        assert!(so.status.success(), "{}", String::from_utf8_lossy(&so.stderr));
    }

    // Every field of every result for work-item `n`, as `caller.cl`
    // writes them.
    let expected = |n: i64| -> [i64; 24] {
        let mut o = [0i64; 24];
        o[0] = 2 * n + (n + 1) + (n + 2) + (n + 3) + (n + 4) + (n + 5);
        o[1] = (n + 6) + 2 * (n + 7) + 3 * (n + 8) + (n + 9) + (n + 10) + (n + 11);
        o[2] = (n + n + 12) + (n + 13) + (n + 14) + (n + 15) + (n + 16) + (3 * n + 54) + (n + 20);
        o[3] = n + 2 + 6 + 12 + 20 + 6 * (n + 3) + 7 * (n + 5) + 8 * (n + 10) + 9 * (n + 21) + (n + 2) + (n + 4) + (n + 9);
        o[4] = (n + 6) + n + 1;
        o[5] = (n + 7) * 2 + 3;
        o[6] = (n + 8) - 4 + (n + 3) + (n + 2);
        o[7] = 2 * (n + 4) + n + 2;
        o[8] = (n + 5) + (n + 3);
        o[9] = n + 10;
        o[10] = 3 * (n + 10);
        o[11] = (n + 12) + 256 * (n + 4);
        o[12] = (n + 19) + 256 * (n + 17) + 65536 * (2 * (n + 18));
        o[13] = n + 15;
        o[14] = 0;
        o[15] = n + 16;
        o[16] = n + 15;
        o[17] = n + 17;
        o[18] = (n + 11) ^ 0x5a5a;
        o[19] = n + 3;
        o[20] = n + 2;
        o[21] = 1;
        o[22] = 2 * n + 1;
        // ov(b, &o[1]) reads o[1] (its low half); ov(e, &q).
        o[23] = 3 * (n + 3) + o[1] + (n + 10) + 5 * (n + 22);
        o
    };

    // The definitions called from Rust.
    // SAFETY: `libdef.so` is clc's output for `def.cl`, whose functions
    // have the C types declared here.
    let direct = unsafe {
        let lib = libloading::Library::new(dir.join("libdef.so")).unwrap();
        let mix: libloading::Symbol<unsafe extern "C" fn(F2, FI, DI, B24, Pk, U, AC, V4, V2F, C3, i8) -> F3> = lib.get(b"abi_mix\0").unwrap();
        let spill: libloading::Symbol<unsafe extern "C" fn(i64, i64, i64, i64, i64, FI, DI, Pk, i64) -> i64> = lib.get(b"abi_spill\0").unwrap();
        let big: libloading::Symbol<unsafe extern "C" fn(B24, i64, i64, i64, i64, i64, FI) -> B24> = lib.get(b"abi_big\0").unwrap();
        let di: libloading::Symbol<unsafe extern "C" fn(DI, FI) -> DI> = lib.get(b"abi_di\0").unwrap();
        let pk: libloading::Symbol<unsafe extern "C" fn(Pk) -> Pk> = lib.get(b"abi_pk\0").unwrap();
        let ac: libloading::Symbol<unsafe extern "C" fn(AC) -> AC> = lib.get(b"abi_ac\0").unwrap();
        let c3: libloading::Symbol<unsafe extern "C" fn(C3) -> C3> = lib.get(b"abi_c3\0").unwrap();
        let v2f: libloading::Symbol<unsafe extern "C" fn(V2F) -> V2F> = lib.get(b"abi_v2f\0").unwrap();
        let v4: libloading::Symbol<unsafe extern "C" fn(V4) -> V4> = lib.get(b"abi_v4\0").unwrap();
        let un: libloading::Symbol<unsafe extern "C" fn(U) -> U> = lib.get(b"abi_un\0").unwrap();
        let fi: libloading::Symbol<unsafe extern "C" fn(FI) -> FI> = lib.get(b"abi_fi\0").unwrap();
        let f2: libloading::Symbol<unsafe extern "C" fn(F2) -> F2> = lib.get(b"abi_f2\0").unwrap();
        // The overloads, under clang-22's names for them.
        let ov_global: libloading::Symbol<unsafe extern "C" fn(FI, *const i32) -> i32> = lib.get(b"_Z2ov2FIPU8CLglobalKi\0").unwrap();
        let ov_generic: libloading::Symbol<unsafe extern "C" fn(Pk, *const i32) -> i32> = lib.get(b"_Z2ov2PkPU9CLgenerici\0").unwrap();
        let lanes = |v: __m128| {
            let mut l = [0f32; 4];
            _mm_storeu_ps(l.as_mut_ptr(), v);
            l
        };
        (0..N as i64)
            .map(|n| {
                let nf = n as f32;
                let a = || F2 { x: nf, y: nf + 1.0 };
                let b = || FI { a: nf + 2.0, b: n as i32 + 3 };
                let c = || DI { d: n as f64 + 4.0, i: n as i32 + 5 };
                let d = || B24 { a: n + 6, b: n + 7, c: n + 8 };
                let e = || Pk { c: n as i8 + 9, i: n as i32 + 10 };
                let f = || U { i: n as i32 + 11 };
                let g = || AC { c: [n as i8, 1, 2, 3, n as i8 + 12] };
                let h = || V4 { v: _mm_setr_ps(nf + 13.0, 0.0, 0.0, nf + 14.0) };
                let v = || V2F { v: Float2([0.0, nf + 15.0]), x: nf + 16.0 };
                let j = || C3 { a: n as i8 + 17, b: n as i8 + 18, c: n as i8 + 19 };
                let mut o = [0i64; 24];
                let m = mix(a(), b(), c(), d(), e(), f(), g(), h(), v(), j(), n as i8 + 20);
                (o[0], o[1], o[2]) = (m.a as i64, m.b as i64, m.c as i64);
                o[3] = spill(n, 1, 2, 3, 4, b(), c(), e(), n + 21);
                let r = big(d(), n, 1, 2, 3, 4, b());
                (o[4], o[5], o[6]) = (r.a, r.b, r.c);
                let rd = di(c(), b());
                (o[7], o[8]) = (rd.d as i64, rd.i as i64);
                let rp = pk(e());
                (o[9], o[10]) = (rp.c as i64, { rp.i } as i64);
                let rg = ac(g());
                o[11] = rg.c[0] as i64 + 256 * rg.c[4] as i64;
                let rj = c3(j());
                o[12] = rj.a as i64 + 256 * rj.b as i64 + 65536 * rj.c as i64;
                let rv = v2f(v());
                (o[13], o[14], o[15]) = (rv.v.0[0] as i64, rv.v.0[1] as i64, rv.x as i64);
                let rh = lanes(v4(h()).v);
                (o[16], o[17]) = (rh[0] as i64, rh[3] as i64);
                o[18] = un(f()).i as i64;
                let rb = fi(b());
                (o[19], o[20]) = (rb.a as i64, rb.b as i64);
                let ra = f2(a());
                (o[21], o[22]) = (ra.x as i64, ra.y as i64);
                let q = n as i32 + 22;
                o[23] = (ov_global(b(), o[1..].as_ptr().cast::<i32>()) + ov_generic(e(), &q)) as i64;
                o
            })
            .collect::<Vec<_>>()
    };

    // The calls compiled by clc.
    let p = Program::load(dir.join("libcaller.so")).unwrap();
    let out = Buffer::new(N * 24 * 8);
    let mut k = p.kernel("calls").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(N)).unwrap();
    let called = out.read::<i64>();
    for n in 0..N {
        let want = expected(n as i64);
        assert_eq!(direct[n], want, "work-item {n}: the definitions called from Rust");
        assert_eq!(called[24 * n..24 * (n + 1)], want, "work-item {n}: the calls compiled by clc");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
