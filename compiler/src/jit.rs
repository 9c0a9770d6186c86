//! Building a program from source in-process: the front end, the back end
//! for the host, and LLVM's JIT, handing the CPU runtime
//! ([`clc_runtime::Program`]) ready kernel entry points. No external
//! linker or compiler is involved.

use crate::codegen::{self, CodegenOptions};
use crate::diag::Diagnostics;
use crate::diag::render::{self, Format};
use crate::options::{ClStd, FpOptions, Target};
use crate::pp::{self, CmdMacro, PpOptions};
use crate::source::SourceMap;
use inkwell::context::Context;
use inkwell::llvm_sys::execution_engine::{LLVMCreateJITCompilerForModule, LLVMDisposeExecutionEngine, LLVMExecutionEngineRef, LLVMGetGlobalValueAddress, LLVMLinkInMCJIT};
use inkwell::module::Module;
use std::mem::ManuallyDrop;
use std::path::PathBuf;

/// How to build a program.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub std: ClStd,
    pub include_dirs: Vec<PathBuf>,
    /// `-include FILE`s, in order.
    pub includes: Vec<PathBuf>,
    /// `-D`/`-U`, in order.
    pub macros: Vec<CmdMacro>,
    /// 0 to 3 (default 2).
    pub opt_level: u8,
    pub fp: FpOptions,
    /// Code for this machine's CPU and its vector units (default); else
    /// for the architecture's baseline (x86-64 without AVX or FMA).
    pub host_cpu: bool,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { std: ClStd::default(), include_dirs: Vec::new(), includes: Vec::new(), macros: Vec::new(), opt_level: 2, fp: FpOptions::default(), host_cpu: true }
    }
}

/// Why a program did not build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// Errors in the program: the diagnostics, rendered as clang does.
    Program(String),
    /// A bug in clc (an internal compiler error).
    Internal(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Program(d) => f.write_str(d.trim_end()),
            BuildError::Internal(m) => write!(f, "internal compiler error: {m}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// The JIT's code, kept alive by the program that runs it.
struct Owner {
    /// LLVM's MCJIT, which owns the module and its code.
    engine: LLVMExecutionEngineRef,
    /// The context the module lives in, dropped after the engine.
    context: ManuallyDrop<Box<Context>>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        // SAFETY: the engine is disposed once (with the module it owns),
        // then the context it borrows.
        unsafe {
            LLVMDisposeExecutionEngine(self.engine);
            ManuallyDrop::drop(&mut self.context);
        }
    }
}

// SAFETY: after the JIT has finalised the code, the owner is only kept
// alive (never used) while any thread runs the code.
unsafe impl Send for Owner {}
unsafe impl Sync for Owner {}

/// Builds `source` (named `name` in diagnostics) for the CPU runtime.
pub fn build(source: &str, name: &str, opts: &BuildOptions) -> Result<clc_runtime::Program, BuildError> {
    let mut sm = SourceMap::new();
    let main = sm.add_virtual(name, source.to_string());
    let mut diags = Diagnostics::default();
    let pp_opts = PpOptions { std: opts.std, target: Target::Host, include_dirs: opts.include_dirs.clone(), macros: opts.macros.clone(), includes: opts.includes.clone(), fp: opts.fp, source_date_epoch: None, macro_dump: pp::MacroDump::None };
    let out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    let rendered = |diags: &Diagnostics| diags.iter().map(|d| render::render(&sm, d, Format::Clang)).collect::<String>();
    if out.fatal {
        return Err(BuildError::Program(rendered(&diags)));
    }
    let tu = crate::parse::parse(&sm, &out, opts.std, &mut diags);
    let program = crate::sema::check(&tu, &crate::sema::SemaOptions::new(opts.std, Target::Host, &out.pragmas), &mut diags);
    if diags.has_errors() {
        return Err(BuildError::Program(rendered(&diags)));
    }
    let cg = CodegenOptions {
        target: Target::Host,
        std: opts.std,
        opt_level: opts.opt_level,
        fp: opts.fp,
        fp_contract: out
            .pragmas
            .iter()
            .filter_map(|p| match p.kind {
                pp::PragmaKind::FpContract(s) => Some((p.span, s != pp::Switch::Off)),
                _ => None,
            })
            .collect(),
        host_cpu: opts.host_cpu,
        ..Default::default()
    };
    let context = Box::new(Context::create());
    // SAFETY: the context is boxed (its address is stable) and outlives
    // the module and engine, which `Owner` drops first.
    let ctx: &'static Context = unsafe { &*(&*context as *const Context) };
    let internal = |e: codegen::InternalError| BuildError::Internal(e.to_string());
    let module = codegen::lower(ctx, &program, &sm, name, &cg).map_err(internal)?;
    let tm = codegen::configure(&module, &cg).map_err(internal)?;
    // The JIT's code generator reads the CPU from each function.
    let (cpu, features) = (tm.get_cpu().to_string(), tm.get_feature_string().to_string_lossy().into_owned());
    let mut f = module.get_first_function();
    while let Some(func) = f {
        if func.count_basic_blocks() > 0 {
            func.add_attribute(inkwell::attributes::AttributeLoc::Function, ctx.create_string_attribute("target-cpu", &cpu));
            func.add_attribute(inkwell::attributes::AttributeLoc::Function, ctx.create_string_attribute("target-features", &features));
        }
        f = func.get_next_function();
    }
    codegen::verify(&module).map_err(internal)?;
    codegen::optimize_for_jit(&module, &tm, cg.opt_level, libmvec_loaded()).map_err(internal)?;
    missing_functions(&module)?;
    let engine = jit_engine(module)?;
    let owner = Owner { engine, context: ManuallyDrop::new(context) };
    // SAFETY: a live engine; the name is NUL-terminated. Asking for the
    // address finalises the code.
    let table = unsafe { LLVMGetGlobalValueAddress(owner.engine, c"__clc_kernel_table".as_ptr()) };
    if table == 0 {
        return Err(BuildError::Internal("the JIT has no kernel table".into()));
    }
    // SAFETY: the table was emitted by the lowering for this module, and
    // its code lives as long as `owner`, which the program keeps.
    unsafe { clc_runtime::Program::from_table(table as *const clc_runtime::abi::KernelTable, Box::new(owner)) }.map_err(|e| BuildError::Internal(e.to_string()))
}

/// LLVM's MCJIT for `module`, which it takes over (its code generator
/// is x86's, registered by [`codegen::configure`]).
///
/// Not inkwell's `create_jit_execution_engine`: that registers the
/// "native" target through llvm-sys's `LLVM_InitializeNativeTarget`,
/// whose object file also holds `LLVM_InitializeAllTargets`, so linking
/// it links every back end LLVM was built with, and their static
/// constructors (a few hundred, registering options and tables) then run
/// at the start of every clc process.
fn jit_engine(module: Module<'static>) -> Result<LLVMExecutionEngineRef, BuildError> {
    let raw = module.as_mut_ptr();
    // The engine owns the module from here, whether or not it is created
    // (LLVM deletes it on failure); inkwell's wrapper must not dispose it.
    std::mem::forget(module);
    let mut engine = std::ptr::null_mut();
    let mut error = std::ptr::null_mut();
    // SAFETY: MCJIT linked in, then created for a verified module with
    // out-pointers to locals; an error message is LLVM's to free.
    unsafe {
        LLVMLinkInMCJIT();
        if LLVMCreateJITCompilerForModule(&mut engine, raw, inkwell::OptimizationLevel::Aggressive as u32, &mut error) != 0 {
            let message = if error.is_null() { "LLVM could not create its JIT".to_string() } else { std::ffi::CStr::from_ptr(error).to_string_lossy().into_owned() };
            if !error.is_null() {
                inkwell::llvm_sys::core::LLVMDisposeMessage(error);
            }
            return Err(BuildError::Internal(message));
        }
    }
    Ok(engine)
}

/// Loads glibc's vector math library into the process (once), so that
/// code vectorised with its functions ([`codegen::vecmath`]) resolves; is
/// it there?
fn libmvec_loaded() -> bool {
    static LOADED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOADED.get_or_init(|| inkwell::support::load_library_permanently(std::path::Path::new("libmvec.so.1")).is_ok())
}

/// Functions the program calls that nothing provides: the JIT would abort
/// on them, so they are reported first.
fn missing_functions(module: &Module<'_>) -> Result<(), BuildError> {
    // The C library functions the generated code may call (LLVM's own
    // library calls, `sinf`, `fmod`, …, appear only in machine code).
    const PROVIDED: &[&str] = &["printf", "memcpy", "memset", "memmove"];
    let mut missing = Vec::new();
    let mut f = module.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        // `_ZGV…`: libmvec's vector variants, declared only when it is loaded.
        let provided = name.starts_with("llvm.") || name.starts_with("_ZGV") || PROVIDED.contains(&name.as_str()) || codegen::libm_symbols().any(|s| s == name);
        if func.count_basic_blocks() == 0 && !provided {
            missing.push(demangle(&name));
        }
        f = func.get_next_function();
    }
    missing.sort();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    Err(BuildError::Program(format!(
        "error: the program calls functions the CPU target does not provide yet: {}\nnote: most of these are builtins that come with clc's builtin library\n",
        missing.join(", ")
    )))
}

/// `_Z3sinf` → `sin`; other names unchanged.
fn demangle(name: &str) -> String {
    let Some(rest) = name.strip_prefix("_Z") else { return name.to_string() };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    match digits.parse::<usize>() {
        Ok(n) => rest[digits.len()..].get(..n).unwrap_or(name).to_string(),
        Err(_) => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    fn build_ok(src: &str) -> clc_runtime::Program {
        build(src, "test.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn vector_add_runs_on_all_cores_over_many_groups() {
        let p = build_ok("kernel void add(global const float *a, global const float *b, global float *c, uint n) { size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }");
        let n = 100_003usize;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.5).collect();
        let (ba, bb, bc) = (Buffer::from_slice(&a), Buffer::from_slice(&b), Buffer::new(n * 4));
        let mut k = p.kernel("add").unwrap();
        k.set_arg(0, Arg::Buffer(&ba)).unwrap();
        k.set_arg(1, Arg::Buffer(&bb)).unwrap();
        k.set_arg(2, Arg::Buffer(&bc)).unwrap();
        k.set_arg(3, Arg::value(n as u32)).unwrap();
        k.launch(&NdRange::linear(n)).unwrap();
        let c = bc.read::<f32>();
        for i in 0..n {
            assert_eq!(c[i], a[i] + b[i], "{i}");
        }
    }

    /// Atomics on `__local` memory (plain operations on the CPU, where a
    /// group runs on one thread) keep their effect: counts, min/max,
    /// exchange and compare-exchange, legacy and C11 forms.
    #[test]
    fn local_atomics_count_every_update() {
        let p = build_ok(
            "kernel void h(global const uint *in, global uint *out, global int *res) {
                 local uint bins[16];
                 local int mn, mx, sum, cas, xch;
                 local atomic_int c11;
                 size_t l = get_local_id(0);
                 if (l < 16) bins[l] = 0;
                 if (l == 0) { mn = 1 << 30; mx = -(1 << 30); sum = 0; cas = 0; xch = -1; atomic_init(&c11, 0); }
                 barrier(CLK_LOCAL_MEM_FENCE);
                 uint v = in[get_global_id(0)];
                 atomic_inc(&bins[v % 16]);
                 atomic_min(&mn, (int)v - 500);
                 atomic_max(&mx, (int)v - 500);
                 atomic_add(&sum, (int)v);
                 atomic_sub(&sum, 1);
                 // Each work-item takes the next ticket once.
                 int seen = cas;
                 while (atomic_cmpxchg(&cas, seen, seen + 1) != seen) seen = cas;
                 atomic_xchg(&xch, (int)l);
                 atomic_fetch_add_explicit(&c11, 2, memory_order_relaxed, memory_scope_work_group);
                 int expected = 0;
                 atomic_compare_exchange_strong(&c11, &expected, 1000);
                 barrier(CLK_LOCAL_MEM_FENCE);
                 size_t g = get_group_id(0);
                 if (l < 16) out[g * 16 + l] = bins[l];
                 if (l == 0) {
                     res[g * 6 + 0] = mn; res[g * 6 + 1] = mx; res[g * 6 + 2] = sum;
                     res[g * 6 + 3] = cas; res[g * 6 + 4] = xch >= 0 && xch < (int)get_local_size(0);
                     res[g * 6 + 5] = atomic_load(&c11);
                 }
             }",
        );
        let (groups, size) = (5usize, 64usize);
        let input: Vec<u32> = (0..groups * size).map(|i| ((i * 7919) % 1000) as u32).collect();
        let (bi, bo, br) = (Buffer::from_slice(&input), Buffer::new(groups * 16 * 4), Buffer::new(groups * 6 * 4));
        let mut k = p.kernel("h").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Buffer(&br)).unwrap();
        k.launch(&NdRange { dims: 1, global: [groups * size, 1, 1], offset: [0; 3], local: Some([size, 1, 1]) }).unwrap();
        let (o, r) = (bo.read::<u32>(), br.read::<i32>());
        for g in 0..groups {
            let part = &input[g * size..(g + 1) * size];
            let mut bins = [0u32; 16];
            for &v in part {
                bins[(v % 16) as usize] += 1;
            }
            assert_eq!(&o[g * 16..g * 16 + 16], &bins, "group {g}");
            let min = part.iter().map(|&v| v as i32 - 500).min().unwrap();
            let max = part.iter().map(|&v| v as i32 - 500).max().unwrap();
            let sum = part.iter().map(|&v| v as i32).sum::<i32>() - size as i32;
            // c11: 2 per work-item; the compare-exchange to 1000 fails once
            // the first add has happened, and the first work-item's own
            // add precedes its compare-exchange: it never succeeds.
            assert_eq!(&r[g * 6..g * 6 + 6], &[min, max, sum, size as i32, 1, 2 * size as i32], "group {g}");
        }
    }

    /// Compare-exchange of `atomic_float` and `atomic_double` compares bits
    /// (C11's value representations: -0 is not +0, a NaN equals itself);
    /// `atomic_work_item_fence` and the sub-group functions (a sub-group is
    /// one work-item on the CPU) lower and run.
    #[test]
    fn float_compare_exchange_fences_and_sub_groups() {
        let p = build_ok(
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
             kernel void k(global atomic_float *f, global atomic_double *d, global int *r) {
                 float e = 0.0f;
                 r[0] = atomic_compare_exchange_strong(f, &e, 1.0f);
                 r[1] = as_int(e);
                 r[2] = atomic_compare_exchange_strong(f, &e, 2.5f);
                 float n = as_float(0x7fc00001);
                 r[3] = atomic_compare_exchange_weak_explicit(f + 1, &n, 3.0f, memory_order_acq_rel, memory_order_acquire, memory_scope_device);
                 double de = -0.0;
                 r[4] = atomic_compare_exchange_strong(d, &de, 4.0);
                 r[5] = as_long(de) == 0;
                 atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
                 atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
                 r[6] = sub_group_reduce_add(5) + 10 * sub_group_scan_exclusive_add(5) + 100 * sub_group_scan_inclusive_max(7);
                 r[7] = sub_group_broadcast(9, 0) + 10 * sub_group_all(3) + 100 * sub_group_any(0) + 1000 * (int)get_sub_group_size();
                 r[8] = (int)sub_group_scan_exclusive_min(2.0f) == 0 ? 0 : sub_group_scan_exclusive_min(2) == INT_MAX;
             }",
        );
        let bf = Buffer::from_slice(&[-0.0f32, f32::from_bits(0x7fc0_0001)]);
        let bd = Buffer::from_slice(&[0.0f64]);
        let br = Buffer::new(9 * 4);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bf)).unwrap();
        k.set_arg(1, Arg::Buffer(&bd)).unwrap();
        k.set_arg(2, Arg::Buffer(&br)).unwrap();
        k.launch(&NdRange::linear(1)).unwrap();
        // +0 against -0 fails and loads -0; then it succeeds; the NaN
        // matches its own bits; -0.0 against +0.0 fails.
        assert_eq!(br.read::<i32>(), [0, i32::MIN, 1, 1, 0, 1, 5 + 700, 9 + 10 + 1000, 0]);
        assert_eq!(bf.read::<f32>(), [2.5, 3.0]);
        assert_eq!(bd.read::<f64>(), [0.0]);
    }

    /// The value of half `h` (NaN for NaNs).
    fn half_value(h: u16) -> f64 {
        f64::from(clc_runtime::image::half_to_f32(h))
    }

    /// `x` rounded to half as `mode` (`rte`, `rtz`, `rtp`, `rtn`) says,
    /// found among all halves: the nearest at or below, at or above, or
    /// nearest (ties to the even significand; +inf from 65520 on).
    fn to_half(x: f64, mode: &str) -> u16 {
        if x.is_nan() {
            return 0x7e00;
        }
        let halves: Vec<u16> = (0..=u16::MAX).filter(|&h| !half_value(h).is_nan()).collect();
        let below = halves.iter().copied().filter(|&h| half_value(h) <= x).max_by(|&a, &b| half_value(a).total_cmp(&half_value(b))).unwrap();
        let above = halves.iter().copied().filter(|&h| half_value(h) >= x).min_by(|&a, &b| half_value(a).total_cmp(&half_value(b))).unwrap();
        let h = match mode {
            "rtn" => below,
            "rtp" => above,
            "rtz" if x >= 0.0 => below,
            "rtz" => above,
            _ if x.abs() >= 65520.0 => if x > 0.0 { 0x7c00 } else { 0xfc00 },
            _ => {
                let (db, da) = (x - half_value(below), half_value(above) - x);
                if db < da || db == da && below & 1 == 0 { below } else { above }
            }
        };
        // A zero takes x's sign.
        if half_value(h) == 0.0 { if x.is_sign_negative() { 0x8000 } else { 0 } } else { h }
    }

    /// `vstore_half[n]_rt*` and `vstorea_half[n]_rt*` of `float` and
    /// `double` store the half the rounding mode names (the double
    /// rounded once, not through float), every lane of a vector as the
    /// scalar.
    #[test]
    fn vstore_half_rounds_as_named() {
        let p = build_ok(
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
             kernel void k(global const float *f, global const double *d, global half *o) {
                 size_t i = get_global_id(0);
                 vstore_half_rte(f[i], 8 * i, o); vstore_half_rtz(f[i], 8 * i + 1, o);
                 vstore_half_rtp(f[i], 8 * i + 2, o); vstore_half_rtn(f[i], 8 * i + 3, o);
                 vstore_half(d[i], 8 * i + 4, o); vstore_half_rtz(d[i], 8 * i + 5, o);
                 vstore_half_rtp(d[i], 8 * i + 6, o); vstore_half_rtn(d[i], 8 * i + 7, o);
             }
             kernel void v(global const float *f, global half *o) {
                 size_t i = get_global_id(0);
                 vstore_half4_rtz(vload4(i, f), i, o);
                 vstorea_half3_rtp(vload3(i, f), i, o + 4 * get_global_size(0));
                 vstore_half2_rtn(vload2(2 * i, f), 2 * i, o + 8 * get_global_size(0));
             }",
        );
        let tie = 1.0 + 2f64.powi(-11);
        let mut xs: Vec<f64> = vec![
            1.0, tie, -tie, tie + 2f64.powi(-23), 3.0 * tie, 65504.0, 65519.99, 65520.0, 70000.0, -70000.0, f64::INFINITY, f64::NEG_INFINITY,
            f64::NAN, 2f64.powi(-25), -(2f64.powi(-25)), 2f64.powi(-26), -(2f64.powi(-26)), 3.0 * 2f64.powi(-26), 0.0, -0.0, 0.1, -0.1, 1.0 / 3.0,
            6.1e-5, 2f64.powi(-14) - 2f64.powi(-30), -2.5e-7, 1e-3, 12345.678,
        ];
        xs.extend((1..37).map(|i| (i as f64 * 0.7137).sin() * 10f64.powi(i % 11 - 5)));
        let n = xs.len();
        let f: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        // Doubles that rounding through float would get wrong: just past a
        // tie in half, the excess below float's precision.
        let d: Vec<f64> = xs.iter().enumerate().map(|(i, &x)| if i % 3 == 0 && x.is_finite() { x * (1.0 + 2f64.powi(-40)) } else { x }).collect();
        let (bf, bd, bo) = (Buffer::from_slice(&f), Buffer::from_slice(&d), Buffer::new(n * 8 * 2));
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bf)).unwrap();
        k.set_arg(1, Arg::Buffer(&bd)).unwrap();
        k.set_arg(2, Arg::Buffer(&bo)).unwrap();
        k.launch(&NdRange::linear(n)).unwrap();
        let o = bo.read::<u16>();
        let same = |got: u16, want: u16| got == want || half_value(got).is_nan() && half_value(want).is_nan();
        for i in 0..n {
            for (j, mode) in ["rte", "rtz", "rtp", "rtn"].into_iter().enumerate() {
                let (wf, wd) = (to_half(f64::from(f[i]), mode), to_half(d[i], mode));
                assert!(same(o[8 * i + j], wf), "vstore_half_{mode}({:e}f): {:#06x}, want {wf:#06x}", f[i], o[8 * i + j]);
                assert!(same(o[8 * i + 4 + j], wd), "vstore_half_{mode}({:e}): {:#06x}, want {wd:#06x}", d[i], o[8 * i + 4 + j]);
            }
        }
        // The vector forms: work-items over groups of four floats.
        let items = n / 4;
        let bv = Buffer::new(items * 12 * 2);
        let mut v = p.kernel("v").unwrap();
        v.set_arg(0, Arg::Buffer(&bf)).unwrap();
        v.set_arg(1, Arg::Buffer(&bv)).unwrap();
        v.launch(&NdRange::linear(items)).unwrap();
        let o = bv.read::<u16>();
        for i in 0..items {
            for l in 0..4 {
                let x = f64::from(f[4 * i + l]);
                assert!(same(o[4 * i + l], to_half(x, "rtz")), "vstore_half4_rtz lane {l} of {x:e}");
                if l < 3 {
                    // vload3 reads from 3i; vstorea_half3 stores at 4i.
                    let x = f64::from(f[3 * i + l]);
                    assert!(same(o[4 * items + 4 * i + l], to_half(x, "rtp")), "vstorea_half3_rtp lane {l} of {x:e}");
                }
                if l < 2 {
                    let x = f64::from(f[4 * i + l]);
                    assert!(same(o[8 * items + 4 * i + l], to_half(x, "rtn")), "vstore_half2_rtn lane {l} of {x:e}");
                }
            }
        }
    }

    /// Bound tests on the global id (`if (i < n)`, `lo <= i < hi`), which
    /// the optimiser splits out of the work-item loop: exactly the
    /// work-items inside the bounds write, for bounds inside, at and
    /// beyond the range, with offsets.
    #[test]
    fn bound_checks_on_global_ids_keep_their_meaning() {
        let p = build_ok(
            "kernel void lt(global const float *a, global float *c, uint n) { size_t i = get_global_id(0); if (i < n) c[i] = a[i] * 2.0f; }
             kernel void band(global float *c, int lo, int hi) { int i = get_global_id(0); if (i >= lo && i < hi) c[i] += 1.0f; }",
        );
        let a: Vec<f32> = (0..2000).map(|i| i as f32).collect();
        for (global, off, n) in [(1024usize, 0usize, 1000u32), (1024, 0, 0), (1024, 0, 5000), (999, 7, 500), (64, 0, 63)] {
            let (ba, bc) = (Buffer::from_slice(&a), Buffer::from_slice(&vec![-1f32; 2000]));
            let mut k = p.kernel("lt").unwrap();
            k.set_arg(0, Arg::Buffer(&ba)).unwrap();
            k.set_arg(1, Arg::Buffer(&bc)).unwrap();
            k.set_arg(2, Arg::value(n)).unwrap();
            k.launch(&NdRange { dims: 1, global: [global, 1, 1], offset: [off, 0, 0], local: Some([16, 1, 1]) }).unwrap();
            for (i, &v) in bc.read::<f32>().iter().enumerate() {
                let runs = i >= off && i < off + global && i < n as usize;
                assert_eq!(v, if runs { 2.0 * i as f32 } else { -1.0 }, "global {global}, offset {off}, n {n}: element {i}");
            }
        }
        for (lo, hi) in [(10i32, 900i32), (-5, 3), (500, 499), (0, 1024)] {
            let bc = Buffer::from_slice(&vec![0f32; 1024]);
            let mut k = p.kernel("band").unwrap();
            k.set_arg(0, Arg::Buffer(&bc)).unwrap();
            k.set_arg(1, Arg::value(lo)).unwrap();
            k.set_arg(2, Arg::value(hi)).unwrap();
            k.launch(&NdRange::linear(1024)).unwrap();
            for (i, &v) in bc.read::<f32>().iter().enumerate() {
                let inside = (i as i32) >= lo && (i as i32) < hi;
                assert_eq!(v, if inside { 1.0 } else { 0.0 }, "band [{lo}, {hi}): element {i}");
            }
        }
        // Ids at the top of the range the runtime allows, where the
        // compiled code assumes no wrap: tested against a bound, and
        // with the group and local ids they are made of.
        let p = build_ok(
            "kernel void top(global long *o, ulong n) { size_t i = get_global_id(0); size_t k = i - get_global_offset(0);
                 if (i < n) o[k] = i; else o[k] = -(long)(get_group_id(0) * get_enqueued_local_size(0) + get_local_id(0)); }",
        );
        let limit = clc_runtime::MAX_GLOBAL_ID;
        for (global, local, n) in [(100usize, 16usize, limit - 30), (96, 32, limit), (64, 1, limit - 64)] {
            let off = limit - global;
            let o = Buffer::new(8 * global);
            let mut k = p.kernel("top").unwrap();
            k.set_arg(0, Arg::Buffer(&o)).unwrap();
            k.set_arg(1, Arg::value(n as u64)).unwrap();
            k.launch(&NdRange { dims: 1, global: [global, 1, 1], offset: [off, 0, 0], local: Some([local, 1, 1]) }).unwrap();
            for (j, &v) in o.read::<i64>().iter().enumerate() {
                let id = off + j;
                assert_eq!(v, if id < n { id as i64 } else { -(j as i64) }, "offset {off}, global {global}, local {local}, n {n}: work-item {j}");
            }
        }
    }

    /// A kernel that asks only for global ids runs many groups as one
    /// (`FLAG_GROUP_FREE`); every work-item still runs exactly once with
    /// its own ids, over 1-, 2- and 3-D ranges with offsets, non-uniform
    /// groups and ranges of many groups.
    #[test]
    fn group_free_kernels_run_every_work_item_once_with_its_ids() {
        let p = build_ok(
            "kernel void ids(global uint *o, global uint *count) {
                 size_t g = get_global_linear_id() * 5;
                 o[g + 0] = get_global_id(0); o[g + 1] = get_global_id(1); o[g + 2] = get_global_id(2);
                 o[g + 3] = get_global_size(0) + 1000 * get_global_size(1) + 100000 * get_global_size(2);
                 o[g + 4] = get_work_dim() + 10 * get_global_offset(0) + 1000 * get_global_offset(1);
                 atomic_inc(&count[get_global_linear_id()]);
             }
             kernel void locals(global uint *o) { o[get_global_id(0)] = get_local_id(0); }",
        );
        assert!(p.kernels()[0].group_free, "ids asks only for global ids");
        assert!(!p.kernels()[1].group_free, "locals asks for local ids");
        for (dims, gs, ls, off) in [
            (1u32, [10_007usize, 1, 1], Some([16usize, 1, 1]), [5usize, 0, 0]),
            (1, [4096, 1, 1], None, [0, 0, 0]),
            // Batches wider than the largest group (the x size then has
            // no bound: `local_sizes`).
            (1, [1 << 20, 1, 1], Some([64, 1, 1]), [0, 0, 0]),
            (2, [131, 37, 1], Some([8, 4, 1]), [3, 2, 0]),
            (3, [29, 5, 7], Some([4, 2, 3]), [1, 0, 2]),
        ] {
            let n = gs.iter().product::<usize>();
            let (out, count) = (Buffer::new(n * 5 * 4), Buffer::new(n * 4));
            let mut k = p.kernel("ids").unwrap();
            k.set_arg(0, Arg::Buffer(&out)).unwrap();
            k.set_arg(1, Arg::Buffer(&count)).unwrap();
            k.launch(&NdRange { dims, global: gs, offset: off, local: ls }).unwrap();
            let (o, c) = (out.read::<u32>(), count.read::<u32>());
            for z in 0..gs[2] {
                for y in 0..gs[1] {
                    for x in 0..gs[0] {
                        let lin = (z * gs[1] + y) * gs[0] + x;
                        assert_eq!(c[lin], 1, "{dims}-D range: work-item {:?} ran {} times", [x, y, z], c[lin]);
                        let want = [x + off[0], y + off[1], z + off[2], gs[0] + 1000 * gs[1] + 100_000 * gs[2], dims as usize + 10 * off[0] + 1000 * off[1]];
                        let got: Vec<usize> = o[lin * 5..lin * 5 + 5].iter().map(|&v| v as usize).collect();
                        assert_eq!(got, want, "{dims}-D range, work-item {:?}", [x, y, z]);
                    }
                }
            }
        }
        // A vectorised group-free loop over batches wider than the
        // largest group (the x size has no bound there: `local_sizes`;
        // with one, this wrote past the buffer).
        let p2 = build_ok("kernel void add(global const float *a, global float *c, uint n) { size_t i = get_global_id(0); if (i < n) c[i] = a[i] + 1.0f; }");
        let n = (1usize << 20) + 3;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let (ba, bc) = (Buffer::from_slice(&a), Buffer::from_slice(&vec![0f32; n]));
        let mut k = p2.kernel("add").unwrap();
        k.set_arg(0, Arg::Buffer(&ba)).unwrap();
        k.set_arg(1, Arg::Buffer(&bc)).unwrap();
        k.set_arg(2, Arg::value(n as u32 - 1)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([64, 1, 1]) }).unwrap();
        let c = bc.read::<f32>();
        assert!((0..n - 1).all(|i| c[i] == a[i] + 1.0) && c[n - 1] == 0.0);
        // Local ids stay per group.
        let out = Buffer::new(100 * 4);
        let mut k = p.kernel("locals").unwrap();
        k.set_arg(0, Arg::Buffer(&out)).unwrap();
        k.launch(&NdRange { dims: 1, global: [100, 1, 1], offset: [0; 3], local: Some([8, 1, 1]) }).unwrap();
        assert!(out.read::<u32>().iter().enumerate().all(|(i, &v)| v as usize == i % 8));
    }

    #[test]
    fn kernels_in_regions_without_synchronisation_over_groups_of_several_rows() {
        // Loops the group runs in lockstep (a uniform trip count), a
        // divergent loop (a trip count per work-item) and an early return,
        // without barriers, over 2-D and 3-D groups of several rows,
        // non-uniform ones too. Such a kernel keeps its row loop (the
        // runtime does not run it by rows: its entry does more before the
        // loops than a plain kernel's, which a call per row would repeat;
        // 27 % more instructions for the runtime benchmark's convolution).
        let p = build_ok(
            "kernel void rows(global int *o, int n) {
                 size_t g = get_global_linear_id();
                 int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
                 if (x == 3 && y == 1) { o[g] = -7; return; }
                 int acc = 0;
                 for (int k = 0; k < n; k++) acc += k * (x + 2 * y + 3 * z + (int)get_local_linear_id());
                 int m = x + y + z, steps = 0;
                 while (m > 1) { m = (m % 2) ? 3 * m + 1 : m / 2; steps++; }
                 o[g] = acc * 1000 + steps;
             }",
        );
        assert!(!p.kernel("rows").unwrap().info().one_row, "a kernel in regions keeps its row loop");
        for (dims, gs, ls) in [(2u32, [9usize, 7, 1], [4usize, 3, 1]), (3, [7, 5, 3], [4, 2, 3])] {
            let n = gs.iter().product::<usize>();
            let out = Buffer::new(n * 4);
            let mut k = p.kernel("rows").unwrap();
            k.set_arg(0, Arg::Buffer(&out)).unwrap();
            k.set_arg(1, Arg::Value(5i32.to_ne_bytes().to_vec())).unwrap();
            k.launch(&NdRange { dims, global: gs, offset: [0; 3], local: Some(ls) }).unwrap();
            let o = out.read::<i32>();
            for z in 0..gs[2] {
                for y in 0..gs[1] {
                    for x in 0..gs[0] {
                        let g = (z * gs[1] + y) * gs[0] + x;
                        let want = if x == 3 && y == 1 {
                            -7
                        } else {
                            let id = [x, y, z];
                            let lsz: [usize; 3] = std::array::from_fn(|d| ls[d].min(gs[d] - id[d] / ls[d] * ls[d]));
                            let lid: [usize; 3] = std::array::from_fn(|d| id[d] % ls[d]);
                            let lin = ((lid[2] * lsz[1] + lid[1]) * lsz[0] + lid[0]) as i32;
                            let acc: i32 = (0..5).map(|k| k * (x as i32 + 2 * y as i32 + 3 * z as i32 + lin)).sum();
                            let (mut m, mut steps) = (x + y + z, 0);
                            while m > 1 {
                                m = if m % 2 == 1 { 3 * m + 1 } else { m / 2 };
                                steps += 1;
                            }
                            acc * 1000 + steps
                        };
                        assert_eq!(o[g], want, "{dims}-D, work-item ({x}, {y}, {z})");
                    }
                }
            }
        }
    }

    #[test]
    fn work_item_functions_over_1d_2d_3d_ranges_with_offsets_and_non_uniform_groups() {
        // Every work-item writes its ids; a 3-D range whose local size does
        // not divide the global size (OpenCL 2.0 non-uniform groups).
        let p = build_ok(
            "kernel void ids(global uint *o) {
                 size_t g = get_global_linear_id() * 12;
                 o[g + 0] = get_global_id(0); o[g + 1] = get_global_id(1); o[g + 2] = get_global_id(2);
                 o[g + 3] = get_local_id(0); o[g + 4] = get_local_id(1); o[g + 5] = get_local_id(2);
                 o[g + 6] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
                 o[g + 7] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2);
                 o[g + 8] = get_enqueued_local_size(0) + 100 * get_enqueued_local_size(1);
                 o[g + 9] = get_num_groups(0) + 100 * get_num_groups(1) + 10000 * get_num_groups(2);
                 o[g + 10] = get_work_dim() + 10 * get_global_offset(0) + 1000 * get_global_offset(2);
                 o[g + 11] = get_local_linear_id();
             }",
        );
        for (dims, gs, ls, off) in [(1u32, [37usize, 1, 1], [8usize, 1, 1], [5usize, 0, 0]), (2, [9, 7, 1], [4, 3, 1], [0, 2, 0]), (3, [7, 5, 3], [4, 2, 3], [10, 0, 2])] {
            let n = gs.iter().product::<usize>();
            let out = Buffer::new(n * 12 * 4);
            let mut k = p.kernel("ids").unwrap();
            k.set_arg(0, Arg::Buffer(&out)).unwrap();
            k.launch(&NdRange { dims, global: gs, offset: off, local: Some(ls) }).unwrap();
            let o = out.read::<u32>();
            for z in 0..gs[2] {
                for y in 0..gs[1] {
                    for x in 0..gs[0] {
                        let g = ((z * gs[1] + y) * gs[0] + x) * 12;
                        let id = [x, y, z];
                        let lid: [usize; 3] = std::array::from_fn(|d| id[d] % ls[d]);
                        let grp: [usize; 3] = std::array::from_fn(|d| id[d] / ls[d]);
                        let lsz: [usize; 3] = std::array::from_fn(|d| ls[d].min(gs[d] - grp[d] * ls[d]));
                        let ng: [usize; 3] = std::array::from_fn(|d| gs[d].div_ceil(ls[d]));
                        let want = [
                            x + off[0],
                            y + off[1],
                            z + off[2],
                            lid[0],
                            lid[1],
                            lid[2],
                            grp[0] + 100 * grp[1] + 10000 * grp[2],
                            lsz[0] + 100 * lsz[1] + 10000 * lsz[2],
                            ls[0] + 100 * ls[1],
                            ng[0] + 100 * ng[1] + 10000 * ng[2],
                            dims as usize + 10 * off[0] + 1000 * off[2],
                            (lid[2] * lsz[1] + lid[1]) * lsz[0] + lid[0],
                        ];
                        let got: Vec<usize> = o[g..g + 12].iter().map(|&v| v as usize).collect();
                        assert_eq!(got, want, "{dims}-D range, work-item {id:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn atomics_under_contention_lose_no_update() {
        let p = build_ok("kernel void count(global atomic_int *c, global int *legacy) { atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_device); atomic_inc(legacy); }");
        let (c, l) = (Buffer::new(4), Buffer::new(4));
        let mut k = p.kernel("count").unwrap();
        k.set_arg(0, Arg::Buffer(&c)).unwrap();
        k.set_arg(1, Arg::Buffer(&l)).unwrap();
        let n = 1 << 20;
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([64, 1, 1]) }).unwrap();
        assert_eq!(c.read::<i32>()[0], n as i32);
        assert_eq!(l.read::<i32>()[0], n as i32);
    }

    #[test]
    fn asynchronous_launches_complete_and_keep_their_buffers() {
        let p = build_ok("kernel void sq(global int *x) { size_t i = get_global_id(0); x[i] = x[i] * x[i]; }");
        let n = 1 << 18;
        let b = Buffer::from_slice(&(0..n as i32).map(|i| i % 1000).collect::<Vec<_>>());
        let mut k = p.kernel("sq").unwrap();
        k.set_arg(0, Arg::Buffer(&b)).unwrap();
        let ev = k.launch_async(&NdRange::linear(n)).unwrap();
        drop(k);
        ev.wait();
        let got = b.read::<i32>();
        assert!(got.iter().enumerate().all(|(i, &v)| v == ((i % 1000) * (i % 1000)) as i32));
    }

    #[test]
    fn local_memory_is_per_group() {
        // Each group stages into its own __local memory (variables and a
        // __local pointer argument) with one work-item per group.
        let p = build_ok(
            "kernel void stage(global int *o, local int *scratch) {
                 local int tile[4];
                 int g = get_group_id(0);
                 tile[g % 4] = g * 3;
                 scratch[0] = g + 1;
                 o[g] = tile[g % 4] + scratch[0];
             }",
        );
        let o = Buffer::new(4 * 1000);
        let mut k = p.kernel("stage").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.set_arg(1, Arg::Local(16)).unwrap();
        k.launch(&NdRange { dims: 1, global: [1000, 1, 1], offset: [0; 3], local: Some([1, 1, 1]) }).unwrap();
        let got = o.read::<i32>();
        for (g, v) in got.iter().enumerate() {
            assert_eq!(*v, g as i32 * 4 + 1);
        }
    }

    #[test]
    fn mistakes_are_errors_with_messages() {
        let p = build_ok("kernel __attribute__((reqd_work_group_size(8, 1, 1))) void k(global float *x, float s) { x[get_global_id(0)] *= s; }
                          kernel void sync(global int *x) { if (x[1]) goto out; x[2] = work_group_reduce_add(1); out: x[0] = 1; }");
        assert!(p.kernel("nope").unwrap_err().to_string().contains("kernels: k, sync"));
        let b = Buffer::new(64);
        let mut k = p.kernel("k").unwrap();
        assert!(k.set_arg(1, Arg::Buffer(&b)).unwrap_err().to_string().contains("argument 1: 's' is float: expected a value of 4 bytes"));
        assert!(k.set_arg(1, Arg::value(1.0f64)).unwrap_err().to_string().contains("4 bytes; got 8 bytes"));
        assert!(k.set_arg(2, Arg::value(1.0f32)).unwrap_err().to_string().contains("takes 2 arguments"));
        k.set_arg(0, Arg::Buffer(&b)).unwrap();
        assert!(k.launch(&NdRange::linear(16)).unwrap_err().to_string().contains("'s' (float) is not set"));
        k.set_arg(1, Arg::value(2.0f32)).unwrap();
        let r = |local| NdRange { dims: 1, global: [16, 1, 1], offset: [0; 3], local };
        assert!(k.launch(&r(Some([4, 1, 1]))).unwrap_err().to_string().contains("reqd_work_group_size"));
        assert!(k.launch(&NdRange { dims: 4, ..r(None) }).unwrap_err().to_string().contains("1 to 3"));
        assert!(k.launch(&NdRange::linear(0)).unwrap_err().to_string().contains("zero dimension"));
        // Ids must stay below 2^62 and groups number at most 2^50 (the
        // compiled code relies on both).
        let limit = clc_runtime::MAX_GLOBAL_ID;
        assert!(k.launch(&NdRange { offset: [limit - 15, 0, 0], ..r(None) }).unwrap_err().to_string().contains("exceeds"));
        assert!(k.launch(&NdRange { offset: [usize::MAX - 4, 0, 0], ..r(None) }).unwrap_err().to_string().contains("exceeds"));
        assert!(k.launch(&NdRange { dims: 2, global: [16, 1 << 51, 1], offset: [0; 3], local: Some([8, 1, 1]) }).unwrap_err().to_string().contains("work-groups in dimension 1"));
        k.launch(&r(None)).unwrap();
        let mut s = p.kernel("sync").unwrap();
        s.set_arg(0, Arg::Buffer(&b)).unwrap();
        assert!(matches!(s.launch(&r(Some([16, 1, 1]))), Err(clc_runtime::Error::NotSupported(_))));
        s.launch(&r(None)).unwrap();
    }

    #[test]
    fn program_errors_and_missing_builtins_are_reported() {
        let e = build("kernel void k(global int *x) { x[0] = y; }", "bad.cl", &BuildOptions::default()).unwrap_err();
        assert!(e.to_string().contains("bad.cl:1:39: error: use of undeclared identifier 'y'"), "{e}");
        // A function declared but defined nowhere.
        let e = build("float helper(float); kernel void k(global float *x) { x[0] = helper(x[1]); }", "m.cl", &BuildOptions::default()).unwrap_err();
        assert!(e.to_string().contains("does not provide yet: helper"), "{e}");
    }
}

#[cfg(test)]
mod barrier_tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    fn build_ok(src: &str) -> clc_runtime::Program {
        build(src, "barriers.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn range(global: [usize; 3], local: [usize; 3], dims: u32) -> NdRange {
        NdRange { dims, global, offset: [0; 3], local: Some(local) }
    }

    #[test]
    fn local_memory_tree_reduction_with_barriers_in_a_loop() {
        let p = build_ok(
            "kernel void reduce(global const int *in, global int *out, local int *tmp) {
                 size_t l = get_local_id(0), n = get_local_size(0);
                 tmp[l] = in[get_global_id(0)];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 for (size_t s = n / 2; s > 0; s /= 2) {
                     if (l < s) tmp[l] += tmp[l + s];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 if (l == 0) out[get_group_id(0)] = tmp[0];
             }",
        );
        assert!(!p.kernels()[0].synchronises, "the region lowering handles this kernel");
        let (n, ls) = (1 << 16, 256);
        let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1000 - 500).collect();
        let (bi, bo) = (Buffer::from_slice(&input), Buffer::new(4 * n / ls));
        let mut k = p.kernel("reduce").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Local(ls * 4)).unwrap();
        k.launch(&range([n, 1, 1], [ls, 1, 1], 1)).unwrap();
        let out = bo.read::<i32>();
        for (g, v) in out.iter().enumerate() {
            assert_eq!(*v, input[g * ls..(g + 1) * ls].iter().sum::<i32>(), "group {g}");
        }
    }

    /// `break` and `continue` under uniform conditions between the
    /// barriers of a loop leave the loop (or its iteration) for the whole
    /// group: in `for`, `while` and `do`-`while` loops, from inside
    /// nested work-item loops' neighbours too.
    #[test]
    fn uniform_break_and_continue_in_loops_with_barriers() {
        let p = build_ok(
            "kernel void k(global int *out, global const int *limits, int maxit) {
                 local int buf[64];
                 int l = get_local_id(0), n = get_local_size(0);
                 int acc = 0;
                 for (int it = 0; it < maxit; it++) {
                     if (it == limits[get_group_id(0)]) break;
                     if (it % 3 == 1) continue;
                     for (int j = 0; j < 2; j++) { if (j == 1) break; acc += j; }
                     buf[l] = it * 100 + l;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     acc += buf[(l + 1) % n];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 int w = 0;
                 while (1) {
                     buf[l] = w + l;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     acc += buf[n - 1 - l];
                     barrier(CLK_LOCAL_MEM_FENCE);
                     w++;
                     if (w >= 3) break;
                 }
                 int d = 0;
                 do {
                     d++;
                     if (d == 2) continue;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     acc += 1000;
                 } while (d < 4);
                 out[get_global_id(0)] = acc;
             }",
        );
        let (groups, size, maxit) = (4usize, 16usize, 10i32);
        let limits = [0i32, 4, 7, 99];
        let (bo, bl) = (Buffer::new(groups * size * 4), Buffer::from_slice(&limits));
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bo)).unwrap();
        k.set_arg(1, Arg::Buffer(&bl)).unwrap();
        k.set_arg(2, Arg::value(maxit)).unwrap();
        k.launch(&range([groups * size, 1, 1], [size, 1, 1], 1)).unwrap();
        let o = bo.read::<i32>();
        for g in 0..groups {
            for l in 0..size {
                let mut acc = 0i32;
                for it in 0..maxit {
                    if it == limits[g] {
                        break;
                    }
                    if it % 3 == 1 {
                        continue;
                    }
                    acc += it * 100 + ((l + 1) % size) as i32;
                }
                for w in 0..3 {
                    acc += w + (size - 1 - l) as i32;
                }
                acc += 3 * 1000;
                assert_eq!(o[g * size + l], acc, "group {g}, work-item {l}");
            }
        }
    }

    /// A `switch` on a uniform value with barriers in its cases,
    /// fall-through, `default`, and a `break` out of the switch from
    /// between its barriers; inside a loop, where `continue` skips to the
    /// next iteration.
    #[test]
    fn barriers_in_a_switch_on_a_uniform_value() {
        let p = build_ok(
            "kernel void k(global int *out, global const int *modes) {
                 local int buf[32];
                 int l = get_local_id(0), n = get_local_size(0);
                 int acc = 0;
                 for (int it = 0; it < 3; it++) {
                     switch (modes[get_group_id(0)] + it) {
                     case 0:
                         buf[l] = l;
                         barrier(CLK_LOCAL_MEM_FENCE);
                         acc += buf[n - 1 - l];
                         barrier(CLK_LOCAL_MEM_FENCE);
                         /* fall through */
                     case 1:
                         acc += 10;
                         if (it == 2) break;
                         buf[l] = 2 * l;
                         barrier(CLK_LOCAL_MEM_FENCE);
                         acc += buf[(l + 1) % n];
                         barrier(CLK_LOCAL_MEM_FENCE);
                         break;
                     case 3:
                         continue;
                     default:
                         acc += 1000;
                         barrier(CLK_LOCAL_MEM_FENCE);
                     }
                     acc += 100000;
                 }
                 out[get_global_id(0)] = acc;
             }",
        );
        let modes = [0i32, 1, 2, 3, 7];
        let (groups, size) = (modes.len(), 8usize);
        let (bo, bm) = (Buffer::new(groups * size * 4), Buffer::from_slice(&modes));
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bo)).unwrap();
        k.set_arg(1, Arg::Buffer(&bm)).unwrap();
        k.launch(&range([groups * size, 1, 1], [size, 1, 1], 1)).unwrap();
        let o = bo.read::<i32>();
        for (g, &m) in modes.iter().enumerate() {
            for l in 0..size {
                let mut acc = 0i32;
                for it in 0..3 {
                    let v = m + it;
                    if v == 3 {
                        continue;
                    }
                    if v == 0 {
                        acc += (size - 1 - l) as i32;
                    }
                    if v == 0 || v == 1 {
                        acc += 10;
                        if it != 2 {
                            acc += 2 * ((l + 1) % size) as i32;
                        }
                    } else {
                        acc += 1000;
                    }
                    acc += 100_000;
                }
                assert_eq!(o[g * size + l], acc, "group {g} (mode {m}), work-item {l}");
            }
        }
    }

    /// The generic-pointer functions tell address spaces apart by address
    /// (one address space on the CPU): `to_global`, `to_local` and
    /// `to_private` give the pointer or null, `get_fence` the fence for
    /// its space. In a kernel without barriers, one the regions express,
    /// and one run with a thread per work-item (its own stack each).
    #[test]
    fn generic_pointers_know_their_address_space() {
        let p = build_ok(
            "int spaces(int *p) {
                 return (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2 | get_fence(p) << 3
                        | (to_global(p) == (global int *)p && to_local(p) == 0 ? 1 << 6 : 0);
             }
             void probe(global int *out, local int *l, local int *arg) {
                 int pr[2] = { 0, 0 };
                 size_t i = get_global_id(0);
                 out[5 * i] = spaces(out + i);
                 out[5 * i + 1] = spaces(&l[i % 4]);
                 out[5 * i + 2] = spaces(&pr[1]);
                 out[5 * i + 3] = spaces(arg + 1);
                 out[5 * i + 4] = spaces((int *)0);
             }
             kernel void plain(global int *out, local int *arg) {
                 local int l[4];
                 probe(out, l, arg);
             }
             kernel void regions(global int *out, local int *arg) {
                 local int l[4];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 probe(out, l, arg);
             }
             kernel void threads(global int *out, local int *arg, int skip) {
                 local int l[4];
                 if (skip) goto done;
                 barrier(CLK_LOCAL_MEM_FENCE);
             done:
                 probe(out, l, arg);
             }",
        );
        assert!(p.kernels()[2].item_threads, "a goto across a barrier runs with a thread per work-item");
        // Global: to_global, the global fence, the same pointer back;
        // local: to_local and the local fence; private: to_private;
        // null: nothing but the (global) fence, and null back.
        let want: Vec<i32> = (0..16).flat_map(|_| [1 | 2 << 3 | 1 << 6, 2 | 1 << 3, 4 | 2 << 3, 2 | 1 << 3, 2 << 3 | 1 << 6]).collect();
        for name in ["plain", "regions", "threads"] {
            let bo = Buffer::new(16 * 5 * 4);
            let mut k = p.kernel(name).unwrap();
            k.set_arg(0, Arg::Buffer(&bo)).unwrap();
            k.set_arg(1, Arg::Local(64)).unwrap();
            if name == "threads" {
                k.set_arg(2, Arg::value(0i32)).unwrap();
            }
            k.launch(&range([16, 1, 1], [8, 1, 1], 1)).unwrap();
            assert_eq!(bo.read::<i32>(), want, "{name}");
        }
    }

    /// A `goto` that stays inside the statements between two barriers is
    /// the work-item's own (the regions express the kernel); one across
    /// a barrier is not expressed, and such a kernel runs with a thread
    /// per work-item, its barriers still making the group wait.
    #[test]
    fn gotos_between_barriers() {
        let p = build_ok(
            "kernel void k(global int *out) {
                 local int b[8];
                 int l = get_local_id(0);
                 int s = 0;
                 { int i = 0; again: s += i; i++; if (i < 4) goto again; }
                 b[l] = s + l;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = b[7 - l];
             }
             kernel void across(global int *out, int skip) {
                 local int buf[8];
                 int l = get_local_id(0);
                 buf[l] = l * 10 + get_group_id(0);
                 if (skip) goto done;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = buf[get_local_size(0) - 1 - l];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 buf[l] = 0;
                 return;
             done:
                 out[get_global_id(0)] = -1;
             }
             kernel void diverge(global int *out) {
                 // Not conforming (work-item 0 skips the barrier): it must
                 // finish all the same.
                 int l = get_local_id(0);
                 if (l == 0) goto end;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = l;
             end:
                 ;
             }",
        );
        let bo = Buffer::new(16 * 4);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bo)).unwrap();
        k.launch(&range([16, 1, 1], [8, 1, 1], 1)).unwrap();
        assert_eq!(bo.read::<i32>(), (0..16).map(|i| 6 + (7 - i % 8)).collect::<Vec<i32>>());
        assert!(p.kernels()[1].item_threads, "a goto across a barrier is not expressed by regions");
        let bx = Buffer::new(20 * 4);
        let mut a = p.kernel("across").unwrap();
        a.set_arg(0, Arg::Buffer(&bx)).unwrap();
        for skip in [0, 1] {
            a.set_arg(1, Arg::value(skip)).unwrap();
            // Two full groups of 8 and a remainder group of 4.
            a.launch(&range([20, 1, 1], [8, 1, 1], 1)).unwrap();
            let want: Vec<i32> = (0..20)
                .map(|i| {
                    let (g, l) = (i / 8, i % 8);
                    let n = if g == 2 { 4 } else { 8 };
                    if skip == 1 { -1 } else { (n - 1 - l) * 10 + g }
                })
                .collect();
            assert_eq!(bx.read::<i32>(), want, "skip = {skip}");
        }
        let bd = Buffer::new(16 * 4);
        let mut d = p.kernel("diverge").unwrap();
        d.set_arg(0, Arg::Buffer(&bd)).unwrap();
        d.launch(&range([16, 1, 1], [8, 1, 1], 1)).unwrap();
        assert_eq!(bd.read::<i32>(), (0..16).map(|i| i % 8).collect::<Vec<i32>>());
    }

    /// Calls of functions with barriers inside larger expressions (`x =
    /// 2 * f(a) + f(b)`, a declaration's initializer) run for the whole
    /// group, each call once per work-item, in place.
    #[test]
    fn synchronising_calls_inside_expressions() {
        let p = build_ok(
            "int swap_sum(local int *buf, int v) {
                 int l = get_local_id(0), n = get_local_size(0);
                 buf[l] = v;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int r = buf[n - 1 - l];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 return r;
             }
             kernel void k(global int *out) {
                 local int buf[16];
                 int l = get_local_id(0);
                 int a = 2 * swap_sum(buf, l) + swap_sum(buf, 100 * l);
                 a += swap_sum(buf, a) - 1;
                 out[get_global_id(0)] = a;
             }",
        );
        let n = 16usize;
        let bo = Buffer::new(2 * n * 4);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&bo)).unwrap();
        k.launch(&range([2 * n, 1, 1], [n, 1, 1], 1)).unwrap();
        let a1: Vec<i32> = (0..n).map(|l| 2 * (n - 1 - l) as i32 + 100 * (n - 1 - l) as i32).collect();
        let want: Vec<i32> = (0..2 * n).map(|g| a1[g % n] + a1[n - 1 - g % n] - 1).collect();
        assert_eq!(bo.read::<i32>(), want);
    }

    /// GNU attributes between a function's declarator and its body apply
    /// to it (they were a syntax error): `reqd_work_group_size` there
    /// sizes the kernel's groups, `overloadable` there overloads.
    #[test]
    fn attributes_after_the_declarator_of_a_definition() {
        let p = build_ok(
            "int twice(int x) __attribute__((overloadable)) { return 2 * x; }
             float twice(float x) __attribute__((overloadable)) { return 3.0f * x; }
             kernel void k(global int *o) __attribute__((reqd_work_group_size(4, 1, 1))) __attribute__((unused_and_unknown)) {
                 o[get_global_id(0)] = get_local_size(0) * 100 + twice(1) + (int)twice(1.0f);
             }",
        );
        assert_eq!(p.kernels()[0].reqd_work_group_size, Some([4, 1, 1]));
        let o = Buffer::new(8 * 4);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.launch(&range([8, 1, 1], [4, 1, 1], 1)).unwrap();
        assert_eq!(o.read::<i32>(), vec![405; 8]);
        assert!(k.launch(&range([8, 1, 1], [2, 1, 1], 1)).is_err(), "the required size holds");
    }

    /// Statement expressions in kernels with barriers: between barriers,
    /// in the regions (their locals per work-item, in loops at group
    /// level); with a barrier or a jump inside one, on a thread per
    /// work-item, which the regions leave them to.
    #[test]
    fn statement_expressions_between_and_around_barriers() {
        let p = build_ok(
            "kernel void between(global int *out) {
                 local int b[16];
                 int l = get_local_id(0), n = get_local_size(0);
                 int mine = ({ int t = l * 3; t + 1; });
                 b[l] = mine;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int s = 0;
                 for (int r = 0; r < 3; r++) {
                     s += ({ int u = b[(l + r) % n]; u * (r + 1); });
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 out[get_global_id(0)] = s + mine;
             }
             kernel void inside(global int *out) {
                 local int b[16];
                 int l = get_local_id(0), n = get_local_size(0);
                 int r = ({ b[l] = l * l; barrier(CLK_LOCAL_MEM_FENCE); b[n - 1 - l]; });
                 out[get_global_id(0)] = r;
             }
             kernel void jumps(global int *out) {
                 local int b[16];
                 int l = get_local_id(0), n = get_local_size(0);
                 b[l] = l;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int s = 0;
                 for (int i = 0; i < n; i++) s += ({ if (i == l) continue; b[i]; });
                 out[get_global_id(0)] = s;
             }",
        );
        let n = 16usize;
        let run = |name: &str| {
            let o = Buffer::new(4 * 2 * n);
            let mut k = p.kernel(name).unwrap();
            k.set_arg(0, Arg::Buffer(&o)).unwrap();
            k.launch(&range([2 * n, 1, 1], [n, 1, 1], 1)).unwrap();
            o.read::<i32>()
        };
        let threads = |name: &str| p.kernels().iter().find(|k| k.name == name).unwrap().item_threads;
        let ni = n as i32;
        let between: Vec<i32> = (0..2 * ni)
            .map(|g| {
                let l = g % ni;
                (0..3).map(|r| (3 * ((l + r) % ni) + 1) * (r + 1)).sum::<i32>() + 3 * l + 1
            })
            .collect();
        assert_eq!(run("between"), between);
        assert!(!threads("between"), "statement expressions between barriers are in the regions");
        assert_eq!(run("inside"), (0..2 * ni).map(|g| (ni - 1 - g % ni).pow(2)).collect::<Vec<i32>>());
        assert!(threads("inside"), "a barrier inside a statement expression is not expressed by regions");
        assert_eq!(run("jumps"), (0..2 * ni).map(|g| ni * (ni - 1) / 2 - g % ni).collect::<Vec<i32>>());
    }

    #[test]
    fn barriers_in_nested_loops() {
        let p = build_ok(
            "kernel void k(global int *o) {
                 local int s[64];
                 int l = get_local_id(0);
                 int acc = 0;
                 for (int i = 0; i < 3; i++) {
                     for (int j = 0; j < 4; j++) {
                         s[l] = l * i + j;
                         barrier(CLK_LOCAL_MEM_FENCE);
                         acc += s[(l + 1) % 64];
                         barrier(CLK_LOCAL_MEM_FENCE);
                     }
                 }
                 o[get_global_id(0)] = acc;
             }",
        );
        let o = Buffer::new(4 * 128);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.launch(&range([128, 1, 1], [64, 1, 1], 1)).unwrap();
        for (g, v) in o.read::<i32>().iter().enumerate() {
            let n = ((g % 64 + 1) % 64) as i32;
            let want: i32 = (0..3).flat_map(|i| (0..4).map(move |j| n * i + j)).sum();
            assert_eq!(*v, want, "work-item {g}");
        }
    }

    #[test]
    fn tiled_transpose_through_local_memory_in_2d_groups() {
        let p = build_ok(
            "#define T 8
             kernel void transpose(global const float *in, global float *out, int w, int h) {
                 local float tile[T][T + 1];
                 int x = get_global_id(0), y = get_global_id(1);
                 int lx = get_local_id(0), ly = get_local_id(1);
                 tile[ly][lx] = in[y * w + x];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
                 out[oy * h + ox] = tile[lx][ly];
             }",
        );
        let (w, h) = (64usize, 40usize);
        let input: Vec<f32> = (0..w * h).map(|i| i as f32).collect();
        let (bi, bo) = (Buffer::from_slice(&input), Buffer::new(4 * w * h));
        let mut k = p.kernel("transpose").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::value(w as i32)).unwrap();
        k.set_arg(3, Arg::value(h as i32)).unwrap();
        k.launch(&range([w, h, 1], [8, 8, 1], 2)).unwrap();
        let out = bo.read::<f32>();
        for y in 0..h {
            for x in 0..w {
                assert_eq!(out[x * h + y], input[y * w + x], "({x}, {y})");
            }
        }
    }

    #[test]
    fn values_live_across_barriers_uniform_branches_and_early_returns() {
        // Private values survive barriers; a barrier under a uniform
        // condition; work-items that return after the last barrier.
        let p = build_ok(
            "kernel void k(global int *o, int mode) {
                 local int shared[64];
                 int l = get_local_id(0);
                 int mine = l * l;                 /* lives across barriers */
                 shared[l] = mine;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int right = shared[(l + 1) % get_local_size(0)];
                 if (mode > 0) {
                     barrier(CLK_LOCAL_MEM_FENCE);
                     shared[l] = right + mode;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     right = shared[(l + 1) % get_local_size(0)];
                 }
                 if (l % 3 == 0) return;
                 o[get_global_id(0)] = mine * 1000 + right;
             }",
        );
        for mode in [0, 5] {
            let o = Buffer::from_slice(&vec![-1i32; 128]);
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&o)).unwrap();
            k.set_arg(1, Arg::value(mode)).unwrap();
            k.launch(&range([128, 1, 1], [64, 1, 1], 1)).unwrap();
            let got = o.read::<i32>();
            for (g, v) in got.iter().enumerate() {
                let l = (g % 64) as i32;
                let next = (l + 1) % 64;
                let right = if mode > 0 { ((next + 1) % 64).pow(2) + mode } else { next * next };
                let want = if l % 3 == 0 { -1 } else { l * l * 1000 + right };
                assert_eq!(*v, want, "mode {mode}, work-item {g}");
            }
        }
    }
}

#[cfg(test)]
mod collective_tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    #[test]
    fn work_group_functions_over_groups() {
        let p = build(
            "kernel void wg(global const int *in, global int *o, global float *f) {
                 int x = in[get_global_id(0)];
                 size_t g = get_global_id(0);
                 o[g * 8 + 0] = work_group_reduce_add(x);
                 o[g * 8 + 1] = work_group_reduce_min(x);
                 o[g * 8 + 2] = work_group_reduce_max(x);
                 o[g * 8 + 3] = work_group_scan_inclusive_add(x);
                 int ex = work_group_scan_exclusive_max(x);
                 o[g * 8 + 4] = ex;
                 o[g * 8 + 5] = work_group_broadcast(x, 3);
                 o[g * 8 + 6] = work_group_all(x > -1000) + 2 * work_group_any(x == 7);
                 if (work_group_any(x > 400)) o[g * 8 + 7] = 1; else o[g * 8 + 7] = 0;
                 f[g] = work_group_reduce_add((float)x * 0.5f);
             }",
            "wg.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises);
        let (n, ls) = (96usize, 32usize);
        let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 500 - 100).collect();
        let (bi, bo, bf) = (Buffer::from_slice(&input), Buffer::new(4 * 8 * n), Buffer::new(4 * n));
        let mut k = p.kernel("wg").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Buffer(&bf)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([ls, 1, 1]) }).unwrap();
        let (o, f) = (bo.read::<i32>(), bf.read::<f32>());
        for g in 0..n {
            let grp = &input[g / ls * ls..(g / ls + 1) * ls];
            let l = g % ls;
            let want = [
                grp.iter().sum::<i32>(),
                *grp.iter().min().unwrap(),
                *grp.iter().max().unwrap(),
                grp[..=l].iter().sum::<i32>(),
                grp[..l].iter().copied().max().unwrap_or(i32::MIN),
                grp[3],
                grp.iter().all(|&v| v > -1000) as i32 + 2 * grp.contains(&7) as i32,
                grp.iter().any(|&v| v > 400) as i32,
            ];
            assert_eq!(&o[g * 8..g * 8 + 8], &want, "work-item {g}");
            let fsum: f32 = grp.iter().map(|&v| v as f32 * 0.5).sum();
            assert!((f[g] - fsum).abs() <= fsum.abs() * 1e-5, "{g}: {} vs {fsum}", f[g]);
        }
    }

    /// The work-items of each group of a 1-D or 2-D range (the last group
    /// of a dimension the local size does not divide is smaller), as
    /// global linear ids in local linear order, with the group's sizes.
    fn groups_of(global: [usize; 2], local: [usize; 2]) -> Vec<(Vec<usize>, [usize; 2])> {
        let mut out = Vec::new();
        for gy in (0..global[1]).step_by(local[1]) {
            for gx in (0..global[0]).step_by(local[0]) {
                let size = [local[0].min(global[0] - gx), local[1].min(global[1] - gy)];
                let members = (0..size[1]).flat_map(|ly| (0..size[0]).map(move |lx| (gy + ly) * global[0] + gx + lx)).collect();
                out.push((members, size));
            }
        }
        out
    }

    fn launch_2d(k: &mut clc_runtime::Kernel, global: [usize; 2], local: [usize; 2], dims: u32) {
        k.launch(&NdRange { dims, global: [global[0], global[1], 1], offset: [0; 3], local: Some([local[0], local[1], 1]) }).unwrap();
    }

    /// Work-group functions of every kind in a row, which the region
    /// lowering computes together (their arguments in one loop over the
    /// work-items), against Rust: int and float reductions and scans,
    /// broadcasts with 1-D and 2-D local ids, any/all, two calls in one
    /// statement, and an expression statement last; in 1-D and 2-D
    /// groups, full, with remainders, and of one work-item.
    #[test]
    fn consecutive_work_group_functions_of_every_kind() {
        let kernel = |name: &str, b1: &str, b2: &str| {
            format!(
                "kernel void {name}(global const int *in, global const float *fin, global int *o, global float *fo) {{
                     size_t g = get_global_linear_id();
                     int x = in[g];
                     float y = fin[g];
                     int sum = work_group_reduce_add(x);
                     int mn = work_group_reduce_min(x);
                     int mx = work_group_reduce_max(x);
                     uint usum = work_group_reduce_add((uint)x * 3u);
                     float fsum = work_group_reduce_add(y);
                     float fmn = work_group_reduce_min(y);
                     float fmx = work_group_reduce_max(y);
                     int incl = work_group_scan_inclusive_add(x);
                     int excl = work_group_scan_exclusive_add(x);
                     int imin = work_group_scan_inclusive_min(x);
                     int emax = work_group_scan_exclusive_max(x);
                     float fincl = work_group_scan_inclusive_add(y);
                     float femin = work_group_scan_exclusive_min(y);
                     int b1 = {b1};
                     int b2 = {b2};
                     int any = work_group_any(x < -95);
                     int all = work_group_all(x > -99);
                     int both = work_group_any(x > 1000) + 2 * work_group_all(x != 7);
                     o[g * 16 + 15] = work_group_scan_inclusive_max(x * 2);
                     o[g * 16 + 0] = sum; o[g * 16 + 1] = mn; o[g * 16 + 2] = mx; o[g * 16 + 3] = (int)usum;
                     o[g * 16 + 4] = incl; o[g * 16 + 5] = excl; o[g * 16 + 6] = imin; o[g * 16 + 7] = emax;
                     o[g * 16 + 8] = b1; o[g * 16 + 9] = b2; o[g * 16 + 10] = any; o[g * 16 + 11] = all;
                     o[g * 16 + 12] = both; o[g * 16 + 13] = x; o[g * 16 + 14] = 0;
                     fo[g * 6 + 0] = fsum; fo[g * 6 + 1] = fmn; fo[g * 6 + 2] = fmx;
                     fo[g * 6 + 3] = fincl; fo[g * 6 + 4] = femin; fo[g * 6 + 5] = y;
                 }}"
            )
        };
        let src = kernel("wg1", "work_group_broadcast(x, get_local_size(0) - 1)", "work_group_broadcast(x + 1, get_local_size(0) / 2)")
            + &kernel("wg2", "work_group_broadcast(x, get_local_size(0) - 1, 0)", "work_group_broadcast(x + 1, get_local_size(0) / 2, get_local_size(1) - 1)");
        let p = build(&src, "wgrow.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert!(p.kernels().iter().all(|k| !k.synchronises), "the region lowering handles these kernels");
        for (name, dims, global, local) in [
            ("wg1", 1, [96, 1], [32, 1]),
            ("wg1", 1, [100, 1], [32, 1]),
            ("wg1", 1, [7, 1], [1, 1]),
            ("wg1", 1, [50, 1], [7, 1]),
            ("wg2", 2, [8, 6], [4, 3]),
            ("wg2", 2, [10, 7], [4, 3]),
            ("wg2", 2, [5, 3], [1, 1]),
            ("wg2", 2, [6, 5], [1, 2]),
        ] {
            let n = global[0] * global[1];
            // Halves: float sums are exact in any order.
            let xs: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 199 - 99).collect();
            let ys: Vec<f32> = (0..n).map(|i| ((i * 29) % 23) as f32 * 0.5 - 5.0).collect();
            let (bi, bf, bo, bfo) = (Buffer::from_slice(&xs), Buffer::from_slice(&ys), Buffer::from_slice(&vec![-1i32; 16 * n]), Buffer::from_slice(&vec![f32::NAN; 6 * n]));
            let mut k = p.kernel(name).unwrap();
            k.set_arg(0, Arg::Buffer(&bi)).unwrap();
            k.set_arg(1, Arg::Buffer(&bf)).unwrap();
            k.set_arg(2, Arg::Buffer(&bo)).unwrap();
            k.set_arg(3, Arg::Buffer(&bfo)).unwrap();
            launch_2d(&mut k, global, local, dims);
            let (o, fo) = (bo.read::<i32>(), bfo.read::<f32>());
            for (members, size) in groups_of(global, local) {
                let gx: Vec<i32> = members.iter().map(|&m| xs[m]).collect();
                let gy: Vec<f32> = members.iter().map(|&m| ys[m]).collect();
                for (l, &m) in members.iter().enumerate() {
                    let at = |lx: usize, ly: usize| gx[ly * size[0] + lx];
                    let want = [
                        gx.iter().sum::<i32>(),
                        *gx.iter().min().unwrap(),
                        *gx.iter().max().unwrap(),
                        gx.iter().map(|&v| (v as u32).wrapping_mul(3)).fold(0u32, u32::wrapping_add) as i32,
                        gx[..=l].iter().sum(),
                        gx[..l].iter().sum(),
                        *gx[..=l].iter().min().unwrap(),
                        gx[..l].iter().copied().max().unwrap_or(i32::MIN),
                        at(size[0] - 1, 0),
                        at(size[0] / 2, size[1] - 1) + 1,
                        gx.iter().any(|&v| v < -95) as i32,
                        gx.iter().all(|&v| v > -99) as i32,
                        gx.iter().any(|&v| v > 1000) as i32 + 2 * gx.iter().all(|&v| v != 7) as i32,
                        xs[m],
                        0,
                        gx[..=l].iter().map(|v| v * 2).max().unwrap(),
                    ];
                    assert_eq!(&o[m * 16..m * 16 + 16], &want, "{name} {global:?}/{local:?}: work-item {m}");
                    let fwant = [
                        gy.iter().sum::<f32>(),
                        gy.iter().copied().fold(f32::INFINITY, f32::min),
                        gy.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                        gy[..=l].iter().sum(),
                        gy[..l].iter().copied().fold(f32::INFINITY, f32::min),
                        ys[m],
                    ];
                    assert_eq!(&fo[m * 6..m * 6 + 6], &fwant, "{name} {global:?}/{local:?}: work-item {m}");
                }
            }
        }
    }

    /// Statements with work-group functions that must not be computed
    /// together, still right: a later argument reading an earlier result,
    /// nested calls (the inner one first), side effects in an earlier
    /// statement (on a private variable, on memory the next argument
    /// reads, through a math function's pointer argument) or in a later
    /// argument, against Rust.
    #[test]
    fn work_group_functions_that_depend_on_each_other() {
        let p = build(
            "kernel void k(global const int *in, global int *o) {
                 size_t g = get_global_id(0);
                 int x = in[g];
                 int cnt = get_local_id(0), cnt2 = 10 * (int)get_local_id(0);
                 int a = work_group_reduce_add(x);
                 int b = work_group_reduce_add(a + x);
                 int c = work_group_reduce_add(work_group_broadcast(x, 0) + x);
                 int d = work_group_reduce_max(work_group_scan_inclusive_add(x));
                 int h = work_group_reduce_min(x) + cnt++;
                 int k = work_group_reduce_add(cnt);
                 int p = work_group_reduce_max(x) + cnt2;
                 int q = work_group_scan_exclusive_add(cnt2++);
                 o[g * 14 + 0] = work_group_reduce_add(x);
                 int e = work_group_scan_inclusive_add(o[g * 14 + 0]);
                 int ex = 0;
                 float fr = (float)work_group_reduce_add(x) + frexp(2.0f, &ex);
                 int k2 = work_group_reduce_add(ex);
                 o[g * 14 + 1] = a; o[g * 14 + 2] = b; o[g * 14 + 3] = c; o[g * 14 + 4] = d;
                 o[g * 14 + 5] = h; o[g * 14 + 6] = k; o[g * 14 + 7] = p; o[g * 14 + 8] = q;
                 o[g * 14 + 9] = cnt2; o[g * 14 + 10] = e; o[g * 14 + 11] = cnt;
                 o[g * 14 + 12] = (int)(fr * 2.0f); o[g * 14 + 13] = k2;
             }",
            "wgdep.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises);
        for (global, local) in [(96usize, 32usize), (100, 32), (5, 1), (50, 7)] {
            let xs: Vec<i32> = (0..global as i32).map(|i| (i * 37) % 199 - 99).collect();
            let (bi, bo) = (Buffer::from_slice(&xs), Buffer::from_slice(&vec![-1i32; 14 * global]));
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&bi)).unwrap();
            k.set_arg(1, Arg::Buffer(&bo)).unwrap();
            launch_2d(&mut k, [global, 1], [local, 1], 1);
            let o = bo.read::<i32>();
            for (members, _) in groups_of([global, 1], [local, 1]) {
                let gx: Vec<i32> = members.iter().map(|&m| xs[m]).collect();
                let n = gx.len() as i32;
                let sum: i32 = gx.iter().sum();
                let prefix = |l: usize| gx[..=l].iter().sum::<i32>();
                for (l, &m) in members.iter().enumerate() {
                    let li = l as i32;
                    let want = [
                        sum,
                        sum,
                        n * sum + sum,
                        n * gx[0] + sum,
                        (0..gx.len()).map(prefix).max().unwrap(),
                        gx.iter().min().unwrap() + li,
                        (0..n).map(|j| j + 1).sum(),
                        gx.iter().max().unwrap() + 10 * li,
                        (0..li).map(|j| 10 * j).sum(),
                        10 * li + 1,
                        (li + 1) * sum,
                        li + 1,
                        // frexp(2) = 0.5 * 2^2.
                        2 * sum + 1,
                        2 * n,
                    ];
                    assert_eq!(&o[m * 14..m * 14 + 14], &want, "{global}/{local}: work-item {m}");
                }
            }
        }
    }

    /// Arguments of work-group functions stored at the end of a region
    /// that is only `if (lid < lim)`, which alone would leave out the
    /// work-items where the condition is known false (see `xsplit`'s
    /// `x_parts`): every work-item's argument is there, for bounds below,
    /// inside and above the group.
    #[test]
    fn work_group_function_arguments_after_a_guarded_region() {
        let p = build(
            "kernel void k(global const int *in, global int *o, int lim) {
                 size_t lid = get_local_id(0);
                 int x = in[get_global_id(0)];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (lid < lim) x += 1000;
                 int s = work_group_reduce_add(x);
                 int e = work_group_scan_exclusive_add(x);
                 o[get_global_id(0)] = s * 10000 + e;
             }",
            "wgguard.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises);
        for (global, local) in [(64usize, 32usize), (50, 7)] {
            for lim in [-1, 0, 3, 20, 100] {
                let xs: Vec<i32> = (0..global as i32).map(|i| (i * 37) % 19 - 9).collect();
                let (bi, bo) = (Buffer::from_slice(&xs), Buffer::from_slice(&vec![-1i32; global]));
                let mut k = p.kernel("k").unwrap();
                k.set_arg(0, Arg::Buffer(&bi)).unwrap();
                k.set_arg(1, Arg::Buffer(&bo)).unwrap();
                k.set_arg(2, Arg::value(lim)).unwrap();
                launch_2d(&mut k, [global, 1], [local, 1], 1);
                let o = bo.read::<i32>();
                for (members, _) in groups_of([global, 1], [local, 1]) {
                    // `lid < lim` compares as size_t: -1 is the largest.
                    let v: Vec<i32> = members.iter().enumerate().map(|(l, &m)| xs[m] + if (l as u64) < lim as i64 as u64 { 1000 } else { 0 }).collect();
                    let s: i32 = v.iter().sum();
                    for (l, &m) in members.iter().enumerate() {
                        assert_eq!(o[m], s * 10000 + v[..l].iter().sum::<i32>(), "{global}/{local}, lim {lim}: work-item {m}");
                    }
                }
            }
        }
    }

    /// Work-group functions at group level: in both branches of an `if`
    /// on a uniform condition, in a `for` and a `while` loop (in the
    /// condition too), in an `if`'s condition; against Rust.
    #[test]
    fn work_group_functions_under_group_level_control_flow() {
        let p = build(
            "kernel void k(global const int *in, global int *o, int reps) {
                 size_t g = get_global_id(0);
                 int x = in[g];
                 int acc = 0;
                 if (get_group_id(0) % 2 == 0) {
                     int s1 = work_group_reduce_add(x);
                     int s2 = work_group_scan_exclusive_add(x);
                     acc += s1 + s2;
                 } else {
                     int m1 = work_group_reduce_max(x);
                     int m2 = work_group_broadcast(x, get_local_size(0) - 1);
                     acc += m1 - m2;
                 }
                 for (int r = 0; r < reps; r++) {
                     int t1 = work_group_reduce_min(x + r);
                     int t2 = work_group_scan_inclusive_add(x * r);
                     int t3 = work_group_broadcast(x - r, r % get_local_size(0));
                     acc += t1 + t2 + t3;
                 }
                 if (work_group_any(x > 90)) acc += 1000;
                 int w = 0;
                 while (work_group_all(w < 3)) {
                     int u = work_group_reduce_add(w + x);
                     int v = work_group_scan_inclusive_max(x - w);
                     acc += u * 2 + v;
                     w++;
                 }
                 o[g] = acc;
             }",
            "wgctl.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises);
        let reps = 4;
        for (global, local) in [(96usize, 32usize), (100, 16), (6, 1)] {
            let xs: Vec<i32> = (0..global as i32).map(|i| (i * 53) % 197 - 98).collect();
            let (bi, bo) = (Buffer::from_slice(&xs), Buffer::from_slice(&vec![-1i32; global]));
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&bi)).unwrap();
            k.set_arg(1, Arg::Buffer(&bo)).unwrap();
            k.set_arg(2, Arg::value(reps)).unwrap();
            launch_2d(&mut k, [global, 1], [local, 1], 1);
            let o = bo.read::<i32>();
            for (grp, (members, _)) in groups_of([global, 1], [local, 1]).into_iter().enumerate() {
                let gx: Vec<i32> = members.iter().map(|&m| xs[m]).collect();
                let n = gx.len();
                for (l, &m) in members.iter().enumerate() {
                    let mut acc = if grp % 2 == 0 { gx.iter().sum::<i32>() + gx[..l].iter().sum::<i32>() } else { gx.iter().max().unwrap() - gx[n - 1] };
                    for r in 0..reps {
                        acc += gx.iter().map(|v| v + r).min().unwrap() + gx[..=l].iter().map(|v| v * r).sum::<i32>() + (gx[r as usize % n] - r);
                    }
                    if gx.iter().any(|&v| v > 90) {
                        acc += 1000;
                    }
                    for w in 0..3 {
                        acc += gx.iter().map(|v| v + w).sum::<i32>() * 2 + gx[..=l].iter().map(|v| v - w).max().unwrap();
                    }
                    assert_eq!(o[m], acc, "{global}/{local}: work-item {m}");
                }
            }
        }
    }
}

#[cfg(test)]
mod called_barrier_tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    #[test]
    fn barriers_in_functions_called_from_the_kernel() {
        let p = build(
            "void publish(local int *s, int l, int v) { s[l] = v; barrier(CLK_LOCAL_MEM_FENCE); }
             int neighbour(local int *s, int l, int n) {
                 int r = s[(l + 1) % n];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (l == 0) return r * 10;
                 return r;
             }
             int sum_tree(local int *s, int l, int n) {
                 for (int w = n / 2; w > 0; w /= 2) {
                     if (l < w) s[l] += s[l + w];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 return s[0];
             }
             kernel void k(global int *o) {
                 local int s[64];
                 int l = get_local_id(0), n = get_local_size(0);
                 int mine = l * 3 + get_group_id(0);
                 publish(s, l, mine);
                 int right = neighbour(s, l, n);
                 barrier(CLK_LOCAL_MEM_FENCE);
                 s[l] = mine;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int total = sum_tree(s, l, n);
                 o[get_global_id(0)] = right * 100000 + total;
             }",
            "called.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises, "the region lowering handles barriers in called functions");
        let (n, ls) = (256usize, 64usize);
        let o = Buffer::new(4 * n);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([ls, 1, 1]) }).unwrap();
        let got = o.read::<i32>();
        for (gi, v) in got.iter().enumerate() {
            let (g, l) = ((gi / ls) as i32, (gi % ls) as i32);
            let mine = |l: i32| l * 3 + g;
            let right = mine((l + 1) % ls as i32) * if l == 0 { 10 } else { 1 };
            let total: i32 = (0..ls as i32).map(mine).sum();
            assert_eq!(*v, right * 100000 + total, "work-item {gi}");
        }
    }

    /// A called function returning a work-group function's value: the
    /// value for the group (it was each work-item's own argument), and a
    /// returned call of a synchronising function, which the regions do not
    /// express (the kernel runs with groups of one).
    #[test]
    fn work_group_functions_in_returned_values() {
        let p = build(
            "int total(int x) { return work_group_reduce_add(x) + 1; }
             int twice(int x) { return 2 * total(x); }
             kernel void k(global int *o) { int t = total(get_local_id(0)); o[get_global_id(0)] = t; }
             kernel void nested(global int *o) { o[get_global_id(0)] = twice(3); }",
            "returned.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises, "the regions express a returned work-group function");
        assert!(p.kernels()[1].synchronises, "a returned synchronising call is left to groups of one");
        let (n, ls) = (96usize, 32usize);
        let o = Buffer::new(4 * n);
        let mut k = p.kernel("k").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([ls, 1, 1]) }).unwrap();
        let want = (0..ls as i32).sum::<i32>() + 1;
        assert!(o.read::<i32>().iter().all(|&v| v == want), "{:?}", o.read::<i32>());
        let mut k = p.kernel("nested").unwrap();
        k.set_arg(0, Arg::Buffer(&o)).unwrap();
        k.launch(&NdRange::linear(n)).unwrap();
        assert!(o.read::<i32>().iter().all(|&v| v == 8), "groups of one: 2 * (3 + 1)");
    }
}

#[cfg(test)]
mod async_copy_tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    #[test]
    fn async_copies_in_both_directions_with_strides() {
        // The corpus kernel: copy a block into local memory, double it,
        // copy it back (half plainly, half strided).
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/valid/028_async_copy_events.cl")).unwrap();
        let p = build(&src, "028.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.kernels()[0].synchronises, "regions express async copies");
        let (groups, ls) = (4usize, 128usize);
        let input: Vec<[f32; 4]> = (0..(groups + 1) * ls).map(|i| [i as f32, 1.0, -2.0, 0.5]).collect();
        let (bi, bo) = (Buffer::from_slice(&input), Buffer::new(16 * groups * ls));
        let mut k = p.kernel("async_copy").unwrap();
        k.set_arg(0, Arg::Buffer(&bi)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Local(16 * ls)).unwrap();
        k.launch(&NdRange { dims: 1, global: [groups * ls, 1, 1], offset: [0; 3], local: Some([ls, 1, 1]) }).unwrap();
        let out = bo.read::<[f32; 4]>();
        for (i, v) in out.iter().enumerate() {
            assert_eq!(*v, input[i].map(|x| x * 2.0), "element {i}");
        }
    }
}

#[cfg(test)]
mod math_tests {
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    /// A work-item loop calling exp/log/sin/pow/erf vectorises through
    /// libmvec's vector variants (glibc); the results stay within
    /// OpenCL's bounds for every work-item, the vector body's and the
    /// scalar remainder's alike.
    #[test]
    fn math_in_the_work_item_loop_vectorises_and_stays_accurate() {
        let p = build(
            "kernel void m(global const float *x, global float *o, global double *d) {
                 size_t i = get_global_id(0);
                 float v = x[i];
                 o[5 * i + 0] = exp(v);
                 o[5 * i + 1] = log(v);
                 o[5 * i + 2] = sin(v);
                 o[5 * i + 3] = pow(v, 0.75f);
                 o[5 * i + 4] = erf(v);
                 d[i] = exp((double)v) + log((double)v);
             }",
            "vmath.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        // 1003 work-items: vector bodies of 4, 8 or 16 lanes and a remainder.
        let xs: Vec<f32> = (0..1003).map(|i| 0.01 + i as f32 * 0.0173).collect();
        let (bx, bo, bd) = (Buffer::from_slice(&xs), Buffer::new(4 * 5 * xs.len()), Buffer::new(8 * xs.len()));
        let mut k = p.kernel("m").unwrap();
        k.set_arg(0, Arg::Buffer(&bx)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::Buffer(&bd)).unwrap();
        k.launch(&NdRange::linear(xs.len())).unwrap();
        let (o, d) = (bo.read::<f32>(), bd.read::<f64>());
        // The error in units of the last place of the float result.
        let ulp = |got: f32, want: f64| {
            let w = want as f32;
            let step = (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64;
            (got as f64 - want).abs() / step
        };
        let erf = |x: f64| {
            // erf(x) = 1 - erfc(x); the series converges for these x < 18.
            let mut sum = 0.0;
            let mut term = x;
            for n in 0..400 {
                sum += term / (2 * n + 1) as f64;
                term *= -x * x / (n + 1) as f64;
                if term.abs() < 1e-30 {
                    break;
                }
            }
            (sum * 2.0 / std::f64::consts::PI.sqrt()).min(1.0)
        };
        for (i, &x) in xs.iter().enumerate() {
            let v = x as f64;
            // OpenCL's float bounds: exp, log 3 ulp; sin 4; pow, erf 16.
            let want = [(v.exp(), 3.0), (v.ln(), 3.0), (v.sin(), 4.0), (v.powf(0.75), 16.0)];
            for (j, (w, bound)) in want.iter().enumerate() {
                let e = ulp(o[5 * i + j], *w);
                assert!(e <= *bound, "x = {x}, function {j}: {} vs {w} ({e} ulp)", o[5 * i + j]);
            }
            if v < 3.0 {
                let e = ulp(o[5 * i + 4], erf(v));
                assert!(e <= 16.0, "erf({x}) = {} vs {} ({e} ulp)", o[5 * i + 4], erf(v));
            }
            let dw = v.exp() + v.ln();
            assert!((d[i] - dw).abs() <= 4.0 * f64::EPSILON * dw.abs().max(1.0), "double exp+log({x}) = {} vs {dw}", d[i]);
        }
    }

    #[test]
    fn common_math_builtins_run_on_the_cpu() {
        let p = build(
            "kernel void m(global const float *x, global float *o) {
                 size_t i = get_global_id(0);
                 float v = x[i];
                 float4 w = (float4)(v, v * 0.5f, v + 1.0f, 2.0f);
                 float4 e = exp(w);
                 o[i * 12 + 0] = exp(v);
                 o[i * 12 + 1] = log(v + 2.0f);
                 o[i * 12 + 2] = sin(v) + cos(v);
                 o[i * 12 + 3] = pow(v + 1.0f, 1.5f);
                 o[i * 12 + 4] = erf(v);
                 o[i * 12 + 5] = rsqrt(v + 1.0f);
                 o[i * 12 + 6] = clamp(v, 0.25f, 0.75f);
                 o[i * 12 + 7] = mix(v, 10.0f, 0.25f);
                 o[i * 12 + 8] = dot(e, (float4)(1.0f)) + 0.0f * (e.x + e.y + e.z + e.w);
                 o[i * 12 + 9] = tanh(v) + atan2(v, 2.0f);
                 o[i * 12 + 10] = (float)clamp((int)(v * 10.0f), 2, 7);
                 o[i * 12 + 11] = cbrt(v + 8.0f) + log1p(v);
             }",
            "math.cl",
            &BuildOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let xs: Vec<f32> = (0..64).map(|i| i as f32 / 64.0).collect();
        let (bx, bo) = (Buffer::from_slice(&xs), Buffer::new(4 * 12 * xs.len()));
        let mut k = p.kernel("m").unwrap();
        k.set_arg(0, Arg::Buffer(&bx)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.launch(&NdRange::linear(xs.len())).unwrap();
        let o = bo.read::<f32>();
        let erf = |x: f64| {
            // Abramowitz-Stegun 7.1.26 is too coarse; a series is exact enough here.
            let mut sum = 0.0;
            let mut term = x;
            for n in 0..40 {
                sum += term / (2 * n + 1) as f64;
                term *= -x * x / (n + 1) as f64;
            }
            sum * 2.0 / std::f64::consts::PI.sqrt()
        };
        for (i, &v) in xs.iter().enumerate() {
            let v = v as f64;
            let want = [
                v.exp(),
                (v + 2.0).ln(),
                v.sin() + v.cos(),
                (v + 1.0).powf(1.5),
                erf(v),
                1.0 / (v + 1.0).sqrt(),
                v.clamp(0.25, 0.75),
                v + (10.0 - v) * 0.25,
                v.exp() + (v * 0.5).exp() + (v + 1.0).exp() + 2f64.exp(),
                v.tanh() + v.atan2(2.0),
                ((v as f32 * 10.0) as i32).clamp(2, 7) as f64,
                (v + 8.0).cbrt() + v.ln_1p(),
            ];
            for (j, w) in want.iter().enumerate() {
                let got = o[i * 12 + j] as f64;
                assert!((got - w).abs() <= 1e-5 * w.abs().max(1.0), "x = {v}, function {j}: {got} vs {w}");
            }
        }
    }
}

#[cfg(test)]
mod lockstep_tests {
    //! Loops the group runs in lockstep (see `codegen::lower::uniform`):
    //! results against Rust, with work-items that return early, in
    //! remainder groups, in nested and stepped loops.
    use super::*;
    use clc_runtime::{Arg, Buffer, NdRange};

    fn build_ok(src: &str) -> clc_runtime::Program {
        build(src, "lockstep.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn matrix_product_with_early_returns_and_remainder_groups() {
        let p = build_ok(
            "kernel void mm(global const float *a, global const float *b, global float *c, int n) {
                 int col = get_global_id(0), row = get_global_id(1);
                 if (row >= n || col >= n) return;
                 float acc = 0.0f;
                 for (int k = 0; k < n; k++)
                     acc += a[row * n + k] * b[k * n + col];
                 c[row * n + col] = acc;
             }",
        );
        // 32: every work-item computes; 37 with 16 x 16 groups: some
        // return, and the last groups are smaller (global 40 x 37).
        for (n, global) in [(32usize, [32usize, 32]), (37, [48, 48]), (37, [40, 37])] {
            let a: Vec<f32> = (0..n * n).map(|i| ((i * 37) % 101) as f32 / 17.0 - 2.0).collect();
            let b: Vec<f32> = (0..n * n).map(|i| ((i * 53) % 89) as f32 / 13.0 - 3.0).collect();
            let (ba, bb, bc) = (Buffer::from_slice(&a), Buffer::from_slice(&b), Buffer::from_slice(&vec![f32::NAN; n * n]));
            let mut k = p.kernel("mm").unwrap();
            k.set_arg(0, Arg::Buffer(&ba)).unwrap();
            k.set_arg(1, Arg::Buffer(&bb)).unwrap();
            k.set_arg(2, Arg::Buffer(&bc)).unwrap();
            k.set_arg(3, Arg::value(n as i32)).unwrap();
            let local = if global[1] == 37 { None } else { Some([16, 16, 1]) };
            k.launch(&NdRange { dims: 2, global: [global[0], global[1], 1], offset: [0; 3], local }).unwrap();
            let c = bc.read::<f32>();
            for r in 0..n {
                for col in 0..n {
                    let want: f64 = (0..n).map(|k| a[r * n + k] as f64 * b[k * n + col] as f64).sum();
                    let got = c[r * n + col] as f64;
                    assert!((got - want).abs() <= 1e-3 * want.abs().max(1.0), "n {n}, global {global:?}: c[{r}][{col}] = {got}, want {want}");
                }
            }
        }
    }

    /// Regions that are only `if (x < u)` end their x loop at u (see
    /// `xsplit`'s `x_parts`): a tree reduction and bounds of every form
    /// and sign, in full and remainder groups, against Rust.
    #[test]
    fn guarded_regions_skip_only_idle_work_items() {
        let p = build_ok(
            "kernel void k(global const int *in, global int *out, int lim, local int *t) {
                 size_t lid = get_local_id(0);
                 int li = get_local_id(0);
                 t[lid] = in[get_global_id(0)];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
                     if (lid < s)
                         t[lid] += t[lid + s];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 if (li <= lim) t[lid] += 1000;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (lim > li) t[lid] += 1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (lid == 3) t[lid] *= 2;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (lim == li) t[lid] *= 3;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = t[lid];
             }",
        );
        let n = 100usize;
        let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 97 - 40).collect();
        for local in [16usize, 1, 3, 64] {
            for lim in [-5i32, 0, 3, 7, 100] {
                let (bi, bo) = (Buffer::from_slice(&input), Buffer::from_slice(&vec![0i32; n]));
                let mut k = p.kernel("k").unwrap();
                k.set_arg(0, Arg::Buffer(&bi)).unwrap();
                k.set_arg(1, Arg::Buffer(&bo)).unwrap();
                k.set_arg(2, Arg::value(lim)).unwrap();
                k.set_arg(3, Arg::Local(4 * local)).unwrap();
                k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([local, 1, 1]) }).unwrap();
                let mut want = Vec::with_capacity(n);
                for group in input.chunks(local) {
                    let mut t = group.to_vec();
                    let mut s = t.len() / 2;
                    while s > 0 {
                        for l in 0..s {
                            t[l] += t[l + s];
                        }
                        s >>= 1;
                    }
                    for (l, v) in t.iter_mut().enumerate() {
                        let l = l as i32;
                        if l <= lim {
                            *v += 1000;
                        }
                        if lim > l {
                            *v += 1;
                        }
                        if l == 3 {
                            *v *= 2;
                        }
                        if lim == l {
                            *v *= 3;
                        }
                    }
                    want.extend(t);
                }
                assert_eq!(bo.read::<i32>(), want, "local {local}, lim {lim}");
            }
        }
    }

    /// Regions with a bound check on x run twice (see `xsplit`'s
    /// `x_parts`): the work-items the check passes without it, then
    /// the rest. Bounds cut groups anywhere, and x values that wrap inside
    /// a group (a conversion to `short`, unsigned arithmetic below zero)
    /// take the checked copy only; against Rust.
    #[test]
    fn bound_checked_regions_split_where_the_check_holds() {
        let p = build_ok(
            "kernel void k(global const int *in, global int *out, int w, int h, int lim, local int *t) {
                 int lx = get_local_id(0), ly = get_local_id(1);
                 int x = get_group_id(0) * get_enqueued_local_size(0) + lx;
                 int y = get_global_id(1);
                 int at = ly * get_local_size(0) + lx;
                 if (x < w && y < h)
                     t[at] = in[y * w + x] + 1;
                 else
                     t[at] = -1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 short sx = get_global_id(0) + 32700;
                 if (sx <= lim)
                     t[at] += 1000;
                 uint ux = get_global_id(0) - 5;
                 if (h > 2 && ux < (uint)w)
                     t[at] += 7;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 if (w > x && y < h)
                     out[y * w + x] = t[at];
             }",
        );
        let (gw, gh, w, h) = (100usize, 37usize, 97usize, 35usize);
        let input: Vec<i32> = (0..w * h).map(|i| (i as i32 * 7919) % 1013 - 500).collect();
        for local in [[16usize, 8, 1], [7, 3, 1], [100, 1, 1]] {
            for lim in [-40_000i32, 32_750, 100, 32_767, 40_000] {
                let (bi, bo) = (Buffer::from_slice(&input), Buffer::from_slice(&vec![i32::MIN; w * h]));
                let mut k = p.kernel("k").unwrap();
                k.set_arg(0, Arg::Buffer(&bi)).unwrap();
                k.set_arg(1, Arg::Buffer(&bo)).unwrap();
                for (i, v) in [(2, w as i32), (3, h as i32), (4, lim)] {
                    k.set_arg(i, Arg::value(v)).unwrap();
                }
                k.set_arg(5, Arg::Local(4 * local[0] * local[1])).unwrap();
                k.launch(&NdRange { dims: 2, global: [gw, gh, 1], offset: [0; 3], local: Some(local) }).unwrap();
                let mut want = vec![i32::MIN; w * h];
                for y in 0..h {
                    for x in 0..w {
                        let mut v = input[y * w + x] + 1;
                        if i32::from((x as u64 + 32_700) as i16) <= lim {
                            v += 1000;
                        }
                        if ((x as u64).wrapping_sub(5) as u32) < w as u32 {
                            v += 7;
                        }
                        want[y * w + x] = v;
                    }
                }
                assert_eq!(bo.read::<i32>(), want, "local {local:?}, lim {lim}");
            }
        }
    }

    /// Comparisons known on part of a group's x range (see `xsplit`'s
    /// `x_parts`): a 5 x 5 stencil whose indices `x + fx` are clamped to
    /// the image, over sizes and local sizes that put the image's borders
    /// anywhere in a group, and a global offset that makes `(int)` of the
    /// global id wrap inside a group (no part is known there); lone `if`s
    /// whose work-items idle where the comparison fails, with values that
    /// wrap. Against Rust.
    #[test]
    fn known_comparisons_hold_on_their_part_of_the_group() {
        // The lone `if`s, for 32- and 64-bit values (whose bounds the group
        // computes in 64 and 128 bits).
        let lone = |name: &str, t: &str| {
            format!(
                "kernel void {name}(global int *out, {t} off, {t} lim, local int *t) {{
                     int lx = get_local_id(0);
                     {t} v = get_global_id(0) + off;
                     t[lx] = 0;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     if (v < lim) t[lx] += 1;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     if (v == lim) t[lx] += 10;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     if (v > lim) t[lx] += 100;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     if (lim <= v && v != lim + 2) t[lx] += 1000;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     out[get_global_id(0)] = t[lx];
                 }}"
            )
        };
        let p = build_ok(&format!(
            "kernel void stencil(global const int *in, global int *out, int w, int h, int base) {{
                 int x = get_global_id(0) - base, y = get_global_id(1);
                 if (y >= h) return;
                 int acc = 0;
                 for (int fy = -2; fy <= 2; fy++) {{
                     int yy = y + fy;
                     yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
                     for (int fx = -2; fx <= 2; fx++) {{
                         int xx = x + fx;
                         xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
                         acc += in[yy * w + xx] * (fx + 3 * fy + 7);
                     }}
                 }}
                 barrier(CLK_GLOBAL_MEM_FENCE);
                 int at = y * get_global_size(0) + get_global_id(0) - get_global_offset(0);
                 out[at] = acc;
             }}
             {lone}
             {lone64}
             kernel void declared(global int *out, int n, local int *t) {{
                 int lx = get_local_id(0);
                 t[lx] = 0;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int m = n + 1;
                 if (lx < m) t[lx] += 1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 out[get_global_id(0)] = t[lx];
             }}",
            lone = lone("lone", "int"),
            lone64 = lone("lone64", "long")
        ));
        // A bound the region itself declares.
        for n in [-3i32, 0, 5, 40] {
            let bo = Buffer::from_slice(&vec![-1i32; 64]);
            let mut k = p.kernel("declared").unwrap();
            k.set_arg(0, Arg::Buffer(&bo)).unwrap();
            k.set_arg(1, Arg::value(n)).unwrap();
            k.set_arg(2, Arg::Local(4 * 16)).unwrap();
            k.launch(&NdRange { dims: 1, global: [64, 1, 1], offset: [0; 3], local: Some([16, 1, 1]) }).unwrap();
            let want: Vec<i32> = (0..64).map(|g| i32::from((g % 16) < n + 1)).collect();
            assert_eq!(bo.read::<i32>(), want, "n {n}");
        }
        // (global x, w, local x, x offset, base): base subtracts the
        // offset again, except in the last, where (int)(gid) wraps.
        let wrap = (1usize << 31) - 20;
        for (gx, w, lx, offset, base) in [(64usize, 64i32, 16usize, 0usize, 0i32), (50, 47, 16, 0, 0), (40, 40, 7, 3, 3), (20, 3, 8, 0, 0), (64, 64, 64, 0, 0), (48, 30, 16, wrap, (wrap as i64 - (1i64 << 32)) as i32)] {
            let h = 9i32;
            let input: Vec<i32> = (0..w * h).map(|i| (i * 7919) % 103 - 50).collect();
            let bi = Buffer::from_slice(&input);
            let bo = Buffer::from_slice(&vec![i32::MIN; gx * h as usize]);
            let mut k = p.kernel("stencil").unwrap();
            k.set_arg(0, Arg::Buffer(&bi)).unwrap();
            k.set_arg(1, Arg::Buffer(&bo)).unwrap();
            for (i, v) in [(2, w), (3, h), (4, base)] {
                k.set_arg(i, Arg::value(v)).unwrap();
            }
            k.launch(&NdRange { dims: 2, global: [gx, 12, 1], offset: [offset, 0, 0], local: Some([lx, 4, 1]) }).unwrap();
            let got = bo.read::<i32>();
            for y in 0..h as i64 {
                for gi in 0..gx {
                    // x as the kernel computes it, in 32-bit arithmetic.
                    let x = ((gi + offset) as u32).wrapping_sub(base as u32) as i32 as i64;
                    let mut acc = 0i64;
                    for fy in -2i64..=2 {
                        let yy = (y + fy).clamp(0, h as i64 - 1);
                        for fx in -2i64..=2 {
                            let xx = (x + fx).clamp(0, w as i64 - 1);
                            acc += input[(yy * w as i64 + xx) as usize] as i64 * (fx + 3 * fy + 7);
                        }
                    }
                    assert_eq!(got[y as usize * gx + gi] as i64, acc, "global {gx}, w {w}, local {lx}, offset {offset}: ({gi}, {y})");
                }
            }
        }
        let n = 100usize;
        let narrow = [(0i64, 37i64), (-50, 0), (i32::MAX as i64 - 30, i32::MAX as i64 - 3), (i32::MAX as i64 - 30, i32::MIN as i64 + 40), (5, 3), (0, -7)];
        let wide = [(0i64, 37i64), (-50, 0), (i64::MAX - 30, i64::MAX - 3), (i64::MAX - 30, i64::MIN + 40), (5, 3), (0, -7), (i64::MIN, i64::MAX)];
        for (kernel, bits, cases) in [("lone", 32, &narrow[..]), ("lone64", 64, &wide[..])] {
            // Arithmetic in the kernel's type.
            let wrap = |x: i128| if bits == 32 { x as i32 as i64 } else { x as i64 };
            let value = |x: i64| if bits == 32 { Arg::value(x as i32) } else { Arg::value(x) };
            for local in [16usize, 5, 100] {
                for &(off, lim) in cases {
                    let bo = Buffer::from_slice(&vec![0i32; n]);
                    let mut k = p.kernel(kernel).unwrap();
                    k.set_arg(0, Arg::Buffer(&bo)).unwrap();
                    k.set_arg(1, value(off)).unwrap();
                    k.set_arg(2, value(lim)).unwrap();
                    k.set_arg(3, Arg::Local(4 * local)).unwrap();
                    k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([local, 1, 1]) }).unwrap();
                    let want: Vec<i32> = (0..n as i128)
                        .map(|g| {
                            let v = wrap(g + off as i128);
                            let mut t = 0;
                            if v < lim {
                                t += 1;
                            }
                            if v == lim {
                                t += 10;
                            }
                            if v > lim {
                                t += 100;
                            }
                            if lim <= v && v != wrap(lim as i128 + 2) {
                                t += 1000;
                            }
                            t
                        })
                        .collect();
                    assert_eq!(bo.read::<i32>(), want, "{kernel}: local {local}, off {off}, lim {lim}");
                }
            }
        }
    }

    #[test]
    fn nested_stepped_loops_and_uniform_conditions() {
        // Nested uniform loops (both in lockstep), a stepped counter,
        // a loop under a uniform `if`, values from before the loops and
        // private arrays used after them, a loop inside a loop body.
        let p = build_ok(
            "kernel void k(global const int *a, global int *o, int n, int m, int mode) {
                 int i = get_global_id(0);
                 int base = a[i] * 3;
                 int priv[4] = { 1, 2, 3, 4 };
                 long s = base;
                 for (int r = 0; r < n; r += 3) {
                     for (int q = m; q > 0; q--)
                         s += a[r * m + q + i] * q;
                     s ^= r;
                 }
                 if (mode > 1) {
                     for (uint t = 0; t < (uint)n * 2; t++) {
                         int x = a[t + i];
                         if (x > 50) s -= x; else s += priv[t % 4];
                     }
                 }
                 o[i] = (int)(s % 1000003);
             }",
        );
        let a: Vec<i32> = (0..2048).map(|i| (i * 7919) % 113 - 30).collect();
        let ba = Buffer::from_slice(&a);
        for (n, m, mode) in [(40, 33, 2), (41, 35, 0), (0, 5, 3)] {
            let bo = Buffer::from_slice(&vec![0i32; 300]);
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&ba)).unwrap();
            k.set_arg(1, Arg::Buffer(&bo)).unwrap();
            k.set_arg(2, Arg::value(n)).unwrap();
            k.set_arg(3, Arg::value(m)).unwrap();
            k.set_arg(4, Arg::value(mode)).unwrap();
            k.launch(&NdRange { dims: 1, global: [300, 1, 1], offset: [0; 3], local: Some([64, 1, 1]) }).unwrap();
            let o = bo.read::<i32>();
            for i in 0..300usize {
                let mut s = a[i] as i64 * 3;
                let mut r = 0;
                while r < n {
                    let mut q = m;
                    while q > 0 {
                        s += a[(r * m + q) as usize + i] as i64 * q as i64;
                        q -= 1;
                    }
                    s ^= r as i64;
                    r += 3;
                }
                if mode > 1 {
                    for t in 0..(n as u32 * 2) {
                        let x = a[t as usize + i];
                        if x > 50 { s -= x as i64 } else { s += [1, 2, 3, 4][t as usize % 4] }
                    }
                }
                assert_eq!(o[i], (s % 1000003) as i32, "n {n} m {m} mode {mode}: work-item {i}");
            }
        }
    }

    /// Loops whose trip count differs between work-items (run at group
    /// level until every work-item is done, see `uniform::Plan::
    /// divergent`): escape-time counts, a `for` loop with a per-item
    /// bound, with early returns and remainder groups.
    /// Divergent loops in a barrier loop: a value carried from one run of
    /// the loop to the next (declared outside) must be kept for finished
    /// work-items; one declared afresh inside may run on. Against Rust.
    #[test]
    fn divergent_loops_keep_values_the_next_run_reads() {
        let p = build_ok(
            "kernel void k(global int *out, local int *t, int rounds) {
                 int i = get_global_id(0), l = get_local_id(0);
                 float carried = 0.0f;
                 int total = 0, own = 0;
                 for (int r = 0; r < rounds; r++) {
                     float fresh = (float)(i % 5) * 0.25f;
                     int it = 0;
                     while (it < 20 + i % 7 && fresh < 3.0f + carried * 0.05f) {
                         fresh = fresh * 1.5f + 0.125f;
                         carried = carried + fresh;
                         it++;
                     }
                     own += it;
                     t[l] = it;
                     barrier(CLK_LOCAL_MEM_FENCE);
                     total += t[(l + 1) % get_local_size(0)];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 out[i] = total * 1000 + own;
             }",
        );
        let (n, rounds) = (45usize, 3i32);
        for local in [16usize, 9] {
            let out = Buffer::from_slice(&vec![i32::MIN; n]);
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&out)).unwrap();
            k.set_arg(1, Arg::Local(4 * local)).unwrap();
            k.set_arg(2, Arg::value(rounds)).unwrap();
            k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([local, 1, 1]) }).unwrap();
            // Per work-item: its carried sum and the counts of each round.
            // A work-item's total count over the rounds (`carried` only
            // feeds the next rounds' conditions).
            let run = |i: usize| {
                let mut carried = 0.0f32;
                let mut its = 0;
                for _ in 0..rounds {
                    let mut fresh = (i % 5) as f32 * 0.25;
                    let mut it = 0;
                    while it < 20 + (i % 7) as i32 && fresh < carried.mul_add(0.05, 3.0) {
                        fresh = fresh.mul_add(1.5, 0.125);
                        carried += fresh;
                        it += 1;
                    }
                    its += it;
                }
                its
            };
            let want: Vec<i32> = (0..n)
                .map(|i| {
                    let g0 = i / local * local;
                    let size = local.min(n - g0);
                    let next = g0 + (i - g0 + 1) % size;
                    run(next) * 1000 + run(i)
                })
                .collect();
            assert_eq!(out.read::<i32>(), want, "local {local}");
        }
    }

    /// Small constant-trip private loops next to a barrier and a varying
    /// one (see `uniform::runs_a_constant_few_times`): every work-item's own results.
    #[test]
    fn constant_private_loops_run_in_each_work_item() {
        let p = build_ok(
            "kernel void k(global float *d, global int *o, local int *t) {
                 int i = get_global_id(0), l = get_local_id(0);
                 float acc = d[i];
                 for (int k = 0; k < 4; k++)
                     acc *= 0.5f;
                 int a, b, c;
                 for (a = 0, b = 10, c = 0; a < b; a++, b--, c += a * b)
                     ;
                 t[l] = c + (int)acc;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 int s = t[(l + 1) % get_local_size(0)];
                 for (int k = 0; k < l % 3; k++)
                     s += k;
                 d[i] = acc;
                 o[i] = s;
             }",
        );
        let n = 40usize;
        let input: Vec<f32> = (0..n).map(|i| i as f32 * 3.0 + 1.0).collect();
        for local in [8usize, 5] {
            let d = Buffer::from_slice(&input);
            let o = Buffer::from_slice(&vec![i32::MIN; n]);
            let mut k = p.kernel("k").unwrap();
            k.set_arg(0, Arg::Buffer(&d)).unwrap();
            k.set_arg(1, Arg::Buffer(&o)).unwrap();
            k.set_arg(2, Arg::Local(4 * local)).unwrap();
            k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([local, 1, 1]) }).unwrap();
            // c: a and b meet after 5 steps, adding a * b after each.
            let c: i32 = (1..=5).map(|a| a * (10 - a)).sum();
            let acc = |i: usize| input[i] * 0.0625;
            let want_d: Vec<f32> = (0..n).map(acc).collect();
            let want_o: Vec<i32> = (0..n)
                .map(|i| {
                    let (g0, l) = (i / local * local, i % local);
                    let next = g0 + (l + 1) % local;
                    c + acc(next) as i32 + (0..(l % 3) as i32).sum::<i32>()
                })
                .collect();
            assert_eq!(d.read::<f32>(), want_d, "local {local}");
            assert_eq!(o.read::<i32>(), want_o, "local {local}");
        }
    }

    #[test]
    fn divergent_loops_end_for_each_work_item() {
        let p = build_ok(
            "kernel void esc(global uint *out, int w, int h, float x0, float y0, float step, uint max_iter) {
                 int px = get_global_id(0), py = get_global_id(1);
                 if (px >= w || py >= h) return;
                 float cr = x0 + px * step, ci = y0 + py * step;
                 float zr = 0.0f, zi = 0.0f;
                 uint it = 0;
                 while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
                     float t = zr * zr - zi * zi + cr;
                     zi = 2.0f * zr * zi + ci;
                     zr = t;
                     it++;
                 }
                 int odd = 0;
                 for (int k = px % 7; k < py; k++)
                     odd += ((k ^ px) & 1) * (k + 1) - 1;
                 out[py * w + px] = it * 1000 + (odd & 511);
             }",
        );
        let (w, h, max_iter) = (45usize, 30usize, 200u32);
        let (x0, y0, step) = (-2.0f32, -1.2f32, 0.08f32);
        // Rows of whole chunks; rows of 12 (ending in a part-chunk, the
        // last row's reaching past the group's work-items) in remainder
        // groups.
        for (global, local) in [([48, 32, 1], [16, 8, 1]), ([45, 33, 1], [12, 5, 1])] {
            let out = Buffer::from_slice(&vec![u32::MAX; w * h]);
            let mut k = p.kernel("esc").unwrap();
            k.set_arg(0, Arg::Buffer(&out)).unwrap();
            k.set_arg(1, Arg::value(w as i32)).unwrap();
            k.set_arg(2, Arg::value(h as i32)).unwrap();
            k.set_arg(3, Arg::value(x0)).unwrap();
            k.set_arg(4, Arg::value(y0)).unwrap();
            k.set_arg(5, Arg::value(step)).unwrap();
            k.set_arg(6, Arg::value(max_iter)).unwrap();
            k.launch(&NdRange { dims: 2, global, offset: [0; 3], local: Some(local) }).unwrap();
            check(&out.read::<u32>(), local);
        }
        fn check(got: &[u32], local: [usize; 3]) {
            let (w, h, max_iter) = (45usize, 30usize, 200u32);
            let (x0, y0, step) = (-2.0f32, -1.2f32, 0.08f32);
            for py in 0..h {
                for px in 0..w {
                    // The same float operations in the same order (contracted
                    // to fused multiply-adds as the kernel's are).
                    let (cr, ci) = ((px as f32).mul_add(step, x0), (py as f32).mul_add(step, y0));
                    let (mut zr, mut zi, mut it) = (0.0f32, 0.0f32, 0u32);
                    while it < max_iter && zr.mul_add(zr, zi * zi) <= 4.0 {
                        let t = zr.mul_add(zr, -(zi * zi)) + cr;
                        zi = (2.0 * zr).mul_add(zi, ci);
                        zr = t;
                        it += 1;
                    }
                    let mut odd = 0i32;
                    for k in (px % 7) as i32..py as i32 {
                        if (k ^ px as i32) & 1 != 0 { odd += k } else { odd -= 1 }
                    }
                    assert_eq!(got[py * w + px], it * 1000 + (odd & 511) as u32, "({px}, {py}), local {local:?}");
                }
            }
        }
    }

    /// Vector locals kept lane by lane in group-level code: an N-body step
    /// (a `float4` read in a lockstep loop, a `float3` sum, swizzle writes
    /// after it) and vectors live across a barrier, changed on both sides.
    #[test]
    fn vector_locals_across_lockstep_loops_and_barriers() {
        let p = build_ok(
            "kernel void nb(global const float4 *pos, global float4 *out, int n) {
                 int i = get_global_id(0);
                 float4 p = pos[i];
                 float3 acc = (float3)(0.0f);
                 for (int j = 0; j < n; j++) {
                     float4 q = pos[j];
                     float3 d = q.xyz - p.xyz;
                     acc += d * q.w;
                 }
                 p.xyz += acc;
                 p.w = acc.y;
                 out[i] = p;
             }
             kernel void across(global int4 *io, local int4 *tmp) {
                 int l = get_local_id(0), n = get_local_size(0);
                 int4 v = io[get_global_id(0)];
                 v.yz = v.zy * 2;
                 tmp[l] = v;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 v += tmp[(l + 1) % n];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 v.w = -v.x;
                 io[get_global_id(0)] = v;
             }",
        );
        let n = 100usize;
        let pos: Vec<[f32; 4]> = (0..n).map(|i| [i as f32 * 0.5, (i % 7) as f32, -(i as f32) / 3.0, 1.0 + (i % 3) as f32]).collect();
        let flat: Vec<f32> = pos.iter().flatten().copied().collect();
        let (bp, bo) = (Buffer::from_slice(&flat), Buffer::new(16 * n));
        let mut k = p.kernel("nb").unwrap();
        k.set_arg(0, Arg::Buffer(&bp)).unwrap();
        k.set_arg(1, Arg::Buffer(&bo)).unwrap();
        k.set_arg(2, Arg::value(n as i32)).unwrap();
        k.launch(&NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: Some([25, 1, 1]) }).unwrap();
        let got = bo.read::<f32>();
        for i in 0..n {
            let mut acc = [0.0f64; 3];
            for q in &pos {
                for c in 0..3 {
                    acc[c] += (q[c] - pos[i][c]) as f64 * q[3] as f64;
                }
            }
            let want = [pos[i][0] as f64 + acc[0], pos[i][1] as f64 + acc[1], pos[i][2] as f64 + acc[2], acc[1]];
            for c in 0..4 {
                assert!((got[4 * i + c] as f64 - want[c]).abs() <= 1e-3 * want[c].abs().max(1.0), "body {i} lane {c}: {} vs {}", got[4 * i + c], want[c]);
            }
        }
        let io: Vec<i32> = (0..4 * 96).map(|x| x * 3 - 100).collect();
        let b = Buffer::from_slice(&io);
        let mut k = p.kernel("across").unwrap();
        k.set_arg(0, Arg::Buffer(&b)).unwrap();
        k.set_arg(1, Arg::Local(16 * 32)).unwrap();
        k.launch(&NdRange { dims: 1, global: [96, 1, 1], offset: [0; 3], local: Some([32, 1, 1]) }).unwrap();
        let got = b.read::<i32>();
        let first = |g: usize| {
            let v = &io[4 * g..4 * g + 4];
            [v[0], v[2] * 2, v[1] * 2, v[3]]
        };
        for g in 0..96 {
            let (a, b) = (first(g), first(g / 32 * 32 + (g % 32 + 1) % 32));
            let s = [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
            assert_eq!(&got[4 * g..4 * g + 4], &[s[0], s[1], s[2], -s[0]], "work-item {g}");
        }
    }
}

