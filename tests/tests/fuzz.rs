//! A short deterministic fuzzing run in every test run; long runs use the
//! `fuzz` binary (`cargo run --release -p clc-tests --bin fuzz -- 600`).

use std::time::Duration;

#[test]
fn preprocessor_and_parser_survive_random_input() {
    let seeds = clc_tests::fuzz::corpus_seeds();
    let cases = std::env::var("CLC_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1500);
    match clc_tests::fuzz::fuzz(7, cases, Duration::from_secs(120), &seeds) {
        Ok(stats) => assert!(stats.cases > 0),
        Err((input, msg)) => panic!("panic `{msg}` on input:\n{input}"),
    }
}

#[test]
fn ten_thousand_nested_parentheses_is_an_error_not_a_crash() {
    let src = format!("kernel void f(global int *p) {{ p[0] = {}1{}; }}", "(".repeat(10_000), ")".repeat(10_000));
    let n = clc_tests::fuzz::run_case(&src, clc::options::ClStd::Cl20).expect("no panic");
    assert!(n >= 1, "deep nesting must be reported");
}
