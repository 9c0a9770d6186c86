//! The expression layer of sema: types and value categories of every
//! expression, conversions, address spaces in pointer conversions, vectors,
//! builtin calls and atomic objects. One input per rule family under `tests/sema/expr/`, with
//! valid and invalid cases; a first line `// RUN: <flags>` adds flags
//! (`-cl-std=CL1.2`) before the path.

use clc_tests::{rel, transcript};

#[test]
fn expression_rules() {
    insta::glob!("../sema/expr", "*.cl", |path| {
        let text = std::fs::read_to_string(path).expect("readable input");
        let extra: Vec<String> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// RUN: "))
            .map(|flags| flags.split(" — ").next().unwrap_or("").split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        let path = rel(path);
        let mut args = vec!["-fsyntax-only", "-ferror-limit=0"];
        args.extend(extra.iter().map(String::as_str));
        args.push(&path);
        insta::assert_snapshot!(transcript(&args));
    });
}
