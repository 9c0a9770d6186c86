//! Everything that depends on the exact LLVM version (22).

use crate::options::Target;
use inkwell::targets::{InitializationConfig, Target as LlvmTarget};
use std::sync::Once;

/// `"22.1.8"`: the LLVM clc is linked against.
pub fn llvm_version() -> String {
    let (major, minor, patch) = inkwell::support::get_llvm_version();
    format!("{major}.{minor}.{patch}")
}

/// The back ends clc initialises, for error messages: x86 (the CPU
/// runtime's target) and SPIR-V.
pub const BACK_ENDS: &str = "x86 (x86_64, i386/i686) and SPIR-V (spirv32, spirv64)";

// LLVM's C API declares the SPIR-V initialisers only through its
// `LLVMInitializeAll*` macros; Debian's LLVM 22 has the back end.
unsafe extern "C" {
    fn LLVMInitializeSPIRVTargetInfo();
    fn LLVMInitializeSPIRVTarget();
    fn LLVMInitializeSPIRVTargetMC();
    fn LLVMInitializeSPIRVAsmPrinter();
}

/// Registers the x86 and SPIR-V back ends with LLVM, once per process.
///
/// Only these two: with LLVM linked statically, a back end that no code
/// names is not linked at all, and the others (AMDGPU, AArch64, RISC-V,
/// …) cost every clc process their static constructors and page faults,
/// about a third of the start-up (`--version` 13 ms -> 9 ms, a one-line
/// kernel's `-O2 -c` 39 ms -> 28 ms; bench/README.md).
pub fn initialize_targets() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        LlvmTarget::initialize_x86(&InitializationConfig::default());
        // SAFETY: LLVM's registration functions, without arguments, run
        // once (the `Once`) like the x86 ones above.
        unsafe {
            LLVMInitializeSPIRVTargetInfo();
            LLVMInitializeSPIRVTarget();
            LLVMInitializeSPIRVTargetMC();
            LLVMInitializeSPIRVAsmPrinter();
        }
    });
}

/// Can clc generate code for `target`? For the x86 and SPIR-V back ends
/// (see [`initialize_targets`]).
pub fn target_available(target: &Target) -> bool {
    initialize_targets();
    let name = match target {
        Target::Spirv32 => "spirv32",
        Target::Spirv64 => "spirv64",
        Target::Host => "x86-64",
        Target::Native(triple) => match triple.split('-').next().unwrap_or("") {
            "x86_64" => "x86-64",
            "i386" | "i686" => "x86",
            other => other,
        },
    };
    LlvmTarget::from_name(name).is_some()
}

/// LLVM 22's `default<O2>` and `default<O3>` module pipelines as text
/// (`opt-22 -passes='default<O2>' -mtriple=x86_64-unknown-linux-gnu
/// -print-pipeline-passes`, without opt's own `verify` and bitcode
/// writer), with inductive range check elimination (`irce`) inserted in
/// the function simplification pipeline just before induction-variable
/// simplification: after inlining and loop rotation, where it sees the
/// work-item loops as the front end wrote them. It splits a loop whose
/// kernel tests its global id against a bound (`if (i < n)`) into a main
/// loop where the test is known true and short loops around it, so the
/// main loop vectorises without masked loads and stores. Text from
/// another LLVM version may not parse; callers fall back to
/// [`IRCE_THEN_DEFAULT`] then.
pub fn native_pipeline(level: u8) -> &'static str {
    if level >= 3 { include_str!("pipelines/llvm22-O3-irce.txt").trim_end() } else { include_str!("pipelines/llvm22-O2-irce.txt").trim_end() }
}

/// [`native_pipeline`] cut in two where the module simplification
/// pipeline ends and the module optimisation pipeline (vectorisers,
/// unrolling) begins: run one after the other, the halves do what the
/// whole does (GlobalsAA, computed at the end of the first, is recomputed
/// at the start of the second). `None` if the text has no such point.
pub fn native_pipeline_halves(level: u8) -> Option<(&'static str, &'static str)> {
    const CUT: &str = ",recompute-globalsaa,";
    let text = native_pipeline(level);
    let at = text.find(CUT)?;
    Some((&text[..at], &text[at + 1..]))
}

/// The first half of [`native_pipeline_halves`] without the end of its
/// function simplification pipeline (from the `sroa` after the loop passes
/// to its last `instcombine`: GVN, SCCP, jump threading, DSE, LICM, …), and
/// that end as a function pipeline. `split` runs the first on a lone kernel
/// in regions before outlining its loops, and the end on each outlined
/// piece ahead of the second half, on whichever thread compiles the piece:
/// on one thread with the other idle, the end was 8.2M of the 27.1M
/// instructions of 043's first half. `None` if the text has no such point.
pub fn native_first_half_split(level: u8) -> Option<(String, String)> {
    const LOOPS_END: &str = "loop-unroll-full),";
    const FUNCTIONS_END: &str = "),function-attrs,";
    let (first, _) = native_pipeline_halves(level)?;
    let at = first.find(LOOPS_END)? + LOOPS_END.len() - 1;
    let end = at + first[at..].find(FUNCTIONS_END)?;
    Some((format!("{}{}", &first[..at], &first[end..]), format!("function({})", &first[at + 1..end])))
}

/// [`native_pipeline`] with LLVM's scalarizer (loads and stores too) run
/// where `irce` runs: after inlining, before the loop vectoriser.
pub fn with_scalarizer(pipeline: &str) -> String {
    pipeline.replacen(",irce,", ",scalarizer<load-store>,irce,", 1)
}

/// The fallback of [`native_pipeline`]: a cleanup and `irce` ahead of the
/// standard pipeline (about 10 % more optimisation time).
pub const IRCE_THEN_DEFAULT: &str = "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,lcssa,loop-mssa(loop-rotate,licm),irce)";

/// Loop properties (`llvm.loop` metadata) the lowering sets and the
/// estimate of LLVM's work in `split` reads: no runtime unrolling; how many
/// interleaved copies of a vector loop's body; whether to vectorise.
pub(crate) const LOOP_NO_RUNTIME_UNROLL: &str = "llvm.loop.unroll.runtime.disable";
pub(crate) const LOOP_INTERLEAVE_COUNT: &str = "llvm.loop.interleave.count";
pub(crate) const LOOP_VECTORIZE_ENABLE: &str = "llvm.loop.vectorize.enable";
/// The unrolling a program's `#pragma unroll` or `opencl_unroll_hint` asks
/// for, as clang-22 writes it: unroll (whole where the trip count is known
/// and the result not too large), do not, unroll so many times (`i32`).
pub(crate) const LOOP_UNROLL_ENABLE: &str = "llvm.loop.unroll.enable";
pub(crate) const LOOP_UNROLL_DISABLE: &str = "llvm.loop.unroll.disable";
pub(crate) const LOOP_UNROLL_COUNT: &str = "llvm.loop.unroll.count";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linked_llvm_is_22_with_both_back_ends() {
        assert!(llvm_version().starts_with("22."), "{}", llvm_version());
        assert!(target_available(&Target::Spirv64));
        assert!(target_available(&Target::Spirv32));
        assert!(target_available(&Target::Host));
        assert!(target_available(&Target::Native("i686-unknown-linux-gnu".into())));
        assert!(!target_available(&Target::Native("aarch64-unknown-linux-gnu".into())));
    }

    /// The halves are the whole, cut between the module simplification
    /// and the module optimisation pipelines.
    #[test]
    fn the_native_pipelines_cut_in_two() {
        for level in [2, 3] {
            let (first, second) = native_pipeline_halves(level).unwrap();
            assert_eq!(format!("{first},{second}"), native_pipeline(level));
            assert!(first.ends_with(",rpo-function-attrs") && first.contains(",irce,"), "{first}");
            assert!(second.starts_with("recompute-globalsaa,function<eager-inv>(drop-unnecessary-assumes,") && second.contains("loop-vectorize"), "{second}");
        }
    }

    /// The first half without the end of its function simplification
    /// pipeline, and that end, are the first half.
    #[test]
    fn the_first_half_cuts_before_gvn() {
        for level in [2, 3] {
            let (first, _) = native_pipeline_halves(level).unwrap();
            let (head, end) = native_first_half_split(level).unwrap();
            let inner = end.strip_prefix("function(").and_then(|e| e.strip_suffix(')')).unwrap();
            assert_eq!(head.replacen("loop-unroll-full)),function-attrs,", &format!("loop-unroll-full),{inner}),function-attrs,"), 1), first);
            assert!(inner.starts_with("sroa<modify-cfg>,vector-combine,mldst-motion<no-split-footer-bb>,gvn<>,") && inner.ends_with("instcombine<max-iterations=1;no-verify-fixpoint>"), "{inner}");
            assert!(head.contains(",irce,loop(loop-idiom,indvars,") && !head.contains("gvn<>"), "{head}");
        }
    }

    #[test]
    fn the_native_pipelines_are_the_default_ones_with_irce() {
        for level in [2, 3] {
            let p = native_pipeline(level);
            assert_eq!(p.matches(",irce,loop(loop-idiom,indvars,").count(), 1, "{p}");
            assert!(p.contains("loop-vectorize") && p.contains("slp-vectorizer") && !p.contains("BitcodeWriterPass"));
            assert_eq!(with_scalarizer(p).matches(",scalarizer<load-store>,irce,").count(), 1);
        }
    }
}
