//! The kernel corpus: every file in `tests/corpus/valid` must check without
//! errors (clang-22 accepts them all), every file in `tests/corpus/invalid`
//! must fail, and what clc says about it is a reviewed snapshot.

use clc_tests::{cl_files, clc, rel, transcript};

const INCLUDE: &str = "tests/corpus/include";

#[test]
fn valid_kernels_check_cleanly() {
    let files = cl_files("tests/corpus/valid");
    assert!(files.len() >= 60, "the corpus should have at least 60 valid kernels, has {}", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let path = rel(f);
        let (code, _, err) = clc(&["-fsyntax-only", "-I", INCLUDE, &path]);
        if code != 0 || err.contains("error") {
            failures.push(format!("{path}: exit {code}\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{} valid kernels were rejected:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn valid_kernels_dump_an_ast() {
    for f in cl_files("tests/corpus/valid") {
        let path = rel(&f);
        let (code, out, _) = clc(&["-Xclang", "-ast-dump", "-I", INCLUDE, &path]);
        assert_eq!(code, 0, "{path}");
        assert!(out.starts_with("TranslationUnit"), "{path}: {}", &out[..out.len().min(200)]);
    }
}

#[test]
fn invalid_kernels_fail_with_reviewed_diagnostics() {
    insta::glob!("../corpus/invalid", "*.cl", |path| {
        let path = rel(path);
        let (code, _, _) = clc(&["-fsyntax-only", "-I", INCLUDE, &path]);
        assert_eq!(code, 1, "{path} should be rejected");
        insta::assert_snapshot!(transcript(&["-fsyntax-only", "-ferror-limit=0", "-I", INCLUDE, &path]));
    });
}
