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
