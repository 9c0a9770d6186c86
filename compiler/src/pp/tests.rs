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
/// `-I<dir>` (relative to `tests/pp`), `-D…`, `-U…`.
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
                text.push_str(&format!("at {} ({}): {:?}\n", p.at, sm.describe(p.span), p.kind));
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
