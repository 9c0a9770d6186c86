//! The `clc` command: options in, stages run in order, diagnostics out.
//!
//! The driver owns everything that touches the outside world: reading
//! files, choosing the diagnostic format and colour, the `-ferror-limit`,
//! exit statuses (0 success, 1 errors in the program, 2 usage errors, 3 an
//! internal compiler error). Stages never print.
//!
//! Generating code (`-c`, `-S`, `-emit-llvm`, or no action flag: clc does
//! not link, so plain `clc foo.cl` is `clc -c foo.cl`) runs
//! `codegen::compile`: lower, verify, optimise, emit. The result goes to
//! `-o FILE` (`-o -`: standard output) or to clang's default name in the
//! current directory: `foo.o` (`-c`; a SPIR-V binary for `--target=spirv*`),
//! `foo.s` (`-S`), `foo.ll` (`-S -emit-llvm`), `foo.bc` (`-c -emit-llvm`).
//! An error from code generation (a verifier failure, say) is an internal
//! compiler error naming the function: exit status 3.
//!
//! A panic anywhere in the pipeline is a bug in clc: it is caught and
//! reported as an internal compiler error with the panic's message, never
//! as an abort; the `clc` command also reports LLVM's fatal errors and
//! crash signals so ([`crate::crash`]). The pipeline runs on a thread with a large stack so that
//! deeply nested input meets the stages' own depth limits (which report
//! diagnostics) before the thread's stack runs out.

pub mod args;
pub mod run;

use crate::codegen::{CodegenOptions, InternalError, OutputKind};
use crate::diag::render::{self, Format};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::pp::{self, PpOptions};
use crate::source::SourceMap;
use args::{Action, Emit, Invocation};
use codespan_reporting::term::termcolor::{ColorChoice, NoColor, StandardStream, WriteColor};
use std::io::{IsTerminal, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const EXIT_OK: i32 = 0;
pub const EXIT_ERRORS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INTERNAL: i32 = 3;

/// The line after every internal compiler error.
pub(crate) const BUG_REPORT: &str = "clc: this is a bug in clc; please report it with the input that caused it";

/// Stack for the pipeline thread. Recursive stages stop at their own
/// nesting limits long before this is used up.
const PIPELINE_STACK: usize = 256 << 20;

/// Runs `clc` with `args` (including the program name) on the real
/// standard streams and returns the exit status.
pub fn main(args: Vec<std::ffi::OsString>) -> i32 {
    crate::crash::install();
    let args: Vec<String> = args.into_iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    if args.first().is_some_and(|a| a == "run") {
        let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
        return run::main(&args[1..], &mut out, &mut err);
    }
    let mut inv = match args::parse(&args) {
        Ok(inv) => inv,
        Err(e) => {
            eprintln!("clc: error: {}", e.0);
            return EXIT_USAGE;
        }
    };
    inv.leak_at_exit = true;
    let stderr_tty = std::io::stderr().is_terminal();
    let color = match inv.color {
        Some(true) => ColorChoice::Always,
        Some(false) => ColorChoice::Never,
        None if stderr_tty => ColorChoice::Auto,
        None => ColorChoice::Never,
    };
    let mut err = StandardStream::stderr(color);
    let mut out = std::io::stdout();
    let format = inv.diag_format.unwrap_or(if stderr_tty { Format::Rich } else { Format::Clang });
    run(&inv, format, &mut out, &mut err)
}

/// Runs `clc` with `args` (without the program name), capturing its
/// output: `(exit status, stdout, stderr)`, diagnostics in clang format
/// without colour unless the arguments choose otherwise. For tests and
/// embedding.
pub fn run_captured(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let inv = match args::parse(&args) {
        Ok(inv) => inv,
        Err(e) => return (EXIT_USAGE, String::new(), format!("clc: error: {}\n", e.0)),
    };
    let mut out = Vec::new();
    let mut err = NoColor::new(Vec::new());
    let format = inv.diag_format.unwrap_or(Format::Clang);
    let code = run(&inv, format, &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err.into_inner()).into_owned())
}

/// Runs a parsed invocation, catching internal errors.
pub fn run(inv: &Invocation, format: Format, out: &mut (dyn Write + Send), err: &mut (dyn WriteColor + Send)) -> i32 {
    if inv.show_help {
        let _ = out.write_all(args::help().as_bytes());
        return EXIT_OK;
    }
    if inv.show_version {
        let _ = writeln!(out, "clc {} (OpenCL C 1.0-3.0; LLVM {})", env!("CARGO_PKG_VERSION"), crate::codegen::llvm_version());
        return EXIT_OK;
    }
    guarded(|| run_inputs(inv, format, out, err))
}

/// Runs `work` on the pipeline thread (large stack), turning a panic into
/// an internal-compiler-error report and [`EXIT_INTERNAL`].
fn guarded(work: impl FnOnce() -> i32 + Send) -> i32 {
    let panic_message = install_panic_capture();
    let result = std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("clc-pipeline".into())
            .stack_size(PIPELINE_STACK)
            .spawn_scoped(s, || panic::catch_unwind(AssertUnwindSafe(work)));
        match handle {
            Ok(h) => h.join().unwrap_or_else(Err),
            Err(e) => Ok(internal_error_message(&format!("cannot start the compiler thread: {e}"))),
        }
    });
    match result {
        Ok(code) => code,
        Err(_) => {
            let msg = panic_message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("clc: internal compiler error: {msg}\n{BUG_REPORT}");
            EXIT_INTERNAL
        }
    }
}

fn internal_error_message(msg: &str) -> i32 {
    eprintln!("clc: internal compiler error: {msg}");
    EXIT_INTERNAL
}

/// Makes panics silent and records the last panic's message and location,
/// so the driver can print it as an internal compiler error.
fn install_panic_capture() -> &'static Mutex<String> {
    static MESSAGE: Mutex<String> = Mutex::new(String::new());
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            // Only the pipeline thread's panics are ours to report; others
            // (a test harness's, say) keep the usual output.
            if std::thread::current().name() != Some("clc-pipeline") {
                previous(info);
                return;
            }
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            if let Ok(mut m) = MESSAGE.lock() {
                *m = format!("{payload}{location}");
            }
        }));
    });
    &MESSAGE
}

fn run_inputs(inv: &Invocation, format: Format, out: &mut dyn Write, err: &mut dyn WriteColor) -> i32 {
    if inv.action == Action::Compile {
        // An unknown --target= is the user's mistake: say so before doing
        // any work, as clang does.
        if let Err(reason) = crate::codegen::check_target(&codegen_options(inv)) {
            let _ = writeln!(err, "clc: error: unknown target triple '{}': {reason}", crate::codegen::target_triple(&codegen_options(inv)));
            return EXIT_USAGE;
        }
    }
    let epoch = match source_date_epoch(std::env::var_os("SOURCE_DATE_EPOCH")) {
        Ok(epoch) => epoch,
        Err(msg) => {
            let _ = writeln!(err, "clc: error: {msg}");
            return EXIT_USAGE;
        }
    };
    let mut status = EXIT_OK;
    for input in &inv.inputs {
        status = status.max(run_one(inv, input, epoch, format, out, err));
    }
    status
}

/// The `SOURCE_DATE_EPOCH` environment variable (reproducible builds'
/// time for `__DATE__`, `__TIME__` and `__TIMESTAMP__`), checked as clang
/// checks it: seconds since 1970, up to the end of year 9999.
fn source_date_epoch(value: Option<std::ffi::OsString>) -> Result<Option<u64>, String> {
    const MAX: u64 = 253_402_300_799;
    let Some(value) = value else { return Ok(None) };
    let text = value.to_string_lossy();
    match text.parse::<u64>() {
        Ok(n) if n <= MAX && text.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(format!("environment variable 'SOURCE_DATE_EPOCH' ('{text}') must be a non-negative decimal integer <= {MAX}")),
    }
}

/// What code generation needs from the command line.
pub fn codegen_options(inv: &Invocation) -> CodegenOptions {
    CodegenOptions {
        target: inv.target.clone(),
        std: inv.std,
        opt_level: inv.opt_level,
        fp: inv.fp,
        kernel_arg_info: inv.kernel_arg_info,
        debug_info: inv.debug_info,
        spirv_minor: inv.spirv_minor,
        fp_contract: Vec::new(),
        host_cpu: inv.host_cpu,
        jobs: 0,
        disable_llvm_passes: inv.disable_llvm_passes,
    }
}

fn output_kind(emit: Emit) -> OutputKind {
    match emit {
        Emit::Object => OutputKind::Object,
        Emit::Assembly => OutputKind::Assembly,
        Emit::LlvmIr => OutputKind::LlvmIr,
        Emit::LlvmBitcode => OutputKind::Bitcode,
    }
}

/// clang's output name for generated code: the input's file name with the
/// output kind's extension, in the current directory (`-` reads standard
/// input and writes `-.o`, as clang does).
fn default_output(input: &Path, emit: Emit) -> PathBuf {
    let stem = input.file_stem().map(|s| s.to_os_string()).unwrap_or_else(|| "-".into());
    let ext = match emit {
        Emit::Object => "o",
        Emit::Assembly => "s",
        Emit::LlvmIr => "ll",
        Emit::LlvmBitcode => "bc",
    };
    let mut name = stem;
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

/// Reads the main file (or standard input for `-`) into the source map.
fn read_input(sm: &mut SourceMap, path: &Path) -> Result<crate::source::FileId, String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(sm.add("<stdin>", None, text, crate::source::FileKind::Real));
    }
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("no such file or directory: '{}'", path.display()),
        _ => format!("cannot read '{}': {e}", path.display()),
    })?;
    let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(sm.add_real(path, text))
}

fn run_one(inv: &Invocation, input: &Path, source_date_epoch: Option<u64>, format: Format, out: &mut dyn Write, err: &mut dyn WriteColor) -> i32 {
    let mut sm = SourceMap::new();
    let main = match read_input(&mut sm, input) {
        Ok(id) => id,
        Err(msg) => {
            let _ = writeln!(err, "clc: error: {msg}");
            return EXIT_ERRORS;
        }
    };
    let mut diags = Diagnostics::new(inv.warnings.clone());
    unknown_warning_options(&mut sm, inv, &mut diags);
    let quoted = format!("'{}'", sm.file(main).name);
    let stage = |stage| crate::crash::set(stage, &quoted);
    stage(crate::crash::Stage::Preprocessing);
    let pp_opts = PpOptions {
        std: inv.std,
        target: inv.target.clone(),
        include_dirs: inv.include_dirs.clone(),
        macros: inv.macros.clone(),
        includes: inv.includes.clone(),
        fp: inv.fp,
        source_date_epoch,
        macro_dump: if inv.action == Action::Preprocess { inv.macro_dump } else { pp::MacroDump::None },
    };
    let pp_out = pp::preprocess(&mut sm, main, &pp_opts, &mut diags);
    debug_pragmas(&pp_out, &mut diags);
    let mut text_out = String::new();
    // Generated code, or the internal error that stopped code generation.
    let mut code: Option<Result<Vec<u8>, InternalError>> = None;
    match inv.action {
        Action::Preprocess if pp_opts.macro_dump == pp::MacroDump::Definitions => text_out = pp::print_macros(&pp_out),
        Action::Preprocess => text_out = pp::print(&sm, &pp_out),
        Action::DumpTokens => {
            for t in &pp_out.tokens {
                text_out.push_str(&format!("{:?} '{}' {}\n", t.kind, sm.text(t.spelling), sm.describe(t.span)));
            }
        }
        Action::SyntaxOnly | Action::DumpAst | Action::DumpTyped | Action::Compile if !pp_out.fatal && !diags.has_fatal() => {
            stage(crate::crash::Stage::Parsing);
            let tu = crate::parse::parse(&sm, &pp_out, inv.std, &mut diags);
            if inv.action != Action::DumpAst {
                stage(crate::crash::Stage::Checking);
                let mut sema_opts = crate::sema::SemaOptions::new(inv.std, inv.target.clone(), &pp_out.pragmas);
                // Checking alone does not need the typed program.
                sema_opts.build_program = inv.action != Action::SyntaxOnly;
                let program = crate::sema::check(&tu, &sema_opts, &mut diags);
                if inv.action == Action::DumpTyped && !diags.has_errors() {
                    text_out = crate::sema::hir::dump(&program);
                }
                if inv.action == Action::Compile && !diags.has_errors() {
                    let name = if input == Path::new("-") { "<stdin>".to_string() } else { input.display().to_string() };
                    let mut opts = codegen_options(inv);
                    opts.fp_contract = pp_out
                        .pragmas
                        .iter()
                        .filter_map(|p| match p.kind {
                            pp::PragmaKind::FpContract(s) => Some((p.span, s != pp::Switch::Off)),
                            _ => None,
                        })
                        .collect();
                    stage(crate::crash::Stage::GeneratingCode);
                    code = Some(crate::codegen::compile(&program, &sm, &name, &opts, output_kind(inv.emit)));
                }
            }
            if inv.action == Action::DumpAst {
                text_out = crate::parse::dump(&sm, &tu);
            }
            if inv.leak_at_exit {
                // The process is about to exit: taking the tree apart node
                // by node would cost a third of the parse time for nothing
                // (clang's -disable-free does the same).
                std::mem::forget(tu);
            }
        }
        // The preprocessor's error says why.
        Action::SyntaxOnly | Action::DumpAst | Action::DumpTyped | Action::Compile => {}
    }
    let printed_errors = emit_diagnostics(&sm, diags.iter(), inv.error_limit, format, inv.clang_style, err);
    let (bytes, path) = match code {
        Some(Err(e)) => {
            let _ = writeln!(err, "clc: internal compiler error: {e}\n{BUG_REPORT}");
            return EXIT_INTERNAL;
        }
        // Generated code goes to -o, or to clang's default name; `-o -` is
        // standard output.
        Some(Ok(bytes)) => (bytes, Some(inv.output.clone().unwrap_or_else(|| default_output(input, inv.emit)))),
        None if text_out.is_empty() => (Vec::new(), None),
        None => (text_out.into_bytes(), Some(inv.output.clone().unwrap_or_else(|| PathBuf::from("-")))),
    };
    match path {
        Some(path) if path != Path::new("-") => {
            if let Err(e) = std::fs::write(&path, &bytes) {
                let _ = writeln!(err, "clc: error: cannot write '{}': {e}", path.display());
                return EXIT_ERRORS;
            }
        }
        Some(_) => {
            let _ = out.write_all(&bytes);
        }
        None => {}
    }
    if let Some(summary) = render::summary(printed_errors, diags.warning_count()) {
        let _ = writeln!(err, "{summary}");
    }
    if diags.has_errors() { EXIT_ERRORS } else { EXIT_OK }
}

/// Does what `#pragma clc __debug` asks for in the `clc` command, where
/// crash reports are installed; elsewhere (the library, the tests' own
/// process) warns that it is ignored.
fn debug_pragmas(pp_out: &pp::PpOutput, diags: &mut Diagnostics) {
    for p in &pp_out.pragmas {
        if let pp::PragmaKind::Debug(action) = p.kind {
            if crate::crash::installed() {
                crate::crash::debug_action(action);
            }
            diags.push(Diagnostic::warning("ignored-pragmas", p.span, "'#pragma clc __debug' acts only in the clc command; ignored"));
        }
    }
}

/// Prints diagnostics, stopping after `limit` errors (0 = no limit) with
/// clang's "too many errors" message. Returns the number of errors printed.
/// clang's -Wunknown-warning-option for each `-W` option naming no
/// warning, at the option in a `<command line>` file of its own, with the
/// option clang suggests as a fix-it.
fn unknown_warning_options(sm: &mut SourceMap, inv: &Invocation, diags: &mut Diagnostics) {
    for (flag, suggestion) in &inv.unknown_warning_options {
        let id = sm.add_virtual("<command line>", flag.clone());
        let span = crate::source::Span::new(id, 0, flag.len());
        let mut msg = format!("unknown warning option '{flag}'");
        if let Some(s) = suggestion {
            msg.push_str(&format!("; did you mean '{s}'?"));
        }
        let mut d = Diagnostic::warning("unknown-warning-option", span, msg);
        if let Some(s) = suggestion {
            d = d.with_fixit(span, s.clone());
        }
        diags.push(d);
    }
}

fn emit_diagnostics<'a>(
    sm: &SourceMap,
    diags: impl Iterator<Item = &'a Diagnostic>,
    limit: usize,
    format: Format,
    style: render::ClangStyle,
    err: &mut dyn WriteColor,
) -> usize {
    let mut errors = 0;
    let mut state = render::RenderState::new(style);
    for d in diags {
        if d.severity >= Severity::Error {
            if limit != 0 && errors == limit {
                let _ = writeln!(err, "fatal error: too many errors emitted, stopping now [-ferror-limit=]");
                break;
            }
            errors += 1;
        }
        let _ = render::render_to(err, sm, d, format, &mut state);
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_an_internal_error_not_an_abort() {
        assert_eq!(guarded(|| panic!("deliberate")), EXIT_INTERNAL);
        let msg = install_panic_capture().lock().unwrap().clone();
        assert!(msg.starts_with("deliberate at "), "{msg}");
        assert_eq!(guarded(|| 7), 7);
    }

    #[test]
    fn default_output_names_follow_clang() {
        let name = |input: &str, emit| default_output(Path::new(input), emit);
        assert_eq!(name("dir/foo.cl", Emit::Object), PathBuf::from("foo.o"));
        assert_eq!(name("foo.cl", Emit::Assembly), PathBuf::from("foo.s"));
        assert_eq!(name("foo.cl", Emit::LlvmIr), PathBuf::from("foo.ll"));
        assert_eq!(name("/abs/foo.bar.cl", Emit::LlvmBitcode), PathBuf::from("foo.bar.bc"));
        assert_eq!(name("-", Emit::Object), PathBuf::from("-.o"));
    }

    #[test]
    fn source_date_epoch_is_checked_as_clang_checks_it() {
        let epoch = |v: &str| source_date_epoch(Some(v.into()));
        assert_eq!(source_date_epoch(None), Ok(None));
        assert_eq!(epoch("0"), Ok(Some(0)));
        assert_eq!(epoch("253402300799"), Ok(Some(253_402_300_799)));
        let msg = "environment variable 'SOURCE_DATE_EPOCH' ('253402300800') must be a non-negative decimal integer <= 253402300799";
        assert_eq!(epoch("253402300800"), Err(msg.to_string()));
        for bad in ["", "abc", "-1", "+5", " 5", "1e3"] {
            assert!(epoch(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn deep_recursion_fits_the_pipeline_stack() {
        fn depth(n: u32) -> u32 {
            let pad = [n as u8; 512];
            if n == 0 { pad[0] as u32 } else { depth(n - 1) + std::hint::black_box(pad)[1] as u32 % 2 }
        }
        // 100 000 frames of over 512 bytes: far beyond a default 8 MiB stack.
        let code = guarded(|| 10 + (depth(100_000) % 2) as i32);
        assert!(code == 10 || code == 11, "the deep recursion completed: {code}");
    }
}
