//! `cargo xtask <task>`: the two commands the README promises, and the
//! system packages they need.
//!
//! - `demo`: install what is missing, build clc, and run it on the example
//!   kernel in `examples/`.
//! - `test`: install what is missing, then run the whole test suite.
//!
//! Only this crate may install system packages; it depends on nothing, so
//! it builds before LLVM is present.

use std::process::{Command, ExitCode};

/// Debian packages the build and the tests need, with a file that proves
/// each is installed.
const PACKAGES: &[(&str, &str)] = &[
    ("llvm-22-dev", "/usr/lib/llvm-22/bin/llvm-config"),
    ("libpolly-22-dev", "/usr/lib/llvm-22/lib/libPolly.a"),
    ("clang-22", "/usr/bin/clang-22"),
    ("spirv-tools", "/usr/bin/spirv-val"),
    ("libzstd-dev", "/usr/include/zstd.h"),
    ("zlib1g-dev", "/usr/include/zlib.h"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[1.min(args.len())..];
    let result = match task {
        "setup" => setup(),
        "demo" => setup().and_then(|()| demo(rest)),
        "test" => setup().and_then(|()| test(rest)),
        _ => {
            eprintln!("usage: cargo xtask <setup|demo|test> [args]\n  setup  install missing Debian packages\n  demo   check examples/vector_add.cl and examples/mistakes.cl, printing diagnostics\n  test   run the whole test suite");
            return ExitCode::from(if task == "help" { 0 } else { 2 });
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Installs the packages whose marker file is missing, with sudo when not
/// root.
fn setup() -> Result<(), String> {
    let missing: Vec<&str> = PACKAGES.iter().filter(|(_, f)| !std::path::Path::new(f).exists()).map(|(p, _)| *p).collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("xtask: installing {}", missing.join(" "));
    let root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    let apt = |args: &[&str]| -> Result<(), String> {
        let mut cmd = if root { Command::new("apt-get") } else { Command::new("sudo") };
        if !root {
            cmd.arg("apt-get");
        }
        cmd.env("DEBIAN_FRONTEND", "noninteractive").args(args);
        let status = cmd.status().map_err(|e| format!("cannot run apt-get: {e}"))?;
        if status.success() { Ok(()) } else { Err(format!("apt-get {} failed ({status})", args.join(" "))) }
    };
    apt(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
    install.extend(&missing);
    apt(&install)
}

fn cargo(args: &[&str], extra: &[String]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo).args(args).args(extra).status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("cargo {} failed ({status})", args.join(" "))) }
}

/// Checks the example kernel (it must pass), then a file of deliberate
/// mistakes (it must fail), printing clc's diagnostics for both.
fn demo(extra: &[String]) -> Result<(), String> {
    cargo(&["build", "--quiet", "--release", "--package", "clc", "--bin", "clc"], &[])?;
    let clc = std::path::Path::new("target/release/clc");
    let run = |file: &str| -> Result<i32, String> {
        println!("$ clc -fsyntax-only {file}");
        let status = Command::new(clc)
            .args(["-fsyntax-only", "-fdiagnostics-format=rich", file])
            .args(extra)
            .status()
            .map_err(|e| format!("cannot run {}: {e}", clc.display()))?;
        Ok(status.code().unwrap_or(-1))
    };
    match run("examples/vector_add.cl")? {
        0 => println!("examples/vector_add.cl: no errors\n"),
        code => return Err(format!("examples/vector_add.cl should check cleanly, but clc exited with {code}")),
    }
    // Compile it for the CPU and run it: out[i] = a[i] + 2 * b[i] with
    // a = 0, 1, 2, … and b = 1.
    let run_args = [
        "run", "examples/vector_add.cl", "--kernel", "vector_add", "--global", "64", "--local", "64",
        "--arg", "buf:float:64:range", "--arg", "buf:float:64:1", "--arg", "buf:float:64", "--arg", "float:2", "--arg", "uint:64",
        "--print", "2", "--repeat", "5",
    ];
    println!("$ clc {}", run_args.join(" "));
    let status = Command::new(clc).args(run_args).status().map_err(|e| format!("cannot run {}: {e}", clc.display()))?;
    if !status.success() {
        return Err(format!("clc run failed ({status})"));
    }
    println!();
    match run("examples/mistakes.cl")? {
        1 => Ok(()),
        code => Err(format!("examples/mistakes.cl should fail with status 1, but clc exited with {code}")),
    }
}

fn test(extra: &[String]) -> Result<(), String> {
    cargo(&["test", "--workspace", "--all-targets", "--no-fail-fast"], extra)?;
    // The JIT's kernel tests once more, their kernels compiled as native
    // objects on several threads are: loops outlined between the halves
    // of the pipeline (compiler/src/codegen/outline.rs).
    println!("$ CLC_JIT_OUTLINE=1 cargo test --workspace --lib -- jit");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace", "--lib", "--no-fail-fast", "--", "jit"])
        .env("CLC_JIT_OUTLINE", "1")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("the JIT tests with outlined loops failed ({status})")) }
}
