//! The `clc` command line: options, exit statuses, output formats. Each
//! case is a transcript snapshot (command, exit status, stdout, stderr).

use clc_tests::{clc, transcript};

#[test]
fn usage_errors_exit_2_with_a_suggestion() {
    insta::assert_snapshot!(transcript(&["-fsyntax-onyl", "tests/cli/small.cl"]));
    insta::assert_snapshot!(transcript(&["-cl-std=CL2.1", "tests/cli/small.cl"]));
    insta::assert_snapshot!(transcript(&["-fsyntax-only"]));
}

#[test]
fn missing_input_is_an_error() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/cli/no_such_file.cl"]));
}

#[test]
fn syntax_only_succeeds_quietly() {
    let (code, out, err) = clc(&["-fsyntax-only", "tests/cli/small.cl"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn preprocess_and_dump() {
    insta::assert_snapshot!(transcript(&["-E", "tests/cli/small.cl"]));
    insta::assert_snapshot!(transcript(&["-Xclang", "-ast-dump", "tests/cli/small.cl"]));
}

#[test]
fn every_error_is_reported_and_the_limit_applies() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/cli/three_errors.cl"]));
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-ferror-limit=1", "tests/cli/three_errors.cl"]));
}

#[test]
fn errors_in_macros_name_the_macro() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/cli/macro_error.cl"]));
}

#[test]
fn warning_policy() {
    let (code, _, err) = clc(&["-fsyntax-only", "tests/cli/warning.cl"]);
    assert_eq!(code, 0);
    assert!(err.contains("warning: \"this kernel is slow\""), "{err}");
    let (code, _, err) = clc(&["-fsyntax-only", "-Werror", "tests/cli/warning.cl"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error: \"this kernel is slow\""), "{err}");
    let (code, _, err) = clc(&["-fsyntax-only", "-w", "tests/cli/warning.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, _, err) = clc(&["-fsyntax-only", "-Wno-#warnings", "tests/cli/warning.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn rich_format_on_request() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-fdiagnostics-format=rich", "tests/cli/macro_error.cl"]));
}

#[test]
fn code_generation_is_refused_honestly() {
    let (code, _, err) = clc(&["-c", "tests/cli/small.cl"]);
    assert_eq!(code, 1);
    assert!(err.contains("generating code is not supported"), "{err}");
}

#[test]
fn help_and_version() {
    let (code, out, _) = clc(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("-cl-std=") && out.contains("-fsyntax-only"), "{out}");
    let (code, out, _) = clc(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("clc ") && out.contains("LLVM 22."), "{out}");
}

#[test]
fn type_specifier_combinations() {
    let (code, out, err) = clc(&["-fsyntax-only", "tests/sema/specifiers_valid.cl"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-ferror-limit=0", "tests/sema/specifiers_invalid.cl"]));
}

#[test]
fn memory_model_rules_run_in_the_driver() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/sema/atomics/invalid_barrier.cl"]));
}
