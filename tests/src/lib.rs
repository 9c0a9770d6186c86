//! Helpers shared by the data-driven tests in `tests/tests/`: each area has
//! one `check` function that runs the pipeline up to its stage and renders
//! the result as text, so the tests lock in behaviour, not internal APIs.
//! [`fuzz`] is the randomized robustness test, shared by the test suite
//! (a short run) and the `fuzz` binary (a long one).

pub mod fuzz;
pub mod math_reference;

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// Runs `clc` in-process with `args`, from the repository root, and
/// returns `(exit status, stdout, stderr)`. Paths in `args` are relative to
/// the root.
pub fn clc(args: &[&str]) -> (i32, String, String) {
    let root = root();
    let owned: Vec<String> = args
        .iter()
        .map(|a| {
            let p = root.join(a);
            if !a.starts_with('-') && p.exists() { p.display().to_string() } else { a.to_string() }
        })
        .collect();
    let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (code, out, err) = clc::driver::run_captured(&refs);
    let prefix = format!("{}/", root.display());
    (code, out.replace(&prefix, ""), err.replace(&prefix, ""))
}

/// Renders a `clc` run as one text for a snapshot: the command, the exit
/// status, stdout and stderr.
pub fn transcript(args: &[&str]) -> String {
    let (code, out, err) = clc(args);
    let mut s = format!("$ clc {}\nexit: {code}\n", args.join(" "));
    if !out.is_empty() {
        s.push_str("--- stdout\n");
        s.push_str(&out);
    }
    if !err.is_empty() {
        s.push_str("--- stderr\n");
        s.push_str(&err);
    }
    s
}

/// The `.cl` files directly in `dir` (relative to the root), sorted.
pub fn cl_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "cl")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// A path relative to the root, as text.
pub fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// The transcript of `clc -fsyntax-only -ferror-limit=0 [flags] FILE`,
/// where the flags come from a first line `// RUN: <flags>` of the file
/// (text after ` — ` on that line is a comment). For the sema snapshot
/// tests, whose inputs pick their dialect.
pub fn check_transcript(path: &Path) -> String {
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
    transcript(&args)
}
