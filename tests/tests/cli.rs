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

/// `-E -dM` prints the `#define` line of every macro defined at the end
/// (predefined and command-line ones too, not the builtin `__LINE__`),
/// sorted by name; `-E -dD` the `#define` and `#undef` lines where they
/// are. The user's lines are clang-22's (`-x cl -cl-std=CL2.0`), its
/// predefined macros not all clc's.
#[test]
fn dump_macros_as_clang_does() {
    let (code, out, err) = clc(&["-E", "-dM", "-DCMD=3", "tests/cli/macros.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "sorted: {out}");
    let user: Vec<&str> = lines.iter().copied().filter(|l| ["B", "CMD", "EMPTY", "F", "LATE", "N", "S", "V", "A", "SKIPPED"].iter().any(|n| l.starts_with(&format!("#define {n} ")) || l.starts_with(&format!("#define {n}(")))).collect();
    assert_eq!(
        user,
        [
            "#define B \"str\" 'c'",
            "#define CMD 3",
            "#define EMPTY ",
            "#define F(x,y) ((x)+(y))",
            "#define LATE F(1, 2)",
            "#define N(a,args...) g(a, args)",
            "#define S(x) #x a ## b",
            "#define V(...) f(__VA_ARGS__ __VA_OPT__(, 0))",
        ]
    );
    assert!(lines.contains(&"#define __OPENCL_C_VERSION__ 200"), "{out}");
    assert!(!out.contains("__LINE__") && !out.contains("int x"), "{out}");
    // `-dM` wins over `-dD`, as in clang.
    assert_eq!(clc(&["-E", "-dD", "-dM", "-DCMD=3", "tests/cli/macros.cl"]).1, out);

    let (code, out, err) = clc(&["-E", "-dD", "-DCMD=3", "-UNOPE", "tests/cli/macros.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("# 1 \"<built-in>\"\n#define __STDC__ 1\n"), "{out}");
    let from_command_line = &out[out.find("# 1 \"<command line>\"").expect("the command line's macros")..];
    let main = from_command_line.find("\n# 1 ").map_or("", |at| &from_command_line[at + 1..]);
    let main = &main[main.find('\n').map_or(0, |n| n + 1)..];
    assert!(from_command_line.starts_with("# 1 \"<command line>\"\n#define CMD 3\n#undef NOPE\n"), "{out}");
    let want = "#define A 1\n#define F(x,y) ((x)+(y))\n#define V(...) f(__VA_ARGS__ __VA_OPT__(, 0))\n#define N(a,args...) g(a, args)\n#define EMPTY \n#define S(x) #x a ## b\n#undef A\n#define B \"str\" 'c'\nint x = \"str\" 'c';\n\n\n\n#define LATE F(1, 2)\n";
    assert_eq!(main, want);
}

/// The floating-point options reach the preprocessor: the driver defines
/// `__FAST_RELAXED_MATH__` (OpenCL C) and clang's `__FAST_MATH__` and
/// `__FINITE_MATH_ONLY__` as clang-22 does for each.
#[test]
fn floating_point_options_define_their_macros() {
    for (options, want) in [
        (&[][..], "__FAST_RELAXED_MATH__ __FAST_MATH__ 0"),
        (&["-cl-finite-math-only"][..], "__FAST_RELAXED_MATH__ __FAST_MATH__ 1"),
        (&["-cl-fast-relaxed-math"][..], "1 1 1"),
    ] {
        let mut args = vec!["-E"];
        args.extend(options);
        args.push("tests/cli/fp_macros.cl");
        let (code, out, err) = clc(&args);
        assert_eq!(code, 0, "{options:?}: {err}");
        assert!(out.lines().any(|l| l == want), "{options:?}: {out}");
    }
}

#[test]
fn include_reads_files_before_the_input() {
    let dir = "tests/cli/include_first";
    let main = format!("{dir}/main.cl");
    let (code, _, err) = clc(&["-fsyntax-only", &main]);
    assert_eq!(code, 1, "the input alone lacks the prelude: {err}");
    // In order: the prelude (from the working directory), then the helper
    // (through -I), whose parameter type the prelude declares; glued and
    // `--include=` spellings too; `#pragma once` holds across them.
    let prelude = format!("{dir}/prelude.h");
    // (The harness makes existing paths absolute, not glued ones.)
    let absolute = clc_tests::root().join(&prelude);
    let glued = format!("-include{}", absolute.display());
    let long = format!("--include={}", absolute.display());
    for first in [&["-include", prelude.as_str()][..], &[glued.as_str()][..], &[long.as_str()][..]] {
        let mut args = vec!["-fsyntax-only"];
        args.extend(first);
        args.extend(["-I", dir, "-include", "helper.h", "-include", &prelude, &main]);
        let (code, _, err) = clc(&args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    }
    let (_, out, _) = clc(&["-E", "-include", &prelude, &main]);
    assert!(out.contains("my_int v = 42;"), "{out}");
    let (code, _, err) = clc(&["-fsyntax-only", "-include", "no/such.h", &main]);
    assert_eq!(code, 1);
    assert!(err.contains("'no/such.h' file not found"), "{err}");
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

/// A `-W` option naming no warning clc or clang-22 knows is warned about
/// with each input, at the option, with the option clang suggests; under
/// the warning policy like any other warning. Every clang option is taken
/// quietly, so a clang command line keeps working.
#[test]
fn unknown_warning_options_are_warnings_with_clangs_suggestion() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-Wunused-varable", "-Wno-error=foo", "tests/cli/small.cl"]));
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-Wfoo", "-Werror", "tests/cli/small.cl"]));
    let (code, _, err) = clc(&["-fsyntax-only", "-Wfoo", "-Wno-unknown-warning-option", "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, _, err) = clc(&["-fsyntax-only", "-Wfoo", "-w", "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    // Options of clang's that clc has no warning for, and driver options.
    let known = ["-Wshadow", "-Wno-pedantic", "-Werror=format-security", "-Wframe-larger-than=4096", "-Wformat=2", "-Wno-#warnings"];
    let (code, _, err) = clc(&[&["-fsyntax-only", "tests/cli/small.cl"][..], &known].concat());
    assert_eq!((code, err.as_str()), (0, ""));
    // -Weverything turns on warnings small.cl has (`v * i`: an int to
    // float4, -Wimplicit-int-float-conversion), but is no unknown option.
    let (code, _, err) = clc(&["-fsyntax-only", "-Weverything", "tests/cli/small.cl"]);
    assert!(code == 0 && err.contains("[-Wimplicit-int-float-conversion]") && !err.contains("unknown"), "{err}");
    // Once per input, as clang does.
    let (code, _, err) = clc(&["-fsyntax-only", "-Wfoo", "tests/cli/small.cl", "tests/cli/small.cl"]);
    assert_eq!((code, err.matches("unknown warning option '-Wfoo'").count()), (0, 2), "{err}");
}

/// `#pragma clc __debug crash` crashes only the `clc` command (see
/// compiler/tests/run_cli.rs); in a program that embeds clc it is ignored.
#[test]
fn debug_pragmas_are_ignored_in_process() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/cli/debug_pragma.cl"]));
}

#[test]
fn rich_format_on_request() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-fdiagnostics-format=rich", "tests/cli/macro_error.cl"]));
}

/// `-E`'s output keeps every place: its line markers (flags 1 and 2 for
/// includes, 3 for system headers) say where each line came from, so
/// compiling it reports what compiling the source does, at the same
/// places, with the same "In file included from" lines and the same
/// warnings dropped in system headers.
#[test]
fn preprocessed_output_compiles_to_the_same_diagnostics() {
    let src = "tests/sema/decls/92_line_directives.cl";
    let (_, direct_out, direct) = clc(&["-fsyntax-only", "-ferror-limit=0", "-Wall", src]);
    assert_eq!(direct_out, "");
    assert!(direct.contains("In file included from tests/sema/decls/include/92_outer.h:3:"), "{direct}");
    assert!(direct.contains("generated.cl:100:14: error"), "{direct}");
    let (code, text, err) = clc(&["-E", src]);
    assert_eq!((code, err.as_str()), (0, ""));
    let out = temp_output("92_line_directives.i.cl");
    std::fs::write(&out, &text).unwrap();
    let (_, _, again) = clc(&["-fsyntax-only", "-ferror-limit=0", "-Wall", out.to_str().unwrap()]);
    assert_eq!(again, direct, "preprocessed:\n{text}");
}

/// The rich format shows presumed places too: the file a `#line` names,
/// its lines in the gutter.
#[test]
fn rich_format_shows_presumed_places() {
    let (_, _, err) = clc(&["-fsyntax-only", "-fdiagnostics-format=rich", "tests/sema/decls/92_line_directives.cl"]);
    assert!(err.contains("┌─ generated.cl:100:14"), "{err}");
    assert!(err.contains("100 │ int at_100 = undeclared_at_100;"), "{err}");
    assert!(err.contains("┌─ template.h:20:19"), "{err}");
}

/// A missing header is a fatal error: nothing after it is reported; `-E`
/// writes the rest of the file, as clang's.
#[test]
fn missing_include_is_fatal() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "tests/cli/missing_include.cl"]));
    insta::assert_snapshot!(transcript(&["-E", "tests/cli/missing_include.cl"]));
}

/// `-Wfatal-errors` makes the first error fatal; clang's display options
/// drop line numbers, columns or snippets.
#[test]
fn fatal_errors_and_display_options() {
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-Wfatal-errors", "tests/cli/three_errors.cl"]));
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-fno-diagnostics-show-line-numbers", "-fno-show-column", "tests/cli/three_errors.cl"]));
    insta::assert_snapshot!(transcript(&["-fsyntax-only", "-fno-caret-diagnostics", "tests/cli/three_errors.cl"]));
}

/// A path in the tests' scratch directory for one test's output.
fn temp_output(name: &str) -> std::path::PathBuf {
    // Under the target directory (cargo's scratch space for tests), named
    // the same on every run: nothing piles up in the system's /tmp.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("clc-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn word(bytes: &[u8], index: usize) -> u32 {
    u32::from_le_bytes(bytes[index * 4..index * 4 + 4].try_into().unwrap())
}

// The lowering is being written; until it is, these check the file
// formats, not the kernels in them.

#[test]
fn compile_to_a_native_object() {
    let out = temp_output("small.o");
    let (code, stdout, err) = clc(&["-c", "tests/cli/small.cl", "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str(), err.as_str()), (0, "", ""));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), 62, "EM_X86_64");
    // No action flag: the same as -c (clc does not link).
    let plain = temp_output("plain.o");
    let (code, _, err) = clc(&["tests/cli/small.cl", "-o", plain.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(&std::fs::read(&plain).unwrap()[..4], b"\x7fELF");
}

#[test]
fn llvm_ir_to_standard_output() {
    let (code, out, err) = clc(&["-S", "-emit-llvm", "-o", "-", "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("target triple = ") && out.contains("target datalayout = "), "{out}");
    let bc = temp_output("small.bc");
    let (code, _, err) = clc(&["-c", "-emit-llvm", "-o", bc.to_str().unwrap(), "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(&std::fs::read(&bc).unwrap()[..4], b"BC\xc0\xde");
    let asm = temp_output("small.s");
    let (code, _, err) = clc(&["-S", "-o", asm.to_str().unwrap(), "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let text = std::fs::read_to_string(&asm).unwrap();
    assert!(text.contains(".file") && text.contains("small.cl"), "{text}");
}

#[test]
fn disable_llvm_passes_writes_the_ir_as_lowered() {
    // The kernel's locals are still stack slots: no pass (not even mem2reg)
    // ran. The optimised IR has none left.
    let (code, raw, err) = clc(&["-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes", "-o", "-", "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(raw.contains("%v = alloca <4 x float>") && raw.contains("%i = alloca i32"), "{raw}");
    let (code, optimised, err) = clc(&["-S", "-emit-llvm", "-o", "-", "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(!optimised.contains("%i = alloca"), "{optimised}");
    // Objects still go through the code generator.
    let obj = temp_output("small_unoptimised.o");
    let (code, _, err) = clc(&["-c", "-Xclang", "-disable-llvm-optzns", "-o", obj.to_str().unwrap(), "tests/cli/small.cl"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(&std::fs::read(&obj).unwrap()[..4], b"\x7fELF");
}

#[test]
fn spirv_binary_with_its_version() {
    let spv = temp_output("small.spv");
    let (code, _, err) = clc(&["--target=spirv64", "-c", "tests/cli/small.cl", "-o", spv.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    let bytes = std::fs::read(&spv).unwrap();
    assert_eq!((word(&bytes, 0), word(&bytes, 1)), (0x0723_0203, 0x0001_0000), "SPIR-V 1.0 by default");
    let spv12 = temp_output("small12.spv");
    let (code, _, err) = clc(&["--target=spirv64", "-fspirv-version=1.2", "-c", "tests/cli/small.cl", "-o", spv12.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    let bytes = std::fs::read(&spv12).unwrap();
    assert_eq!((word(&bytes, 0), word(&bytes, 1)), (0x0723_0203, 0x0001_0200), "-fspirv-version=1.2");
}

#[test]
fn bad_spirv_version_and_target_are_usage_errors() {
    insta::assert_snapshot!(transcript(&["--target=spirv64", "-fspirv-version=2.9", "-c", "tests/cli/small.cl"]), @r"
    $ clc --target=spirv64 -fspirv-version=2.9 -c tests/cli/small.cl
    exit: 2
    --- stderr
    clc: error: invalid value '2.9' in '-fspirv-version=2.9'; valid values are 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6
    ");
    let (code, _, err) = clc(&["--target=nonsense", "-c", "tests/cli/small.cl"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("clc: error: unknown target triple 'nonsense'"), "{err}");
    // A real architecture whose back end clc does not link is refused the
    // same way, naming the ones it has.
    let (code, _, err) = clc(&["--target=aarch64-unknown-linux-gnu", "-c", "tests/cli/small.cl"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("clc: error: unknown target triple 'aarch64-unknown-linux-gnu'"), "{err}");
    assert!(err.contains("clc generates code for x86 (x86_64, i386/i686) and SPIR-V (spirv32, spirv64)"), "{err}");
    let (code, _, err) = clc(&["--target=i686-unknown-linux-gnu", "-c", "tests/cli/small.cl", "-o", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
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
