//! Compiles the long double reference functions of the math accuracy test
//! (`math/reference.c`) with the system's C compiler.

fn main() {
    println!("cargo:rerun-if-changed=math/reference.c");
    cc::Build::new().file("math/reference.c").opt_level(1).compile("clc_math_reference");
    println!("cargo:rustc-link-lib=m");
}
