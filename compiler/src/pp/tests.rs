//! Tests of the preprocessor: small inline checks, and the snapshot corpus
//! under `tests/pp/` (one `.cl` input, one snapshot of `-E` output plus
//! diagnostics and pragmas).

use super::*;
use crate::diag::render::{render, Format};

/// Preprocesses `src` as `t.cl` and returns the printed output followed by
/// the diagnostics.
fn run_with(src: &str, opts: &PpOptions) -> (String, String, PpOutput) {
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let out = preprocess(&mut sm, main, opts, &mut diags);
    let text = print(&sm, &out);
    let d: String = diags.iter().map(|d| render(&sm, d, Format::Clang)).collect();
    (text, d, out)
}

fn check(src: &str, expect: &str) {
    let (text, d, _) = run_with(src, &PpOptions::default());
    let body: String = text.lines().filter(|l| !l.starts_with("# ")).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
    assert_eq!(body, expect, "diagnostics:\n{d}");
}

#[test]
fn object_and_function_macros() {
    check("#define A 1\n#define F(x) (x+A)\nF(2) F (3) F", "(2+1) (3+1) F");
}

/// Options from a `// pp-options: …` first line: `-cl-std=`, `--target=`,
/// `-I<dir>` (relative to `tests/pp`), `-D…`, `-U…`, the `-cl-*`
/// floating-point options, `SOURCE_DATE_EPOCH=<seconds>`.
fn options_for(src: &str, dir: &std::path::Path) -> PpOptions {
    let mut opts = PpOptions::default();
    let Some(line) = src.lines().next().and_then(|l| l.strip_prefix("// pp-options:")) else { return opts };
    for arg in line.split_whitespace() {
        if let Some(s) = arg.strip_prefix("-cl-std=") {
            opts.std = crate::options::ClStd::parse(s).unwrap_or_default();
        } else if let Some(t) = arg.strip_prefix("--target=") {
            opts.target = crate::options::Target::parse(t);
        } else if let Some(i) = arg.strip_prefix("-I") {
            opts.include_dirs.push(dir.join(i));
        } else if let Some(d) = arg.strip_prefix("-D") {
            opts.macros.push(CmdMacro::Define(d.to_string()));
        } else if let Some(u) = arg.strip_prefix("-U") {
            opts.macros.push(CmdMacro::Undef(u.to_string()));
        } else if let Some(t) = arg.strip_prefix("SOURCE_DATE_EPOCH=") {
            opts.source_date_epoch = t.parse().ok();
        } else {
            opts.fp.apply(arg);
        }
    }
    opts
}

#[test]
fn snapshots() {
    insta::glob!("../../../tests/pp", "*.cl", |path| {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // A path relative to the crate, so snapshots do not depend on
        // where the checkout lives.
        let rel = std::path::Path::new("../tests/pp").join(&name);
        let dir = std::path::Path::new("../tests/pp");
        let src = std::fs::read_to_string(path).unwrap();
        let opts = options_for(&src, dir);
        let mut sm = SourceMap::new();
        let main = sm.add_real(&rel, src);
        let mut diags = Diagnostics::default();
        let out = preprocess(&mut sm, main, &opts, &mut diags);
        let mut text = print(&sm, &out);
        text.push_str("\n---- diagnostics ----\n");
        for d in diags.iter() {
            text.push_str(&render(&sm, d, Format::Clang));
        }
        if !out.pragmas.is_empty() {
            text.push_str("---- pragmas ----\n");
            for p in &out.pragmas {
                let kind = match &p.kind {
                    PragmaKind::Unroll { nounroll, count, .. } => {
                        let count: Vec<&str> = out.pragma_tokens[count.clone()].iter().map(|t| sm.text(t.spelling)).collect();
                        format!("Unroll {{ nounroll: {nounroll}, count: {count:?} }}")
                    }
                    k => format!("{k:?}"),
                };
                text.push_str(&format!("at {} ({}): {kind}\n", p.at, sm.describe(p.span)));
            }
        }
        if !out.includes.is_empty() {
            text.push_str("---- includes ----\n");
            for i in &out.includes {
                text.push_str(&format!("{}\n", i.display()));
            }
        }
        insta::assert_snapshot!(text);
    });
}

fn diags_of(src: &str) -> String {
    run_with(src, &PpOptions::default()).1
}

#[test]
fn rescanning_and_blue_paint() {
    check("#define foo foo\nfoo", "foo");
    check("#define a a b\na", "a b");
    check("#define x y\n#define y x\nx y", "x y");
    check("#define f(x) g(x)\n#define g(x) f(x)\nf(1)", "f(1)");
}

#[test]
fn spans_point_at_the_invocation() {
    let (_, _, out) = run_with("#define F(a) a + 1\nint x = F(\n2);", &PpOptions::default());
    let plus = out.tokens.iter().find(|t| t.kind == crate::lex::TokenKind::Plus).unwrap();
    assert_ne!(plus.expansion, 0);
    let e = out.expansions.get(plus.expansion).unwrap();
    assert_eq!(e.macro_name, "F");
    assert_eq!((plus.span.lo, plus.span.hi), (27, 32), "F(\\n2) is bytes 27..32");
    assert_eq!(plus.span, e.use_span);
    assert!(e.def_span.is_some());
    let int = out.tokens[0];
    assert_eq!(int.span, int.spelling);
    assert_eq!(int.expansion, 0);
}

#[test]
fn deep_if_nesting_terminates() {
    let n = 10_000;
    let src = format!("{}x\n{}", "#if 1\n".repeat(n), "#endif\n".repeat(n));
    check(&src, "x");
    let src = format!("{}x\n{}", "#if 0\n".repeat(n), "#endif\n".repeat(n));
    check(&src, "");
    let src = "#if 1\n".repeat(n);
    assert_eq!(diags_of(&src).matches("unterminated conditional").count(), n);
}

#[test]
fn deep_expression_nesting_is_an_error() {
    let src = format!("#if {}1{}\n#endif", "(".repeat(5000), ")".repeat(5000));
    assert!(diags_of(&src).contains("nested too deeply"));
    let src = format!("#if {}1\n#endif", "- ".repeat(5000));
    assert!(diags_of(&src).contains("nested too deeply"));
}

#[test]
fn large_and_exponential_expansions_terminate() {
    // 10^5 tokens from a chain of doublings.
    let mut src = String::from("#define L0 x\n");
    for i in 1..=17 {
        src.push_str(&format!("#define L{i} L{} L{}\n", i - 1, i - 1));
    }
    src.push_str("L17\n");
    let (_, d, out) = run_with(&src, &PpOptions::default());
    assert_eq!(out.tokens.len(), 1 << 17);
    assert!(d.is_empty(), "{d}");
    // Exponential growth hits the work limit and stops with an error.
    let mut src = String::from("#define D(x) x x\n");
    src.push_str(&"D(".repeat(40));
    src.push('1');
    src.push_str(&")".repeat(40));
    let d = diags_of(&src);
    assert!(d.contains("too many tokens") || d.contains("nested too deeply"), "{d}");
}

#[test]
fn deeply_nested_invocations_terminate() {
    let src = format!("#define F(x) x\n{}1{}", "F(".repeat(10_000), ")".repeat(10_000));
    let d = diags_of(&src);
    assert!(d.contains("nested too deeply"), "{d}");
    let src = format!("#define F(x) x\n{}1{}", "F(".repeat(50), ")".repeat(50));
    check(&src, "1");
}

#[test]
fn unterminated_invocation_at_eof() {
    let d = diags_of("#define F(x) x\nF((1, 2)");
    assert!(d.contains("unterminated function-like macro invocation"), "{d}");
}

#[test]
fn self_include_is_bounded() {
    let dir = std::env::temp_dir().join(format!("clc-pp-self-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("self.h");
    std::fs::write(&file, "#include \"self.h\"\n#include \"self.h\"\nx\n").unwrap();
    let mut sm = SourceMap::new();
    let main = sm.add_real(&file, std::fs::read_to_string(&file).unwrap());
    let mut diags = Diagnostics::default();
    let out = preprocess(&mut sm, main, &PpOptions::default(), &mut diags);
    assert_eq!(diags.error_count(), 1);
    assert!(out.tokens.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn expanded_from_macro_notes() {
    let d = diags_of("#define CAT(a, b) a ## b\n#define USE CAT(., +)\nUSE");
    assert!(d.contains("pasting \".\" and \"+\" does not give a valid preprocessing token"), "{d}");
    assert!(d.contains("expanded from macro `CAT`") && d.contains("expanded from macro `USE`"), "{d}");
}

#[test]
fn print_avoids_accidental_pasting() {
    check("#define P +\n#define E\nP+ -E- x E y", "+ + - - x y");
    // A number takes a `.` into it; a name does not.
    check("#define I(x) x\nI(v).xy I(1).5 I(1).x", "v.xy 1 .5 1 .x");
}

#[test]
fn date_and_time_without_source_date_epoch_are_local_now() {
    let (text, _, _) = run_with("__DATE__ __TIME__ __TIMESTAMP__", &PpOptions::default());
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap_or_default();
    // `"Mmm dd yyyy" "hh:mm:ss"`, then clang's question marks: `t.cl` is
    // no file on disk, so it has no modification time.
    let (date, rest) = line.split_at(13);
    assert!(date.starts_with('"') && date.ends_with('"') && date.as_bytes()[4] == b' ' && date[8..12].bytes().all(|b| b.is_ascii_digit()), "{line}");
    let time = &rest[1..11];
    assert!(time.as_bytes()[3] == b':' && time.as_bytes()[6] == b':', "{line}");
    assert_eq!(&rest[11..], " \"??? ??? ?? ??:??:?? ????\"");
}

#[test]
fn date_time_warns_when_asked() {
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("t.cl", "__TIME__ __LINE__".to_string());
    let mut policy = crate::diag::WarningPolicy::default();
    policy.set("date-time", crate::diag::WarningState::On);
    let mut diags = Diagnostics::new(policy);
    let opts = PpOptions { source_date_epoch: Some(86399), ..PpOptions::default() };
    let out = preprocess(&mut sm, main, &opts, &mut diags);
    assert_eq!(print(&sm, &out).lines().last(), Some("\"23:59:59\" 1"));
    let d: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(d, ["expansion of date or time macro is not reproducible"]);
}
