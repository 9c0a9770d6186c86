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

/// The opt-in SPIR-V execution script (tests/spirv_exec/run.py, not run
/// in CI) calls kernels' work-group entries through its own copy of the
/// runtime's `Group`: its fields must be the runtime's, in order (a stale
/// copy made every native call read past the struct and crash).
#[test]
fn the_spirv_exec_script_knows_the_group_layout() {
    let root = clc_tests::root();
    let abi = std::fs::read_to_string(root.join("runtime-lib/src/abi.rs")).unwrap();
    let body = abi.split("pub struct Group {").nth(1).and_then(|b| b.split("\n}").next()).expect("runtime-lib's Group");
    let rust: Vec<&str> = body.lines().filter_map(|l| l.trim().strip_prefix("pub ")).filter_map(|l| l.split(':').next()).collect();
    let script = std::fs::read_to_string(root.join("tests/spirv_exec/run.py")).unwrap();
    let fields = script.split("_fields_ = [").nth(1).and_then(|f| f.split("\n    ]").next()).expect("run.py's Group fields");
    let python: Vec<&str> = fields.lines().filter_map(|l| l.trim().strip_prefix("(\"")).filter_map(|l| l.split('"').next()).collect();
    assert!(rust.len() > 10, "{rust:?}");
    assert_eq!(python, rust, "tests/spirv_exec/run.py's Group against runtime-lib/src/abi.rs");
}
