//! The command line, parsed the way clang spells OpenCL options.
//!
//! clang's spellings (`-cl-std=CL2.0`, `-DNAME`, `-Wno-name`, `-O2`,
//! `-Xclang -ast-dump`) are single-dash, glued or separate, and some are
//! prefixes of others; a table of spellings with a longest-prefix match
//! expresses that directly, where an argument-parser crate built for GNU
//! long options would fight it. Unknown options get a "did you mean"
//! suggestion from the same table.

use crate::diag::render::{ClangStyle, Format};
use crate::diag::{WarningPolicy, WarningState};
pub use crate::options::FpOptions;
use crate::options::{ClStd, Target};
use crate::pp::{CmdMacro, MacroDump};
use std::path::PathBuf;

/// What the driver was asked to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Action {
    /// `-fsyntax-only`: check and report diagnostics.
    SyntaxOnly,
    /// `-E`: preprocessed source.
    Preprocess,
    /// `-Xclang -ast-dump` or `--emit=ast`.
    DumpAst,
    /// `--emit=tokens`: the token stream after preprocessing, one per line.
    DumpTokens,
    /// `--emit=typed`: the typed program sema hands to code generation.
    DumpTyped,
    /// `-c`, `-S`, `-emit-llvm` or no action flag: generate code.
    #[default]
    Compile,
}

/// The kind of file code generation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emit {
    #[default]
    Object,
    Assembly,
    LlvmIr,
    LlvmBitcode,
}


/// Everything one `clc` invocation was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Invocation {
    pub inputs: Vec<PathBuf>,
    pub output: Option<PathBuf>,
    pub action: Action,
    pub emit: Emit,
    pub std: ClStd,
    pub target: Target,
    pub include_dirs: Vec<PathBuf>,
    /// `-include FILE`s, in order.
    pub includes: Vec<PathBuf>,
    pub macros: Vec<CmdMacro>,
    /// `-dM`/`-dD`: what `-E` prints of the macros (nothing more by
    /// default); without `-E` they change nothing, as in clang.
    pub macro_dump: MacroDump,
    pub warnings: WarningPolicy,
    /// `-W` options naming no warning clc or clang knows, as written, each
    /// with the option clang would suggest instead (reported with every
    /// input as -Wunknown-warning-option, as clang reports them).
    pub unknown_warning_options: Vec<(String, Option<String>)>,
    /// Stop after this many errors (`-ferror-limit=`, 0 = no limit).
    pub error_limit: usize,
    /// `None`: rich on a terminal, clang format otherwise.
    pub diag_format: Option<Format>,
    /// `None`: colour when stderr is a terminal.
    pub color: Option<bool>,
    /// Line numbers, snippets and columns in clang's format.
    pub clang_style: ClangStyle,
    /// 0 to 3; `-cl-opt-disable` is 0. Default 2, like clang for OpenCL.
    pub opt_level: u8,
    pub fp: FpOptions,
    pub kernel_arg_info: bool,
    pub debug_info: bool,
    /// `-march=native`.
    pub host_cpu: bool,
    /// `-Xclang -disable-llvm-passes` (or `-disable-llvm-optzns`): write
    /// the IR as the front end generated it, before any LLVM pass.
    pub disable_llvm_passes: bool,
    /// `-fspirv-version=1.N`: N, 0 to 6 (default 0: SPIR-V 1.0).
    pub spirv_minor: u8,
    pub show_help: bool,
    pub show_version: bool,
    /// Skip freeing the syntax tree: set by the `clc` binary, which exits
    /// right after; in-process callers keep the default (free everything).
    pub leak_at_exit: bool,
}

/// A usage error: exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// How an option takes its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// `-fsyntax-only`: exactly this spelling.
    Flag,
    /// `-DNAME` or `-D NAME`.
    GluedOrSeparate,
    /// `-cl-std=CL2.0`: the value follows in the same word.
    Joined,
    /// `-Xclang X`: the value is the next word.
    Separate,
}

/// The option table: spelling, arity, and one line of help.
const OPTIONS: &[(&str, Arity, &str)] = &[
    ("-cl-std=", Arity::Joined, "OpenCL C version: CL1.0, CL1.1, CL1.2, CL2.0 (default), CL3.0"),
    ("-std=", Arity::Joined, "same as -cl-std="),
    ("-D", Arity::GluedOrSeparate, "define a macro: -DNAME, -DNAME=VALUE"),
    ("-U", Arity::GluedOrSeparate, "undefine a macro"),
    ("-I", Arity::GluedOrSeparate, "add a directory to the include search path"),
    ("-include", Arity::GluedOrSeparate, "read a file before the input, as if it began with #include \"FILE\""),
    ("--include=", Arity::Joined, "same as -include"),
    ("-o", Arity::GluedOrSeparate, "write output to this file"),
    ("-x", Arity::GluedOrSeparate, "input language (only `cl`)"),
    ("-fsyntax-only", Arity::Flag, "check the program and report diagnostics, generate nothing"),
    ("-E", Arity::Flag, "preprocess only, print the result"),
    ("-dM", Arity::Flag, "with -E, print only the #define line of every macro defined at the end, predefined ones too"),
    ("-dD", Arity::Flag, "with -E, print the #define and #undef lines along with the output"),
    ("-c", Arity::Flag, "compile to an object file (native) or SPIR-V binary (the default action)"),
    ("-S", Arity::Flag, "compile to assembly"),
    ("-emit-llvm", Arity::Flag, "with -S or -c, emit LLVM IR (.ll) or bitcode (.bc)"),
    ("--emit=", Arity::Joined, "print an internal form: ast, tokens, typed"),
    ("-Xclang", Arity::Separate, "clang compatibility: -Xclang -ast-dump, -Xclang -disable-llvm-passes"),
    ("--target=", Arity::Joined, "target triple: x86_64-unknown-linux-gnu (default: host), spirv64, spirv32"),
    ("-target", Arity::Separate, "same as --target="),
    ("-fspirv-version=", Arity::Joined, "SPIR-V version for spirv32/spirv64: 1.0 (default) to 1.6"),
    ("-O0", Arity::Flag, "no optimisation"),
    ("-O1", Arity::Flag, "optimisation level 1"),
    ("-O2", Arity::Flag, "optimisation level 2 (default)"),
    ("-O3", Arity::Flag, "optimisation level 3"),
    ("-O", Arity::Flag, "same as -O2"),
    ("-Os", Arity::Flag, "optimise for size (as -O2)"),
    ("-Oz", Arity::Flag, "optimise for size (as -O2)"),
    ("-cl-opt-disable", Arity::Flag, "same as -O0"),
    ("-cl-mad-enable", Arity::Flag, "allow a * b + c to become a fused multiply-add"),
    ("-cl-fast-relaxed-math", Arity::Flag, "all of the unsafe floating-point optimisations"),
    ("-cl-finite-math-only", Arity::Flag, "assume no infinities or NaNs"),
    ("-cl-no-signed-zeros", Arity::Flag, "ignore the sign of zero"),
    ("-cl-unsafe-math-optimizations", Arity::Flag, "allow reassociation and reciprocal approximations"),
    ("-cl-denorms-are-zero", Arity::Flag, "flush single-precision denormals to zero"),
    ("-cl-single-precision-constant", Arity::Flag, "treat double constants as float"),
    ("-cl-kernel-arg-info", Arity::Flag, "emit kernel argument names in metadata"),
    ("-cl-strict-aliasing", Arity::Flag, "accepted for compatibility (OpenCL 1.0 option)"),
    ("-cl-uniform-work-group-size", Arity::Flag, "accepted: work-groups are uniform"),
    ("-cl-no-subgroup-ifp", Arity::Flag, "accepted for compatibility"),
    ("-g", Arity::Flag, "generate debug information"),
    ("-march=native", Arity::Flag, "generate code for this machine's CPU and its vector units (native targets)"),
    ("-w", Arity::Flag, "suppress all warnings"),
    ("-Werror=", Arity::Joined, "make one warning an error"),
    ("-Wno-error=", Arity::Joined, "keep one warning a warning under -Werror"),
    ("-Werror", Arity::Flag, "make every warning an error"),
    ("-Wno-", Arity::Joined, "disable a warning"),
    ("-W", Arity::Joined, "enable a warning or a group (-Wall, -Wextra, -Weverything, -Wparentheses, ...)"),
    ("-ferror-limit=", Arity::Joined, "stop after N errors (0: no limit; default 20)"),
    ("-fdiagnostics-format=", Arity::Joined, "clang (one line per diagnostic) or rich"),
    ("-fcolor-diagnostics", Arity::Flag, "colour diagnostics"),
    ("-fno-color-diagnostics", Arity::Flag, "do not colour diagnostics"),
    ("-fdiagnostics-show-line-numbers", Arity::Flag, "number the source lines shown (the default)"),
    ("-fno-diagnostics-show-line-numbers", Arity::Flag, "show source lines without their numbers"),
    ("-fcaret-diagnostics", Arity::Flag, "show the source line and a caret (the default)"),
    ("-fno-caret-diagnostics", Arity::Flag, "show no source lines"),
    ("-fshow-column", Arity::Flag, "name the column in a diagnostic's place (the default)"),
    ("-fno-show-column", Arity::Flag, "name only the file and line"),
    ("--help", Arity::Flag, "print this help"),
    ("-help", Arity::Flag, "print this help"),
    ("-h", Arity::Flag, "print this help"),
    ("--version", Arity::Flag, "print the version"),
];

/// The help text, generated from the option table.
pub fn help() -> String {
    let mut s = String::from(
        "OVERVIEW: clc, an OpenCL C compiler\n\nUSAGE: clc [options] file.cl\n       clc run file.cl --kernel NAME --global X[,Y[,Z]] [--local …] [--offset …] --arg SPEC … [--print I] [--out I=FILE] [--repeat N] [--json]\n              (build a kernel and run it on all CPU cores; SPEC: buf:TYPE:COUNT[:FILL], TYPE:VALUE[,…], local:BYTES)\n\nOPTIONS:\n",
    );
    for (name, arity, text) in OPTIONS {
        let shown = match arity {
            Arity::Flag => name.to_string(),
            Arity::Joined => format!("{name}<value>"),
            Arity::GluedOrSeparate | Arity::Separate => format!("{name} <value>"),
        };
        s.push_str(&format!("  {shown:<34} {text}\n"));
    }
    s
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Invocation, UsageError> {
    let mut inv = Invocation { opt_level: 2, error_limit: 20, ..Default::default() };
    let mut explicit_action: Option<Action> = None;
    let mut emit_llvm = false;
    let mut emit_s = false;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if !arg.starts_with('-') || arg == "-" {
            inv.inputs.push(PathBuf::from(arg));
            continue;
        }
        let Some((name, arity)) = find(arg) else {
            return Err(unknown(arg));
        };
        let value: String = match arity {
            Arity::Flag => String::new(),
            Arity::Joined => arg[name.len()..].to_string(),
            Arity::GluedOrSeparate if arg.len() > name.len() => arg[name.len()..].to_string(),
            Arity::GluedOrSeparate | Arity::Separate => {
                let v = args.get(i).ok_or_else(|| UsageError(format!("argument to '{name}' is missing (expected 1 value)")))?;
                i += 1;
                v.clone()
            }
        };
        match name {
            "-cl-std=" | "-std=" => {
                inv.std = ClStd::parse(&value)
                    .ok_or_else(|| UsageError(format!("invalid value '{value}' in '{arg}'; valid values are CL1.0, CL1.1, CL1.2, CL2.0, CL3.0")))?
            }
            "-D" => inv.macros.push(CmdMacro::Define(value)),
            "-U" => inv.macros.push(CmdMacro::Undef(value)),
            "-I" => inv.include_dirs.push(PathBuf::from(value)),
            "-include" | "--include=" => inv.includes.push(PathBuf::from(value)),
            "-o" => inv.output = Some(PathBuf::from(value)),
            "-x" => {
                if value != "cl" {
                    return Err(UsageError(format!("language '{value}' is not supported; clc compiles OpenCL C (-x cl)")));
                }
            }
            "-fsyntax-only" => explicit_action = Some(Action::SyntaxOnly),
            "-E" => explicit_action = Some(Action::Preprocess),
            // `-dM` wins over `-dD`, as in clang.
            "-dM" => inv.macro_dump = MacroDump::Definitions,
            "-dD" if inv.macro_dump == MacroDump::None => inv.macro_dump = MacroDump::InPlace,
            "-dD" => {}
            "-c" => explicit_action = Some(Action::Compile),
            "-S" => {
                emit_s = true;
                explicit_action = Some(Action::Compile);
            }
            "-emit-llvm" => emit_llvm = true,
            "--emit=" => {
                explicit_action = Some(match value.as_str() {
                    "ast" => Action::DumpAst,
                    "tokens" => Action::DumpTokens,
                    "typed" => Action::DumpTyped,
                    "pp" | "preprocessed" => Action::Preprocess,
                    _ => return Err(UsageError(format!("invalid value '{value}' in '--emit='; valid values are ast, tokens, typed, pp"))),
                })
            }
            "-Xclang" => match value.as_str() {
                "-ast-dump" => explicit_action = Some(Action::DumpAst),
                "-finclude-default-header" | "-fdeclare-opencl-builtins" => {}
                "-disable-llvm-passes" | "-disable-llvm-optzns" => inv.disable_llvm_passes = true,
                _ => return Err(UsageError(format!("unsupported option '-Xclang {value}'; clc knows -Xclang -ast-dump and -Xclang -disable-llvm-passes"))),
            },
            "--target=" | "-target" => inv.target = Target::parse(&value),
            "-fspirv-version=" => {
                inv.spirv_minor = value
                    .strip_prefix("1.")
                    .filter(|m| m.len() == 1)
                    .and_then(|m| m.parse::<u8>().ok())
                    .filter(|&m| m <= crate::codegen::SPIRV_MAX_MINOR)
                    .ok_or_else(|| UsageError(format!("invalid value '{value}' in '{arg}'; valid values are 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6")))?
            }
            "-O0" | "-cl-opt-disable" => inv.opt_level = 0,
            "-O1" => inv.opt_level = 1,
            "-O2" | "-O" | "-Os" | "-Oz" => inv.opt_level = 2,
            "-O3" => inv.opt_level = 3,
            _ if inv.fp.apply(name) => {}
            "-cl-kernel-arg-info" => inv.kernel_arg_info = true,
            "-cl-strict-aliasing" | "-cl-uniform-work-group-size" | "-cl-no-subgroup-ifp" => {}
            "-g" => inv.debug_info = true,
            "-march=native" => inv.host_cpu = true,
            "-w" => inv.warnings.suppress_all = true,
            "-Werror" => inv.warnings.all_errors = true,
            "-W" if value == "fatal-errors" => inv.warnings.fatal_errors = true,
            "-Wno-" if value == "fatal-errors" => inv.warnings.fatal_errors = false,
            "-Werror=" | "-Wno-error=" | "-Wno-" | "-W" => {
                if value.is_empty() && name == "-W" {
                    return Err(unknown(arg));
                }
                if !crate::diag::groups::is_known(&value) {
                    let suggestion = crate::diag::groups::nearest(&value).map(|n| format!("{name}{n}"));
                    inv.unknown_warning_options.push((arg.clone(), suggestion));
                }
                // A warning or a group (`-Wall`, `-Wextra`, `-Weverything`).
                let state = match name {
                    "-Werror=" => WarningState::Error,
                    "-Wno-error=" => WarningState::NoError,
                    "-Wno-" => WarningState::Off,
                    _ => WarningState::On,
                };
                inv.warnings.set(value, state);
            }
            "-ferror-limit=" => {
                inv.error_limit = value.parse().map_err(|_| UsageError(format!("invalid integral value '{value}' in '{arg}'")))?
            }
            "-fdiagnostics-format=" => {
                inv.diag_format = Some(match value.as_str() {
                    "clang" => Format::Clang,
                    "rich" | "codespan" => Format::Rich,
                    _ => return Err(UsageError(format!("invalid value '{value}' in '{arg}'; valid values are clang, rich"))),
                })
            }
            "-fcolor-diagnostics" => inv.color = Some(true),
            "-fno-color-diagnostics" => inv.color = Some(false),
            "-fdiagnostics-show-line-numbers" => inv.clang_style.line_numbers = true,
            "-fno-diagnostics-show-line-numbers" => inv.clang_style.line_numbers = false,
            "-fcaret-diagnostics" => inv.clang_style.caret = true,
            "-fno-caret-diagnostics" => inv.clang_style.caret = false,
            "-fshow-column" => inv.clang_style.column = true,
            "-fno-show-column" => inv.clang_style.column = false,
            "--help" | "-help" | "-h" => inv.show_help = true,
            "--version" => inv.show_version = true,
            _ => unreachable!("every option in the table is handled: {name}"),
        }
    }
    inv.action = explicit_action.unwrap_or(Action::Compile);
    inv.emit = match (emit_s, emit_llvm) {
        (true, true) => Emit::LlvmIr,
        (false, true) => Emit::LlvmBitcode,
        (true, false) => Emit::Assembly,
        (false, false) => Emit::Object,
    };
    if !inv.show_help && !inv.show_version {
        match inv.inputs.len() {
            0 => return Err(UsageError("no input files".into())),
            1 => {}
            _ if inv.output.is_some() && inv.action != Action::SyntaxOnly => {
                return Err(UsageError("cannot specify -o when generating multiple output files".into()));
            }
            _ => {}
        }
    }
    Ok(inv)
}

/// The table entry for an argument: an exact flag, or the longest joined /
/// glued prefix.
fn find(arg: &str) -> Option<(&'static str, Arity)> {
    let mut best: Option<(&'static str, Arity)> = None;
    for &(name, arity, _) in OPTIONS {
        let hit = match arity {
            Arity::Flag | Arity::Separate => arg == name,
            Arity::Joined | Arity::GluedOrSeparate => arg.starts_with(name),
        };
        if hit && best.is_none_or(|(b, _)| name.len() > b.len()) {
            best = Some((name, arity));
        }
    }
    best
}

fn unknown(arg: &str) -> UsageError {
    let key = arg.split('=').next().unwrap_or(arg);
    let best = OPTIONS
        .iter()
        .map(|&(name, arity, _)| {
            let bare = name.trim_end_matches('=');
            let whole = clc_builtins::suggest::edit_distance(key, bare);
            // `-cl-std-CL2.0` is a misspelt `-cl-std=` followed by a value:
            // compare the option with the same number of leading characters.
            let prefix = match arity {
                Arity::Joined if bare.len() >= 5 => key.get(..bare.len() + 1).map_or(whole, |p| clc_builtins::suggest::edit_distance(p, bare)),
                _ => whole,
            };
            (whole.min(prefix), name)
        })
        .min_by_key(|&(d, _)| d)
        .filter(|&(d, name)| d <= 2 + name.len() / 6);
    match best {
        Some((_, name)) => UsageError(format!("unknown argument '{arg}'; did you mean '{name}'?")),
        None => UsageError(format!("unknown argument '{arg}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Invocation, UsageError> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn clang_spellings() {
        let inv = p(&["-cl-std=CL1.2", "-DA", "-D", "B=2", "-Iinc", "-I", "x", "-UC", "-fsyntax-only", "k.cl", "-Wno-unused", "-Werror"]).unwrap();
        assert_eq!(inv.std, ClStd::Cl12);
        assert_eq!(inv.macros, vec![CmdMacro::Define("A".into()), CmdMacro::Define("B=2".into()), CmdMacro::Undef("C".into())]);
        assert_eq!(inv.include_dirs, vec![PathBuf::from("inc"), PathBuf::from("x")]);
        assert_eq!(inv.action, Action::SyntaxOnly);
        assert_eq!(inv.inputs, vec![PathBuf::from("k.cl")]);
        assert!(inv.warnings.all_errors);
        assert_eq!(inv.warnings.per_name, [("unused".to_string(), WarningState::Off)]);
    }

    #[test]
    fn output_kinds() {
        assert_eq!(p(&["-S", "-emit-llvm", "a.cl"]).unwrap().emit, Emit::LlvmIr);
        assert_eq!(p(&["-c", "-emit-llvm", "a.cl"]).unwrap().emit, Emit::LlvmBitcode);
        assert_eq!(p(&["-c", "--target=spirv64", "a.cl"]).unwrap().target, Target::Spirv64);
        assert_eq!(p(&["-cl-opt-disable", "a.cl"]).unwrap().opt_level, 0);
        assert_eq!(p(&["-Xclang", "-ast-dump", "a.cl"]).unwrap().action, Action::DumpAst);
        assert!(p(&["-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S", "a.cl"]).unwrap().disable_llvm_passes);
        assert!(p(&["-Xclang", "-disable-llvm-optzns", "a.cl"]).unwrap().disable_llvm_passes);
        assert!(!p(&["a.cl"]).unwrap().disable_llvm_passes);
        assert_eq!(p(&["--emit=ast", "a.cl"]).unwrap().action, Action::DumpAst);
        // No -c/-S: compile to an object, as -c (clc does not link).
        let plain = p(&["a.cl"]).unwrap();
        assert_eq!((plain.action, plain.emit), (Action::Compile, Emit::Object));
    }

    #[test]
    fn spirv_version() {
        assert_eq!(p(&["a.cl"]).unwrap().spirv_minor, 0);
        assert_eq!(p(&["-fspirv-version=1.2", "a.cl"]).unwrap().spirv_minor, 2);
        assert_eq!(p(&["-fspirv-version=1.6", "a.cl"]).unwrap().spirv_minor, 6);
        for bad in ["2.9", "1.7", "1", "1.", "1.-1", "1.+1", "v1.0", ""] {
            let e = p(&[&format!("-fspirv-version={bad}"), "a.cl"]).unwrap_err().0;
            assert!(e.contains("invalid value") && e.contains("1.0, 1.1"), "{bad}: {e}");
        }
        assert_eq!(p(&["-fspirv-versoin=1.2", "a.cl"]).unwrap_err().0, "unknown argument '-fspirv-versoin=1.2'; did you mean '-fspirv-version='?");
    }

    #[test]
    fn fast_relaxed_math_implies_the_others() {
        let fp = p(&["-cl-fast-relaxed-math", "a.cl"]).unwrap().fp;
        assert!(fp.mad_enable && fp.finite_math_only && fp.no_signed_zeros && fp.unsafe_math);
    }

    #[test]
    fn unknown_options_get_suggestions() {
        assert_eq!(p(&["-fsyntax-onyl", "a.cl"]).unwrap_err().0, "unknown argument '-fsyntax-onyl'; did you mean '-fsyntax-only'?");
        assert_eq!(p(&["-cl-std-CL2.0", "a.cl"]).unwrap_err().0, "unknown argument '-cl-std-CL2.0'; did you mean '-cl-std='?");
        assert_eq!(p(&["--frobnicate-everything-now", "a.cl"]).unwrap_err().0, "unknown argument '--frobnicate-everything-now'");
        assert!(p(&["-cl-std=CL9"]).unwrap_err().0.contains("valid values"));
        assert_eq!(p(&[]).unwrap_err().0, "no input files");
        assert!(p(&["-D"]).unwrap_err().0.contains("missing"));
    }
}
