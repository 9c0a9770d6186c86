//! The expression layer of sema: types and value categories of every
//! expression, conversions, address spaces in pointer conversions, vectors,
//! builtin calls and atomic objects. One input per rule family under `tests/sema/expr/`, with
//! valid and invalid cases; a first line `// RUN: <flags>` adds flags
//! (`-cl-std=CL1.2`) before the path.

#[test]
fn expression_rules() {
    insta::glob!("../sema/expr", "*.cl", |path| {
        insta::assert_snapshot!(clc_tests::check_transcript(path));
    });
}
