//! Code hygiene: every Rust module says why it exists (a `//!` doc at the
//! top), as the style guide asks.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_has_a_doc_comment() {
    let root = clc_tests::root();
    let mut files = Vec::new();
    for crate_dir in ["compiler/src", "builtins/src", "runtime-lib/src", "tests/src", "tests/tests", "bench/src", "xtask/src"] {
        rust_files(&root.join(crate_dir), &mut files);
    }
    let missing: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|p| clc_tests::rel(p))
        .collect();
    assert!(missing.is_empty(), "modules without a `//!` doc: {missing:?}");
}
