//! Whole-compile benchmark: `clc` next to `clang-22`, kernel by kernel, at `-O2 -c`.
//!
//! Reproduce (from the workspace root):
//!
//! ```sh
//! cargo build --release -p clc && cargo run --release -p clc-bench --bin codegen -- --reps 3
//! ```
//!
//! Inputs: every `tests/corpus/valid/*.cl` (compiled with `-I tests/corpus/include`)
//! and one generated file of `--units` kernels (default 2000) from
//! `bench/src/generator.rs`, without its image family, written to `bench/out/codegen/`.
//! Modes, each compiler given the same options:
//!
//! - native: `-x cl -cl-std=CL2.0 -Xclang -finclude-default-header -O2 -c --target=x86_64-unknown-linux-gnu`
//! - SPIR-V: `-x cl -cl-std=CL2.0 -Xclang -finclude-default-header -O2 -c --target=spirv64`
//!   (if clang cannot produce SPIR-V by itself, clang gets `-emit-llvm` added, and
//!   the output says so).
//!
//! A file whose first line is `// RUN: ...` has that line's `-` flags added to both
//! compilers; it is skipped when either compiler rejects those flags. Before timing,
//! every (file, mode) is compiled once by each compiler with stderr captured: a file
//! either compiler fails on (or whose output is not an
//! object / SPIR-V module) is listed as failed with the first error line. Only
//! files both compilers compile are timed, alternating the two compilers (and
//! which goes first) repetition by repetition. Wall time is taken around
//! spawn + wait4(2). Prints, per mode, each file's median clc and clang times and
//! their ratio, flags every file where clc is slower, and the totals and geometric
//! mean; `--json` prints the same data machine-readably.
//!
//! `--stages` times the native mode stage by stage instead, for both compilers:
//! process start (`--version`), front end (`-fsyntax-only`), lowering to LLVM IR
//! (`-c -emit-llvm -Xclang -disable-llvm-passes`), LLVM's optimiser (`-c
//! -emit-llvm`) and code generation (`-c`), each stage the difference of two
//! medians (so a stage's figure is noisy where it is small). It shows where
//! clc's time goes next to clang's; the goal is judged by the default report.
//! clc compiles a native object of several kernels on several threads, its
//! `-emit-llvm` output on one: for such files (the generated one) the stages
//! after lowering only add up, and the sums are over the corpus.
//!
//! Exit status: 0 when the benchmark ran (whether or not clc meets its goal),
//! 2 for setup failures (bad arguments, missing clc or clang, unwritable output).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clc_bench::{generator, geomean, json_num, json_str, measure_in, median, os_args, which, workspace_root};

struct Options {
    reps: usize,
    units: usize,
    clc: PathBuf,
    clang: String,
    json: bool,
    out: Option<PathBuf>,
    /// Time the native mode stage by stage (see the module documentation).
    stages: bool,
}

const USAGE: &str = "usage: codegen [--reps N (default 5)] [--units N (default 2000)] \
[--clc PATH (default target/release/clc)] [--clang CMD (default clang-22)] [--out DIR (default bench/out/codegen)] [--json] [--stages]";

fn parse_args() -> Result<Options, String> {
    let root = workspace_root();
    let mut o = Options { reps: 5, units: 2000, clc: root.join("target/release/clc"), clang: "clang-22".to_string(), json: false, out: None, stages: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--reps" => o.reps = value("--reps")?.parse().map_err(|e| format!("--reps: {e}"))?,
            "--units" => o.units = value("--units")?.parse().map_err(|e| format!("--units: {e}"))?,
            "--clc" => o.clc = PathBuf::from(value("--clc")?),
            "--clang" => o.clang = value("--clang")?,
            "--out" => o.out = Some(PathBuf::from(value("--out")?)),
            "--json" => o.json = true,
            "--stages" => o.stages = true,
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

/// The options both compilers get, before the mode's target options.
const COMMON: [&str; 6] = ["-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header", "-O2"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Native,
    Spirv,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Native => "-O2 -c --target=x86_64-unknown-linux-gnu",
            Mode::Spirv => "-O2 -c --target=spirv64",
        }
    }
    fn target(self) -> &'static str {
        match self {
            Mode::Native => "--target=x86_64-unknown-linux-gnu",
            Mode::Spirv => "--target=spirv64",
        }
    }
}

/// What a compiler's output must start with.
#[derive(Clone, Copy)]
enum Output {
    Elf,
    Spirv,
    Bitcode,
}

impl Output {
    fn check(self, bytes: &[u8]) -> Result<(), &'static str> {
        let (magic, what): (&[u8], _) = match self {
            Output::Elf => (b"\x7fELF", "an ELF object"),
            Output::Spirv => (&[0x03, 0x02, 0x23, 0x07], "a SPIR-V module"),
            Output::Bitcode => (b"BC\xc0\xde", "LLVM bitcode"),
        };
        if bytes.starts_with(magic) { Ok(()) } else { Err(what) }
    }
    fn ext(self) -> &'static str {
        match self {
            Output::Elf => "o",
            Output::Spirv => "spv",
            Output::Bitcode => "bc",
        }
    }
}

/// One compiler invocation for one (file, mode).
struct Invocation {
    program: PathBuf,
    args: Vec<OsString>,
    output: Output,
    out_file: PathBuf,
}

/// An input file: a corpus kernel or the generated file.
struct Input {
    name: String,
    /// Relative to the workspace root (the children run there).
    path: PathBuf,
    /// Flags from a `// RUN:` first line, given to both compilers.
    run_flags: Vec<String>,
    /// Why the file is skipped before any compile (RUN flags rejected).
    skip: Option<String>,
    corpus: bool,
}

enum Status {
    Timed,
    Skipped(String),
    Failed(String),
}

struct Case {
    input: usize,
    mode: Mode,
    clc: Invocation,
    clang: Invocation,
    status: Status,
    clc_ms: Vec<f64>,
    clang_ms: Vec<f64>,
}

impl Case {
    fn medians(&self) -> Option<(f64, f64)> {
        match self.status {
            Status::Timed => Some((median(&self.clc_ms)?, median(&self.clang_ms)?)),
            _ => None,
        }
    }
}

/// The result of a compile with stderr captured.
struct Probe {
    code: Option<i32>,
    stderr: String,
}

fn probe(inv: &Invocation, cwd: &Path) -> Probe {
    let _ = std::fs::remove_file(&inv.out_file);
    match Command::new(&inv.program).args(&inv.args).current_dir(cwd).stdin(Stdio::null()).stdout(Stdio::null()).output() {
        Ok(o) => Probe { code: o.status.code(), stderr: String::from_utf8_lossy(&o.stderr).into_owned() },
        Err(e) => Probe { code: None, stderr: format!("could not run {}: {e}", inv.program.display()) },
    }
}

/// The first line that says `error`, else the first line, of a compiler's stderr.
fn first_error_line(stderr: &str) -> String {
    let line =
        stderr.lines().find(|l| l.to_ascii_lowercase().contains("error")).or_else(|| stderr.lines().find(|l| !l.trim().is_empty())).unwrap_or("(no message)");
    line.trim().to_string()
}

/// Describes a failed probe: exit status (what clc's mean) and the first error line.
fn describe_failure(tool: &str, p: &Probe) -> String {
    let code = match p.code {
        Some(3) if tool == "clc" => "exit 3, internal compiler error".to_string(),
        Some(c) => format!("exit {c}"),
        None => "killed by a signal".to_string(),
    };
    format!("{tool} ({code}): {}", first_error_line(&p.stderr))
}

/// Checks one compiler's probe: exit 0 and an output of the expected kind.
fn check_probe(tool: &str, inv: &Invocation, p: &Probe) -> Result<(), String> {
    if p.code != Some(0) {
        return Err(describe_failure(tool, p));
    }
    match std::fs::read(&inv.out_file) {
        Ok(bytes) => inv.output.check(&bytes).map_err(|what| format!("{tool}: exit 0 but {} is not {what}", inv.out_file.display())),
        Err(e) => Err(format!("{tool}: exit 0 but no output {}: {e}", inv.out_file.display())),
    }
}

/// Flags of a `// RUN:` first line: its `-` words, less the ones that choose the
/// action, output, language or target (the benchmark sets those itself).
fn run_flags(first_line: &str) -> Option<Vec<String>> {
    let rest = first_line.trim_start().strip_prefix("//")?.trim_start().strip_prefix("RUN:")?;
    let mut flags = Vec::new();
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "-o" | "-x" | "-target" | "-triple" => {
                words.next();
            }
            "-fsyntax-only" | "-verify" | "-c" | "-S" | "-E" | "-emit-llvm" | "-cc1" => {}
            w if w.starts_with("--target=") || w.starts_with("-verify=") || w.starts_with("-cl-std=") => {}
            w if w.starts_with('-') && w.len() > 1 => flags.push(w.to_string()),
            _ => {}
        }
    }
    Some(flags)
}

/// Whether both compilers accept `flags` on a trivial kernel (`-fsyntax-only`).
fn flags_accepted(flags: &[String], clc: &Path, clang: &Path, dir: &Path) -> Result<(), String> {
    let file = dir.join("run_flags_probe.cl");
    std::fs::write(&file, "__kernel void k(__global int *p) { p[0] = 1; }\n").map_err(|e| e.to_string())?;
    for (tool, program) in [("clc", clc), ("clang", clang)] {
        let mut args = os_args(&COMMON);
        args.extend(flags.iter().map(OsString::from));
        args.push("-fsyntax-only".into());
        args.push(file.clone().into_os_string());
        let out = Command::new(program).args(&args).stdin(Stdio::null()).stdout(Stdio::null()).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("RUN flags `{}` rejected by {tool}: {}", flags.join(" "), first_error_line(&String::from_utf8_lossy(&out.stderr))));
        }
    }
    Ok(())
}

/// Whether `clang -c --target=spirv64` writes SPIR-V by itself (LLVM's SPIR-V
/// back end); if not, the benchmark falls back to `-emit-llvm` for clang.
fn clang_emits_spirv(clang: &Path, dir: &Path) -> bool {
    let file = dir.join("spirv_probe.cl");
    let out = dir.join("spirv_probe.spv");
    if std::fs::write(&file, "__kernel void k(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n").is_err() {
        return false;
    }
    let mut args = os_args(&COMMON);
    args.extend(os_args(&["-c", "--target=spirv64", "-o"]));
    args.push(out.clone().into_os_string());
    args.push(file.into_os_string());
    let ok = Command::new(clang).args(&args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    ok && std::fs::read(&out).is_ok_and(|b| Output::Spirv.check(&b).is_ok())
}

fn fmt_ms(x: f64) -> String {
    format!("{x:.1}")
}

/// Per-mode summary over the timed cases.
struct Summary {
    timed: usize,
    corpus_timed: usize,
    corpus_clc_ms: f64,
    corpus_clang_ms: f64,
    all_clc_ms: f64,
    all_clang_ms: f64,
    geomean_corpus: Option<f64>,
    geomean_all: Option<f64>,
    slower: Vec<String>,
    skipped: Vec<(String, String)>,
    failed: Vec<(String, String)>,
}

impl Summary {
    fn goal_met(&self) -> bool {
        self.timed > 0 && self.slower.is_empty() && self.all_clc_ms < self.all_clang_ms
    }
}

fn summarize(cases: &[&Case], inputs: &[Input]) -> Summary {
    let mut s = Summary {
        timed: 0,
        corpus_timed: 0,
        corpus_clc_ms: 0.0,
        corpus_clang_ms: 0.0,
        all_clc_ms: 0.0,
        all_clang_ms: 0.0,
        geomean_corpus: None,
        geomean_all: None,
        slower: Vec::new(),
        skipped: Vec::new(),
        failed: Vec::new(),
    };
    let (mut r_corpus, mut r_all) = (Vec::new(), Vec::new());
    for c in cases {
        let input = &inputs[c.input];
        match &c.status {
            Status::Skipped(why) => s.skipped.push((input.name.clone(), why.clone())),
            Status::Failed(why) => s.failed.push((input.name.clone(), why.clone())),
            Status::Timed => {
                let Some((a, b)) = c.medians() else { continue };
                s.timed += 1;
                s.all_clc_ms += a;
                s.all_clang_ms += b;
                r_all.push(a / b);
                if input.corpus {
                    s.corpus_timed += 1;
                    s.corpus_clc_ms += a;
                    s.corpus_clang_ms += b;
                    r_corpus.push(a / b);
                }
                if a > b {
                    s.slower.push(input.name.clone());
                }
            }
        }
    }
    s.geomean_corpus = geomean(&r_corpus);
    s.geomean_all = geomean(&r_all);
    s
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("codegen: {e}");
            std::process::exit(2);
        }
    };
    let root = workspace_root();
    let clc = if opts.clc.is_absolute() { opts.clc.clone() } else { std::env::current_dir().map(|d| d.join(&opts.clc)).unwrap_or(opts.clc.clone()) };
    if !clc.is_file() {
        eprintln!("codegen: clc binary not found at {} (build it with `cargo build --release -p clc`, or pass --clc PATH)", clc.display());
        std::process::exit(2);
    }
    let Some(clang) = which(&opts.clang) else {
        eprintln!("codegen: {} not found on PATH (pass --clang CMD): there is nothing to compare with", opts.clang);
        std::process::exit(2);
    };
    let out_dir = opts.out.clone().unwrap_or_else(|| root.join("bench/out/codegen"));
    let out_dir = if out_dir.is_absolute() { out_dir } else { std::env::current_dir().map(|d| d.join(&out_dir)).unwrap_or(out_dir) };
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("codegen: cannot create {}: {e}", out_dir.display());
        std::process::exit(2);
    }
    let mut notes = Vec::new();

    // 1. The inputs: the corpus, then the generated file.
    let corpus_dir = root.join("tests/corpus/valid");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&corpus_dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "cl")).collect(),
        Err(e) => {
            eprintln!("codegen: cannot read {}: {e}", corpus_dir.display());
            std::process::exit(2);
        }
    };
    files.sort();
    let mut inputs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let flags = run_flags(text.lines().next().unwrap_or("")).unwrap_or_default();
        let skip = if flags.is_empty() { None } else { flags_accepted(&flags, &clc, &clang, &out_dir).err() };
        inputs.push(Input {
            name: f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            path: f.strip_prefix(&root).unwrap_or(f).to_path_buf(),
            run_flags: flags,
            skip,
            corpus: true,
        });
    }
    let (text, lines) = generator::generate_units(opts.units, false);
    let generated = out_dir.join(format!("generated_{}.cl", opts.units));
    if let Err(e) = std::fs::write(&generated, &text) {
        eprintln!("codegen: cannot write {}: {e}", generated.display());
        std::process::exit(2);
    }
    inputs.push(Input {
        name: format!("generated ({} kernels, {} lines)", opts.units, lines),
        path: generated.clone(),
        run_flags: Vec::new(),
        skip: None,
        corpus: false,
    });

    if opts.stages {
        stages(&opts, &inputs, &clc, &clang, &root, &out_dir);
        return;
    }

    // 2. How clang makes SPIR-V.
    let clang_spirv_native = clang_emits_spirv(&clang, &out_dir);
    let clang_spirv_how = if clang_spirv_native {
        "clang-22 -c --target=spirv64 writes SPIR-V itself (LLVM's SPIR-V back end)".to_string()
    } else {
        let n = "clang-22 -c --target=spirv64 failed on a trivial kernel: clang is timed with -emit-llvm added (LLVM bitcode, no SPIR-V back end), so the SPIR-V comparison is not like for like".to_string();
        notes.push(n.clone());
        n
    };

    // 3. The cases, each checked by one untimed compile per compiler.
    let mut cases = Vec::new();
    for mode in [Mode::Native, Mode::Spirv] {
        for (idx, input) in inputs.iter().enumerate() {
            let make = |tool: &str, program: &Path, output: Output, extra: &[&str]| {
                let out_file = out_dir.join(format!("{tool}.{}", output.ext()));
                let mut args = os_args(&COMMON);
                args.extend(os_args(&["-c", mode.target()]));
                args.extend(os_args(extra));
                if input.corpus {
                    args.extend(os_args(&["-I", "tests/corpus/include"]));
                }
                args.extend(input.run_flags.iter().map(OsString::from));
                args.push("-o".into());
                args.push(out_file.clone().into_os_string());
                args.push(input.path.clone().into_os_string());
                Invocation { program: program.to_path_buf(), args, output, out_file }
            };
            let (clc_out, clang_out, clang_extra): (Output, Output, &[&str]) = match mode {
                Mode::Native => (Output::Elf, Output::Elf, &[]),
                Mode::Spirv if clang_spirv_native => (Output::Spirv, Output::Spirv, &[]),
                Mode::Spirv => (Output::Spirv, Output::Bitcode, &["-emit-llvm"]),
            };
            let clc_inv = make("clc", &clc, clc_out, &[]);
            let clang_inv = make("clang", &clang, clang_out, clang_extra);
            let status = if let Some(why) = &input.skip {
                Status::Skipped(why.clone())
            } else {
                let pc = probe(&clc_inv, &root);
                let rc = check_probe("clc", &clc_inv, &pc);
                let pg = probe(&clang_inv, &root);
                let rg = check_probe("clang", &clang_inv, &pg);
                match (rc, rg) {
                    (Ok(()), Ok(())) => Status::Timed,
                    (a, b) => Status::Failed([a.err(), b.err()].into_iter().flatten().collect::<Vec<_>>().join("; ")),
                }
            };
            if !opts.json {
                let tag = match &status {
                    Status::Timed => "ok",
                    Status::Skipped(_) => "skipped",
                    Status::Failed(_) => "FAILED",
                };
                eprintln!("checked [{}] {}: {tag}", mode.name(), input.name);
            }
            cases.push(Case { input: idx, mode, clc: clc_inv, clang: clang_inv, status, clc_ms: Vec::new(), clang_ms: Vec::new() });
        }
    }

    // 4. Timing: every timed case, both compilers, alternating which goes first.
    for rep in 0..opts.reps {
        if !opts.json {
            eprintln!("repetition {} of {}", rep + 1, opts.reps);
        }
        for c in cases.iter_mut() {
            if !matches!(c.status, Status::Timed) {
                continue;
            }
            let clc_first = rep % 2 == 0;
            for step in 0..2 {
                let is_clc = (step == 0) == clc_first;
                let inv = if is_clc { &c.clc } else { &c.clang };
                match measure_in(&inv.program, &inv.args, Some(&root)) {
                    Ok(s) if s.exit_code == Some(0) => {
                        if is_clc {
                            c.clc_ms.push(s.wall_ms)
                        } else {
                            c.clang_ms.push(s.wall_ms)
                        }
                    }
                    Ok(s) => {
                        let tool = if is_clc { "clc" } else { "clang" };
                        c.status = Status::Failed(format!("{tool} exited {:?} in timed repetition {} (it passed the check run)", s.exit_code, rep + 1));
                        break;
                    }
                    Err(e) => {
                        c.status = Status::Failed(format!("could not run {}: {e}", inv.program.display()));
                        break;
                    }
                }
            }
        }
    }

    // 5. Report.
    let modes = [Mode::Native, Mode::Spirv];
    let per_mode: Vec<(Mode, Vec<&Case>)> = modes.iter().map(|&m| (m, cases.iter().filter(|c| c.mode == m).collect())).collect();
    let summaries: Vec<Summary> = per_mode.iter().map(|(_, cs)| summarize(cs, &inputs)).collect();
    let cmd_line = |tool: &str, m: Mode, extra: &str| format!("{tool} {} -c {}{extra} [-I tests/corpus/include] -o OUT FILE", COMMON.join(" "), m.target());

    if opts.json {
        let mut modes_json = Vec::new();
        for ((mode, cs), s) in per_mode.iter().zip(&summaries) {
            let mut rows = Vec::new();
            for c in cs {
                let input = &inputs[c.input];
                let (status, reason) = match &c.status {
                    Status::Timed => ("timed", None),
                    Status::Skipped(w) => ("skipped", Some(w.as_str())),
                    Status::Failed(w) => ("failed", Some(w.as_str())),
                };
                let m = c.medians();
                rows.push(format!(
                    "      {{\"input\": {}, \"path\": {}, \"status\": {}, \"reason\": {}, \"clc_ms\": {}, \"clang_ms\": {}, \"ratio_clc_over_clang\": {}, \"clc_slower\": {}}}",
                    json_str(&input.name),
                    json_str(&input.path.display().to_string()),
                    json_str(status),
                    reason.map_or("null".to_string(), json_str),
                    json_num(m.map(|m| m.0)),
                    json_num(m.map(|m| m.1)),
                    json_num(m.map(|m| m.0 / m.1)),
                    m.is_some_and(|m| m.0 > m.1),
                ));
            }
            let clang_extra = if *mode == Mode::Spirv && !clang_spirv_native { " -emit-llvm" } else { "" };
            modes_json.push(format!(
                "    {{\"mode\": {}, \"clc\": {}, \"clang\": {}, \"timed\": {}, \"corpus_timed\": {}, \"corpus_total_clc_ms\": {}, \"corpus_total_clang_ms\": {}, \"corpus_geomean_ratio\": {}, \"all_total_clc_ms\": {}, \"all_total_clang_ms\": {}, \"all_geomean_ratio\": {}, \"slower\": [{}], \"skipped\": {}, \"failed\": {}, \"goal_met\": {}, \"results\": [\n{}\n    ]}}",
                json_str(mode.name()),
                json_str(&cmd_line("clc", *mode, "")),
                json_str(&cmd_line("clang-22", *mode, clang_extra)),
                s.timed,
                s.corpus_timed,
                json_num(Some(s.corpus_clc_ms)),
                json_num(Some(s.corpus_clang_ms)),
                json_num(s.geomean_corpus),
                json_num(Some(s.all_clc_ms)),
                json_num(Some(s.all_clang_ms)),
                json_num(s.geomean_all),
                s.slower.iter().map(|n| json_str(n)).collect::<Vec<_>>().join(", "),
                s.skipped.len(),
                s.failed.len(),
                s.goal_met(),
                rows.join(",\n")
            ));
        }
        let notes_json: Vec<String> = notes.iter().map(|n| json_str(n)).collect();
        println!(
            "{{\n  \"reps\": {},\n  \"units\": {},\n  \"generated\": {},\n  \"clc\": {},\n  \"clang\": {},\n  \"clang_spirv\": {},\n  \"goal\": \"clc no slower than clang on any input, and faster in total\",\n  \"modes\": [\n{}\n  ],\n  \"notes\": [{}]\n}}",
            opts.reps,
            opts.units,
            json_str(&generated.display().to_string()),
            json_str(&clc.display().to_string()),
            json_str(&clang.display().to_string()),
            json_str(&clang_spirv_how),
            modes_json.join(",\n"),
            notes_json.join(", ")
        );
        return;
    }

    println!("codegen: whole-compile time, clc vs {}, median of {} repetitions (ratio = clc/clang; < 1 means clc is faster)", opts.clang, opts.reps);
    println!("clc: {}   clang: {}", clc.display(), clang.display());
    println!("generated input: {} ({} kernels, {} lines, {:.1} KiB)", generated.display(), opts.units, lines, text.len() as f64 / 1024.0);
    println!("SPIR-V: {clang_spirv_how}");
    let width = inputs.iter().map(|i| i.name.len()).max().unwrap_or(10).max(24);
    for ((mode, cs), s) in per_mode.iter().zip(&summaries) {
        let clang_extra = if *mode == Mode::Spirv && !clang_spirv_native { " -emit-llvm" } else { "" };
        println!();
        println!("== mode {} ==", mode.name());
        println!("   clc:   {}", cmd_line("clc", *mode, ""));
        println!("   clang: {}", cmd_line("clang-22", *mode, clang_extra));
        println!("{:<width$} {:>10} {:>10} {:>8}", "input", "clc ms", "clang ms", "ratio");
        for c in cs {
            let input = &inputs[c.input];
            match (&c.status, c.medians()) {
                (Status::Timed, Some((a, b))) => {
                    println!("{:<width$} {:>10} {:>10} {:>8.2}{}", input.name, fmt_ms(a), fmt_ms(b), a / b, if a > b { "  << clc slower" } else { "" })
                }
                (Status::Skipped(_), _) => println!("{:<width$} {:>10} {:>10} {:>8}", input.name, "-", "-", "skipped"),
                _ => println!("{:<width$} {:>10} {:>10} {:>8}", input.name, "-", "-", "FAILED"),
            }
        }
        let fmt_ratio = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{v:.2}"));
        let total_ratio = |a: f64, b: f64| if b > 0.0 { Some(a / b) } else { None };
        println!(
            "{:<width$} {:>10} {:>10} {:>8}",
            format!("corpus total ({} timed)", s.corpus_timed),
            fmt_ms(s.corpus_clc_ms),
            fmt_ms(s.corpus_clang_ms),
            fmt_ratio(total_ratio(s.corpus_clc_ms, s.corpus_clang_ms))
        );
        println!("{:<width$} {:>10} {:>10} {:>8}", "corpus geomean of ratios", "", "", fmt_ratio(s.geomean_corpus));
        println!(
            "{:<width$} {:>10} {:>10} {:>8}",
            format!("all total ({} timed)", s.timed),
            fmt_ms(s.all_clc_ms),
            fmt_ms(s.all_clang_ms),
            fmt_ratio(total_ratio(s.all_clc_ms, s.all_clang_ms))
        );
        println!("{:<width$} {:>10} {:>10} {:>8}", "all geomean of ratios", "", "", fmt_ratio(s.geomean_all));
        println!(
            "clc slower than clang on {} of {} timed inputs{}{}",
            s.slower.len(),
            s.timed,
            if s.slower.is_empty() { "" } else { ": " },
            s.slower.join(", ")
        );
        println!(
            "goal (no slower on any input, faster in total): {}",
            if s.goal_met() {
                "met"
            } else if s.timed == 0 {
                "not measured"
            } else {
                "NOT met"
            }
        );
        if !s.skipped.is_empty() {
            println!("skipped ({}):", s.skipped.len());
            for (n, why) in &s.skipped {
                println!("  {n}: {why}");
            }
        }
        if !s.failed.is_empty() {
            println!("failed ({}):", s.failed.len());
            for (n, why) in &s.failed {
                println!("  {n}: {why}");
            }
        }
    }
    for n in &notes {
        println!("note: {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::{Output, first_error_line, run_flags};

    #[test]
    fn run_line_flags() {
        assert_eq!(run_flags("// a kernel"), None);
        assert_eq!(
            run_flags("// RUN: %clang_cc1 -x cl -cl-std=CL2.0 -fsyntax-only -verify -DN=4 -cl-fast-relaxed-math %s -o -"),
            Some(vec!["-DN=4".to_string(), "-cl-fast-relaxed-math".to_string()])
        );
    }

    #[test]
    fn error_lines_and_magic() {
        assert_eq!(first_error_line("warning: w\nf.cl:1:2: error: bad\n"), "f.cl:1:2: error: bad");
        assert_eq!(first_error_line("LLVM ERROR: x\n"), "LLVM ERROR: x");
        assert_eq!(first_error_line(""), "(no message)");
        assert!(Output::Elf.check(b"\x7fELF\x02").is_ok());
        assert!(Output::Spirv.check(&[0x03, 0x02, 0x23, 0x07, 0]).is_ok());
        assert!(Output::Spirv.check(b"\x7fELF").is_err());
    }
}

/// The stages `--stages` times, each a command whose time includes the
/// stages before it: its name and the options it adds to [`COMMON`] and
/// the native target (`None`: `--version` alone, the process start).
const STAGES: [(&str, Option<&[&str]>); 5] = [
    ("start", None),
    ("front end", Some(&["-fsyntax-only"])),
    ("lowering", Some(&["-c", "-emit-llvm", "-Xclang", "-disable-llvm-passes"])),
    ("optimiser", Some(&["-c", "-emit-llvm"])),
    ("codegen", Some(&["-c"])),
];

/// `--stages`: per input, each compiler's median time to the end of each
/// stage, reported as the time of each stage.
fn stages(opts: &Options, inputs: &[Input], clc: &Path, clang: &Path, root: &Path, out_dir: &Path) {
    let tools = [("clc", clc), ("clang", clang)];
    let command = |input: &Input, tool: &str, stage: Option<&[&str]>| -> Vec<OsString> {
        let Some(extra) = stage else { return os_args(&["--version"]) };
        let mut args = os_args(&COMMON);
        args.extend(os_args(&[Mode::Native.target()]));
        args.extend(os_args(extra));
        if input.corpus {
            args.extend(os_args(&["-I", "tests/corpus/include"]));
        }
        args.extend(input.run_flags.iter().map(OsString::from));
        if extra != ["-fsyntax-only"] {
            args.push("-o".into());
            args.push(out_dir.join(format!("{tool}.stage")).into_os_string());
        }
        args.push(input.path.clone().into_os_string());
        args
    };
    // Inputs every stage of both compilers takes (checked once, untimed).
    let usable: Vec<&Input> = inputs
        .iter()
        .filter(|input| input.skip.is_none())
        .filter(|input| {
            let ok = tools.iter().all(|(tool, program)| {
                STAGES.iter().all(|(_, stage)| measure_in(program, &command(input, tool, *stage), Some(root)).is_ok_and(|s| s.exit_code == Some(0)))
            });
            if !ok {
                eprintln!("stages: {} skipped (a compiler rejects it at some stage)", input.name);
            }
            ok
        })
        .collect();
    // times[input][tool][stage]: the samples.
    let mut times: Vec<[[Vec<f64>; STAGES.len()]; 2]> = (0..usable.len()).map(|_| std::array::from_fn(|_| std::array::from_fn(|_| Vec::new()))).collect();
    for rep in 0..opts.reps {
        eprintln!("repetition {} of {}", rep + 1, opts.reps);
        for (i, input) in usable.iter().enumerate() {
            for step in 0..2 {
                let t = if rep % 2 == 0 { step } else { 1 - step };
                let (tool, program) = tools[t];
                for (k, (_, stage)) in STAGES.iter().enumerate() {
                    if let Ok(s) = measure_in(program, &command(input, tool, *stage), Some(root))
                        && s.exit_code == Some(0)
                    {
                        times[i][t][k].push(s.wall_ms);
                    }
                }
            }
        }
    }
    println!("codegen --stages: native -O2 -c, median of {} repetitions, each stage in ms (the difference of cumulative medians)", opts.reps);
    println!("clc: {}   clang: {}", clc.display(), clang.display());
    let names: Vec<&str> = STAGES.iter().map(|(n, _)| *n).collect();
    println!("{:<34} {:>5}  {}", "input", "tool", names.iter().map(|n| format!("{n:>10}")).collect::<String>() + "      total");
    let mut sums = [[0.0f64; STAGES.len()]; 2];
    for (i, input) in usable.iter().enumerate() {
        for (t, (tool, _)) in tools.iter().enumerate() {
            let cumulative: Vec<f64> = times[i][t].iter().map(|xs| median(xs).unwrap_or(f64::NAN)).collect();
            let mut row = String::new();
            for k in 0..STAGES.len() {
                let stage = if k == 0 { cumulative[0] } else { cumulative[k] - cumulative[k - 1] };
                if input.corpus {
                    sums[t][k] += stage;
                }
                row += &format!("{:>10}", fmt_ms(stage));
            }
            let label = if t == 0 { input.name.as_str() } else { "" };
            println!("{label:<34} {tool:>5}  {row}  {:>9}", fmt_ms(cumulative[STAGES.len() - 1]));
        }
    }
    for (t, (tool, _)) in tools.iter().enumerate() {
        let row: String = sums[t].iter().map(|x| format!("{:>10}", fmt_ms(*x))).collect();
        let label = if t == 0 { format!("corpus sum ({} files)", usable.iter().filter(|i| i.corpus).count()) } else { String::new() };
        println!("{label:<34} {tool:>5}  {row}  {:>9}", fmt_ms(sums[t].iter().sum()));
    }
}
