//! Generates the parser from `src/parse/grammar.lalrpop`, and links the
//! `clc` binary with packed relative relocations where the C library can
//! load them.
fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().emit_rerun_directives(true).process().expect("lalrpop failed");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu") && host_glibc_at_least(2, 36) {
        // LLVM, linked statically into a position-independent executable,
        // brings about 75 000 relative relocations; as RELA entries (24
        // bytes each) the dynamic loader reads 1.8 MB at every start, as
        // RELR (glibc 2.36 and later) about 15 KB. `clc --version` 8 %
        // faster (bench/README.md).
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Is the C library of the machine building clc (where it will run) at
/// least `major.minor`? `getconf GNU_LIBC_VERSION` says "glibc 2.36";
/// anything else (another libc, no getconf) is taken as no.
fn host_glibc_at_least(major: u32, minor: u32) -> bool {
    let Ok(out) = std::process::Command::new("getconf").arg("GNU_LIBC_VERSION").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else { return false };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}
