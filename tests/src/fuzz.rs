//! A randomized robustness test for the preprocessor, the parser, the
//! checker and the lowering: feed them arbitrary bytes, token soup, deep
//! nesting and mutated kernels from the corpus (text spliced, or numbers
//! and operators replaced), and require that they return (with diagnostics) instead of
//! panicking, hanging or overflowing the stack.
//!
//! It is deterministic for a given seed (a small xorshift generator, so no
//! dependency) and runs through the library, not the binary, so a panic is
//! caught here and reported with the input that caused it.

use clc::diag::{Diagnostics, WarningPolicy, WarningState};
use clc::options::{ClStd, Target};
use clc::pp::{self, PpOptions};
use clc::source::SourceMap;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// xorshift64*: tiny, fast and good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// Fragments that make mutations interesting: directives, macro tricks,
/// OpenCL keywords, unbalanced brackets, literal edge cases.
const FRAGMENTS: &[&str] = &[
    "#define A(x) x##x\n", "#define B(...) __VA_ARGS__\n", "#define R R R\n", "#if 1/0\n", "#if\n", "#endif\n", "#else\n",
    "#elif 2\n", "#include \"nope.h\"\n", "#include <", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n", "_Pragma(\"unroll\")",
    "#error x\n", "#line 0\n", "#", "##", "(", ")", "{", "}", "[", "]", ";", ",", "__kernel", "void", "float4", "(float4)(1,2,3,4)",
    ".xyzw", "typedef int T;", "T x;", "struct S{int a;};", "^{", "__attribute__((", "))", "0x1p-3f", "1e", "08", "'\\x'", "\"abc",
    "/*", "*/", "//", "\\\n", "@", "A(", "B(1,2)", "__LINE__", "#x", "a ? b : c", "sizeof(int)", "x = y = z;", "goto l; l: ;",
    "switch(x){case 1: default:;}", "for(;;)", "do ; while(0);", "\0", "\u{00e9}", "<:", "%>", "...",
];

/// Values a number in a kernel is replaced by: limits of the integer
/// types, out-of-range floats, sizes that no memory holds.
const EDGE_NUMBERS: &[&str] = &[
    "0", "-1", "1", "3", "255u", "65535", "2147483647", "2147483648", "-2147483648", "4294967296", "0x7fffffff", "1e39f", "-0.0f",
    "1e-45f", "18446744073709551615ul",
];

/// Binary operators swapped for one another.
const OPERATORS: &[&str] = &["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "==", "!=", "&&", "||"];

/// `seed` with one to four of its numbers replaced by [`EDGE_NUMBERS`]
/// or its operators swapped: mutants that mostly still check, so they
/// reach the lowering with values no corpus kernel has (a 2^31-element
/// constant array made the lowering allocate 52 GB).
fn mutate_values(rng: &mut Rng, seed: &str) -> String {
    const OPERATOR_CHARS: &[u8] = b"+-*/%<>&|^=!";
    let b = seed.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.');
        if b[i].is_ascii_digit() && starts_word {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            spans.push((start, i, true));
        } else if OPERATOR_CHARS.contains(&b[i]) {
            let start = i;
            while i < b.len() && OPERATOR_CHARS.contains(&b[i]) {
                i += 1;
            }
            if OPERATORS.contains(&&seed[start..i]) {
                spans.push((start, i, false));
            }
        } else {
            i += 1;
        }
    }
    let mut chosen: Vec<(usize, usize, bool)> = (0..1 + rng.below(4)).filter(|_| !spans.is_empty()).map(|_| spans[rng.below(spans.len())]).collect();
    chosen.sort();
    chosen.dedup();
    let mut out = seed.to_string();
    for &(start, end, number) in chosen.iter().rev() {
        let with = if number { EDGE_NUMBERS[rng.below(EDGE_NUMBERS.len())] } else { OPERATORS[rng.below(OPERATORS.len())] };
        out.replace_range(start..end, with);
    }
    out
}

/// What a run did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub cases: u64,
    pub bytes: u64,
    pub diagnostics: u64,
    pub slowest: Duration,
}

/// Runs one input through preprocessing and parsing. `Err` carries the
/// panic message.
pub fn run_case(text: &str, std: ClStd) -> Result<usize, String> {
    // The driver runs the stages on a 256 MiB stack; do the same, so a
    // long operator chain is judged as clc would judge it.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || run_case_here(text, std))
            .map_err(|e| format!("cannot start a thread: {e}"))?
            .join()
            .map_err(|_| "the fuzz thread died".to_string())?
    })
}

fn run_case_here(text: &str, std: ClStd) -> Result<usize, String> {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut sm = SourceMap::new();
        let main = sm.add_virtual("fuzz.cl", text.to_string());
        // Every warning on: the checks clang leaves off by default run too.
        let mut policy = WarningPolicy::default();
        policy.set("everything", WarningState::On);
        let mut diags = Diagnostics::new(policy);
        let opts = PpOptions { std, ..Default::default() };
        let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
        let tu = clc::parse::parse(&sm, &out, std, &mut diags);
        let sema_opts = clc::sema::SemaOptions::new(std, Default::default(), &out.pragmas);
        let program = clc::sema::check(&tu, &sema_opts, &mut diags);
        let _ = clc::parse::dump(&sm, &tu);
        if !diags.has_errors() {
            // A program the checker accepts lowers to IR the verifier
            // accepts, for the CPU and for SPIR-V (lowered only: LLVM 22's
            // SPIR-V back end is not safe to run twice in one process).
            for target in [Target::Host, Target::Spirv64] {
                let ctx = inkwell_context();
                let opts = clc::codegen::CodegenOptions { std, target: target.clone(), ..Default::default() };
                match clc::codegen::lower(&ctx, &program, &sm, "fuzz", &opts) {
                    Ok(m) => {
                        if let Err(e) = clc::codegen::verify(&m) {
                            panic!("the lowering of an accepted program for {target:?} does not verify: {e}");
                        }
                    }
                    Err(e) => panic!("internal error in code generation for {target:?}: {e}"),
                }
            }
        }
        // Rendering must work for every diagnostic the stages made.
        for d in diags.iter() {
            let _ = clc::diag::render::render(&sm, d, clc::diag::render::Format::Clang);
            let _ = clc::diag::render::render(&sm, d, clc::diag::render::Format::Rich);
        }
        diags.len()
    }));
    result.map_err(|e| {
        e.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| e.downcast_ref::<String>().cloned()).unwrap_or_else(|| "panic".into())
    })
}

/// Makes the `i`-th input from the seeds (corpus files) and the generator.
fn inkwell_context() -> clc::codegen::Context {
    clc::codegen::Context::create()
}

pub fn make_input(rng: &mut Rng, seeds: &[String]) -> String {
    match rng.below(10) {
        // Arbitrary bytes, made valid UTF-8 the way the driver does.
        0 => {
            let n = rng.below(256);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        // Token soup from the fragments.
        1 | 2 => (0..rng.below(64)).map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())]).collect(),
        // Deep nesting of one bracket kind.
        3 => {
            let depth = 1 + rng.below(20_000);
            let (open, close) = [("(", ")"), ("{", "}"), ("[", "]"), ("#if 1\n", "#endif\n")][rng.below(4)];
            format!("kernel void f() {{ int x = {}1{}; }}", open.repeat(depth), close.repeat(rng.below(depth + 1)))
        }
        // A corpus kernel with edge values and swapped operators.
        4 if !seeds.is_empty() => {
            let seed = &seeds[rng.below(seeds.len())];
            mutate_values(rng, seed)
        }
        // A corpus kernel with mutations.
        _ if !seeds.is_empty() => {
            let mut s: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(s.len() + 1);
                match rng.below(4) {
                    0 if !s.is_empty() => {
                        let end = (at + rng.below(32)).min(s.len());
                        s.drain(at.min(end)..end);
                    }
                    1 => {
                        let frag = FRAGMENTS[rng.below(FRAGMENTS.len())];
                        s.splice(at..at, frag.chars());
                    }
                    2 if !s.is_empty() => {
                        let from = rng.below(s.len());
                        let end = (from + rng.below(64)).min(s.len());
                        let piece: Vec<char> = s[from..end].to_vec();
                        s.splice(at..at, piece);
                    }
                    _ => {
                        if at < s.len() {
                            s[at] = FRAGMENTS[rng.below(FRAGMENTS.len())].chars().next().unwrap_or(' ');
                        }
                    }
                }
            }
            s.into_iter().collect()
        }
        _ => String::new(),
    }
}

/// Runs cases until `cases` are done or `time` has passed, whichever is
/// first. Returns the stats, or the first failing input and its message.
pub fn fuzz(seed: u64, cases: u64, time: Duration, seeds: &[String]) -> Result<Stats, (String, String)> {
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let start = Instant::now();
    // An abort (a stack overflow) cannot be caught: with CLC_FUZZ_TRACE
    // set, each input is written to that file before it runs.
    let trace = std::env::var_os("CLC_FUZZ_TRACE");
    let watch = Watchdog::start();
    let result = loop {
        if stats.cases >= cases || start.elapsed() >= time {
            break Ok(stats);
        }
        let input = make_input(&mut rng, seeds);
        let std = [ClStd::Cl12, ClStd::Cl20, ClStd::Cl30][rng.below(3)];
        if let Some(path) = &trace {
            let _ = std::fs::write(path, format!("// {std:?}\n{input}"));
        }
        watch.begin(&format!("// {std:?}\n{input}"));
        let t = Instant::now();
        match run_case(&input, std) {
            Ok(n) => stats.diagnostics += n as u64,
            Err(msg) => break Err((input, msg)),
        }
        stats.slowest = stats.slowest.max(t.elapsed());
        stats.cases += 1;
        stats.bytes += input.len() as u64;
    };
    watch.stop();
    result
}

/// A case running longer than this is a hang.
const HANG: Duration = Duration::from_secs(60);

/// Ends the process when a case runs past [`HANG`] (a hang cannot be
/// caught like a panic), its input written to `fuzz-failure.cl` first.
struct Watchdog {
    state: std::sync::Arc<std::sync::Mutex<(Option<(Instant, String)>, bool)>>,
}

impl Watchdog {
    fn start() -> Watchdog {
        let state = std::sync::Arc::new(std::sync::Mutex::new((None::<(Instant, String)>, false)));
        let seen = state.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let guard = seen.lock().unwrap_or_else(|e| e.into_inner());
                if guard.1 {
                    return;
                }
                if let Some((since, input)) = &guard.0
                    && since.elapsed() > HANG
                {
                    let _ = std::fs::write("fuzz-failure.cl", input);
                    eprintln!("hang: an input ran over {HANG:?}\ninput written to fuzz-failure.cl");
                    std::process::exit(1);
                }
            }
        });
        Watchdog { state }
    }

    fn begin(&self, input: &str) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 = Some((Instant::now(), input.to_string()));
    }

    fn stop(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
    }
}

/// The corpus kernels, as seeds for mutation.
pub fn corpus_seeds() -> Vec<String> {
    ["tests/corpus/valid", "tests/parse", "tests/pp", "examples"]
        .iter()
        .flat_map(|d| crate::cl_files(d))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}
