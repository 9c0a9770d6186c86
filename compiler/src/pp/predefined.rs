//! The predefined macros: one table, filtered by dialect and target.
//!
//! The table follows what clang 22 defines for OpenCL C (`clang -x cl
//! -cl-std=… -dM -E /dev/null`), limited to what clc supports, plus the
//! macros the OpenCL C specification requires of every implementation
//! (`__OPENCL_VERSION__`, `__IMAGE_SUPPORT__`, `FP_FAST_FMA`…) that clang
//! leaves to the device. The text is run as `#define` lines in a virtual
//! `<built-in>` file, so the macros have real spans.

use super::PpOptions;
use crate::options::{ClStd, Target};

/// When a table entry applies.
#[derive(Clone, Copy)]
enum When {
    Always,
    /// Dialects at or after this one.
    From(ClStd),
    Spirv,
    Spirv32,
    Spirv64,
    /// Native code for x86-64 (the host, or a native x86-64 triple).
    X86_64,
}

const KERNEL_EXEC: &str = "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))";

/// Name (with parameters), replacement, condition. `None` as the
/// replacement stands for the dialect's version number.
const TABLE: &[(&str, Option<&str>, When)] = &[
    ("__STDC__", Some("1"), When::Always),
    ("__STDC_VERSION__", Some("199901L"), When::Always),
    ("__STDC_HOSTED__", Some("0"), When::Always),
    ("__OPENCL_VERSION__", None, When::Always),
    ("__OPENCL_C_VERSION__", None, When::Always),
    ("CL_VERSION_1_0", Some("100"), When::Always),
    ("CL_VERSION_1_1", Some("110"), When::Always),
    ("CL_VERSION_1_2", Some("120"), When::Always),
    ("CL_VERSION_2_0", Some("200"), When::Always),
    ("CL_VERSION_3_0", Some("300"), When::Always),
    ("__ENDIAN_LITTLE__", Some("1"), When::Always),
    ("__IMAGE_SUPPORT__", Some("1"), When::Always),
    ("FP_FAST_FMA", Some("1"), When::Always),
    ("FP_FAST_FMAF", Some("1"), When::Always),
    // The one function-like macro of clang's opencl-c-base.h that kernels
    // use (the header's `as_T` macros are builtins here).
    ("ATOMIC_VAR_INIT(x)", Some("(x)"), When::From(ClStd::Cl20)),
    ("__kernel_exec(X, typen)", Some(KERNEL_EXEC), When::Always),
    ("kernel_exec(X, typen)", Some(KERNEL_EXEC), When::Always),
    // Extensions, as clang defines them for a full-profile device.
    ("cl_khr_fp64", Some("1"), When::Always),
    ("cl_khr_fp16", Some("1"), When::Always),
    ("cl_khr_int64_base_atomics", Some("1"), When::Always),
    ("cl_khr_int64_extended_atomics", Some("1"), When::Always),
    ("cl_khr_global_int32_base_atomics", Some("1"), When::Always),
    ("cl_khr_global_int32_extended_atomics", Some("1"), When::Always),
    ("cl_khr_local_int32_base_atomics", Some("1"), When::Always),
    ("cl_khr_local_int32_extended_atomics", Some("1"), When::Always),
    ("cl_khr_byte_addressable_store", Some("1"), When::Always),
    ("cl_khr_3d_image_writes", Some("1"), When::Always),
    ("cl_khr_depth_images", Some("1"), When::Always),
    ("cl_khr_subgroups", Some("1"), When::From(ClStd::Cl20)),
    ("cl_khr_mipmap_image", Some("1"), When::From(ClStd::Cl20)),
    // OpenCL C 3.0 feature macros for what clc implements (no device-side
    // enqueue, no pipes yet).
    ("__opencl_c_generic_address_space", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_atomic_order_seq_cst", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_atomic_order_acq_rel", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_atomic_scope_device", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_atomic_scope_all_devices", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_program_scope_global_variables", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_read_write_images", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_images", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_3d_image_writes", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_fp64", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_int64", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_subgroups", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_work_group_collective_functions", Some("1"), When::From(ClStd::Cl30)),
    // Targets.
    ("__SPIR__", Some("1"), When::Spirv),
    ("__SPIRV__", Some("1"), When::Spirv),
    ("__SPIR32__", Some("1"), When::Spirv32),
    ("__SPIRV32__", Some("1"), When::Spirv32),
    ("__SPIR64__", Some("1"), When::Spirv64),
    ("__SPIRV64__", Some("1"), When::Spirv64),
    ("__x86_64__", Some("1"), When::X86_64),
    ("__x86_64", Some("1"), When::X86_64),
];

fn applies(w: When, opts: &PpOptions) -> bool {
    match w {
        When::Always => true,
        When::From(s) => opts.std >= s,
        When::Spirv => opts.target.is_spirv(),
        When::Spirv32 => opts.target == Target::Spirv32,
        When::Spirv64 => opts.target == Target::Spirv64,
        When::X86_64 => match &opts.target {
            Target::Host => cfg!(target_arch = "x86_64"),
            Target::Native(t) => t.starts_with("x86_64"),
            _ => false,
        },
    }
}

/// The `#define` lines for `opts`.
pub(super) fn text(opts: &PpOptions) -> String {
    let mut s = String::new();
    for &(name, value, when) in TABLE {
        if applies(when, opts) {
            let version = opts.std.version().to_string();
            s.push_str("#define ");
            s.push_str(name);
            s.push(' ');
            s.push_str(value.unwrap_or(&version));
            s.push('\n');
        }
    }
    s
}
