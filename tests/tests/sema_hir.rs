//! The typed program sema hands to code generation (`--emit=typed`):
//! every expression with its type, every implicit conversion explicit.
//! One input per family under `tests/sema/hir/`; and every valid corpus
//! kernel must produce a typed program that keeps the invariants the dump
//! checks (a violation is marked `!!`).

use clc_tests::{cl_files, clc, rel, transcript};

#[test]
fn typed_programs() {
    insta::glob!("../sema/hir", "*.cl", |path| {
        let path = rel(path);
        let t = transcript(&["--emit=typed", &path]);
        assert!(!t.contains("!!"), "{path}: the typed program breaks an invariant:\n{t}");
        insta::assert_snapshot!(t);
    });
}

#[test]
fn every_valid_corpus_kernel_has_a_typed_program() {
    let files = cl_files("tests/corpus/valid");
    assert!(files.len() >= 60, "the corpus should have at least 60 valid kernels, has {}", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let path = rel(f);
        let (code, out, err) = clc(&["--emit=typed", "-I", "tests/corpus/include", &path]);
        let has_body = std::fs::read_to_string(f).is_ok_and(|s| s.contains('{'));
        if code != 0 {
            failures.push(format!("{path}: exit {code}\n{err}"));
        } else if has_body && !out.contains("function ") {
            failures.push(format!("{path}: no typed function"));
        } else if let Some(line) = out.lines().find(|l| l.contains("!!")) {
            failures.push(format!("{path}: {line}"));
        }
    }
    assert!(failures.is_empty(), "{} corpus kernels have no valid typed program:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_program_with_errors_has_no_typed_program() {
    let (code, out, _) = clc(&["--emit=typed", "tests/sema/expr/10_incompatible_assignment.cl"]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
}
