//! The output half of code generation: the target (triple, data layout,
//! target machine), the verifier, the optimisation pipeline, and writing
//! the module as LLVM IR, bitcode, assembly, a native object or a SPIR-V
//! binary.
//!
//! The order the driver follows: [`configure`] (before lowering, so type
//! sizes and alignments match the target) → `lower` → [`verify`] (always:
//! a module that fails the verifier is a bug in clc, reported as an
//! internal compiler error, and LLVM's back ends may crash on one) →
//! [`optimize`] → [`emit`] or [`emit_final`].
//!
//! Targets:
//! - `Target::Host`: LLVM's default triple (the machine clc runs on;
//!   `x86_64-pc-linux-gnu` with Debian's LLVM), CPU `x86-64` (the
//!   baseline every x86-64 machine runs, no extra features) so an object
//!   built on one machine runs on another; other architectures get their
//!   `generic` CPU.
//! - `Target::Native(triple)`: the triple as given, same CPU choice.
//! - `Target::Spirv64`/`Spirv32`: `spirv64v1.N-unknown-unknown`: LLVM 22's
//!   SPIR-V back end takes the SPIR-V version from the triple's sub-arch
//!   (`spirv64-unknown-unknown` without one produces SPIR-V 1.4). The OS
//!   part `unknown` selects the OpenCL environment (kernels, `Physical64`
//!   addressing), as opposed to `vulkan`.
//!
//! Native objects use position-independent code, so they can be linked into
//! shared objects (which is how the CPU runtime loads kernels).
//!
//! LLVM 22's SPIR-V back end keeps its module analysis in a static
//! (`SPIRVModuleAnalysis::MAI`, llvm/llvm-project#160613, fixed after 22.1
//! by #160956): two SPIR-V code generations in one process can share
//! state. Concurrently they race; one after another, a later one
//! sometimes writes a binary with duplicate ids (spirv-val: "Id 2 is
//! defined more than once"; about a third of the time in a loop of small
//! compilations). The cause: `MAI.BBNumToRegMap`, keyed by
//! `MachineFunction` address, is never cleared, so a new function allocated
//! where an old one was gets the old one's label ids. The `clc` command
//! compiles once per process and is not affected. In-process, clc
//! serialises SPIR-V code generation behind a process-wide lock and never
//! frees SPIR-V target machines ([`Machine`]; about 0.7 MB each), which
//! makes the address reuse rare (measured: 1 bad binary in 1 200
//! compilations in one process, against 1 in 3 without) but not impossible:
//! a program that compiles to SPIR-V many times in one process should
//! validate the binaries or use one process per compilation until LLVM
//! ships the fix. A target machine also must not be reused for another module:
//! its SPIR-V registry keeps pointers into the first module's context
//! (reusing one across contexts crashes), so [`configure`] makes one per
//! module.

use super::{CodegenOptions, InternalError};
use crate::options::Target;
use inkwell::OptimizationLevel;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, RelocMode, Target as LlvmTarget, TargetMachine, TargetTriple};
use std::mem::ManuallyDrop;
use std::sync::{Mutex, Once};

/// Held while LLVM generates SPIR-V (see the module documentation).
static SPIRV_CODEGEN: Mutex<()> = Mutex::new(());

/// The target machine [`configure`] makes for one module: dereferences to
/// inkwell's `TargetMachine`. Native machines are freed on drop; SPIR-V
/// machines are deliberately leaked, to work around LLVM 22's SPIR-V state
/// bug (see the module documentation).
#[derive(Debug)]
pub struct Machine {
    tm: ManuallyDrop<TargetMachine>,
    spirv: bool,
}

impl std::ops::Deref for Machine {
    type Target = TargetMachine;
    fn deref(&self) -> &TargetMachine {
        &self.tm
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        if !self.spirv {
            // SAFETY: dropped once, here, and never used afterwards.
            unsafe { ManuallyDrop::drop(&mut self.tm) }
        }
    }
}

/// The highest SPIR-V minor version `-fspirv-version=1.N` accepts (1.6).
pub const SPIRV_MAX_MINOR: u8 = 6;

/// What [`emit`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputKind {
    /// LLVM IR as text (`.ll`).
    LlvmIr,
    /// LLVM bitcode (`.bc`).
    Bitcode,
    /// Target assembly (`.s`); for SPIR-V targets, LLVM's SPIR-V assembly
    /// text.
    Assembly,
    /// A native object (`.o`) or, for SPIR-V targets, the SPIR-V binary.
    #[default]
    Object,
}

impl OutputKind {
    /// Whether writing it runs the target's code generator (assembly or an
    /// object), not only the optimiser.
    pub fn is_machine_code(self) -> bool {
        matches!(self, OutputKind::Assembly | OutputKind::Object)
    }
}

/// Registers clc's back ends ([`super::llvm::initialize_targets`]) and
/// passes `CLC_LLVM_ARGS` to LLVM, once per process.
fn initialize_llvm() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        super::llvm::initialize_targets();
        llvm_args();
    });
}

/// Passes clc's own LLVM options and those in `CLC_LLVM_ARGS`
/// (space-separated, as clang's `-mllvm` would) to LLVM's option parser,
/// once per process. `CLC_LLVM_ARGS` is a developer's hook for trying
/// LLVM's internal switches (`-disable-lsr`, `-debug-pass=…`) on clc's
/// pipeline. clc's own: the SPIR-V back end may use
/// SPV_EXT_relaxed_printf_string_address_space, as its printf check
/// misfires on some modules with constant formats (`spirv_fixup` drops
/// the extension again where every format is a constant).
fn llvm_args() {
    let args = std::env::var("CLC_LLVM_ARGS").unwrap_or_default();
    let own = ["clc", "--spirv-ext=+SPV_EXT_relaxed_printf_string_address_space"];
    let owned: Vec<std::ffi::CString> = own.into_iter().chain(args.split_whitespace()).filter_map(|a| std::ffi::CString::new(a).ok()).collect();
    let ptrs: Vec<*const std::os::raw::c_char> = owned.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: NUL-terminated strings that outlive the call; LLVM copies
    // what it keeps.
    unsafe { inkwell::llvm_sys::support::LLVMParseCommandLineOptions(ptrs.len() as i32, ptrs.as_ptr(), c"clc: CLC_LLVM_ARGS".as_ptr()) };
}

/// The LLVM target triple for `opts.target` (and `opts.spirv_minor` for
/// SPIR-V targets).
pub fn target_triple(opts: &CodegenOptions) -> String {
    match &opts.target {
        Target::Host => {
            let default = TargetMachine::get_default_triple();
            TargetMachine::normalize_triple(&default).as_str().to_string_lossy().into_owned()
        }
        Target::Native(triple) => triple.clone(),
        Target::Spirv64 => format!("spirv64v1.{}-unknown-unknown", opts.spirv_minor),
        Target::Spirv32 => format!("spirv32v1.{}-unknown-unknown", opts.spirv_minor),
    }
}

/// Checks that this LLVM can generate code for `opts.target`: `Err` holds
/// LLVM's reason, for the driver to report as a usage error before any
/// work is done (an unknown `--target=` is the user's mistake, not clc's).
pub fn check_target(opts: &CodegenOptions) -> Result<(), String> {
    initialize_llvm();
    let triple = TargetTriple::create(&target_triple(opts));
    LlvmTarget::from_triple(&triple).map(|_| ()).map_err(|e| format!("{} (clc generates code for {})", e.to_string().trim_end(), super::llvm::BACK_ENDS))
}

/// The CPU a triple is compiled for: the x86-64 baseline for x86-64 (see
/// the module documentation), `generic` elsewhere (SPIR-V included).
fn cpu_for(triple: &str) -> &'static str {
    match triple.split('-').next().unwrap_or("") {
        "x86_64" | "amd64" => "x86-64",
        _ => "generic",
    }
}

fn optimization_level(opt_level: u8) -> OptimizationLevel {
    match opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    }
}

/// Sets the triple and data layout of `module` for `opts.target` and
/// returns the target machine that [`optimize`] and [`emit`] use. The
/// lowering calls this first, so that the sizes and alignments it asks
/// LLVM for are the target's.
///
/// The machine: CPU per [`cpu_for`] (no extra features), code-generation
/// level from `opts.opt_level` (none for SPIR-V), relocation model PIC for
/// native targets, default code model.
pub fn configure(module: &Module, opts: &CodegenOptions) -> Result<Machine, InternalError> {
    if opts.target.is_spirv() && opts.spirv_minor > SPIRV_MAX_MINOR {
        return Err(InternalError { function: None, message: format!("SPIR-V version 1.{} is not supported (1.0 to 1.{SPIRV_MAX_MINOR})", opts.spirv_minor) });
    }
    initialize_llvm();
    let triple_text = target_triple(opts);
    let triple = TargetTriple::create(&triple_text);
    let target = LlvmTarget::from_triple(&triple).map_err(|e| InternalError { function: None, message: format!("no LLVM target for '{triple_text}': {e}") })?;
    let reloc = if opts.target.is_spirv() { RelocMode::Default } else { RelocMode::PIC };
    // Code for this machine (the JIT): its CPU and features, so the
    // vectorisers use every vector unit it has.
    let (cpu, features) = if opts.host_cpu && !opts.target.is_spirv() {
        (TargetMachine::get_host_cpu_name().to_string(), TargetMachine::get_host_cpu_features().to_string())
    } else {
        (cpu_for(&triple_text).to_string(), String::new())
    };
    // SPIR-V: instruction selection without optimisation, whatever the
    // level (the IR is optimised as asked before it). LLVM 22's combiners
    // for SPIR-V narrow `trunc (and x, 0xfffffff8)` into a 32-bit shift of
    // a 64-bit value (invalid SPIR-V; corpus 065, llvm-reduce'd to four
    // instructions), and consumers optimise for their hardware anyway.
    let level = if opts.target.is_spirv() { OptimizationLevel::None } else { optimization_level(opts.opt_level) };
    let tm = target
        .create_target_machine(&triple, &cpu, &features, level, reloc, CodeModel::Default)
        .ok_or_else(|| InternalError { function: None, message: format!("LLVM cannot create a target machine for '{triple_text}'") })?;
    module.set_triple(&triple);
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    Ok(Machine { tm: ManuallyDrop::new(tm), spirv: opts.target.is_spirv() })
}

/// Runs LLVM's verifier. A failure is a bug in clc: the error carries the
/// verifier's message and, when one function fails on its own, its name.
pub fn verify(module: &Module) -> Result<(), InternalError> {
    module.verify().map_err(|message| {
        let function = module.get_functions().find(|f| !f.verify(false)).map(|f| f.get_name().to_string_lossy().into_owned());
        InternalError { function, message: format!("the LLVM verifier rejected the generated code: {}", message.to_string_lossy().trim_end()) }
    })
}

/// Optimises `module` with the new pass manager's standard pipeline
/// `default<O0>` … `default<O3>`, tuned as clang tunes it (loop and SLP
/// vectorisation and interleaving from O2, unrolling from O1). O0 still
/// runs its pipeline, which includes the always-inliner, so functions
/// marked `always_inline` are inlined at every level.
///
/// With `vector_math`, on native targets from -O2 (where the loop
/// vectoriser runs), calls of math functions get glibc's libmvec vector
/// variants for the vectoriser ([`super::vecmath`]); the code may then
/// call libmvec, which whoever runs it must provide.
pub fn optimize(module: &Module, tm: &TargetMachine, opt_level: u8, vector_math: bool) -> Result<(), InternalError> {
    optimize_phase(module, tm, opt_level, vector_math, Phase::Whole)
}

/// Which part of the optimisation pipeline [`optimize_phase`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// All of it ([`optimize`]).
    Whole,
    /// The module simplification half of the native -O2/-O3 pipeline
    /// (inlining, scalar and loop simplification, `irce`) and what
    /// [`optimize`] prepares first (vector math, vector width).
    Simplify,
    /// The rest, after [`Phase::Simplify`]: vectorisation, unrolling and
    /// their cleanup.
    Finish,
    /// [`Phase::Simplify`] without the end of its function simplification
    /// pipeline (GVN onwards, after the loop passes:
    /// `llvm::native_first_half_split`).
    SimplifyToLoops,
    /// After [`Phase::SimplifyToLoops`]: the end it left out, then
    /// [`Phase::Finish`].
    FinishFromLoops,
}

/// Does [`optimize_phase`] run the native pipeline in halves for this
/// target and level (else only [`Phase::Whole`] may be asked for)?
pub(crate) fn phased(tm: &TargetMachine, opt_level: u8) -> bool {
    let spirv = tm.get_triple().as_str().to_string_lossy().starts_with("spirv");
    !spirv && native_halves(opt_level)
}

/// Is the native pipeline at this level run in halves (see [`phased`])?
pub(crate) fn native_halves(opt_level: u8) -> bool {
    opt_level >= 2 && super::llvm::native_pipeline_halves(opt_level.min(3)).is_some()
}

/// Runs `phase` of [`optimize`]'s pipeline on `module` (see [`Phase`];
/// the halves only where [`phased`] holds).
pub(crate) fn optimize_phase(module: &Module, tm: &TargetMachine, opt_level: u8, vector_math: bool, phase: Phase) -> Result<(), InternalError> {
    let spirv = tm.get_triple().as_str().to_string_lossy().starts_with("spirv");
    // SPIR-V consumers optimise and vectorise for their own hardware; and
    // LLVM 22's -O2 pipeline vectorises early-exit loops into
    // `llvm.experimental.cttz.elts`, which its SPIR-V back end cannot
    // select (clang-22 -O2 --target=spirv64 fails the same way), even with
    // the vectorisers switched off in the options: SPIR-V is optimised at
    // -O1 at most.
    let level = if spirv { opt_level.min(1) } else { opt_level.min(3) };
    let options = PassBuilderOptions::create();
    options.set_loop_vectorization(level >= 2 && !spirv);
    options.set_loop_slp_vectorization(level >= 2 && !spirv);
    options.set_loop_interleaving(level >= 2 && !spirv);
    options.set_loop_unrolling(level >= 1);
    let failed = |e: inkwell::support::LLVMString| InternalError { function: None, message: format!("the LLVM optimiser failed: {}", e.to_string_lossy()) };
    let halves = super::llvm::native_pipeline_halves(level).filter(|_| !spirv && level >= 2);
    let halves = || halves.ok_or_else(|| InternalError { function: None, message: format!("no halves of the pipeline to run at -O{level}") });
    let cut_after_loops = || super::llvm::native_first_half_split(level).filter(|_| !spirv && level >= 2).ok_or_else(|| InternalError { function: None, message: format!("no cut after the loop passes at -O{level}") });
    // The marks serve `outline`, which runs after the first half.
    if !matches!(phase, Phase::Simplify | Phase::SimplifyToLoops) {
        super::outline::unmark(module);
    }
    match phase {
        Phase::Finish => return module.run_passes(halves()?.1, tm, PassBuilderOptions::create()).map_err(failed),
        Phase::FinishFromLoops => {
            let pipeline = format!("{},{}", cut_after_loops()?.1, halves()?.1);
            return module.run_passes(&pipeline, tm, PassBuilderOptions::create()).map_err(failed);
        }
        Phase::Whole | Phase::Simplify | Phase::SimplifyToLoops => {}
    }
    if vector_math && !spirv && level >= 2 {
        let features = tm.get_feature_string().to_string_lossy().into_owned();
        super::vecmath::inject(module, &super::vecmath::isas_for(&features));
    }
    // LLVM's x86 cost model prefers 256-bit vectors even where AVX-512
    // is there (against the frequency drop of older cores); the work-item
    // loops of compute-bound kernels run faster with 512-bit ones, as
    // Intel's own OpenCL compiler chooses (naive SGEMM 0.78x -> 1.13x of
    // Intel's runtime, Black-Scholes 0.40x -> 0.57x; memory-bound kernels
    // unchanged; `./target/release/runtime` on a Sapphire Rapids host).
    let avx512 = super::vecmath::isas_for(&tm.get_feature_string().to_string_lossy()).contains(&super::vecmath::Isa::Avx512);
    if !spirv && level >= 2 && avx512 {
        let ctx = module.get_context();
        let mut f = module.get_first_function();
        while let Some(func) = f {
            if func.count_basic_blocks() > 0 {
                func.add_attribute(inkwell::attributes::AttributeLoc::Function, ctx.create_string_attribute("prefer-vector-width", "512"));
            }
            f = func.get_next_function();
        }
    }
    // Group code keeping OpenCL vectors lane by lane (see `lower::regions`)
    // has its vector operations split into scalar ones, which the loop
    // vectoriser then vectorises across work-items (it takes no
    // vector-typed instruction). Only such modules: elsewhere splitting
    // costs compile time and leaves explicit vector code to be put
    // together again.
    let scalarize = module.get_global_metadata_size(super::lower::SCALARIZE_MD) > 0;
    let native = |text: &str| if scalarize { super::llvm::with_scalarizer(text) } else { text.to_string() };
    if phase == Phase::Simplify {
        return module.run_passes(&native(halves()?.0), tm, PassBuilderOptions::create()).map_err(failed);
    }
    if phase == Phase::SimplifyToLoops {
        return module.run_passes(&native(&cut_after_loops()?.0), tm, PassBuilderOptions::create()).map_err(failed);
    }
    if !spirv && level >= 2 {
        // Work-item loops whose kernel tests its global id against a
        // bound would vectorise into masked loads and stores, slow on
        // many x86 cores: the standard pipeline with range check
        // elimination (see `llvm::native_pipeline`). If this LLVM does
        // not parse it (nothing has run then), a cleanup and `irce` run
        // ahead of the standard pipeline instead.
        if module.run_passes(&native(super::llvm::native_pipeline(level)), tm, PassBuilderOptions::create()).is_ok() {
            return Ok(());
        }
        let pipeline = format!("{},default<O{level}>", super::llvm::IRCE_THEN_DEFAULT);
        return module.run_passes(&pipeline, tm, options).map_err(failed);
    }
    // At -O0 SPIR-V still gets its locals promoted to values: LLVM 22's
    // SPIR-V back end loses an image's type when the handle goes through
    // memory (clang avoids that by how it emits parameters).
    let pipeline = if spirv && level == 0 { "default<O0>,function(mem2reg)".to_string() } else { format!("default<O{level}>") };
    module.run_passes(&pipeline, tm, options).map_err(failed)
}

/// Writes `module` as `kind`, leaving it unchanged.
///
/// LLVM's code generators run IR passes on the module they emit and change
/// it in place; the SPIR-V back end in particular rewrites it heavily
/// (types, intrinsics, added functions), so the module could not be printed
/// or emitted again afterwards. For assembly and objects this function
/// therefore generates code from a copy; use [`emit_final`] when the module
/// is not needed afterwards, to save the copy.
pub fn emit(module: &Module, tm: &TargetMachine, kind: OutputKind) -> Result<Vec<u8>, InternalError> {
    match kind {
        OutputKind::LlvmIr | OutputKind::Bitcode => emit_ir(module, kind),
        OutputKind::Assembly | OutputKind::Object => {
            // `Module::clone` asserts that the module verifies (cloning an
            // invalid one can crash LLVM): check first, to return an error
            // instead of panicking.
            verify(module)?;
            machine_code(&module.clone(), tm, kind)
        }
    }
}

/// Writes `module` as `kind`, consuming it: what the driver does with the
/// one module of a compilation (no copy, see [`emit`]).
pub fn emit_final(module: Module, tm: &TargetMachine, kind: OutputKind) -> Result<Vec<u8>, InternalError> {
    match kind {
        OutputKind::LlvmIr | OutputKind::Bitcode => emit_ir(&module, kind),
        OutputKind::Assembly | OutputKind::Object => machine_code(&module, tm, kind),
    }
}

fn emit_ir(module: &Module, kind: OutputKind) -> Result<Vec<u8>, InternalError> {
    Ok(match kind {
        OutputKind::Bitcode => module.write_bitcode_to_memory().as_slice().to_vec(),
        _ => module.print_to_string().to_bytes().to_vec(),
    })
}

/// Gives every critical edge of a SPIR-V module a block of its own
/// (LLVM's `break-crit-edges`), for consumers that read SPIR-V back into
/// LLVM IR:
/// - LLVM's phis have an entry per edge, so a `switch` whose cases share a
///   target (`case 1: case 2:`, or cases SimplifyCFG merged) gives that
///   target's phis two entries from one block; SPIR-V's OpPhi names each
///   parent once (LLVM writes it so). A reader that makes one phi entry of
///   each OpPhi pair then builds a phi with too few entries (the Khronos
///   translator fixed its reader in 2024, KhronosGroup/
///   SPIRV-LLVM-Translator#2736); with an edge per parent, both agree.
/// - Intel's CPU OpenCL runtime (opencl-rt 2024.x) crashes compiling a loop
///   whose latch is reached straight from a `switch` in its body (corpus
///   038 at -O1 and above; clang-22's SPIR-V crashes it the same way), and
///   compiles it with that edge split.
///
/// Consumers optimise the forwarding blocks away again; the code means
/// the same.
fn split_critical_edges(module: &Module, tm: &TargetMachine) -> Result<(), InternalError> {
    module.run_passes("function(break-crit-edges)", tm, PassBuilderOptions::create()).map_err(|e| InternalError {
        function: None,
        message: format!("LLVM could not split the critical edges for SPIR-V: {}", e.to_string_lossy()),
    })
}

/// The minor version of a `spirv64v1.N-…` or `spirv32v1.N-…` triple;
/// `None` without one.
fn spirv_minor(triple: &str) -> Option<u8> {
    triple.split('-').next()?.split_once("v1.")?.1.parse().ok()
}

/// Gives every `select` of vectors on one `i1` a vector of that condition
/// (an `insertelement` and a zero-mask `shufflevector`, which the back end
/// writes as OpCompositeInsert and OpVectorShuffle), for SPIR-V before 1.4.
///
/// LLVM IR selects whole vectors on a scalar condition; SPIR-V's OpSelect
/// did so only from 1.4 on, and before it computes its result per
/// component, from a condition with as many components as the result.
/// LLVM 22's SPIR-V back end writes the scalar condition whatever the
/// version (an LLVM bug: clang-22's `--target=spirv64v1.0` modules have
/// it too), and spirv-val refuses the module ("Expected vector sizes of
/// Result Type and the condition to be equal: Select"). The lowering
/// writes `c ? v1 : v2` of a scalar `c` as a branch (as clang does), but
/// the optimiser makes a select of a branch between whole vectors
/// (SimplifyCFG; pyFAI's `_merge_azimuthal` swapping two `float8`s, at
/// -O1), so the condition is splat here, after optimisation, whatever
/// made the select.
fn splat_select_conditions(module: &Module) {
    use inkwell::types::{AnyTypeEnum, VectorType};
    use inkwell::values::{BasicValueEnum, InstructionOpcode, Operand};
    let ctx = module.get_context();
    let builder = ctx.create_builder();
    let zero = ctx.i32_type().const_zero();
    for function in module.get_functions() {
        for block in function.get_basic_block_iter() {
            // Collected first: the splats go in ahead of each select.
            let selects: Vec<_> = block.get_instructions().filter(|i| i.get_opcode() == InstructionOpcode::Select).collect();
            // One splat per condition and width in a block (SimplifyCFG's
            // swap of two vectors is two selects on one condition).
            let mut splats = std::collections::HashMap::new();
            for select in selects {
                let (AnyTypeEnum::VectorType(result), Some(Operand::Value(BasicValueEnum::IntValue(condition)))) = (select.get_type(), select.get_operand(0)) else { continue };
                let lanes = result.get_size();
                let splat = *splats.entry((condition, lanes)).or_insert_with(|| {
                    let bools = ctx.bool_type().vec_type(lanes);
                    builder.position_before(&select);
                    let one = builder.build_insert_element(bools.get_poison(), condition, zero, "").expect("positioned builder");
                    let mask = VectorType::const_vector(&vec![zero; lanes as usize]);
                    builder.build_shuffle_vector(one, bools.get_poison(), mask, "").expect("positioned builder")
                });
                select.set_operand(0, splat);
            }
        }
    }
}

/// Splats of a one-lane vector load made splats of a scalar load.
///
/// SPIR-V has no one-component vectors ("Illegal number of components
/// (1) for TypeVector"), but LLVM 22's optimiser makes them: a `float4`
/// loaded only for a splat of one lane (`v * p->x` with `p` a `float4`
/// pointer, darktable's liquify.cl at -O1) becomes `load <1 x float>` and
/// a `shufflevector` of it with an all-zero mask. Each such load whose
/// every use is such a splat is loaded as the scalar, and each splat
/// built from that (an `insertelement` at lane 0 and the same shuffle on
/// a vector of the result's width).
fn scalar_single_lane_splats(module: &Module) {
    use inkwell::llvm_sys::core as llvm;
    use inkwell::types::{AnyTypeEnum, VectorType};
    use inkwell::values::{AsValueRef, BasicValue, BasicValueEnum, InstructionOpcode, InstructionValue, Operand};
    let ctx = module.get_context();
    let builder = ctx.create_builder();
    let zero = ctx.i32_type().const_zero();
    // A shuffle of `load` alone with an all-zero (or poison) mask.
    let splat_of = |user: InstructionValue, load: InstructionValue| -> bool {
        if user.get_opcode() != InstructionOpcode::ShuffleVector {
            return false;
        }
        let first = user.get_operand(0).and_then(|o| o.value()).map(|v| v.as_value_ref());
        // SAFETY: reading a shufflevector's mask through LLVM-C.
        let lanes_zero = unsafe {
            let n = llvm::LLVMGetNumMaskElements(user.as_value_ref());
            (0..n).all(|l| matches!(llvm::LLVMGetMaskValue(user.as_value_ref(), l), 0 | -1))
        };
        first == Some(load.as_value_ref()) && lanes_zero
    };
    for function in module.get_functions() {
        for block in function.get_basic_block_iter() {
            let loads: Vec<_> = block
                .get_instructions()
                .filter(|i| i.get_opcode() == InstructionOpcode::Load && matches!(i.get_type(), AnyTypeEnum::VectorType(v) if v.get_size() == 1))
                .collect();
            for load in loads {
                let AnyTypeEnum::VectorType(one) = load.get_type() else { continue };
                let Some(Operand::Value(BasicValueEnum::PointerValue(ptr))) = load.get_operand(0) else { continue };
                let users: Vec<Option<InstructionValue>> = std::iter::successors(load.get_first_use(), |u| u.get_next_use())
                    .map(|u| {
                        // SAFETY: the user of a use is a value of this module.
                        let user = unsafe { llvm::LLVMIsAInstruction(u.get_user().as_value_ref()) };
                        (!user.is_null()).then(|| unsafe { InstructionValue::new(user) })
                    })
                    .collect();
                let splats: Vec<InstructionValue> = users.iter().flatten().copied().filter(|u| splat_of(*u, load)).collect();
                if splats.is_empty() || splats.len() != users.len() {
                    continue;
                }
                builder.position_before(&load);
                let Ok(scalar) = builder.build_load(one.get_element_type(), ptr, "") else { continue };
                if let (Ok(align), Some(new)) = (load.get_alignment(), scalar.as_instruction_value()) {
                    let _ = new.set_alignment(align);
                }
                for splat in splats {
                    let AnyTypeEnum::VectorType(wide) = splat.get_type() else { continue };
                    builder.position_before(&splat);
                    let Ok(one_lane) = builder.build_insert_element(wide.get_poison(), scalar, zero, "") else { continue };
                    let mask = VectorType::const_vector(&vec![zero; wide.get_size() as usize]);
                    let Ok(replacement) = builder.build_shuffle_vector(one_lane, wide.get_poison(), mask, "") else { continue };
                    // SAFETY: same type; the splat has no uses left after.
                    unsafe { llvm::LLVMReplaceAllUsesWith(splat.as_value_ref(), replacement.as_value_ref()) };
                    splat.erase_from_basic_block();
                }
                load.erase_from_basic_block();
            }
        }
    }
}

/// `llvm.bitreverse` calls made shifts and masks.
///
/// LLVM 22's SPIR-V back end lowers `llvm.bitreverse` to OpBitReverse,
/// which needs the Shader capability: for OpenCL it aborts ("Unable to meet
/// SPIR-V requirements"; clang-22 too). The optimiser makes the intrinsic
/// of any hand-written bit reversal, so every module is expanded here:
/// neighbouring bits swapped, then pairs, nibbles, … up to halves.
fn expand_bit_reverses(module: &Module) -> Result<(), InternalError> {
    use inkwell::llvm_sys::core as llvm;
    use inkwell::types::{AnyTypeEnum, BasicTypeEnum, IntType, VectorType};
    use inkwell::values::{AsValueRef, BasicValue, BasicValueEnum, InstructionValue};
    let fail = |what: &str| InternalError { function: None, message: format!("expanding llvm.bitreverse: {what}") };
    let ctx = module.get_context();
    let builder = ctx.create_builder();
    let reverses: Vec<_> = module.get_functions().filter(|f| f.count_basic_blocks() == 0 && f.get_name().to_bytes().starts_with(b"llvm.bitreverse.")).collect();
    for f in reverses {
        let calls: Vec<InstructionValue> = std::iter::successors(f.as_global_value().as_pointer_value().get_first_use(), |u| u.get_next_use())
            .filter_map(|u| {
                // SAFETY: the user of a use is a value of this module.
                let user = unsafe { llvm::LLVMIsACallInst(u.get_user().as_value_ref()) };
                (!user.is_null()).then(|| unsafe { InstructionValue::new(user) })
            })
            .collect();
        for call in calls {
            let Some(x) = call.get_operand(0).and_then(|o| o.value()) else { return Err(fail("a call without its operand")) };
            // The element type, and a constant of it (splat for vectors).
            let (elem, lanes): (IntType, Option<u32>) = match call.get_type() {
                AnyTypeEnum::IntType(t) => (t, None),
                AnyTypeEnum::VectorType(v) => match v.get_element_type() {
                    BasicTypeEnum::IntType(t) => (t, Some(v.get_size())),
                    _ => return Err(fail("a vector of no integers")),
                },
                _ => return Err(fail("an operand of no integer type")),
            };
            let constant = |v: u64| -> BasicValueEnum {
                let c = elem.const_int(v, false);
                match lanes {
                    Some(n) => VectorType::const_vector(&vec![c; n as usize]).into(),
                    None => c.into(),
                }
            };
            builder.position_before(&call);
            let bits = elem.get_bit_width();
            let mut v = x;
            let mut step = 1;
            while step < bits {
                // Ones in the low `step` bits of every `2 * step`.
                let mut mask: u64 = 0;
                let mut at = 0;
                while at < bits {
                    mask |= ((1u64 << step) - 1) << at;
                    at += 2 * step;
                }
                let (m, s) = (constant(mask), constant(u64::from(step)));
                // SAFETY: LLVM-C builders on values of one integer (vector)
                // type; inkwell's typed builders would need the two shapes
                // apart.
                let b = builder.as_mut_ptr();
                v = unsafe {
                    let low = llvm::LLVMBuildAnd(b, v.as_value_ref(), m.as_value_ref(), c"".as_ptr());
                    let low = llvm::LLVMBuildShl(b, low, s.as_value_ref(), c"".as_ptr());
                    let high = llvm::LLVMBuildLShr(b, v.as_value_ref(), s.as_value_ref(), c"".as_ptr());
                    let high = llvm::LLVMBuildAnd(b, high, m.as_value_ref(), c"".as_ptr());
                    BasicValueEnum::new(llvm::LLVMBuildOr(b, low, high, c"".as_ptr()))
                };
                step *= 2;
            }
            // SAFETY: same type; the call has no uses left after.
            unsafe { llvm::LLVMReplaceAllUsesWith(call.as_value_ref(), v.as_value_ref()) };
            call.erase_from_basic_block();
        }
        // SAFETY: a declaration with no uses left.
        unsafe { f.delete() };
    }
    Ok(())
}

fn machine_code(module: &Module, tm: &TargetMachine, kind: OutputKind) -> Result<Vec<u8>, InternalError> {
    let file_type = if kind == OutputKind::Assembly { FileType::Assembly } else { FileType::Object };
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    let spirv = triple.starts_with("spirv");
    // A panic elsewhere while holding the lock leaves nothing half-done
    // that matters here: take the lock even if poisoned.
    let _guard = spirv.then(|| SPIRV_CODEGEN.lock().unwrap_or_else(|e| e.into_inner()));
    if spirv {
        split_critical_edges(module, tm)?;
        // A triple without a version is SPIR-V 1.4 to LLVM 22.
        if spirv_minor(&triple).is_some_and(|minor| minor < 4) {
            splat_select_conditions(module);
        }
        scalar_single_lane_splats(module);
        expand_bit_reverses(module)?;
    }
    // Pipes in SPIR-V 1.0: LLVM 22 writes them only from 1.1 on; the
    // module is written as 1.1 and made 1.0 again (`spirv_fixup`).
    let pipes_1_0 = spirv && triple.contains("v1.0-") && uses_pipes(module);
    let machine_1_1;
    let tm = if pipes_1_0 {
        let tt = TargetTriple::create(&triple.replacen("v1.0-", "v1.1-", 1));
        let target = LlvmTarget::from_triple(&tt).map_err(|e| InternalError { function: None, message: format!("no LLVM target for SPIR-V 1.1: {e}") })?;
        machine_1_1 = target
            .create_target_machine(&tt, "generic", "", OptimizationLevel::None, RelocMode::Default, CodeModel::Default)
            .ok_or_else(|| InternalError { function: None, message: "LLVM cannot create a target machine for SPIR-V 1.1".to_string() })?;
        module.set_triple(&tt);
        &machine_1_1
    } else {
        tm
    };
    let out = tm.write_to_memory_buffer(module, file_type).map(|buffer| buffer.as_slice().to_vec()).map_err(|e| InternalError {
        function: None,
        message: format!("LLVM could not generate code for '{}': {}", tm.get_triple().as_str().to_string_lossy(), e.to_string_lossy()),
    })?;
    // The binary, repaired where the back end's is invalid (the assembly
    // text is LLVM's as it is).
    let out = if spirv && kind == OutputKind::Object {
        super::spirv_fixup::enqueue::fix(out).map_err(|m| InternalError { function: None, message: format!("device-side enqueue in SPIR-V: {m}") })?
    } else {
        out
    };
    Ok(match (spirv && kind == OutputKind::Object, pipes_1_0) {
        (true, true) => super::spirv_fixup::as_version_1_0(super::spirv_fixup::fix(out)),
        (true, false) => super::spirv_fixup::fix(out),
        (false, _) => out,
    })
}

/// Does the module use pipes or reservation ids (`lower/pipes.rs`'s
/// calls and intrinsic)?
fn uses_pipes(module: &Module) -> bool {
    module.get_functions().any(|f| f.count_basic_blocks() == 0 && f.get_name().to_str().is_ok_and(super::lower::is_pipe_function))
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    /// A kernel as clang-22 writes it for OpenCL C 2.0 (the data layout and
    /// triple come from [`configure`]).
    const KERNEL: &str = r#"
define spir_kernel void @scale(ptr addrspace(1) %p, float %f) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %v = load float, ptr addrspace(1) %p, align 4
  %m = fmul float %v, %f
  store float %m, ptr addrspace(1) %p, align 4
  ret void
}
!opencl.ocl.version = !{!0}
!0 = !{i32 2, i32 0}
!1 = !{i32 1, i32 0}
!2 = !{!"none", !"none"}
!3 = !{!"float*", !"float"}
!4 = !{!"", !""}
"#;

    /// `ret i32` from a `void` function: the verifier must reject it.
    const BROKEN: &str = r#"
define spir_kernel void @broken(ptr addrspace(1) %p) {
entry:
  ret i32 0
}
"#;

    fn parse<'ctx>(ctx: &'ctx Context, ir: &str) -> Module<'ctx> {
        let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "test.ll");
        ctx.create_module_from_ir(buffer).unwrap_or_else(|e| panic!("{}", e.to_string_lossy()))
    }

    fn options(target: Target, spirv_minor: u8) -> CodegenOptions {
        CodegenOptions { target, opt_level: 2, spirv_minor, ..Default::default() }
    }

    /// The kernel, configured for `opts`, verified, optimised and emitted as
    /// `kind`.
    fn compile(opts: &CodegenOptions, kind: OutputKind) -> Vec<u8> {
        let ctx = Context::create();
        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, opts).unwrap();
        verify(&module).unwrap();
        optimize(&module, &tm, opts.opt_level, true).unwrap();
        emit_final(module, &tm, kind).unwrap()
    }

    /// spirv-val is required: `cargo xtask test` installs it (Debian
    /// package spirv-tools). Missing, the test fails and says so rather than
    /// passing without having checked anything.
    fn spirv_val(binary: &[u8], env: &str) {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("clc-emit-{}-{n}.spv", std::process::id()));
        std::fs::write(&path, binary).unwrap();
        let out = std::process::Command::new("spirv-val").arg("--target-env").arg(env).arg(&path).output();
        let _ = std::fs::remove_file(&path);
        match out {
            Ok(out) => assert!(
                out.status.success(),
                "spirv-val --target-env {env} rejected the SPIR-V: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) => panic!("cannot run spirv-val ({e}); it is required to check SPIR-V output: run `cargo xtask setup` or `apt-get install spirv-tools`"),
        }
    }

    fn word(bytes: &[u8], index: usize) -> u32 {
        u32::from_le_bytes(bytes[index * 4..index * 4 + 4].try_into().unwrap())
    }

    #[test]
    fn triples() {
        assert_eq!(target_triple(&options(Target::Spirv64, 0)), "spirv64v1.0-unknown-unknown");
        assert_eq!(target_triple(&options(Target::Spirv32, 3)), "spirv32v1.3-unknown-unknown");
        assert_eq!(target_triple(&options(Target::Native("x86_64-unknown-linux-gnu".into()), 0)), "x86_64-unknown-linux-gnu");
        assert!(check_target(&options(Target::Host, 0)).is_ok());
        assert!(check_target(&options(Target::Native("nonsense-unknown-none".into()), 0)).is_err());
        assert_eq!(cpu_for("x86_64-pc-linux-gnu"), "x86-64");
        assert_eq!(cpu_for("spirv64v1.0-unknown-unknown"), "generic");
        assert_eq!(spirv_minor("spirv32v1.3-unknown-unknown"), Some(3));
        assert_eq!(spirv_minor("spirv64-unknown-unknown"), None);
        assert_eq!(spirv_minor("x86_64-pc-linux-gnu"), None);
    }

    /// The native pipelines with `irce` parse with the LLVM clc is linked
    /// against (the fallback would hide it otherwise).
    #[test]
    fn the_native_pipelines_parse() {
        let ctx = Context::create();
        for level in [2, 3] {
            let module = parse(&ctx, KERNEL);
            let tm = configure(&module, &options(Target::Host, 0)).unwrap();
            let r = module.run_passes(super::super::llvm::native_pipeline(level), &tm, PassBuilderOptions::create());
            assert!(r.is_ok(), "O{level}: {:?}", r.err().map(|e| e.to_string()));
        }
    }

    /// The native pipeline run in its two halves gives a module that
    /// verifies and compiles; SPIR-V and -O1 have no halves.
    #[test]
    fn the_native_pipeline_runs_in_halves() {
        let ctx = Context::create();
        let module = parse(&ctx, KERNEL);
        let opts = options(Target::Host, 0);
        let tm = configure(&module, &opts).unwrap();
        assert!(phased(&tm, 2) && phased(&tm, 3) && !phased(&tm, 1));
        optimize_phase(&module, &tm, 2, true, Phase::Simplify).unwrap();
        optimize_phase(&module, &tm, 2, true, Phase::Finish).unwrap();
        verify(&module).unwrap();
        assert!(optimize_phase(&module, &tm, 1, true, Phase::Finish).is_err());
        assert!(optimize_phase(&module, &tm, 1, true, Phase::FinishFromLoops).is_err());
        assert_eq!(&emit_final(module, &tm, OutputKind::Object).unwrap()[..4], b"\x7fELF");
        // Cut after the first half's loop passes instead.
        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, &opts).unwrap();
        optimize_phase(&module, &tm, 3, true, Phase::SimplifyToLoops).unwrap();
        optimize_phase(&module, &tm, 3, true, Phase::FinishFromLoops).unwrap();
        verify(&module).unwrap();
        assert_eq!(&emit_final(module, &tm, OutputKind::Object).unwrap()[..4], b"\x7fELF");
        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, &options(Target::Spirv64, 0)).unwrap();
        assert!(!phased(&tm, 2));
    }

    #[test]
    fn configure_sets_triple_and_layout() {
        let ctx = Context::create();
        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, &options(Target::Spirv64, 0)).unwrap();
        assert_eq!(module.get_triple().as_str().to_str().unwrap(), "spirv64v1.0-unknown-unknown");
        let layout = module.get_data_layout().as_str().to_str().unwrap().to_string();
        // The layout clang-22 uses for spirv64 (globals in address space 1).
        assert_eq!(layout, "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1");
        assert_eq!(tm.get_target_data().get_pointer_byte_size(None), 8);

        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, &options(Target::Spirv32, 0)).unwrap();
        assert_eq!(tm.get_target_data().get_pointer_byte_size(None), 4);

        let module = parse(&ctx, KERNEL);
        configure(&module, &options(Target::Native("x86_64-unknown-linux-gnu".into()), 0)).unwrap();
        assert_eq!(module.get_data_layout().as_str().to_str().unwrap(), "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128");
        assert!(configure(&parse(&ctx, KERNEL), &options(Target::Spirv64, 7)).is_err());
    }

    #[test]
    fn verifier_failure_is_an_error_naming_the_function() {
        let ctx = Context::create();
        let module = parse(&ctx, KERNEL);
        assert_eq!(verify(&module), Ok(()));
        // The IR parser checks types, so break a parsed module by hand: a
        // block without a terminator.
        let module = ctx.create_module("broken");
        let void = ctx.void_type();
        let f = module.add_function("broken", void.fn_type(&[], false), None);
        let entry = ctx.append_basic_block(f, "entry");
        let builder = ctx.create_builder();
        builder.position_at_end(entry);
        builder.build_alloca(ctx.i32_type(), "x").unwrap();
        let err = verify(&module).unwrap_err();
        assert_eq!(err.function.as_deref(), Some("broken"), "{err}");
        assert!(err.message.contains("verifier"), "{err}");
        // emit refuses it (instead of crashing in the back end or panicking
        // in Module::clone).
        let tm = configure(&module, &options(Target::Host, 0)).unwrap();
        assert!(emit(&module, &tm, OutputKind::Object).is_err());
        // The text parser rejects what it can see is ill-typed.
        let buffer = MemoryBuffer::create_from_memory_range_copy(BROKEN.as_bytes(), "broken.ll");
        assert!(ctx.create_module_from_ir(buffer).is_err());
    }

    #[test]
    fn native_object_assembly_bitcode_and_text() {
        let host = options(Target::Native("x86_64-unknown-linux-gnu".into()), 0);
        let object = compile(&host, OutputKind::Object);
        assert_eq!(&object[..4], b"\x7fELF");
        assert_eq!(object[4], 2, "64-bit ELF");
        assert_eq!(u16::from_le_bytes([object[18], object[19]]), 62, "EM_X86_64");
        let asm = String::from_utf8(compile(&host, OutputKind::Assembly)).unwrap();
        assert!(asm.contains("scale:") && asm.contains("mulss"), "{asm}");
        let bitcode = compile(&host, OutputKind::Bitcode);
        assert_eq!(&bitcode[..4], b"BC\xc0\xde");
        let text = String::from_utf8(compile(&host, OutputKind::LlvmIr)).unwrap();
        assert!(text.contains("target triple = \"x86_64-unknown-linux-gnu\""), "{text}");
        assert!(text.contains("define spir_kernel void @scale"), "{text}");
        // The host target works too.
        let object = compile(&options(Target::Host, 0), OutputKind::Object);
        assert_eq!(&object[..4], b"\x7fELF");
    }

    #[test]
    fn emit_leaves_the_module_unchanged() {
        let ctx = Context::create();
        let module = parse(&ctx, KERNEL);
        let tm = configure(&module, &options(Target::Spirv64, 0)).unwrap();
        let before = module.print_to_string().to_string();
        let spirv = emit(&module, &tm, OutputKind::Object).unwrap();
        assert_eq!(word(&spirv, 0), 0x0723_0203);
        assert_eq!(module.print_to_string().to_string(), before);
        // And it can be emitted again, identically.
        assert_eq!(emit(&module, &tm, OutputKind::Object).unwrap(), spirv);
    }

    /// Compiles the kernel for SPIR-V in a fresh process (this test binary,
    /// running [`child_compile`]): LLVM 22's SPIR-V back end can corrupt a
    /// binary when it is not the first SPIR-V compilation in its process
    /// (see the module documentation), and this test checks the binaries
    /// with spirv-val.
    fn compile_in_child(target: &Target, minor: u8, opt_level: u8) -> Vec<u8> {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = std::env::temp_dir().join(format!("clc-emit-child-{}-{n}.spv", std::process::id()));
        let bits = if *target == Target::Spirv32 { 32 } else { 64 };
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "codegen::emit::tests::child_compile", "--test-threads=1", "--quiet"])
            .env("CLC_EMIT_CHILD", format!("{bits}:{minor}:{opt_level}:{}", out.display()))
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "the child compilation failed");
        let bytes = std::fs::read(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        bytes
    }

    /// The child half of [`compile_in_child`]; does nothing in a normal run.
    #[test]
    fn child_compile() {
        let Ok(spec) = std::env::var("CLC_EMIT_CHILD") else { return };
        let mut parts = spec.splitn(4, ':');
        let target = if parts.next() == Some("32") { Target::Spirv32 } else { Target::Spirv64 };
        let minor = parts.next().unwrap().parse().unwrap();
        let mut opts = options(target, minor);
        opts.opt_level = parts.next().unwrap().parse().unwrap();
        std::fs::write(parts.next().unwrap(), compile(&opts, OutputKind::Object)).unwrap();
    }

    #[test]
    fn spirv_binary_has_the_requested_version_and_validates() {
        for target in [Target::Spirv64, Target::Spirv32] {
            for minor in 0..=SPIRV_MAX_MINOR {
                let spirv = compile_in_child(&target, minor, 2);
                assert_eq!(word(&spirv, 0), 0x0723_0203, "SPIR-V magic");
                assert_eq!(word(&spirv, 1), 0x0001_0000 | (minor as u32) << 8, "{target:?} 1.{minor}: version word");
                // OpenCL 2.0 environments take SPIR-V 1.0 exactly; later
                // versions are validated with that version's universal rules.
                let env = if minor == 0 { "opencl2.0".to_string() } else { format!("spv1.{minor}") };
                spirv_val(&spirv, &env);
            }
        }
    }

    #[test]
    fn spirv_at_o0_and_assembly() {
        let mut opts = options(Target::Spirv64, 0);
        opts.opt_level = 0;
        let spirv = compile_in_child(&Target::Spirv64, 0, 0);
        spirv_val(&spirv, "opencl2.0");
        let asm = String::from_utf8(compile(&opts, OutputKind::Assembly)).unwrap();
        assert!(asm.contains("OpEntryPoint Kernel"), "{asm}");
    }
}
