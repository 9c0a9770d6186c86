//! The memory-model checks (`clc::sema::memory_model`) on the inputs in
//! `tests/sema/atomics`: one reviewed snapshot of the rendered diagnostics
//! per file, and a run over the valid corpus, which must stay free of
//! errors.
//!
//! These tests go through the library (preprocess, parse, then the check)
//! rather than the `clc` binary, because the check is not yet wired into
//! the driver.

use clc::diag::Diagnostics;
use clc::diag::render::{Format, render};
use clc::options::ClStd;
use clc::source::SourceMap;
use clc_tests::{cl_files, rel, root};
use std::path::Path;

/// Runs the memory-model check on `path` and returns `(rendered
/// diagnostics, error count, earlier-stage error count)`.
fn check(path: &Path) -> (String, usize, usize) {
    let mut sm = SourceMap::new();
    let text = std::fs::read_to_string(path).expect("readable input");
    let main = sm.add_real(path, text);
    let opts = clc::pp::PpOptions { std: ClStd::Cl20, include_dirs: vec![root().join("tests/corpus/include")], ..Default::default() };
    let mut front = Diagnostics::default();
    let pp = clc::pp::preprocess(&mut sm, main, &opts, &mut front);
    let tu = clc::parse::parse(&sm, &pp, ClStd::Cl20, &mut front);
    let mut diags = Diagnostics::default();
    clc::sema::memory_model::check(&tu, ClStd::Cl20, &mut diags);
    let prefix = format!("{}/", root().display());
    let mut out = String::new();
    for d in diags.iter() {
        out.push_str(&render(&sm, d, Format::Clang).replace(&prefix, ""));
    }
    (out, diags.error_count(), front.error_count())
}

#[test]
fn memory_model_diagnostics() {
    insta::glob!("../sema/atomics", "*.cl", |path| {
        let (out, errors, front) = check(path);
        let name = rel(path);
        assert_eq!(front, 0, "{name}: the input must preprocess and parse cleanly");
        let file = path.file_name().unwrap().to_string_lossy();
        if file.starts_with("valid_") {
            assert!(out.is_empty(), "{name} must give no diagnostics:\n{out}");
        } else if file.starts_with("invalid_") {
            assert!(errors > 0, "{name} must give errors");
        }
        insta::assert_snapshot!(out);
    });
}

#[test]
fn valid_corpus_has_no_memory_model_errors() {
    let files = cl_files("tests/corpus/valid");
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in &files {
        let (out, errors, _) = check(f);
        if errors > 0 {
            failures.push(format!("{}:\n{out}", rel(f)));
        }
    }
    assert!(failures.is_empty(), "memory-model errors in valid kernels:\n{}", failures.join("\n"));
}
