//! Generates the parser from `src/parse/grammar.lalrpop`; links the C++
//! library statically and the `clc` binary with packed relative
//! relocations, where the system allows.
fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().emit_rerun_directives(true).process().expect("lalrpop failed");
    let gnu_linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    // A program embedding clc beside other C++ code that shares
    // libstdc++.so's state with it can keep the shared library.
    println!("cargo:rerun-if-env-changed=CLC_SHARED_LIBSTDCXX");
    let shared_cxx = std::env::var_os("CLC_SHARED_LIBSTDCXX").is_some_and(|v| v == "1");
    if gnu_linux && !shared_cxx && let Some(dir) = static_libstdcxx_dir() {
        // LLVM is C++; llvm-sys links libstdc++ as a shared library. Its
        // RTTI then points 4 000 times into libstdc++.so (type-info
        // vtables), symbol relocations the dynamic loader resolves by
        // name at every start, besides loading and relocating the library
        // itself. Named here, before llvm-sys's libraries, the archive
        // provides those symbols where the linker is lld (Rust's default
        // here: it takes a symbol from the first file that defines it, an
        // archive included) and the shared library, then unused, is not
        // linked (`--as-needed`): `clc --version` 18 % faster, compiles
        // 4-8 % (bench/README.md). GNU ld, which only takes archive
        // members for symbols already missing, links it as before.
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=static:-bundle=stdc++");
    }
    if gnu_linux && host_glibc_at_least(2, 36) {
        // LLVM, linked statically into a position-independent executable,
        // brings about 75 000 relative relocations; as RELA entries (24
        // bytes each) the dynamic loader reads 1.8 MB at every start, as
        // RELR (glibc 2.36 and later) 13 KB. `clc --version` 8 %
        // faster (bench/README.md).
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    if gnu_linux {
        // LLVM's 400 static constructors (`.text.startup`) lie spread over
        // 250 64 KB windows of `.text`, each a page fault at start; kept in
        // their own section they fill 6 (`clc --version` 15 % faster). GNU
        // ld groups them by default and warns that the option is ignored.
        println!("cargo:rustc-link-arg-bins=-Wl,-z,keep-text-section-prefix");
    }
}

/// The directory of the C compiler's static `libstdc++.a`, if it has one
/// (`cc -print-file-name` prints the bare name when it finds none).
fn static_libstdcxx_dir() -> Option<String> {
    let out = std::process::Command::new("cc").arg("-print-file-name=libstdc++.a").output().ok()?;
    let path = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !path.is_absolute() || !path.is_file() {
        return None;
    }
    Some(path.parent()?.to_string_lossy().into_owned())
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
