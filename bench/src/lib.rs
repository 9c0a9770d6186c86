//! Support code for the clc benchmarks: the generator of large OpenCL C inputs
//! and what every benchmark binary needs to run and time child processes and
//! to print its results.
pub mod generator;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The workspace root (the parent of `bench/`), where `target/` and `tests/` are.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// `["-x", "cl"]` → owned `OsString`s, for argument vectors.
pub fn os_args(v: &[&str]) -> Vec<OsString> {
    v.iter().map(OsString::from).collect()
}

/// One finished child: wall time, peak RSS and exit status.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub wall_ms: f64,
    pub peak_rss_kib: u64,
    /// `None` when the child was killed by a signal.
    pub exit_code: Option<i32>,
}

/// Runs `program args` (in `cwd` when given) with stdin empty and stdout and
/// stderr discarded; measures it with wait4(2): wall time around spawn + wait,
/// peak RSS from the child's `ru_maxrss`.
pub fn measure_in(program: &Path, args: &[OsString], cwd: Option<&Path>) -> std::io::Result<Sample> {
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    let start = Instant::now();
    let child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our own unreaped child; status and usage point to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    // `child` was reaped by wait4 above; dropping a std Child neither waits nor kills.
    drop(child);
    let exit_code = if libc::WIFEXITED(status) { Some(libc::WEXITSTATUS(status)) } else { None };
    Ok(Sample { wall_ms, peak_rss_kib: usage.ru_maxrss as u64, exit_code })
}

/// [`measure_in`] in the current directory.
pub fn measure(program: &Path, args: &[OsString]) -> std::io::Result<Sample> {
    measure_in(program, args, None)
}

/// Runs once with stderr captured, to report why a tool rejects the file:
/// the first `n` lines of its stderr.
pub fn first_errors(program: &Path, args: &[OsString], n: usize) -> String {
    match Command::new(program).args(args).stdout(Stdio::null()).output() {
        Ok(o) => String::from_utf8_lossy(&o.stderr).lines().take(n).collect::<Vec<_>>().join("\n"),
        Err(e) => e.to_string(),
    }
}

/// Median of `xs` (the mean of the middle two for an even count); `None` when empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// Geometric mean of positive values; `None` when empty.
pub fn geomean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some((xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// Finds `cmd` the way a shell would: a path as is, otherwise the first match on PATH.
pub fn which(cmd: &str) -> Option<PathBuf> {
    if cmd.contains('/') {
        let p = PathBuf::from(cmd);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(cmd)).find(|p| p.is_file())
}

/// `s` as a JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number with three decimals, or `null` for a missing or non-finite value.
pub fn json_num(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.3}"),
        _ => "null".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{geomean, json_str, median};

    #[test]
    fn median_and_geomean() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(geomean(&[]), None);
        let g = geomean(&[1.0, 4.0]).unwrap();
        assert!((g - 2.0).abs() < 1e-12);
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
