//! Options shared by every stage: the OpenCL C dialect and the target.
//!
//! The driver fills these from the command line; library users build them
//! directly. Stages read them and never parse flags themselves.

/// The OpenCL C language version (`-cl-std=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ClStd {
    Cl10,
    Cl11,
    Cl12,
    /// The default, as for clang with `-cl-std=CL2.0`.
    #[default]
    Cl20,
    Cl30,
}

impl ClStd {
    /// The builtin table's name for this dialect.
    pub fn builtin_version(self) -> clc_builtins::functions::Version {
        use clc_builtins::functions::Version;
        match self {
            ClStd::Cl10 => Version::Cl10,
            ClStd::Cl11 => Version::Cl11,
            ClStd::Cl12 => Version::Cl12,
            ClStd::Cl20 => Version::Cl20,
            ClStd::Cl30 => Version::Cl30,
        }
    }

    /// Parses the value of `-cl-std=` (`CL1.2`, `cl2.0`, `CL3.0`, …).
    pub fn parse(s: &str) -> Option<ClStd> {
        Some(match s.to_ascii_uppercase().as_str() {
            "CL1.0" | "CL" => ClStd::Cl10,
            "CL1.1" => ClStd::Cl11,
            "CL1.2" => ClStd::Cl12,
            "CL2.0" => ClStd::Cl20,
            "CL3.0" => ClStd::Cl30,
            _ => return None,
        })
    }

    /// `100`, `110`, `120`, `200`, `300`: the value of `__OPENCL_C_VERSION__`.
    pub fn version(self) -> u32 {
        match self {
            ClStd::Cl10 => 100,
            ClStd::Cl11 => 110,
            ClStd::Cl12 => 120,
            ClStd::Cl20 => 200,
            ClStd::Cl30 => 300,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClStd::Cl10 => "CL1.0",
            ClStd::Cl11 => "CL1.1",
            ClStd::Cl12 => "CL1.2",
            ClStd::Cl20 => "CL2.0",
            ClStd::Cl30 => "CL3.0",
        }
    }

    /// Does this dialect have the generic address space, `pipe` and the
    /// other 2.0 keywords?
    pub fn has_generic(self) -> bool {
        self >= ClStd::Cl20
    }
}

/// What code is generated for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Target {
    /// The machine clc runs on (x86-64 Linux in practice).
    #[default]
    Host,
    /// Another native triple, as given to `--target=`.
    Native(String),
    Spirv32,
    Spirv64,
}

impl Target {
    pub fn parse(s: &str) -> Target {
        match s {
            "spirv64" | "spirv64-unknown-unknown" => Target::Spirv64,
            "spirv32" | "spirv" | "spirv32-unknown-unknown" => Target::Spirv32,
            other => Target::Native(other.to_string()),
        }
    }

    pub fn is_spirv(&self) -> bool {
        matches!(self, Target::Spirv32 | Target::Spirv64)
    }

    /// Is this 64-bit x86 (the host, or a native triple for `x86_64`)?
    /// Its baseline has SSE2; 32-bit x86's does not.
    pub fn is_x86_64(&self) -> bool {
        match self {
            Target::Host => true,
            Target::Native(triple) => triple.starts_with("x86_64"),
            Target::Spirv32 | Target::Spirv64 => false,
        }
    }

    /// Pointer width in bits; `size_t` has this width.
    pub fn pointer_bits(&self) -> u32 {
        match self {
            Target::Spirv32 => 32,
            _ => 64,
        }
    }
}

/// Floating-point options (`-cl-*-math`), recorded for code generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FpOptions {
    pub mad_enable: bool,
    pub fast_relaxed_math: bool,
    pub finite_math_only: bool,
    pub no_signed_zeros: bool,
    pub unsafe_math: bool,
    pub denorms_are_zero: bool,
    pub single_precision_constant: bool,
}

impl FpOptions {
    /// Applies one `-cl-*` floating-point option as clang does (the
    /// umbrella options imply the ones they contain); false when `flag` is
    /// not one of them.
    pub fn apply(&mut self, flag: &str) -> bool {
        match flag {
            "-cl-mad-enable" => self.mad_enable = true,
            "-cl-fast-relaxed-math" => {
                self.fast_relaxed_math = true;
                self.mad_enable = true;
                self.finite_math_only = true;
                self.no_signed_zeros = true;
                self.unsafe_math = true;
            }
            "-cl-finite-math-only" => self.finite_math_only = true,
            "-cl-no-signed-zeros" => self.no_signed_zeros = true,
            "-cl-unsafe-math-optimizations" => {
                self.unsafe_math = true;
                self.mad_enable = true;
                self.no_signed_zeros = true;
            }
            "-cl-denorms-are-zero" => self.denorms_are_zero = true,
            "-cl-single-precision-constant" => self.single_precision_constant = true,
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cl_std_spellings() {
        assert_eq!(ClStd::parse("CL2.0"), Some(ClStd::Cl20));
        assert_eq!(ClStd::parse("cl1.2"), Some(ClStd::Cl12));
        assert_eq!(ClStd::parse("CL4.0"), None);
        assert_eq!(ClStd::Cl30.version(), 300);
    }
}
