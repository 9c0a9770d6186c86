//! Kernel-execution benchmark: the same OpenCL C kernels on clc's CPU runtime,
//! PoCL and Intel's CPU OpenCL runtime, in one run.
//!
//! Reproduce (from the workspace root; Intel's runtime needs its directory on
//! the library path):
//!
//! ```sh
//! LD_LIBRARY_PATH=/root/.pyenv/versions/3.11.7/lib cargo run --release -p clc-bench --bin runtime -- --reps 5
//! LD_LIBRARY_PATH=... cargo run --release -p clc-bench --bin runtime -- --suite math   # builtin throughput per family
//! ```
//!
//! Kernels: `bench/kernels/runtime/*.cl`, one file each. clc builds each file
//! in-process (`clc::jit::build`, `-O2`, OpenCL C 2.0) and runs it with
//! `clc_runtime`; PoCL and Intel build the same file with `-cl-std=CL2.0`
//! through the ICD loader (`opencl3`, libOpenCL loaded at run time). A
//! platform that is not installed is reported as missing; a kernel an
//! implementation cannot build is reported as unsupported with its build
//! error.
//!
//! Per kernel: every implementation gets the same input, one warm-up launch,
//! then `--reps` timed launches, the implementations interleaved launch by
//! launch. A time is the wall time from the launch call until the kernel has
//! finished (clc: `Kernel::launch`, which returns when all work-groups are
//! done; OpenCL: `clEnqueueNDRangeKernel` + `clFinish`) — no compilation, no
//! buffer transfers. Buffers a kernel accumulates into are rewritten before
//! each launch, untimed. After the last launch every implementation's output
//! is checked against a reference computed in Rust (tolerances for floats).
//!
//! Report: each implementation's median time, clc's speed relative to the
//! faster of PoCL and Intel (`best ms / clc ms`: above 1, clc is faster),
//! flagged below 0.8, and the geometric mean over the kernels; the machine's
//! memory bandwidth (a multi-threaded copy in Rust, as many threads as clc's
//! pool) next to what the memory-bound kernels achieve. `--json` gives the
//! same data.
//!
//! Exit status: 0 when the benchmark ran (whatever the numbers and checks),
//! 2 for bad arguments.

use std::ffi::c_void;
use std::time::Instant;

use clc_bench::{geomean, json_num, json_str, median};

const USAGE: &str = "usage: runtime [--reps N (default 5)] [--suite kernels|math|all (default kernels)] [--only NAME[,NAME...]] [--json]";

struct Options {
    reps: usize,
    /// `kernels` (the application kernels), `math` (builtin throughput per
    /// family) or `all`.
    suite: String,
    only: Option<Vec<String>>,
    json: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options { reps: 5, suite: "kernels".into(), only: None, json: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--reps" => o.reps = value("--reps")?.parse().map_err(|e| format!("--reps: {e}"))?,
            "--only" => o.only = Some(value("--only")?.split(',').map(str::to_string).collect()),
            "--suite" => {
                o.suite = value("--suite")?;
                if !["kernels", "math", "all"].contains(&o.suite.as_str()) {
                    return Err(format!("--suite: kernels, math or all, not '{}'\n{USAGE}", o.suite));
                }
            }
            "--json" => o.json = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if o.reps == 0 {
        return Err("--reps must be at least 1".into());
    }
    Ok(o)
}

// ---------------------------------------------------------------- cases

/// A kernel argument. Every scalar the kernels take is 4 bytes, and every
/// buffer holds 4-byte elements, so both are carried as `u32` words.
#[derive(Clone, Copy)]
enum ArgSpec {
    /// The case's buffer with this index.
    Buf(usize),
    /// A 4-byte value (an `int`, `uint` or `float`'s bits).
    Word(u32),
    /// A `__local` pointer to this many bytes.
    Local(usize),
}

fn f(x: f32) -> ArgSpec {
    ArgSpec::Word(x.to_bits())
}
fn u(x: u32) -> ArgSpec {
    ArgSpec::Word(x)
}
fn i(x: i32) -> ArgSpec {
    ArgSpec::Word(x as u32)
}

struct BufSpec {
    init: Vec<u32>,
    /// Rewritten before every launch (the kernel accumulates into it).
    reset: bool,
}

type Check = Box<dyn Fn(&[Vec<u32>]) -> Result<(), String>>;

struct Case {
    name: &'static str,
    source: &'static str,
    bufs: Vec<BufSpec>,
    args: Vec<ArgSpec>,
    global: Vec<usize>,
    local: Vec<usize>,
    /// Bytes a launch must move to and from memory, for memory-bound kernels.
    traffic: Option<f64>,
    /// Checks the buffers after the last launch.
    check: Check,
}

/// A small deterministic generator (xorshift64*), so every run sees the same input.
struct Rng(u64);

impl Rng {
    fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
    /// Uniform in [lo, hi).
    fn float(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }
    fn floats(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n).map(|_| self.float(lo, hi)).collect()
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}
fn floats(v: &[u32]) -> Vec<f32> {
    v.iter().map(|&x| f32::from_bits(x)).collect()
}
fn input(v: Vec<u32>) -> BufSpec {
    BufSpec { init: v, reset: false }
}
fn output(n: usize) -> BufSpec {
    BufSpec { init: vec![0; n], reset: false }
}

/// Compares floats: |got - want| <= abs + rel * |want|. Reports the first
/// mismatch and how many there are.
fn close(what: &str, got: &[f32], want: &[f64], abs: f64, rel: f64) -> Result<(), String> {
    if got.len() < want.len() {
        return Err(format!("{what}: {} values, expected {}", got.len(), want.len()));
    }
    let mut bad = 0usize;
    let mut first = None;
    for (k, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = (g as f64 - w).abs() <= abs + rel * w.abs();
        if !ok {
            bad += 1;
            first.get_or_insert((k, g, w));
        }
    }
    match first {
        None => Ok(()),
        Some((k, g, w)) => Err(format!("{what}: {bad} of {} values differ; first at [{k}]: got {g}, expected {w}", want.len())),
    }
}

fn exact(what: &str, got: &[u32], want: &[u32]) -> Result<(), String> {
    let bad = got.iter().zip(want).filter(|(g, w)| g != w).count() + want.len().saturating_sub(got.len());
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None if bad == 0 => Ok(()),
        Some(k) => Err(format!("{what}: {bad} of {} values differ; first at [{k}]: got {}, expected {}", want.len(), got[k], want[k])),
        None => Err(format!("{what}: {} values, expected {}", got.len(), want.len())),
    }
}

unsafe extern "C" {
    /// The C library's erf, erfc, tgamma, lgamma, remainder and remquo
    /// (Rust's standard library has none).
    safe fn erf(x: f64) -> f64;
    safe fn erfc(x: f64) -> f64;
    safe fn tgamma(x: f64) -> f64;
    safe fn lgamma(x: f64) -> f64;
    safe fn remainder(x: f64, y: f64) -> f64;
    fn remquo(x: f64, y: f64, quo: *mut i32) -> f64;
}

/// The builtin-library suite: throughput of the math, integer and
/// conversion builtins, a kernel per family (`bench/kernels/math/*.cl`),
/// each adding several functions of its family per element over 4M
/// elements. Float results are checked against the same sums in `f64`
/// (within 1e-5 of the sum of the terms' magnitudes; 2e-3 for `native_`),
/// integer ones exactly.
fn math_cases() -> Vec<Case> {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let n = 1usize << 22;
    let x = rng.floats(n, -4.0, 4.0);
    let y = rng.floats(n, 0.5, 8.0);
    let mut cases = Vec::new();
    // One float family: each term of the sum in f64.
    type Terms = fn(f64, f64) -> Vec<f64>;
    let families: [(&'static str, &'static str, Terms, f64); 8] = [
        ("exp_log", include_str!("../../kernels/math/exp_log.cl"), |a, b| {
            vec![a.exp(), a.exp2(), 10f64.powf(f64::from((a as f32) * 0.3)), a.exp_m1(), b.ln(), b.log2(), b.log10(), b.ln_1p()]
        }, 1e-5),
        ("trig", include_str!("../../kernels/math/trig.cl"), |a, b| {
            let b = f64::from((b as f32) * 0.1);
            vec![a.sin(), a.cos(), f64::from((a as f32) * 0.25).tan(), b.asin(), b.acos(), a.atan(), a.atan2(f64::from(b as f32 + 2.0))]
        }, 1e-5),
        ("hyperbolic", include_str!("../../kernels/math/hyperbolic.cl"), |a, b| vec![a.sinh(), a.cosh(), a.tanh(), b.asinh()], 1e-5),
        ("powers", include_str!("../../kernels/math/powers.cl"), |a, b| {
            vec![b.powf(a), b.powf(f64::from(0.5 * a as f32)), b.powi(3), b.cbrt(), a.cbrt(), a.hypot(b)]
        }, 1e-5),
        ("special", include_str!("../../kernels/math/special.cl"), |a, b| vec![erf(a), erfc(a), tgamma(b), lgamma(b)], 1e-5),
        ("sqrt_fma", include_str!("../../kernels/math/sqrt_fma.cl"), |a, b| vec![b.sqrt(), 1.0 / b.sqrt(), a / b, a * b + 1.0, a * a + b, a.max(b)], 1e-5),
        ("native", include_str!("../../kernels/math/native.cl"), |a, b| vec![a.exp(), b.ln(), a.sin(), a.cos(), b.sqrt(), a / b], 2e-3),
        ("remainders", include_str!("../../kernels/math/remainders.cl"), |a, b| {
            // The float products as the kernel rounds them; the remainders
            // of float values are exact in f64.
            let (af, bf) = (a as f32, b as f32);
            let mut q = 0;
            // SAFETY: a plain C call writing through a valid pointer.
            let r = unsafe { remquo(f64::from(af * 100.0), b, &mut q) };
            vec![f64::from(af * 1000.0) % b, remainder(f64::from(bf * 1000.0), f64::from(af + 4.5)), r, f64::from(q & 7)]
        }, 1e-5),
    ];
    for (name, source, terms, tol) in families {
        let (want, scale): (Vec<f64>, Vec<f64>) = x
            .iter()
            .zip(&y)
            .map(|(&a, &b)| {
                let t = terms(f64::from(a), f64::from(b));
                (t.iter().sum::<f64>(), t.iter().map(|v| v.abs()).sum::<f64>())
            })
            .unzip();
        cases.push(Case {
            name,
            source,
            bufs: vec![input(bits(&x)), input(bits(&y)), output(n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2)],
            global: vec![n],
            local: vec![64],
            traffic: None,
            check: Box::new(move |o| {
                let got = floats(&o[2]);
                let bad: Vec<usize> = (0..want.len())
                    .filter(|&k| {
                        // A NaN result counts as wrong.
                        let err = (f64::from(got[k]) - want[k]).abs();
                        err.is_nan() || err > tol * scale[k] + 1e-6
                    })
                    .collect();
                match bad.first() {
                    None => Ok(()),
                    Some(&k) => Err(format!("{name}: {} of {} values differ; first at [{k}]: got {}, expected {}", bad.len(), want.len(), got[k], want[k])),
                }
            }),
        });
    }
    // Integers: exact.
    let (ua, ub): (Vec<u32>, Vec<u32>) = (0..n).map(|_| (rng.next_u32(), rng.next_u32())).unzip();
    let want: Vec<u32> = ua
        .iter()
        .zip(&ub)
        .map(|(&a, &b)| {
            let mad_sat = (i64::from(a as i32) * i64::from(b as i32) + 7).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            [((u64::from(a) * u64::from(b)) >> 32) as u32, a.rotate_left(b % 32), a.count_ones(), b.leading_zeros(), a.saturating_add(b), ((u64::from(a) + u64::from(b)) >> 1) as u32, mad_sat as u32]
                .into_iter()
                .fold(0u32, u32::wrapping_add)
        })
        .collect();
    cases.push(Case {
        name: "integer",
        source: include_str!("../../kernels/math/integer.cl"),
        bufs: vec![input(ua), input(ub.clone()), output(n)],
        args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2)],
        global: vec![n],
        local: vec![64],
        traffic: None,
        check: Box::new(move |o| exact("integer", &o[2], &want)),
    });
    // Conversions: exact (directed roundings computed on the bits).
    let rtz = |b: u32| {
        let f = b as f32;
        if f64::from(f) > f64::from(b) { f32::from_bits(f.to_bits() - 1) } else { f }
    };
    let rtp = |i: i32| {
        let f = i as f32;
        if f64::from(f) < f64::from(i) {
            if f >= 0.0 { f32::from_bits(f.to_bits() + 1) } else { f32::from_bits(f.to_bits() - 1) }
        } else {
            f
        }
    };
    let cb: Vec<u32> = ub.iter().map(|b| b >> 3).collect();
    let want: Vec<u32> = x
        .iter()
        .zip(&cb)
        .map(|(&a, &b)| {
            let r = (a * 1.0e4).round_ties_even() as i32 as u32;
            let c = (a * 300.0) as u8 as u32;
            let s = (a * 4.0e4).floor() as i16 as i32 as u32;
            [r, c, s, rtz(b).to_bits(), rtp(b as i32).to_bits()].into_iter().fold(0u32, u32::wrapping_add)
        })
        .collect();
    cases.push(Case {
        name: "convert",
        source: include_str!("../../kernels/math/convert.cl"),
        bufs: vec![input(bits(&x)), input(cb), output(n)],
        args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2)],
        global: vec![n],
        local: vec![64],
        traffic: None,
        check: Box::new(move |o| exact("convert", &o[2], &want)),
    });
    cases
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = Vec::new();

    // Element-wise: 16M floats.
    {
        let n = 1usize << 24;
        let a = rng.floats(n, -1.0, 1.0);
        let b = rng.floats(n, -1.0, 1.0);
        let want: Vec<f64> = a.iter().zip(&b).map(|(&x, &y)| (x + y) as f64).collect();
        cases.push(Case {
            name: "vector_add",
            source: include_str!("../../kernels/runtime/vector_add.cl"),
            bufs: vec![input(bits(&a)), input(bits(&b)), output(n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2), u(n as u32)],
            global: vec![n],
            local: vec![64],
            traffic: Some(12.0 * n as f64),
            check: Box::new(move |o| close("c", &floats(&o[2]), &want, 0.0, 0.0)),
        });
    }
    {
        let n = 1usize << 24;
        let alpha = 1.75f32;
        let x = rng.floats(n, -1.0, 1.0);
        let y = rng.floats(n, -1.0, 1.0);
        let want: Vec<f64> = x.iter().zip(&y).map(|(&x, &y)| alpha as f64 * x as f64 + y as f64).collect();
        cases.push(Case {
            name: "saxpy",
            source: include_str!("../../kernels/runtime/saxpy.cl"),
            // y is read and written: rewritten before each launch so every
            // launch computes the same thing.
            bufs: vec![input(bits(&x)), BufSpec { init: bits(&y), reset: true }],
            args: vec![f(alpha), ArgSpec::Buf(0), ArgSpec::Buf(1), u(n as u32)],
            global: vec![n],
            local: vec![64],
            traffic: Some(12.0 * n as f64),
            check: Box::new(move |o| close("y", &floats(&o[1]), &want, 1e-6, 1e-6)),
        });
    }

    // SGEMM, 512 x 512.
    let n = 512usize;
    let a = rng.floats(n * n, -1.0, 1.0);
    let b = rng.floats(n * n, -1.0, 1.0);
    let mut c = vec![0f64; n * n];
    for r in 0..n {
        for k in 0..n {
            let x = a[r * n + k] as f64;
            for col in 0..n {
                c[r * n + col] += x * b[k * n + col] as f64;
            }
        }
    }
    for (name, source) in
        [("sgemm_naive", include_str!("../../kernels/runtime/sgemm_naive.cl")), ("sgemm_tiled", include_str!("../../kernels/runtime/sgemm_tiled.cl"))]
    {
        let want = c.clone();
        cases.push(Case {
            name,
            source,
            bufs: vec![input(bits(&a)), input(bits(&b)), output(n * n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2), i(n as i32)],
            global: vec![n, n],
            local: vec![16, 16],
            traffic: None,
            check: Box::new(move |o| close("c", &floats(&o[2]), &want, 1e-3, 1e-4)),
        });
    }

    // Reduction: 16M floats, groups of 256.
    {
        let n = 1usize << 24;
        let l = 256;
        let x = rng.floats(n, 0.0, 1.0);
        let want: Vec<f64> = x.chunks(l).map(|c| c.iter().map(|&v| v as f64).sum()).collect();
        cases.push(Case {
            name: "reduction",
            source: include_str!("../../kernels/runtime/reduction.cl"),
            bufs: vec![input(bits(&x)), output(n / l)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Local(4 * l), u(n as u32)],
            global: vec![n],
            local: vec![l],
            traffic: Some(4.0 * n as f64),
            check: Box::new(move |o| close("partial", &floats(&o[1]), &want, 1e-3, 1e-5)),
        });
    }

    // Histogram: 4M words = 16M bytes, 65536 work-items.
    {
        let n = 1usize << 22;
        let data: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
        let mut want = vec![0u32; 256];
        for &v in &data {
            for s in [0, 8, 16, 24] {
                want[((v >> s) & 0xff) as usize] += 1;
            }
        }
        cases.push(Case {
            name: "histogram",
            source: include_str!("../../kernels/runtime/histogram.cl"),
            bufs: vec![input(data), BufSpec { init: vec![0; 256], reset: true }],
            args: vec![ArgSpec::Buf(0), u(n as u32), ArgSpec::Buf(1)],
            global: vec![1 << 16],
            local: vec![64],
            traffic: None,
            check: Box::new(move |o| exact("bins", &o[1], &want)),
        });
    }

    // N-body: 8192 bodies, one step.
    {
        let n = 8192usize;
        let (dt, eps2) = (0.01f32, 0.01f32);
        let mut pos = Vec::with_capacity(4 * n);
        let mut vel = Vec::with_capacity(4 * n);
        for _ in 0..n {
            pos.extend([rng.float(-1.0, 1.0), rng.float(-1.0, 1.0), rng.float(-1.0, 1.0), rng.float(0.5, 1.0) / n as f32]);
            vel.extend([rng.float(-0.1, 0.1), rng.float(-0.1, 0.1), rng.float(-0.1, 0.1), 0.0]);
        }
        let mut want_pos = vec![0f64; 4 * n];
        let mut want_vel = vec![0f64; 4 * n];
        for a in 0..n {
            let p: Vec<f64> = pos[4 * a..4 * a + 4].iter().map(|&x| x as f64).collect();
            let mut acc = [0f64; 3];
            for b in 0..n {
                let q = &pos[4 * b..4 * b + 4];
                let d = [q[0] as f64 - p[0], q[1] as f64 - p[1], q[2] as f64 - p[2]];
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2 as f64;
                let inv = 1.0 / r2.sqrt();
                let s = q[3] as f64 * inv * inv * inv;
                for k in 0..3 {
                    acc[k] += s * d[k];
                }
            }
            for k in 0..3 {
                let v = vel[4 * a + k] as f64 + acc[k] * dt as f64;
                want_vel[4 * a + k] = v;
                want_pos[4 * a + k] = p[k] + v * dt as f64;
            }
            want_vel[4 * a + 3] = vel[4 * a + 3] as f64;
            want_pos[4 * a + 3] = p[3];
        }
        cases.push(Case {
            name: "nbody",
            source: include_str!("../../kernels/runtime/nbody.cl"),
            bufs: vec![input(bits(&pos)), input(bits(&vel)), output(4 * n), output(4 * n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2), ArgSpec::Buf(3), i(n as i32), f(dt), f(eps2)],
            global: vec![n],
            local: vec![64],
            traffic: None,
            check: Box::new(move |o| {
                close("new_pos", &floats(&o[2]), &want_pos, 1e-4, 1e-4)?;
                close("new_vel", &floats(&o[3]), &want_vel, 1e-4, 1e-3)
            }),
        });
    }

    // Mandelbrot: 1024 x 1024, up to 256 iterations.
    {
        let (w, h, max_iter) = (1024usize, 1024usize, 256u32);
        let (x0, y0, step) = (-2.0f32, -1.25f32, 2.5f32 / 1024.0);
        let mut want = vec![0u32; w * h];
        for py in 0..h {
            for px in 0..w {
                let (cr, ci) = (x0 + px as f32 * step, y0 + py as f32 * step);
                let (mut zr, mut zi, mut it) = (0f32, 0f32, 0u32);
                while it < max_iter && zr * zr + zi * zi <= 4.0 {
                    let t = zr * zr - zi * zi + cr;
                    zi = 2.0 * zr * zi + ci;
                    zr = t;
                    it += 1;
                }
                want[py * w + px] = it;
            }
        }
        cases.push(Case {
            name: "mandelbrot",
            source: include_str!("../../kernels/runtime/mandelbrot.cl"),
            bufs: vec![output(w * h)],
            args: vec![ArgSpec::Buf(0), i(w as i32), i(h as i32), f(x0), f(y0), f(step), u(max_iter)],
            global: vec![w, h],
            local: vec![16, 16],
            traffic: None,
            // Near the set's boundary the orbit is chaotic: contracting
            // a*b+c into an FMA (which OpenCL allows, and PoCL and Intel
            // do) changes about 0.2% of the counts.
            check: Box::new(move |o| {
                let bad = o[0].iter().zip(&want).filter(|(g, w)| g != w).count();
                if bad * 100 <= want.len() { Ok(()) } else { Err(format!("out: {bad} of {} iteration counts differ (more than 1%)", want.len())) }
            }),
        });
    }

    // 5x5 convolution of a 2048 x 2048 image.
    {
        let (w, h) = (2048usize, 2048usize);
        let img = rng.floats(w * h, 0.0, 1.0);
        let filter = rng.floats(25, -0.2, 0.2);
        let mut want = vec![0f64; w * h];
        for y in 0..h {
            for x in 0..w {
                let mut acc = 0f64;
                for fy in -2i64..=2 {
                    let yy = (y as i64 + fy).clamp(0, h as i64 - 1) as usize;
                    for fx in -2i64..=2 {
                        let xx = (x as i64 + fx).clamp(0, w as i64 - 1) as usize;
                        acc += filter[((fy + 2) * 5 + fx + 2) as usize] as f64 * img[yy * w + xx] as f64;
                    }
                }
                want[y * w + x] = acc;
            }
        }
        cases.push(Case {
            name: "convolution",
            source: include_str!("../../kernels/runtime/convolution.cl"),
            bufs: vec![input(bits(&img)), output(w * h), input(bits(&filter))],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2), i(w as i32), i(h as i32)],
            global: vec![w, h],
            local: vec![16, 16],
            traffic: None,
            check: Box::new(move |o| close("out", &floats(&o[1]), &want, 1e-5, 1e-5)),
        });
    }

    // Transpose of a 4096 x 4096 matrix.
    {
        let (w, h) = (4096usize, 4096usize);
        let m: Vec<u32> = (0..w * h).map(|_| rng.next_u32()).collect();
        let mut want = vec![0u32; w * h];
        for y in 0..h {
            for x in 0..w {
                want[x * h + y] = m[y * w + x];
            }
        }
        // The elements are opaque 32-bit patterns to the kernel (it only
        // copies floats), but random bits include NaNs, which a copy may
        // quieten: keep them ordinary floats.
        let m: Vec<u32> = m.iter().map(|&x| x & 0x3fff_ffff).collect();
        let want: Vec<u32> = want.iter().map(|&x| x & 0x3fff_ffff).collect();
        cases.push(Case {
            name: "transpose",
            source: include_str!("../../kernels/runtime/transpose.cl"),
            bufs: vec![input(m), output(w * h)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), i(w as i32), i(h as i32)],
            global: vec![w, h],
            local: vec![16, 16],
            traffic: Some(8.0 * (w * h) as f64),
            check: Box::new(move |o| exact("out", &o[1], &want)),
        });
    }

    // Black-Scholes: 4M options.
    {
        let n = 1usize << 22;
        let (rate, vol) = (0.02f32, 0.30f32);
        let spot = rng.floats(n, 5.0, 30.0);
        let strike = rng.floats(n, 1.0, 100.0);
        let years = rng.floats(n, 0.25, 10.0);
        let cnd = |x: f64| 0.5 * (1.0 + erf(x * std::f64::consts::FRAC_1_SQRT_2));
        let (mut want_call, mut want_put) = (vec![0f64; n], vec![0f64; n]);
        for k in 0..n {
            let (s, x, t, r, v) = (spot[k] as f64, strike[k] as f64, years[k] as f64, rate as f64, vol as f64);
            let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
            let d2 = d1 - v * t.sqrt();
            let disc = x * (-r * t).exp();
            want_call[k] = s * cnd(d1) - disc * cnd(d2);
            want_put[k] = disc * cnd(-d2) - s * cnd(-d1);
        }
        cases.push(Case {
            name: "black_scholes",
            source: include_str!("../../kernels/runtime/black_scholes.cl"),
            bufs: vec![input(bits(&spot)), input(bits(&strike)), input(bits(&years)), output(n), output(n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1), ArgSpec::Buf(2), ArgSpec::Buf(3), ArgSpec::Buf(4), f(rate), f(vol)],
            global: vec![n],
            local: vec![64],
            traffic: None,
            check: Box::new(move |o| {
                close("call", &floats(&o[3]), &want_call, 1e-3, 1e-3)?;
                close("put", &floats(&o[4]), &want_put, 1e-3, 1e-3)
            }),
        });
    }

    // Atomic counter: compaction of 16M words, about 1M of them selected.
    {
        let n = 1usize << 24;
        let data: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
        let want: Vec<u32> = (0..n as u32).filter(|&k| data[k as usize] & 15 == 0).collect();
        cases.push(Case {
            name: "atomic_counter",
            source: include_str!("../../kernels/runtime/atomic_counter.cl"),
            bufs: vec![input(data), BufSpec { init: vec![0], reset: true }, output(n / 8)],
            args: vec![ArgSpec::Buf(0), u(n as u32), ArgSpec::Buf(1), ArgSpec::Buf(2)],
            global: vec![n],
            local: vec![64],
            traffic: None,
            check: Box::new(move |o| {
                let count = o[1][0] as usize;
                if count != want.len() {
                    return Err(format!("counter: got {count}, expected {}", want.len()));
                }
                let mut got = o[2][..count].to_vec();
                got.sort_unstable();
                exact("indices (sorted)", &got, &want)
            }),
        });
    }

    // Work-group inclusive scan: 16M ints, groups of 256.
    {
        let n = 1usize << 24;
        let l = 256;
        let x: Vec<i32> = (0..n).map(|_| (rng.next_u32() % 201) as i32 - 100).collect();
        let mut want = Vec::with_capacity(n);
        for c in x.chunks(l) {
            let mut s = 0i32;
            for &v in c {
                s = s.wrapping_add(v);
                want.push(s as u32);
            }
        }
        cases.push(Case {
            name: "scan",
            source: include_str!("../../kernels/runtime/scan.cl"),
            bufs: vec![input(x.iter().map(|&v| v as u32).collect()), output(n)],
            args: vec![ArgSpec::Buf(0), ArgSpec::Buf(1)],
            global: vec![n],
            local: vec![l],
            traffic: Some(8.0 * n as f64),
            check: Box::new(move |o| exact("out", &o[1], &want)),
        });
    }
    cases
}

// ---------------------------------------------------------------- implementations

/// One implementation, set up for one case: its program and buffers.
trait Runner {
    /// Rewrites the buffers marked `reset`.
    fn reset(&mut self, case: &Case) -> Result<(), String>;
    /// One launch, waited for; its wall time in milliseconds.
    fn launch(&mut self, case: &Case) -> Result<f64, String>;
    /// Every buffer's contents.
    fn read(&mut self) -> Result<Vec<Vec<u32>>, String>;
}

struct ClcRunner {
    program: clc_runtime::Program,
    bufs: Vec<clc_runtime::Buffer>,
}

impl ClcRunner {
    /// `Err((unsupported, message))`: unsupported when the build failed.
    fn new(case: &Case) -> Result<ClcRunner, String> {
        let file = format!("{}.cl", case.name);
        let program = clc::jit::build(case.source, &file, &clc::jit::BuildOptions::default()).map_err(|e| e.to_string())?;
        let bufs = case.bufs.iter().map(|b| clc_runtime::Buffer::from_slice(&b.init)).collect();
        Ok(ClcRunner { program, bufs })
    }
}

impl Runner for ClcRunner {
    fn reset(&mut self, case: &Case) -> Result<(), String> {
        for (b, spec) in self.bufs.iter_mut().zip(&case.bufs) {
            if spec.reset {
                b.write(&spec.init).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    fn launch(&mut self, case: &Case) -> Result<f64, String> {
        let mut k = self.program.kernel(case.name).map_err(|e| e.to_string())?;
        for (idx, a) in case.args.iter().enumerate() {
            let arg = match *a {
                ArgSpec::Buf(b) => clc_runtime::Arg::Buffer(&self.bufs[b]),
                ArgSpec::Word(w) => clc_runtime::Arg::value(w),
                ArgSpec::Local(n) => clc_runtime::Arg::Local(n),
            };
            k.set_arg(idx, arg).map_err(|e| e.to_string())?;
        }
        let dims = case.global.len();
        let mut range = clc_runtime::NdRange { dims: dims as u32, global: [1; 3], offset: [0; 3], local: Some([1; 3]) };
        range.global[..dims].copy_from_slice(&case.global);
        if let Some(l) = range.local.as_mut() {
            l[..dims].copy_from_slice(&case.local);
        }
        let start = Instant::now();
        k.launch(&range).map_err(|e| e.to_string())?;
        Ok(start.elapsed().as_secs_f64() * 1000.0)
    }

    fn read(&mut self) -> Result<Vec<Vec<u32>>, String> {
        Ok(self.bufs.iter().map(|b| b.read::<u32>()).collect())
    }
}

/// An OpenCL platform's CPU device, with a context and an in-order queue.
struct OclDevice {
    context: opencl3::context::Context,
    queue: opencl3::command_queue::CommandQueue,
    description: String,
}

struct OclRunner<'d> {
    device: &'d OclDevice,
    _program: opencl3::program::Program,
    kernel: opencl3::kernel::Kernel,
    bufs: Vec<opencl3::memory::Buffer<u32>>,
}

fn cl_err(what: &str, e: impl std::fmt::Display) -> String {
    format!("{what}: {e}")
}

impl<'d> OclRunner<'d> {
    fn new(device: &'d OclDevice, case: &Case) -> Result<OclRunner<'d>, String> {
        use opencl3::memory::{Buffer, CL_MEM_READ_WRITE, ClMem};
        let program = opencl3::program::Program::create_and_build_from_source(&device.context, case.source, "-cl-std=CL2.0")?;
        let kernel = opencl3::kernel::Kernel::create(&program, case.name).map_err(|e| cl_err("clCreateKernel", e))?;
        let mut bufs = Vec::new();
        for spec in &case.bufs {
            // SAFETY: no host pointer; the size is the element count.
            let mut b = unsafe { Buffer::<u32>::create(&device.context, CL_MEM_READ_WRITE, spec.init.len(), std::ptr::null_mut()) }
                .map_err(|e| cl_err("clCreateBuffer", e))?;
            // SAFETY: a blocking write of exactly the buffer's size.
            unsafe { device.queue.enqueue_write_buffer(&mut b, opencl3::types::CL_BLOCKING, 0, &spec.init, &[]) }
                .map_err(|e| cl_err("clEnqueueWriteBuffer", e))?;
            bufs.push(b);
        }
        for (idx, a) in case.args.iter().enumerate() {
            let idx = idx as u32;
            // SAFETY: each argument matches the kernel's parameter: a cl_mem
            // for a buffer, 4 bytes for a scalar, a size for `__local`.
            let r = unsafe {
                match *a {
                    ArgSpec::Buf(b) => kernel.set_arg(idx, &bufs[b].get()),
                    ArgSpec::Word(w) => kernel.set_arg(idx, &w),
                    ArgSpec::Local(n) => kernel.set_arg_local_buffer(idx, n),
                }
            };
            r.map_err(|e| cl_err(&format!("clSetKernelArg({idx})"), e))?;
        }
        Ok(OclRunner { device, _program: program, kernel, bufs })
    }
}

impl Runner for OclRunner<'_> {
    fn reset(&mut self, case: &Case) -> Result<(), String> {
        for (b, spec) in self.bufs.iter_mut().zip(&case.bufs) {
            if spec.reset {
                // SAFETY: a blocking write of exactly the buffer's size.
                unsafe { self.device.queue.enqueue_write_buffer(b, opencl3::types::CL_BLOCKING, 0, &spec.init, &[]) }
                    .map_err(|e| cl_err("clEnqueueWriteBuffer", e))?;
            }
        }
        Ok(())
    }

    fn launch(&mut self, case: &Case) -> Result<f64, String> {
        let q = &self.device.queue;
        let start = Instant::now();
        // SAFETY: every argument was set in `new`; the sizes have
        // `global.len()` entries each.
        let event =
            unsafe { q.enqueue_nd_range_kernel(self.kernel.get(), case.global.len() as u32, std::ptr::null(), case.global.as_ptr(), case.local.as_ptr(), &[]) }
                .map_err(|e| cl_err("clEnqueueNDRangeKernel", e))?;
        q.finish().map_err(|e| cl_err("clFinish", e))?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        drop(event);
        Ok(ms)
    }

    fn read(&mut self) -> Result<Vec<Vec<u32>>, String> {
        let mut out = Vec::new();
        for b in &self.bufs {
            let n = opencl3::memory::ClMem::size(b).map_err(|e| cl_err("clGetMemObjectInfo", e))? / 4;
            let mut v = vec![0u32; n];
            // SAFETY: a blocking read of exactly the buffer's size.
            unsafe { self.device.queue.enqueue_read_buffer(b, opencl3::types::CL_BLOCKING, 0, &mut v, &[]) }.map_err(|e| cl_err("clEnqueueReadBuffer", e))?;
            out.push(v);
        }
        Ok(out)
    }
}

/// The OpenCL platforms compared with: (label, what to look for in the platform name).
const PLATFORMS: [(&str, &str); 2] = [("PoCL", "Portable Computing Language"), ("Intel", "Intel")];

/// Each of [`PLATFORMS`]' CPU device, or why it is missing.
fn open_platforms() -> Vec<Result<OclDevice, String>> {
    use opencl3::device::{CL_DEVICE_TYPE_CPU, Device};
    let platforms = match opencl3::platform::get_platforms() {
        Ok(p) => p,
        Err(e) => return PLATFORMS.iter().map(|_| Err(format!("no OpenCL platforms (libOpenCL / ICD loader: {e})"))).collect(),
    };
    PLATFORMS
        .iter()
        .map(|(label, pattern)| {
            let p = platforms
                .iter()
                .find(|p| p.name().is_ok_and(|n| n.contains(pattern)))
                .ok_or_else(|| format!("no platform named like \"{pattern}\" is installed"))?;
            let id = *p.get_devices(CL_DEVICE_TYPE_CPU).map_err(|e| cl_err("clGetDeviceIDs", e))?.first().ok_or_else(|| format!("{label}: no CPU device"))?;
            let device = Device::new(id);
            let context = opencl3::context::Context::from_device(&device).map_err(|e| cl_err("clCreateContext", e))?;
            let queue = opencl3::command_queue::CommandQueue::create_default_with_properties(&context, 0, 0).map_err(|e| cl_err("clCreateCommandQueue", e))?;
            let description = format!(
                "{} {} on {} ({} compute units)",
                p.name().unwrap_or_default(),
                p.version().unwrap_or_default(),
                device.name().unwrap_or_default(),
                device.max_compute_units().unwrap_or(0)
            );
            Ok(OclDevice { context, queue, description })
        })
        .collect()
}

// ---------------------------------------------------------------- running

enum Outcome {
    /// The platform is not installed.
    Missing,
    /// The kernel did not build: the build error.
    Unsupported(String),
    /// Built, but setting up or launching failed.
    Failed(String),
    Ran {
        times: Vec<f64>,
        check: Result<(), String>,
    },
}

impl Outcome {
    /// The median time, when the implementation ran and its output is right.
    fn good_ms(&self) -> Option<f64> {
        match self {
            Outcome::Ran { times, check: Ok(()) } => median(times),
            _ => None,
        }
    }
    fn any_ms(&self) -> Option<f64> {
        match self {
            Outcome::Ran { times, .. } => median(times),
            _ => None,
        }
    }
    fn status(&self) -> &'static str {
        match self {
            Outcome::Missing => "missing",
            Outcome::Unsupported(_) => "unsupported",
            Outcome::Failed(_) => "failed",
            Outcome::Ran { check: Ok(()), .. } => "ok",
            Outcome::Ran { check: Err(_), .. } => "wrong",
        }
    }
    fn message(&self) -> Option<&str> {
        match self {
            Outcome::Unsupported(m) | Outcome::Failed(m) | Outcome::Ran { check: Err(m), .. } => Some(m),
            _ => None,
        }
    }
}

/// Runs one case on every implementation: set-up, one warm-up launch each,
/// then `reps` rounds of one launch each, then the checks.
fn run_case(case: &Case, devices: &[Result<OclDevice, String>], reps: usize) -> Vec<Outcome> {
    let mut runners: Vec<Result<Box<dyn Runner + '_>, Outcome>> = Vec::new();
    runners.push(ClcRunner::new(case).map(|r| Box::new(r) as Box<dyn Runner>).map_err(Outcome::Unsupported));
    for d in devices {
        runners.push(match d {
            Err(_) => Err(Outcome::Missing),
            Ok(d) => OclRunner::new(d, case).map(|r| Box::new(r) as Box<dyn Runner>).map_err(Outcome::Unsupported),
        });
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    let mut failures: Vec<Option<String>> = vec![None; runners.len()];
    for round in 0..=reps {
        for (k, r) in runners.iter_mut().enumerate() {
            let Ok(r) = r else { continue };
            if failures[k].is_some() {
                continue;
            }
            match r.reset(case).and_then(|()| r.launch(case)) {
                // Round 0 is the warm-up.
                Ok(ms) if round > 0 => times[k].push(ms),
                Ok(_) => {}
                Err(e) => failures[k] = Some(e),
            }
        }
    }
    runners
        .into_iter()
        .zip(times)
        .zip(failures)
        .map(|((r, times), failure)| match (r, failure) {
            (Err(o), _) => o,
            (Ok(_), Some(e)) => Outcome::Failed(e),
            (Ok(mut r), None) => Outcome::Ran { times, check: r.read().and_then(|o| (case.check)(&o)) },
        })
        .collect()
}

/// One thread's part of a bandwidth test: (out, in, in).
type StreamOp = dyn Fn(&mut [f32], &[f32], &[f32]) + Sync;

/// The machine's memory bandwidth in GB/s, on `threads` threads, each
/// taking an equal slice; the best of `reps` after a warm-up. Two ways, as
/// STREAM counts them (bytes read + bytes written): `copy` is `memcpy` of
/// 128 MiB (the C library's, with non-temporal stores); `add` is
/// `c[i] = a[i] + b[i]` over 3 x 128 MiB, the same traffic as `vector_add`.
fn memory_bandwidth(threads: usize, reps: usize) -> (f64, f64) {
    let n = 32usize << 20;
    let a: Vec<f32> = (0..n).map(|k| k as f32).collect();
    let b: Vec<f32> = a.iter().map(|x| x * 0.5).collect();
    let mut c = vec![1f32; n];
    let chunk = n.div_ceil(threads);
    let mut time = |f: &StreamOp| {
        let mut best = f64::INFINITY;
        for rep in 0..=reps.max(3) {
            let start = Instant::now();
            std::thread::scope(|s| {
                for ((c, a), b) in c.chunks_mut(chunk).zip(a.chunks(chunk)).zip(b.chunks(chunk)) {
                    s.spawn(move || f(c, a, b));
                }
            });
            if rep > 0 {
                best = best.min(start.elapsed().as_secs_f64());
            }
        }
        std::hint::black_box(c.as_ptr() as *const c_void);
        best
    };
    let copy = time(&|c, a, _| c.copy_from_slice(a));
    let add = time(&|c, a, b| {
        for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
            *c = a + b;
        }
    });
    (2.0 * (n * 4) as f64 / copy / 1e9, 3.0 * (n * 4) as f64 / add / 1e9)
}

fn threads() -> usize {
    std::env::var("CLC_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

// ---------------------------------------------------------------- report

const NAMES: [&str; 3] = ["clc", "PoCL", "Intel"];
/// clc below this share of the faster one's speed is flagged.
const FLAG_BELOW: f64 = 0.8;

struct Row<'c> {
    case: &'c Case,
    outcomes: Vec<Outcome>,
}

impl Row<'_> {
    /// The faster of the other implementations that ran correctly: (index, ms).
    fn best_other(&self) -> Option<(usize, f64)> {
        self.outcomes.iter().enumerate().skip(1).filter_map(|(k, o)| o.good_ms().map(|t| (k, t))).min_by(|a, b| a.1.total_cmp(&b.1))
    }
    /// clc's speed relative to the faster other: best ms / clc ms.
    fn speed(&self) -> Option<f64> {
        Some(self.best_other()?.1 / self.outcomes[0].good_ms()?)
    }
    fn gbps(&self, k: usize) -> Option<f64> {
        Some(self.case.traffic? / (self.outcomes[k].any_ms()? / 1000.0) / 1e9)
    }
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("runtime: {e}");
            std::process::exit(2);
        }
    };
    let threads = threads();
    let loadavg = std::fs::read_to_string("/proc/loadavg").ok().and_then(|s| s.split_whitespace().next().map(str::to_string));
    if !opts.json {
        eprintln!("preparing inputs and references ...");
    }
    let mut all = match opts.suite.as_str() {
        "math" => math_cases(),
        "all" => cases().into_iter().chain(math_cases()).collect(),
        _ => cases(),
    };
    if let Some(only) = &opts.only {
        all.retain(|c| only.iter().any(|o| o == c.name));
    }
    let devices = open_platforms();
    let (copy_bw, add_bw) = memory_bandwidth(threads, opts.reps);
    let bandwidth = copy_bw.max(add_bw);

    let mut rows = Vec::new();
    for case in &all {
        if !opts.json {
            eprintln!("running {} ...", case.name);
        }
        rows.push(Row { case, outcomes: run_case(case, &devices, opts.reps) });
    }
    let speeds: Vec<f64> = rows.iter().filter_map(Row::speed).collect();
    let gmean = geomean(&speeds);
    let flagged: Vec<&str> = rows.iter().filter(|r| r.speed().is_some_and(|s| s < FLAG_BELOW)).map(|r| r.case.name).collect();
    let goal_met = gmean.is_some_and(|g| g >= 1.0) && flagged.is_empty() && rows.iter().all(|r| r.speed().is_some());

    if opts.json {
        let impls: Vec<String> =
            std::iter::once(format!("{{\"name\": \"clc\", \"status\": \"ok\", \"description\": {}}}", json_str("clc::jit + clc_runtime (in-process)")))
                .chain(devices.iter().zip(&NAMES[1..]).map(|(d, name)| match d {
                    Ok(d) => format!("{{\"name\": {}, \"status\": \"ok\", \"description\": {}}}", json_str(name), json_str(&d.description)),
                    Err(e) => format!("{{\"name\": {}, \"status\": \"missing\", \"description\": {}}}", json_str(name), json_str(e)),
                }))
                .collect();
        let mut krows = Vec::new();
        for r in &rows {
            let per: Vec<String> = r
                .outcomes
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let (min, times) = match o {
                        Outcome::Ran { times, .. } => {
                            (times.iter().copied().reduce(f64::min), times.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", "))
                        }
                        _ => (None, String::new()),
                    };
                    format!(
                        "{{\"impl\": {}, \"status\": {}, \"median_ms\": {}, \"min_ms\": {}, \"times_ms\": [{times}], \"gb_per_s\": {}, \"message\": {}}}",
                        json_str(NAMES[k]),
                        json_str(o.status()),
                        json_num(o.any_ms()),
                        json_num(min),
                        json_num(r.gbps(k)),
                        o.message().map_or("null".to_string(), json_str)
                    )
                })
                .collect();
            krows.push(format!(
                "    {{\"kernel\": {}, \"global\": {:?}, \"local\": {:?}, \"bytes_moved\": {}, \"results\": [{}], \"best_other\": {}, \"clc_speed_vs_best\": {}, \"flagged\": {}}}",
                json_str(r.case.name),
                r.case.global,
                r.case.local,
                json_num(r.case.traffic),
                per.join(", "),
                r.best_other().map_or("null".to_string(), |(k, _)| json_str(NAMES[k])),
                json_num(r.speed()),
                r.speed().is_some_and(|s| s < FLAG_BELOW)
            ));
        }
        println!(
            "{{\n  \"reps\": {},\n  \"threads\": {},\n  \"loadavg\": {},\n  \"memory_bandwidth_gb_per_s\": {{\"copy\": {}, \"add\": {}}},\n  \"implementations\": [{}],\n  \"kernels\": [\n{}\n  ],\n  \"geomean_clc_speed_vs_best\": {},\n  \"flagged\": [{}],\n  \"goal\": {{\"geomean_at_least\": 1.0, \"each_at_least\": {FLAG_BELOW}, \"met\": {goal_met}}}\n}}",
            opts.reps,
            threads,
            loadavg.as_deref().map_or("null".to_string(), json_str),
            json_num(Some(copy_bw)),
            json_num(Some(add_bw)),
            impls.join(", "),
            krows.join(",\n"),
            json_num(gmean),
            flagged.iter().map(|n| json_str(n)).collect::<Vec<_>>().join(", ")
        );
        return;
    }

    println!("clc:   clc::jit + clc_runtime, in-process, {threads} threads");
    for (d, name) in devices.iter().zip(&NAMES[1..]) {
        match d {
            Ok(d) => println!("{name}: {}", d.description),
            Err(e) => println!("{name}: MISSING ({e})"),
        }
    }
    println!(
        "memory bandwidth on {threads} threads (bytes read + written): copy {copy_bw:.1} GB/s (memcpy, 128 MiB), add {add_bw:.1} GB/s (c = a + b, 3 x 128 MiB); load average at start: {}",
        loadavg.as_deref().unwrap_or("?")
    );
    println!("times: median of {} launches after one warm-up, kernel execution only; speed = faster other ms / clc ms (> 1: clc faster)\n", opts.reps);
    let fmt_ms = |o: &Outcome| match o {
        Outcome::Ran { times, check } => format!("{:.2}{}", median(times).unwrap_or(f64::NAN), if check.is_err() { "!" } else { "" }),
        other => other.status().to_string(),
    };
    let fmt_bw = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.1}"));
    println!(
        "{:<15} {:>11} {:>11} {:>11} {:>7} {:>7}  {:>8} {:>8} {:>8}",
        "kernel", "clc ms", "PoCL ms", "Intel ms", "speed", "vs", "clc GB/s", "PoCL", "Intel"
    );
    for r in &rows {
        let speed = r.speed();
        let flag = match speed {
            Some(s) if s < FLAG_BELOW => "  << clc below 0.8x",
            None if matches!(r.outcomes[0], Outcome::Unsupported(_)) => "  (clc: unsupported)",
            _ => "",
        };
        println!(
            "{:<15} {:>11} {:>11} {:>11} {:>7} {:>7}  {:>8} {:>8} {:>8}{flag}",
            r.case.name,
            fmt_ms(&r.outcomes[0]),
            fmt_ms(&r.outcomes[1]),
            fmt_ms(&r.outcomes[2]),
            speed.map_or("-".to_string(), |s| format!("{s:.2}x")),
            r.best_other().map_or("-", |(k, _)| NAMES[k]),
            fmt_bw(r.gbps(0)),
            fmt_bw(r.gbps(1)),
            fmt_bw(r.gbps(2)),
        );
    }
    println!(
        "\ngeometric mean of clc's speed vs the faster of PoCL and Intel: {} over {} kernels (goal: >= 1.00x, and no kernel below {FLAG_BELOW:.1}x): {}",
        gmean.map_or("n/a".to_string(), |g| format!("{g:.2}x")),
        speeds.len(),
        if goal_met { "met" } else { "NOT met" }
    );
    if !flagged.is_empty() {
        println!("clc below {FLAG_BELOW:.1}x: {}", flagged.join(", "));
    }
    println!(
        "GB/s: bytes the kernel must read and write / median time, for the memory-bound kernels (machine: {bandwidth:.1} GB/s); '!' after a time: wrong output"
    );
    for r in &rows {
        for (k, o) in r.outcomes.iter().enumerate() {
            if let Some(m) = o.message() {
                let m: Vec<String> = m
                    .lines()
                    .take(3)
                    .map(|l| if l.chars().count() > 160 { format!("{} ...", l.chars().take(160).collect::<String>()) } else { l.to_string() })
                    .collect();
                println!("note: {} on {}: {}: {}", r.case.name, NAMES[k], o.status(), m.join("\n      "));
            }
        }
    }
}
