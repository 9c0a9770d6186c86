//! The declaration layer of sema: scopes and name resolution, declarators
//! to types, constant expressions, address spaces and OpenCL C's rules on
//! declarations. One input per rule family under `tests/sema/decls/`, with
//! valid and invalid cases; a first line `// RUN: <flags>` adds flags
//! (`-cl-std=CL1.2`) before the path.

#[test]
fn declaration_rules() {
    insta::glob!("../sema/decls", "*.cl", |path| {
        insta::assert_snapshot!(clc_tests::check_transcript(path));
    });
}
