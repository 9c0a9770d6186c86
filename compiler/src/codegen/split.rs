//! Native objects optimised and generated on several threads: the module's
//! kernels are dealt into parts of about equal size, each part is optimised
//! and compiled to an object on its own thread (its own LLVM context), and
//! the objects are joined into one ([`super::elfmerge`]).
//!
//! LLVM optimises and generates code one module at a time on one thread;
//! for a file of many kernels that is most of the compile (about 95 % of
//! a 500-kernel file). Parts are independent because a kernel's code
//! depends only on what it reaches: its internal callees, constants and
//! globals.
//!
//! How a part is cut from the whole module (in [`restrict`]):
//! - externally visible functions of other parts become declarations;
//! - externally visible variables are defined in part 0 only; other parts
//!   keep constants' initializers as `available_externally` (the optimiser
//!   still folds loads from them) and declare the rest. The kernel table,
//!   whose initializer names every kernel, is only declared;
//! - internal functions and constants stay in every part, so each part
//!   inlines and optimises what its kernels use (unused ones are removed
//!   by the optimiser; one used by two parts is compiled twice);
//! - internal variables that are written (program-scope `static` data)
//!   must exist once: kernels reaching the same one are put in the same
//!   part ([`plan`]).
//!
//! Modules with debug information are compiled whole (their DWARF units
//! would need joining too), as are small ones, where a thread and a
//! second copy of the module cost more than they save.
//!
//! Where the largest part is one kernel lowered in regions, that kernel
//! is cut below: its region loops are outlined after the first half of
//! the pipeline and dealt as the kernels are, to whichever thread is free
//! ([`compile_object`], [`super::outline`]).

use super::emit::Phase;
use super::{CodegenOptions, InternalError, OutputKind};
use inkwell::context::Context;
use inkwell::llvm_sys::LLVMLinkage;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::targets::TargetMachine;
use inkwell::values::AsValueRef;
use rustc_hash::{FxHashMap, FxHashSet};

/// Below this many instructions in all, a module is compiled whole.
const MIN_INSTRUCTIONS: usize = 400;

/// Below this many instructions after the first half of the pipeline, the
/// loops of a file's one kernel are not outlined: the threads and the
/// copies of the module cost more than they save (measured on the corpus:
/// kernels of 148 and 178 instructions then compiled 4 and 9 % slower
/// outlined, ones of 237 to 369 instructions 6 to 35 % faster). A kernel
/// beside others is outlined at any size: the other threads compile the
/// other kernels meanwhile, and the second half, where vectorisation
/// multiplies the loops, is most of the work (a kernel of 130
/// instructions then took 160M instructions of LLVM's time, its
/// neighbour 31M: 9 % faster outlined).
const MIN_OUTLINED: usize = 200;

/// How many times an instruction in a loop counts when outlined loops
/// are dealt out: after the first half of the pipeline, vectorisation
/// (vector body, remainder loop, checks) and code generation make a loop's
/// instruction cost about five times one outside loops (measured per
/// function on 043, each piece's share found from the threads' counts
/// under several deals: the work-group entry's 118 instructions, none in
/// loops, took 22M instructions of LLVM's time; loop functions of 50, 28
/// and 28 loop instructions 50M, 27.5M and 28.5M). At four, 043's pieces
/// were dealt 78M against 58M; at five, 72M against 65M (wall 0.95x;
/// over the other outlined corpus kernels 1.00x, 059 1.03x).
const LOOP_WORK: usize = 5;

/// [`LOOP_WORK`] for a loop marked not to vectorise
/// (`llvm.loop.vectorize.enable` false: the lowering's scans over a
/// group's values): measured on 043, LLVM's work per instruction of such a
/// loop is about twice that of one outside loops (a scan and a float sum
/// of 25 instructions: 8.7M), a fifth of a vectorised loop's.
const SCALAR_LOOP_WORK: usize = 2;

/// The global the lowering describes the kernels in.
const KERNEL_TABLE: &str = "__clc_kernel_table";

/// The threads to use: `opts.jobs`, or (when 0) the `CLC_JOBS`
/// environment variable, or the processors this process may run on; at
/// most 8.
pub fn threads(opts: &CodegenOptions) -> usize {
    let n = if opts.jobs > 0 {
        opts.jobs
    } else if let Some(n) = std::env::var("CLC_JOBS").ok().and_then(|v| v.trim().parse::<usize>().ok()).filter(|&n| n > 0) {
        n
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    n.min(8)
}

/// Optimises `module` and writes it as a native object on several
/// threads, if that pays: [`Whole`] when the module should be compiled
/// whole (one thread allowed, debug information, a target whose objects
/// are not ELF, a small module, or joining the objects failed: the module
/// as it came, or, where this thread had cut its own part out of it,
/// read back from bitcode or to be lowered again).
///
/// Kernels are dealt to the threads as they are ([`plan`]). The part with
/// most of the work, when it is one kernel lowered in regions and well
/// above an even share (a file's only kernel included), is cut below the
/// kernel: its thread runs
/// the first half of the pipeline, moves the regions' loops into
/// functions of their own ([`super::outline`]), and deals those out again
/// as new jobs for the second half and code generation, which take most
/// of LLVM's time (code generation alone about half). Threads take jobs
/// largest first as they come free ([`run_jobs`]), so a thread done with
/// the small kernels takes loops of the large one. This thread works on
/// `module` itself: the heaviest part where kernels are dealt as they are
/// (the other threads lower the program again with `relower`, each in its
/// own context, or without it read a bitcode copy of `module`); a lone
/// kernel's first half, then the heaviest of its pieces, as a free thread
/// takes the largest job (the others read a bitcode copy of the outlined
/// module, 2.2M instructions for a piece of 043).
pub fn compile_object<'ctx>(module: Module<'ctx>, opts: &CodegenOptions, relower: Option<&Relower<'_>>) -> Result<Result<Vec<u8>, Whole<'ctx>>, InternalError> {
    let threads = threads(opts);
    let triple = super::target_triple(opts);
    if threads < 2 || opts.debug_info || opts.target.is_spirv() || !triple.contains("linux") || total_instructions(&module) < MIN_INSTRUCTIONS {
        return Ok(Err(Whole::Module(module)));
    }
    let parts = plan(&module, threads, MIN_INSTRUCTIONS, 1);
    let heaviest = parts.iter().enumerate().max_by_key(|(_, p)| p.0).map(|(k, _)| k);
    // Only a part well above an even share (more than 1.2 times it) is cut
    // up, and only one kernel: where parts are about equal (a file of many
    // kernels, or 060's two of 55 % and 45 %), outlining adds work and
    // evens out nothing.
    let outline = match heaviest {
        Some(k) => well_above_even_share(&parts, k) && parts[k].1.len() == 1 && parts[k].1.iter().any(|n| module.get_function(n).is_some_and(super::outline::in_regions)),
        None => super::outline::has_regions(&module),
    };
    // Outlining needs the pipeline in halves (else: kernels as they are).
    let outline = outline && super::emit::native_halves(opts.opt_level);
    if parts.is_empty() {
        if !outline {
            return Ok(Err(Whole::Module(module)));
        }
        // One kernel: its first half on this thread (the other meanwhile
        // builds LLVM's x86 unfolding table: `compile`).
        let (ctx, name) = (module.get_context(), module.get_name().to_string_lossy().into_owned());
        return match run_jobs(Vec::new(), Some((module, Step::Outline(MIN_OUTLINED, Cut::AfterLoops), true, Vec::new())), threads, opts, None)? {
            (Some(object), _) => Ok(Ok(object)),
            // The pieces' objects could not be joined: the rest of the
            // pipeline on the outlined module whole, on this thread.
            (None, outlined) => {
                let outlined = outlined.ok_or_else(|| InternalError { function: None, message: "one object could not be joined".into() })?;
                let whole = read_back(&outlined, &name, ctx)?;
                let tm = super::configure(&whole, opts)?;
                super::emit::optimize_phase(&whole, &tm, opts.opt_level, true, Cut::AfterLoops.phases().1)?;
                super::emit_final(whole, &tm, OutputKind::Object).map(Ok)
            }
        };
    }
    // The other threads lower the program again in their own contexts
    // where they can (cheaper than writing and reading back bitcode: 027
    // lowers in 2.9M instructions, where writing took 3.2M and reading
    // 4.9M), else read the module's bitcode.
    let source = match relower {
        Some(_) => Source::Lowered,
        None => Source::Bitcode(std::sync::Arc::new(module.write_bitcode_to_memory().as_slice().to_vec())),
    };
    let mut jobs: Vec<Job> = parts
        .into_iter()
        .enumerate()
        .map(|(k, (weight, keep))| {
            let step = if outline && Some(k) == heaviest { Step::Outline(0, Cut::Halves) } else { Step::Whole };
            Job { source: source.clone(), keep, first: k == 0, step, weight, order: vec![k] }
        })
        .collect();
    let here = jobs.remove(heaviest.unwrap_or(0));
    restrict(&module, &here.keep, here.first);
    let (ctx, name) = (module.get_context(), module.get_name().to_string_lossy().into_owned());
    match run_jobs(jobs, Some((module, here.step, here.first, here.order)), threads, opts, relower)? {
        (Some(object), _) => Ok(Ok(object)),
        (None, _) => match &source {
            Source::Bitcode(bitcode) => Ok(Err(Whole::Module(read_back(bitcode, &name, ctx)?))),
            Source::Lowered => Ok(Err(Whole::Lower)),
        },
    }
}

/// Lowers the program being compiled again, into the context given (for a
/// thread of its own: see [`compile_object`]).
pub type Relower<'a> = dyn for<'c> Fn(&'c Context) -> Result<Module<'c>, InternalError> + Sync + 'a;

/// What [`compile_object`] leaves to be compiled whole: the module, or
/// (where this thread had cut its own part out of it and the others had
/// lowered the program again) nothing: lower it again.
pub enum Whole<'ctx> {
    Module(Module<'ctx>),
    Lower,
}

/// The module written as `bitcode`, read back into `ctx` under `name`.
fn read_back<'ctx>(bitcode: &[u8], name: &str, ctx: impl inkwell::context::AsContextRef<'ctx>) -> Result<Module<'ctx>, InternalError> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(bitcode, name);
    Module::parse_bitcode_from_buffer(&buffer, ctx).map_err(|e| InternalError { function: None, message: format!("LLVM could not read back a module ({name}): {}", e.to_string_lossy()) })
}

/// Is part `k` of `parts` more than 1.2 times an even share of the work?
fn well_above_even_share(parts: &[Part], k: usize) -> bool {
    let total: usize = parts.iter().map(|p| p.0).sum();
    parts[k].0 * parts.len() * 5 > total * 6
}

/// A module written as bitcode, for the jobs cut from it.
type Bitcode = std::sync::Arc<Vec<u8>>;

/// Where a job's module comes from.
#[derive(Clone)]
enum Source {
    /// Read back from bitcode.
    Bitcode(Bitcode),
    /// The program lowered again ([`Relower`]).
    Lowered,
}

/// What a job does with its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The whole pipeline and code generation.
    Whole,
    /// The first half of the pipeline (to `Cut`), then its regions' loops
    /// outlined into pieces, if the part has at least this many
    /// instructions then: [`Step::Finish`] jobs for the others, the
    /// heaviest finished on this thread (else the whole part finished on
    /// this thread).
    Outline(usize, Cut),
    /// The rest of the pipeline after `Cut`, and code generation.
    Finish(Cut),
}

/// Where [`Step::Outline`] cuts the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// Between its halves ([`Phase::Simplify`], [`Phase::Finish`]): a
    /// kernel among others, whose first half runs while other threads
    /// compile the other kernels.
    Halves,
    /// After the first half's loop passes ([`Phase::SimplifyToLoops`],
    /// [`Phase::FinishFromLoops`]): a file's only kernel, whose first half
    /// runs with the other threads idle; the rest of its function
    /// simplification (GVN onwards) runs on the outlined pieces, in
    /// parallel. 043's longest thread 102.1M -> 98.4M instructions; with
    /// other kernels beside it (059), the pieces, cut from less simplified
    /// code, were dealt worse: 1.06x.
    AfterLoops,
}

impl Cut {
    /// The phases before and after outlining.
    pub(super) fn phases(self) -> (Phase, Phase) {
        match self {
            Cut::Halves => (Phase::Simplify, Phase::Finish),
            Cut::AfterLoops => (Phase::SimplifyToLoops, Phase::FinishFromLoops),
        }
    }
}

/// A share of the work for one thread: part `keep` of the module in
/// `source` (bitcode), `first` if the part defines
/// the externally visible variables, what to do with it, its size in
/// instructions (the larger are taken first) and where its object goes
/// among the others (objects are joined in this order whichever thread
/// finishes first, so the output does not depend on timing).
struct Job {
    source: Source,
    keep: FxHashSet<String>,
    first: bool,
    step: Step,
    weight: usize,
    order: Vec<usize>,
}

/// A job this thread does on a module it already has (cut down to the
/// job's part): what to do, whether the part defines the externally
/// visible variables, and where its object goes (see [`Job`]).
type Here<'ctx> = (Module<'ctx>, Step, bool, Vec<usize>);

/// The job of `jobs` a free thread takes: the largest; of equal ones, the
/// first in join order.
fn largest(jobs: &[Job]) -> Option<usize> {
    (0..jobs.len()).max_by(|&a, &b| jobs[a].weight.cmp(&jobs[b].weight).then_with(|| jobs[b].order.cmp(&jobs[a].order)))
}

/// Runs `jobs` (and the jobs they make) on `threads` threads, each taking
/// the largest job left when it comes free, and joins the objects; `None`
/// if joining failed, with the bitcode of the first module a job outlined
/// into pieces. With `here`, this thread is one of them: it first does
/// that job, then takes jobs like the others.
fn run_jobs(jobs: Vec<Job>, here: Option<Here<'_>>, threads: usize, opts: &CodegenOptions, relower: Option<&Relower<'_>>) -> Result<(Option<Vec<u8>>, Option<Bitcode>), InternalError> {
    use std::sync::{Condvar, Mutex};
    struct State {
        queue: Vec<Job>,
        /// Jobs queued or running: a running one may still add more.
        unfinished: usize,
        objects: Vec<(Vec<usize>, Vec<u8>)>,
        error: Option<InternalError>,
        outlined: Option<Bitcode>,
    }
    let state = Mutex::new(State { unfinished: jobs.len() + usize::from(here.is_some()), queue: jobs, objects: Vec::new(), error: None, outlined: None });
    let wake = Condvar::new();
    let enqueue = |more: Vec<Job>| {
        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
        if st.outlined.is_none()
            && let Some(Source::Bitcode(bitcode)) = more.first().map(|j| &j.source)
        {
            st.outlined = Some(bitcode.clone());
        }
        st.unfinished += more.len();
        st.queue.extend(more);
        wake.notify_all();
    };
    let finish = |done: std::thread::Result<Result<(Vec<usize>, Vec<u8>), InternalError>>| {
        let done = done.unwrap_or_else(|_| Err(InternalError { function: None, message: "a code generation thread panicked".into() }));
        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
        match done {
            Ok(object) => st.objects.push(object),
            Err(e) => st.error = Some(e),
        }
        st.unfinished -= 1;
        wake.notify_all();
    };
    let worker = || loop {
        let job = {
            let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if st.error.is_some() {
                    return;
                }
                if let Some(k) = largest(&st.queue) {
                    break st.queue.swap_remove(k);
                }
                if st.unfinished == 0 {
                    return;
                }
                st = wake.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        };
        finish(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_job(job, threads, opts, relower, &enqueue))));
    };
    std::thread::scope(|scope| {
        for _ in 0..threads - usize::from(here.is_some()) {
            scope.spawn(worker);
        }
        if let Some((module, step, first, order)) = here {
            finish(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work_on(module, step, first, order, threads, opts, &enqueue))));
            worker();
        }
    });
    let st = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = st.error {
        return Err(e);
    }
    let mut objects = st.objects;
    if objects.len() == 1 {
        return Ok((objects.pop().map(|(_, o)| o), st.outlined));
    }
    #[cfg(test)]
    if tests::JOIN_FAILS.get() {
        return Ok((None, st.outlined));
    }
    objects.sort_by(|a, b| a.0.cmp(&b.0));
    let objects: Vec<Vec<u8>> = objects.into_iter().map(|(_, o)| o).collect();
    let joined = super::elfmerge::merge(&objects).ok();
    Ok((joined, st.outlined))
}

/// Builds LLVM's table of x86 instructions whose memory operand can be
/// unfolded, which machine loop-invariant code motion builds on first use
/// (sorting some 10 000 entries: about 4.9M instructions, a tenth of a
/// small kernel's code generation, 4 % of 043's longest thread, where one
/// of the outlined pieces paid it). [`super::compile`] builds it on a
/// thread of its own while the front of the pipeline runs, off the
/// critical path (a second processor is otherwise idle then: in a lone
/// kernel's first half, in the lowering of any file). The table is a function-local
/// static of `llvm::lookupUnfoldTable` (C++ initialises it once, threads
/// that need it meanwhile wait for it); the function has a C-compatible
/// signature (an opcode in, a pointer to an entry or null out) and is
/// called for opcode 0 (no entry), for the initialisation alone.
pub(super) fn warm_x86_unfold_table() {
    unsafe extern "C" {
        #[link_name = "_ZN4llvm17lookupUnfoldTableEj"]
        fn lookup_unfold_table(mem_op: u32) -> *const std::ffi::c_void;
    }
    // SAFETY: a read-only lookup in a table LLVM initialises thread-safely.
    let _ = unsafe { lookup_unfold_table(0) };
}

/// Does `job` on this thread (its own LLVM context).
fn run_job(job: Job, threads: usize, opts: &CodegenOptions, relower: Option<&Relower<'_>>, enqueue: &(dyn Fn(Vec<Job>) + Sync)) -> Result<(Vec<usize>, Vec<u8>), InternalError> {
    let ctx = Context::create();
    let module = match (&job.source, relower) {
        (Source::Bitcode(bitcode), _) => read_back(bitcode, "part", &ctx)?,
        (Source::Lowered, Some(relower)) => relower(&ctx)?,
        (Source::Lowered, None) => return Err(InternalError { function: None, message: "a part to lower again, without the program".into() }),
    };
    restrict(&module, &job.keep, job.first);
    work_on(module, job.step, job.first, job.order, threads, opts, enqueue)
}

/// Does `step` to `module` (a job's part, cut out), on this thread, and
/// gives its object with `order`. A part whose loops are outlined into
/// pieces gives the others to `enqueue` (threads take the largest first)
/// and goes on with the heaviest itself, as a free thread takes the
/// largest job, on `module` (no bitcode to read back).
fn work_on(module: Module<'_>, step: Step, first: bool, mut order: Vec<usize>, threads: usize, opts: &CodegenOptions, enqueue: &(dyn Fn(Vec<Job>) + Sync)) -> Result<(Vec<usize>, Vec<u8>), InternalError> {
    let _unit = crate::crash::working_on(&functions_of(&module));
    let tm = super::configure(&module, opts)?;
    let phase = match step {
        Step::Whole => Phase::Whole,
        Step::Finish(cut) => cut.phases().1,
        Step::Outline(min, cut) => {
            super::emit::optimize_phase(&module, &tm, opts.opt_level, true, cut.phases().0)?;
            if total_instructions(&module) >= min {
                let pieces = outline(&module, &tm, threads)?;
                if pieces.len() >= 2 {
                    let source = Source::Bitcode(std::sync::Arc::new(module.write_bitcode_to_memory().as_slice().to_vec()));
                    let mut jobs: Vec<Job> = pieces
                        .into_iter()
                        .enumerate()
                        .map(|(k, (weight, keep))| {
                            let order = order.iter().copied().chain([k]).collect();
                            Job { source: source.clone(), keep, first: first && k == 0, step: Step::Finish(cut), weight, order }
                        })
                        .collect();
                    let here = jobs.remove(largest(&jobs).unwrap_or(0));
                    enqueue(jobs);
                    restrict(&module, &here.keep, here.first);
                    order = here.order;
                }
            }
            cut.phases().1
        }
    };
    super::emit::optimize_phase(&module, &tm, opts.opt_level, true, phase)?;
    super::emit_final(module, &tm, OutputKind::Object).map(|object| (order, object))
}

/// Outlines the loops of the work-group entries of `module` (after the
/// first half of the pipeline, see [`super::outline`]) and deals them into
/// pieces for `threads` threads (fewer than two where nothing was
/// outlined). Where one outlined loop is well above an even share (a
/// group-level loop around the regions that do the work, 047's tiles: 898
/// of 1089 after the first outlining, one thread idle for half the
/// second half), the loops inside it are outlined too, once, and the
/// pieces dealt again.
pub(super) fn outline(module: &Module<'_>, tm: &TargetMachine, threads: usize) -> Result<Vec<Part>, InternalError> {
    if super::outline::outline_loops(module, tm)?.is_empty() {
        return Ok(Vec::new());
    }
    let pieces = plan(module, threads, 0, LOOP_WORK);
    let heaviest = pieces.iter().enumerate().max_by_key(|(_, p)| p.0).map(|(k, _)| k);
    if let Some(k) = heaviest.filter(|&k| well_above_even_share(&pieces, k) && pieces[k].1.len() == 1)
        && let Some(name) = pieces[k].1.iter().next()
        && !super::outline::outline_inner_loops(module, tm, name)?.is_empty()
    {
        return Ok(plan(module, threads, 0, LOOP_WORK));
    }
    Ok(pieces)
}

/// One thread's share: its size (instructions, see [`plan`]), and the names of the
/// externally visible functions it defines.
type Part = (usize, FxHashSet<String>);

/// The instructions of all functions of `module`.
fn total_instructions(module: &Module<'_>) -> usize {
    // SAFETY: reading a well-formed module.
    module.get_functions().map(|f| unsafe { instructions(f.as_value_ref()) }).sum()
}

/// The parts (see [`Part`]). Kernels reaching the same written internal
/// variable are kept together; groups are dealt largest first to the
/// smallest part. Fewer than two parts when splitting does not pay: one
/// kernel, or fewer than `min` instructions in all. Sizes count an
/// instruction in a loop `in_loops` times ([`work`]).
fn plan(module: &Module<'_>, threads: usize, min: usize, in_loops: usize) -> Vec<Part> {
    let m = module.as_mut_ptr();
    let mut roots = Vec::new();
    // Each defined function's size ([`work`]).
    let mut sizes: FxHashMap<LLVMValueRef, usize> = FxHashMap::default();
    // SAFETY: reading a well-formed module (it passed the verifier).
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMCountBasicBlocks(f) > 0 {
                sizes.insert(f, work(f, in_loops));
                if !internal(f) {
                    roots.push(f);
                }
            }
            f = LLVMGetNextFunction(f);
        }
    }
    if roots.len() < 2 || sizes.values().sum::<usize>() < min {
        return Vec::new();
    }
    // What each root reaches: its size, and the written internal
    // variables (which tie roots together).
    let mut cache: FxHashMap<LLVMValueRef, Vec<LLVMValueRef>> = FxHashMap::default();
    let mut owner: FxHashMap<LLVMValueRef, usize> = FxHashMap::default();
    let mut parent: Vec<usize> = (0..roots.len()).collect();
    let mut size = vec![0usize; roots.len()];
    for (r, &root) in roots.iter().enumerate() {
        let mut seen = FxHashSet::default();
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            // SAFETY: `v` is a function or variable of the module.
            unsafe {
                if !LLVMIsAFunction(v).is_null() {
                    let Some(&n) = sizes.get(&v).filter(|_| v == root || internal(v)) else { continue };
                    size[r] += n;
                } else if !LLVMIsAGlobalVariable(v).is_null() && internal(v) && LLVMIsGlobalConstant(v) == 0 {
                    match owner.get(&v) {
                        Some(&o) => union(&mut parent, o, r),
                        None => {
                            owner.insert(v, r);
                        }
                    }
                }
            }
            stack.extend(cache.entry(v).or_insert_with(|| references(v)).iter().copied());
        }
    }
    // Groups of tied roots, largest first, each to the smallest part.
    let mut groups: FxHashMap<usize, (usize, Vec<usize>)> = FxHashMap::default();
    for r in 0..roots.len() {
        let g = find(&mut parent, r);
        let e = groups.entry(g).or_default();
        e.0 += size[r];
        e.1.push(r);
    }
    let mut groups: Vec<(usize, Vec<usize>)> = groups.into_values().collect();
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let n = threads.min(groups.len());
    if n < 2 {
        return Vec::new();
    }
    let mut parts: Vec<(usize, FxHashSet<String>)> = vec![(0, FxHashSet::default()); n];
    for (weight, members) in groups {
        let Some(smallest) = parts.iter_mut().min_by_key(|p| p.0) else { break };
        smallest.0 += weight;
        // SAFETY: roots are functions of the module.
        smallest.1.extend(members.iter().map(|&r| unsafe { name(roots[r]) }));
    }
    parts
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(parent, a), find(parent, b));
    parent[a.max(b)] = a.min(b);
}

/// Is `v` (a function or variable) local to the module?
unsafe fn internal(v: LLVMValueRef) -> bool {
    // SAFETY: the caller passes a global value.
    matches!(unsafe { LLVMGetLinkage(v) }, LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage)
}

/// An estimate of LLVM's work on function `f`: its instructions, those
/// in loops counted `in_loops` times (fewer for loops marked not to
/// vectorise, see [`SCALAR_LOOP_WORK`]).
unsafe fn work(f: LLVMValueRef, in_loops: usize) -> usize {
    // SAFETY: the caller passes a function.
    unsafe {
        if in_loops <= 1 {
            return instructions(f);
        }
        let blocks = blocks(f);
        let index: FxHashMap<_, usize> = blocks.iter().enumerate().map(|(k, &b)| (b, k)).collect();
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|&b| {
                let t = LLVMGetBasicBlockTerminator(b);
                if t.is_null() {
                    return Vec::new();
                }
                (0..LLVMGetNumSuccessors(t)).filter_map(|k| index.get(&LLVMGetSuccessor(t, k)).copied()).collect()
            })
            .collect();
        let cycles = in_cycles(&succs);
        // Each cycle's factor: what the loop properties on its back edges
        // (edges to a block no later in the function) allow, `in_loops`
        // where one of them has none (an outer loop around a marked one).
        let mut factor: FxHashMap<usize, usize> = FxHashMap::default();
        for (k, (&b, c)) in blocks.iter().zip(&cycles).enumerate() {
            let Some(c) = *c else { continue };
            if !succs[k].iter().any(|&s| s <= k && cycles[s] == Some(c)) {
                continue;
            }
            let t = LLVMGetBasicBlockTerminator(b);
            let marked = if t.is_null() { None } else { loop_factor(t, in_loops) };
            let e = factor.entry(c).or_insert(0);
            *e = (*e).max(marked.unwrap_or(in_loops));
        }
        blocks
            .iter()
            .zip(cycles)
            .map(|(&b, c)| block_instructions(b) * c.map_or(1, |c| factor.get(&c).copied().unwrap_or(in_loops)))
            .sum()
    }
}

/// The factor of [`work`] the loop properties on back edge `t` give
/// (`None` where `t` has none): [`SCALAR_LOOP_WORK`] (or `in_loops` if
/// lower) not to vectorise, else `in_loops`.
unsafe fn loop_factor(t: LLVMValueRef, in_loops: usize) -> Option<usize> {
    use crate::codegen::llvm::LOOP_VECTORIZE_ENABLE;
    const KIND: &str = "llvm.loop";
    // SAFETY: the caller passes an instruction; metadata nodes are read
    // through the C API's value views.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(t));
        let kind = LLVMGetMDKindIDInContext(ctx, KIND.as_ptr().cast(), KIND.len() as u32);
        let id = LLVMGetMetadata(t, kind);
        if id.is_null() {
            return None;
        }
        let mut factor = in_loops;
        let mut ops = vec![std::ptr::null_mut(); LLVMGetMDNodeNumOperands(id) as usize];
        LLVMGetMDNodeOperands(id, ops.as_mut_ptr());
        for op in ops.into_iter().filter(|op| !op.is_null() && !LLVMIsAMDNode(*op).is_null()) {
            let mut prop = vec![std::ptr::null_mut(); LLVMGetMDNodeNumOperands(op) as usize];
            LLVMGetMDNodeOperands(op, prop.as_mut_ptr());
            let [key, value] = prop[..] else { continue };
            if key.is_null() || value.is_null() || LLVMIsAMDString(key).is_null() || LLVMIsAConstantInt(value).is_null() {
                continue;
            }
            let mut len = 0;
            let key = LLVMGetMDString(key, &mut len);
            let key = if key.is_null() { &[][..] } else { std::slice::from_raw_parts(key.cast::<u8>(), len as usize) };
            let value = LLVMConstIntGetZExtValue(value);
            if key == LOOP_VECTORIZE_ENABLE.as_bytes() && value == 0 {
                factor = factor.min(SCALAR_LOOP_WORK);
            }
        }
        Some(factor)
    }
}

/// Which cycle each node of the graph `succs` lies on (the number of its
/// strongly connected component), if any (Tarjan's algorithm, without
/// recursion).
fn in_cycles(succs: &[Vec<usize>]) -> Vec<Option<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = succs.len();
    let (mut index, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
    let (mut stack, mut cyclic, mut next) = (Vec::new(), vec![None; n], 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next successor to visit)
        let mut path = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = path.last_mut() {
            if let Some(&w) = succs[v].get(*k) {
                *k += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(u, _)) = path.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cycle = (members.len() > 1 || succs[v].contains(&v)).then_some(v);
                for w in members {
                    cyclic[w] = cycle;
                }
            }
        }
    }
    cyclic
}

/// The instructions in function `f`.
unsafe fn instructions(f: LLVMValueRef) -> usize {
    // SAFETY: the caller passes a function.
    unsafe { blocks(f).into_iter().map(|b| block_instructions(b)).sum() }
}

/// The basic blocks of function `f`, in order.
unsafe fn blocks(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    // SAFETY: the caller passes a function.
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

/// The instructions in basic block `b`.
unsafe fn block_instructions(b: LLVMBasicBlockRef) -> usize {
    let mut n = 0;
    // SAFETY: the caller passes a basic block.
    unsafe {
        let mut i = LLVMGetFirstInstruction(b);
        while !i.is_null() {
            n += 1;
            i = LLVMGetNextInstruction(i);
        }
    }
    n
}

unsafe fn name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: the caller passes a named value; LLVM returns its name's
    // bytes and length.
    unsafe {
        let p = LLVMGetValueName2(v, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
    }
}

/// The functions and variables `v` (a function or variable) refers to:
/// through its instructions' operands or its initializer, looking inside
/// constant expressions and aggregates.
fn references(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    let mut consts = Vec::new();
    // SAFETY: `v` is a function or variable of a well-formed module.
    unsafe {
        if !LLVMIsAFunction(v).is_null() {
            let mut b = LLVMGetFirstBasicBlock(v);
            while !b.is_null() {
                let mut i = LLVMGetFirstInstruction(b);
                while !i.is_null() {
                    for k in 0..LLVMGetNumOperands(i).max(0) as u32 {
                        consts.push(LLVMGetOperand(i, k));
                    }
                    i = LLVMGetNextInstruction(i);
                }
                b = LLVMGetNextBasicBlock(b);
            }
        } else if !LLVMIsAGlobalVariable(v).is_null() {
            consts.push(LLVMGetInitializer(v));
        }
        let mut seen = FxHashSet::default();
        while let Some(c) = consts.pop() {
            if c.is_null() || LLVMIsAConstant(c).is_null() || !seen.insert(c) {
                continue;
            }
            if !LLVMIsAGlobalValue(c).is_null() {
                out.push(c);
            } else {
                for k in 0..LLVMGetNumOperands(c).max(0) as u32 {
                    consts.push(LLVMGetOperand(c, k));
                }
            }
        }
    }
    out
}

/// The kernels `module` (a job's part) generates code for, named for a
/// crash report: `kernel 'k'`, `kernels 'a', 'b'` (their work-group
/// entries `__clc_wg_<kernel>`, or pieces of them `__clc_wg_<kernel>.r0`:
/// kernel names have no dots), else its defined functions.
fn functions_of(module: &Module<'_>) -> String {
    let (mut kernels, mut others) = (Vec::new(), Vec::new());
    // SAFETY: reading a well-formed module's functions.
    unsafe {
        let mut f = LLVMGetFirstFunction(module.as_mut_ptr());
        while !f.is_null() {
            if LLVMCountBasicBlocks(f) > 0 && !internal(f) {
                let name = name(f);
                match name.strip_prefix("__clc_wg_") {
                    Some(k) => {
                        let k = format!("'{}'", k.split('.').next().unwrap_or(k));
                        if !kernels.contains(&k) {
                            kernels.push(k);
                        }
                    }
                    None => others.push(format!("'{name}'")),
                }
            }
            f = LLVMGetNextFunction(f);
        }
    }
    let (what, names) = if kernels.is_empty() { ("function", others) } else { ("kernel", kernels) };
    format!("{what}{} {}", if names.len() == 1 { "" } else { "s" }, names.join(", "))
}

/// Leaves in `module` what part `keep` needs (see the module
/// documentation); `first`: the part that defines the externally visible
/// variables.
fn restrict(module: &Module<'_>, keep: &FxHashSet<String>, first: bool) {
    let m = module.as_mut_ptr();
    // SAFETY: editing a well-formed module that no one else uses: global
    // values are changed in place or replaced by declarations with all
    // their uses.
    unsafe {
        if !first {
            let mut g = LLVMGetFirstGlobal(m);
            while !g.is_null() {
                let next = LLVMGetNextGlobal(g);
                if !LLVMGetInitializer(g).is_null() && !internal(g) && LLVMGetLinkage(g) != LLVMLinkage::LLVMAppendingLinkage {
                    if LLVMIsGlobalConstant(g) != 0 && name(g) != KERNEL_TABLE {
                        LLVMSetLinkage(g, LLVMLinkage::LLVMAvailableExternallyLinkage);
                    } else {
                        LLVMSetInitializer(g, std::ptr::null_mut());
                        LLVMSetLinkage(g, LLVMLinkage::LLVMExternalLinkage);
                    }
                }
                g = next;
            }
        }
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let next = LLVMGetNextFunction(f);
            if LLVMCountBasicBlocks(f) > 0 && !internal(f) && !keep.contains(&name(f)) {
                let old_name = name(f);
                let decl = LLVMAddFunction(m, c"".as_ptr(), LLVMGlobalGetValueType(f));
                LLVMReplaceAllUsesWith(f, decl);
                LLVMDeleteFunction(f);
                LLVMSetValueName2(decl, old_name.as_ptr().cast(), old_name.len());
            }
            f = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::read::{Object as _, ObjectSymbol as _};

    thread_local! {
        /// Makes [`run_jobs`] on this thread fail to join the objects, as
        /// `elfmerge` does on sections it does not expect.
        pub(super) static JOIN_FAILS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The text of a module [`compile_object`] gave back.
    fn given_back(whole: Whole<'_>) -> String {
        match whole {
            Whole::Module(m) => m.print_to_string().to_string(),
            Whole::Lower => panic!("to be lowered again, without a way to"),
        }
    }

    /// A corpus kernel lowered for the host, in `ctx`.
    fn corpus<'ctx>(ctx: &'ctx Context, name: &str) -> Module<'ctx> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../tests/corpus/valid/{name}.cl"));
        let src = std::fs::read_to_string(&path).unwrap();
        let ir = crate::codegen::lower::tests::ir_at(Some(&path), &src, crate::options::Target::Host, crate::options::ClStd::Cl20).unwrap();
        parse(ctx, &ir)
    }

    /// Where the objects cannot be joined, a file of several kernels (027)
    /// comes back whole and as it was, although this thread had cut its
    /// own part out of it; a lone kernel cut into pieces (043) is finished
    /// whole on this thread from its outlined module.
    #[test]
    fn objects_that_cannot_be_joined_fall_back_to_one_thread() {
        let opts = CodegenOptions { opt_level: 2, jobs: 2, ..Default::default() };
        let ctx = Context::create();
        let (images, wg) = (corpus(&ctx, "027_images_samplers"), corpus(&ctx, "043_work_group_functions"));
        for m in [&images, &wg] {
            super::super::configure(m, &opts).unwrap();
        }
        let before = images.print_to_string().to_string();
        assert!(compile_object(images.clone(), &opts, None).unwrap().is_ok(), "027 is compiled in parts");
        JOIN_FAILS.set(true);
        match compile_object(images, &opts, None).unwrap() {
            Ok(_) => panic!("027: objects joined"),
            Err(back) => assert_eq!(given_back(back), before),
        }
        let object = compile_object(wg, &opts, None).unwrap().ok().expect("043: an object");
        JOIN_FAILS.set(false);
        let file = object::File::parse(object.as_slice()).unwrap();
        let defined: Vec<&str> = file.symbols().filter(|s| s.is_definition()).map(|s| s.name().unwrap()).collect();
        assert!(defined.contains(&"__clc_kernel_table") && defined.contains(&"__clc_wg_wg_functions"), "{defined:?}");
        assert!(defined.iter().any(|s| s.starts_with("__clc_wg_wg_functions.")), "outlined: {defined:?}");
    }

    /// Through `compile`, where the other thread lowered the program again
    /// for its part: joining works, and where it fails the program is
    /// lowered once more and compiled whole, giving the object one thread
    /// gives.
    #[test]
    fn a_program_lowered_again_for_its_parts_compiles_whole_where_joining_fails() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/valid/027_images_samplers.cl");
        let src = std::fs::read_to_string(&path).unwrap();
        let mut sm = crate::source::SourceMap::new();
        let main = sm.add_real(&path, src);
        let mut diags = crate::diag::Diagnostics::default();
        let std = crate::options::ClStd::Cl20;
        let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions { std, ..Default::default() }, &mut diags);
        let tu = crate::parse::parse(&sm, &out, std, &mut diags);
        let p = crate::sema::check(&tu, &crate::sema::SemaOptions::new(std, crate::options::Target::Host, &out.pragmas), &mut diags);
        assert!(!diags.has_errors());
        let compile = |jobs| super::super::compile(&p, &sm, "027", &CodegenOptions { opt_level: 2, jobs, ..Default::default() }, OutputKind::Object).unwrap();
        let (whole, parts) = (compile(1), compile(2));
        assert_ne!(whole, parts, "compiled in parts");
        JOIN_FAILS.set(true);
        let fallen_back = compile(2);
        JOIN_FAILS.set(false);
        assert!(fallen_back == whole, "the fallback is the one-thread object");
    }

    /// A function of one loop of five instructions (two before it, one
    /// after), its back edge carrying `md` (say `, !llvm.loop !0`).
    fn looped(name: &str, md: &str) -> String {
        format!(
            "define void @{name}(ptr %p, i64 %n) {{
              entry:
                store volatile i32 0, ptr %p
                br label %loop
              loop:
                %i = phi i64 [ 0, %entry ], [ %j, %loop ]
                store volatile i32 1, ptr %p
                %j = add i64 %i, 1
                %c = icmp ult i64 %j, %n
                br i1 %c, label %loop, label %exit{md}
              exit:
                ret void
              }}\n"
        )
    }

    /// A function `name` of `n` volatile stores (which the optimiser
    /// keeps), after `extra` (more instructions, at its start).
    fn function(name: &str, n: usize, extra: &str) -> String {
        let mut f = format!("define void @{name}(ptr %p) {{\n{extra}");
        for k in 0..n {
            f += &format!("  store volatile i32 {k}, ptr %p\n");
        }
        f + "  ret void\n}\n"
    }

    fn parse<'ctx>(ctx: &'ctx Context, ir: &str) -> Module<'ctx> {
        let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "split.ll");
        ctx.create_module_from_ir(buffer).unwrap_or_else(|e| panic!("{}", e.to_string_lossy()))
    }

    /// A crash report names a job's kernels (once each, whole or in
    /// pieces), else its functions; not internal helpers or declarations.
    #[test]
    fn jobs_are_named_by_their_kernels() {
        let ctx = Context::create();
        let m = parse(
            &ctx,
            "define void @__clc_wg_a(ptr %p) { ret void }
             define void @__clc_wg_a.r0(ptr %p) { ret void }
             define void @__clc_wg_b(ptr %p) { ret void }
             define internal void @helper() { ret void }
             define void @f() { ret void }
             declare void @g()",
        );
        assert_eq!(functions_of(&m), "kernels 'a', 'b'");
        let m = parse(&ctx, "define void @f() { ret void }\ndefine internal void @h() { ret void }\ndeclare void @g()");
        assert_eq!(functions_of(&m), "function 'f'");
    }

    /// `a` and `b` write and read the same internal variable (`a` through
    /// an internal helper), `c` and `d` are larger and independent; a
    /// kernel table names all four, and `c` reads an external constant.
    fn program() -> String {
        let mut ir = String::from(
            "@shared = internal global i32 0
             @table = constant [2 x i32] [i32 7, i32 9]
             @counter = global i32 0
             @__clc_kernel_table = constant [4 x ptr] [ptr @a, ptr @b, ptr @c, ptr @d]
             define internal void @helper(ptr %p) {
               store i32 1, ptr @shared
               ret void
             }\n",
        );
        ir += &function("a", 100, "  call void @helper(ptr %p)\n");
        ir += &function("b", 100, "  %v = load i32, ptr @shared\n  store volatile i32 %v, ptr %p\n");
        ir += &function("c", 150, "  %t = load i32, ptr getelementptr ([2 x i32], ptr @table, i64 0, i64 1)\n  store volatile i32 %t, ptr %p\n  %n = atomicrmw add ptr @counter, i32 1 seq_cst\n");
        ir += &function("d", 150, "");
        ir
    }

    /// Blocks on a cycle: a self loop, a loop of three blocks reached
    /// from outside, and blocks before, between and after them.
    #[test]
    fn blocks_on_cycles_are_found() {
        // 0 -> 1 -> 1 (self) -> 2 -> 3 -> 4 -> 2, 4 -> 5; 6 unreachable, on its own.
        let succs = vec![vec![1], vec![1, 2], vec![3], vec![4], vec![2, 5], vec![], vec![]];
        let on = |succs: &[Vec<usize>]| in_cycles(succs).iter().map(Option::is_some).collect::<Vec<_>>();
        assert_eq!(on(&succs), [false, true, true, true, true, false, false]);
        let c = in_cycles(&succs);
        assert_ne!(c[1], c[2], "the self loop and the loop of three are different cycles");
        assert!(c[2] == c[3] && c[3] == c[4]);
        // Two cycles sharing a block (one component), and a chain with no cycle.
        let succs = vec![vec![1], vec![0, 2], vec![1], vec![4], vec![]];
        assert_eq!(on(&succs), [true, true, true, false, false]);
        let c = in_cycles(&succs);
        assert!(c[0] == c[1] && c[1] == c[2]);
    }

    /// Instructions in a loop count `in_loops` times; a function without
    /// loops weighs its instructions whatever the factor.
    #[test]
    fn work_counts_loop_instructions_more() {
        let ctx = Context::create();
        let ir = looped("looped", "") + &function("straight", 5, "");
        let m = parse(&ctx, &ir);
        let f = |name: &str| m.get_function(name).unwrap().as_value_ref();
        // SAFETY: functions of a parsed module.
        unsafe {
            // entry: 2, loop: 5, exit: 1.
            assert_eq!(work(f("looped"), 1), 8);
            assert_eq!(work(f("looped"), 4), 2 + 5 * 4 + 1);
            assert_eq!(work(f("straight"), 4), work(f("straight"), 1));
            assert_eq!(work(f("straight"), 1), 6);
        }
    }

    /// A loop marked not to vectorise counts [`SCALAR_LOOP_WORK`] times;
    /// other loop properties leave `in_loops`; a cycle holding an unmarked
    /// loop too (an outer loop around a marked one) counts `in_loops`.
    #[test]
    fn loops_marked_not_to_vectorise_count_less() {
        let ctx = Context::create();
        let nested = "define void @nested(ptr %p, i64 %n) {
                  entry:
                    br label %outer
                  outer:
                    %o = phi i64 [ 0, %entry ], [ %o1, %inner.exit ]
                    br label %inner
                  inner:
                    %i = phi i64 [ 0, %outer ], [ %j, %inner ]
                    store volatile i32 1, ptr %p
                    %j = add i64 %i, 1
                    %c = icmp ult i64 %j, %n
                    br i1 %c, label %inner, label %inner.exit, !llvm.loop !0
                  inner.exit:
                    %o1 = add i64 %o, 1
                    %d = icmp ult i64 %o1, %n
                    br i1 %d, label %outer, label %exit
                  exit:
                    ret void
                  }\n";
        let ir = looped("plain", "")
            + &looped("scalar", ", !llvm.loop !0")
            + &looped("one_vector", ", !llvm.loop !3")
            + nested
            + "!0 = distinct !{!0, !1, !2}
               !1 = !{!\"llvm.loop.unroll.runtime.disable\"}
               !2 = !{!\"llvm.loop.vectorize.enable\", i1 false}
               !3 = distinct !{!3, !1, !4}
               !4 = !{!\"llvm.loop.interleave.count\", i32 1}\n";
        let m = parse(&ctx, &ir);
        let f = |name: &str| m.get_function(name).unwrap().as_value_ref();
        // SAFETY: functions of a parsed module.
        unsafe {
            // entry: 2, loop: 5, exit: 1.
            assert_eq!(work(f("plain"), LOOP_WORK), 2 + 5 * LOOP_WORK + 1);
            assert_eq!(work(f("scalar"), LOOP_WORK), 2 + 5 * SCALAR_LOOP_WORK + 1);
            assert_eq!(work(f("one_vector"), LOOP_WORK), 2 + 5 * LOOP_WORK + 1);
            // Below the marked factor, `in_loops` stands.
            assert_eq!(work(f("scalar"), 1), 8);
            // entry 1, outer 2, inner 5, inner.exit 3, exit 1: the outer
            // loop's back edge is unmarked.
            assert_eq!(work(f("nested"), LOOP_WORK), 1 + (2 + 5 + 3) * LOOP_WORK + 1);
        }
    }

    fn names(part: &FxHashSet<String>) -> Vec<&str> {
        let mut v: Vec<&str> = part.iter().map(String::as_str).collect();
        v.sort();
        v
    }

    /// Dealt by size alone, `a` and `b` would go to different parts (after
    /// `c` and `d`); the variable they share keeps them together.
    #[test]
    fn kernels_sharing_a_written_internal_variable_stay_together() {
        let ctx = Context::create();
        let m = parse(&ctx, &program());
        let mut parts: Vec<Vec<&str>> = Vec::new();
        let plan2 = plan(&m, 2, MIN_INSTRUCTIONS, 1);
        parts.extend(plan2.iter().map(|p| names(&p.1)));
        parts.sort();
        assert_eq!(parts, [vec!["a", "b"], vec!["c", "d"]]);
        let plan8 = plan(&m, 8, MIN_INSTRUCTIONS, 1);
        let mut parts: Vec<Vec<&str>> = plan8.iter().map(|p| names(&p.1)).collect();
        parts.sort();
        assert_eq!(parts, [vec!["a", "b"], vec!["c"], vec!["d"]]);
    }

    /// 061's parts (81 %) and 053's (70 %) are cut below the kernel,
    /// 060's (55 %) and 054's (51 %) are not.
    #[test]
    fn only_a_part_well_above_an_even_share_is_cut_below_its_kernel() {
        let parts = |w: &[usize]| w.iter().map(|&n| (n, FxHashSet::default())).collect::<Vec<Part>>();
        assert!(well_above_even_share(&parts(&[1202, 279]), 0));
        assert!(well_above_even_share(&parts(&[534, 227]), 0));
        assert!(!well_above_even_share(&parts(&[649, 538]), 0));
        assert!(!well_above_even_share(&parts(&[686, 655]), 0));
        assert!(!well_above_even_share(&parts(&[279, 1202]), 0));
        // Three threads: half of the work is 1.5 times an even share.
        assert!(well_above_even_share(&parts(&[500, 250, 250]), 0));
        assert!(!well_above_even_share(&parts(&[380, 320, 300]), 0));
    }

    #[test]
    fn small_modules_and_single_kernels_are_compiled_whole() {
        let ctx = Context::create();
        assert!(plan(&parse(&ctx, &program()), 1, MIN_INSTRUCTIONS, 1).is_empty());
        assert!(plan(&parse(&ctx, &function("only", 1000, "")), 4, MIN_INSTRUCTIONS, 1).is_empty());
        assert!(plan(&parse(&ctx, &(function("x", 10, "") + &function("y", 10, ""))), 4, MIN_INSTRUCTIONS, 1).is_empty());
    }

    /// The joined object defines every externally visible symbol once
    /// (the kernels, the variables, the table) and leaves nothing
    /// undefined; the internal variable is defined in the part of `a` and
    /// `b` only.
    #[test]
    fn the_joined_object_defines_each_symbol_once() {
        let ctx = Context::create();
        let m = parse(&ctx, &program());
        let opts = CodegenOptions { opt_level: 2, jobs: 2, ..Default::default() };
        super::super::configure(&m, &opts).unwrap();
        let before = m.print_to_string().to_string();
        let object = compile_object(m.clone(), &opts, None).unwrap().ok().expect("compiled in parts");
        // Parts are joined in a fixed order, whichever thread finishes first.
        for _ in 0..3 {
            assert!(compile_object(m.clone(), &opts, None).unwrap().ok() == Some(object.clone()), "the same object each time");
        }
        let file = object::File::parse(object.as_slice()).unwrap();
        let mut defined: Vec<String> = file.symbols().filter(|s| s.is_definition() && !s.name().unwrap().starts_with(".L")).map(|s| s.name().unwrap().to_string()).collect();
        defined.sort();
        assert_eq!(defined, ["__clc_kernel_table", "a", "b", "c", "counter", "d", "shared", "table"]);
        let undefined: Vec<&str> = file.symbols().filter(|s| s.is_undefined() && !s.name().unwrap().is_empty()).map(|s| s.name().unwrap()).collect();
        assert!(undefined.is_empty(), "{undefined:?}");
        // One thread, or debug information: compiled whole, the module
        // given back as it was.
        for whole in [CodegenOptions { jobs: 1, ..opts.clone() }, CodegenOptions { debug_info: true, ..opts }] {
            match compile_object(m.clone(), &whole, None).unwrap() {
                Ok(_) => panic!("compiled in parts"),
                Err(back) => assert_eq!(given_back(back), before),
            }
        }
    }

    /// Where the parts' objects cannot be joined (a comdat group, which the
    /// joiner does not take), the module comes back whole, as it was,
    /// although this thread had cut its own part out of it.
    #[test]
    fn parts_that_cannot_be_joined_give_the_module_back() {
        let ctx = Context::create();
        let ir = program().replace("define void @d(ptr %p) {", "define void @d(ptr %p) comdat {");
        let m = parse(&ctx, &format!("$d = comdat any\n{ir}"));
        let opts = CodegenOptions { opt_level: 2, jobs: 2, ..Default::default() };
        super::super::configure(&m, &opts).unwrap();
        let before = m.print_to_string().to_string();
        match compile_object(m, &opts, None).unwrap() {
            Ok(_) => panic!("joined objects with a comdat group"),
            Err(back) => assert_eq!(given_back(back), before),
        }
    }
}
