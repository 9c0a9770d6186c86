//! Everything that depends on the exact LLVM version (22).

use crate::options::Target;
use inkwell::targets::{InitializationConfig, Target as LlvmTarget};
use std::sync::Once;

/// `"22.1.8"`: the LLVM clc is linked against.
pub fn llvm_version() -> String {
    let (major, minor, patch) = inkwell::support::get_llvm_version();
    format!("{major}.{minor}.{patch}")
}

/// Can this LLVM generate code for `target`? Debian's LLVM 22 has both
/// the x86 and the SPIR-V back ends.
pub fn target_available(target: &Target) -> bool {
    static INIT: Once = Once::new();
    INIT.call_once(|| LlvmTarget::initialize_all(&InitializationConfig::default()));
    let name = match target {
        Target::Spirv32 => "spirv32",
        Target::Spirv64 => "spirv64",
        Target::Host => "x86-64",
        Target::Native(triple) => match triple.split('-').next().unwrap_or("") {
            "x86_64" => "x86-64",
            "i386" | "i686" => "x86",
            "aarch64" => "aarch64",
            other => other,
        },
    };
    LlvmTarget::from_name(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linked_llvm_is_22_with_both_back_ends() {
        assert!(llvm_version().starts_with("22."), "{}", llvm_version());
        assert!(target_available(&Target::Spirv64));
        assert!(target_available(&Target::Spirv32));
        assert!(target_available(&Target::Host));
    }
}
