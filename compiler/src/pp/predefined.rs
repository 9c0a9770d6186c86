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
    /// Targets with 64-bit or 32-bit pointers.
    Pointers64,
    Pointers32,
    /// `-cl-fast-relaxed-math`; `-cl-finite-math-only` (or the former),
    /// and neither.
    FastRelaxedMath,
    FiniteMathOnly,
    NotFiniteMathOnly,
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
    // OpenCL C 3.0's feature macros, which clang defines for OpenCL C 2.0
    // too (what 2.0 has; `__opencl_c_int64` in every dialect), and those
    // for 3.0 only.
    ("__opencl_c_generic_address_space", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_atomic_order_seq_cst", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_atomic_order_acq_rel", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_atomic_scope_device", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_atomic_scope_all_devices", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_device_enqueue", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_pipes", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_program_scope_global_variables", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_read_write_images", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_images", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_int64", Some("1"), When::Always),
    ("__opencl_c_work_group_collective_functions", Some("1"), When::From(ClStd::Cl20)),
    ("__opencl_c_3d_image_writes", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_fp64", Some("1"), When::From(ClStd::Cl30)),
    ("__opencl_c_subgroups", Some("1"), When::From(ClStd::Cl30)),
    // The floating-point options (OpenCL C 3.0 §5.8.4.2 for the first).
    ("__FAST_RELAXED_MATH__", Some("1"), When::FastRelaxedMath),
    ("__FAST_MATH__", Some("1"), When::FastRelaxedMath),
    ("__FINITE_MATH_ONLY__", Some("1"), When::FiniteMathOnly),
    ("__FINITE_MATH_ONLY__", Some("0"), When::NotFiniteMathOnly),
    // The C types and their limits as clang describes them (OpenCL C
    // fixes the sizes; `long long` is left out: OpenCL C reserves it).
    ("__CHAR_BIT__", Some("8"), When::Always),
    ("__SIZEOF_SHORT__", Some("2"), When::Always),
    ("__SIZEOF_INT__", Some("4"), When::Always),
    ("__SIZEOF_LONG__", Some("8"), When::Always),
    ("__SIZEOF_FLOAT__", Some("4"), When::Always),
    ("__SIZEOF_DOUBLE__", Some("8"), When::Always),
    ("__SCHAR_MAX__", Some("127"), When::Always),
    ("__SHRT_MAX__", Some("32767"), When::Always),
    ("__INT_MAX__", Some("2147483647"), When::Always),
    ("__LONG_MAX__", Some("9223372036854775807L"), When::Always),
    ("__INT8_TYPE__", Some("signed char"), When::Always),
    ("__INT16_TYPE__", Some("short"), When::Always),
    ("__INT32_TYPE__", Some("int"), When::Always),
    ("__INT64_TYPE__", Some("long int"), When::Always),
    ("__UINT8_TYPE__", Some("unsigned char"), When::Always),
    ("__UINT16_TYPE__", Some("unsigned short"), When::Always),
    ("__UINT32_TYPE__", Some("unsigned int"), When::Always),
    ("__UINT64_TYPE__", Some("long unsigned int"), When::Always),
    ("__INT8_MAX__", Some("127"), When::Always),
    ("__INT16_MAX__", Some("32767"), When::Always),
    ("__INT32_MAX__", Some("2147483647"), When::Always),
    ("__INT64_MAX__", Some("9223372036854775807L"), When::Always),
    ("__UINT8_MAX__", Some("255"), When::Always),
    ("__UINT16_MAX__", Some("65535"), When::Always),
    ("__UINT32_MAX__", Some("4294967295U"), When::Always),
    ("__UINT64_MAX__", Some("18446744073709551615UL"), When::Always),
    ("__POINTER_WIDTH__", Some("64"), When::Pointers64),
    ("__SIZEOF_POINTER__", Some("8"), When::Pointers64),
    ("__SIZEOF_SIZE_T__", Some("8"), When::Pointers64),
    ("__SIZEOF_PTRDIFF_T__", Some("8"), When::Pointers64),
    ("__SIZE_TYPE__", Some("long unsigned int"), When::Pointers64),
    ("__PTRDIFF_TYPE__", Some("long int"), When::Pointers64),
    ("__INTPTR_TYPE__", Some("long int"), When::Pointers64),
    ("__UINTPTR_TYPE__", Some("long unsigned int"), When::Pointers64),
    ("__SIZE_MAX__", Some("18446744073709551615UL"), When::Pointers64),
    ("__PTRDIFF_MAX__", Some("9223372036854775807L"), When::Pointers64),
    ("__INTPTR_MAX__", Some("9223372036854775807L"), When::Pointers64),
    ("__UINTPTR_MAX__", Some("18446744073709551615UL"), When::Pointers64),
    ("_LP64", Some("1"), When::Pointers64),
    ("__LP64__", Some("1"), When::Pointers64),
    ("__POINTER_WIDTH__", Some("32"), When::Pointers32),
    ("__SIZEOF_POINTER__", Some("4"), When::Pointers32),
    ("__SIZEOF_SIZE_T__", Some("4"), When::Pointers32),
    ("__SIZEOF_PTRDIFF_T__", Some("4"), When::Pointers32),
    ("__SIZE_TYPE__", Some("unsigned int"), When::Pointers32),
    ("__PTRDIFF_TYPE__", Some("int"), When::Pointers32),
    ("__INTPTR_TYPE__", Some("int"), When::Pointers32),
    ("__UINTPTR_TYPE__", Some("unsigned int"), When::Pointers32),
    ("__SIZE_MAX__", Some("4294967295U"), When::Pointers32),
    ("__PTRDIFF_MAX__", Some("2147483647"), When::Pointers32),
    ("__INTPTR_MAX__", Some("2147483647"), When::Pointers32),
    ("__UINTPTR_MAX__", Some("4294967295U"), When::Pointers32),
    ("__FLT_RADIX__", Some("2"), When::Always),
    ("__FLT_MANT_DIG__", Some("24"), When::Always),
    ("__FLT_DIG__", Some("6"), When::Always),
    ("__FLT_DECIMAL_DIG__", Some("9"), When::Always),
    ("__FLT_MIN_EXP__", Some("(-125)"), When::Always),
    ("__FLT_MIN_10_EXP__", Some("(-37)"), When::Always),
    ("__FLT_MAX_EXP__", Some("128"), When::Always),
    ("__FLT_MAX_10_EXP__", Some("38"), When::Always),
    ("__FLT_MAX__", Some("3.40282347e+38F"), When::Always),
    ("__FLT_NORM_MAX__", Some("3.40282347e+38F"), When::Always),
    ("__FLT_MIN__", Some("1.17549435e-38F"), When::Always),
    ("__FLT_EPSILON__", Some("1.19209290e-7F"), When::Always),
    ("__FLT_DENORM_MIN__", Some("1.40129846e-45F"), When::Always),
    ("__FLT_HAS_DENORM__", Some("1"), When::Always),
    ("__FLT_HAS_INFINITY__", Some("1"), When::Always),
    ("__FLT_HAS_QUIET_NAN__", Some("1"), When::Always),
    ("__DBL_MANT_DIG__", Some("53"), When::Always),
    ("__DBL_DIG__", Some("15"), When::Always),
    ("__DBL_DECIMAL_DIG__", Some("17"), When::Always),
    ("__DBL_MIN_EXP__", Some("(-1021)"), When::Always),
    ("__DBL_MIN_10_EXP__", Some("(-307)"), When::Always),
    ("__DBL_MAX_EXP__", Some("1024"), When::Always),
    ("__DBL_MAX_10_EXP__", Some("308"), When::Always),
    ("__DBL_MAX__", Some("1.7976931348623157e+308"), When::Always),
    ("__DBL_NORM_MAX__", Some("1.7976931348623157e+308"), When::Always),
    ("__DBL_MIN__", Some("2.2250738585072014e-308"), When::Always),
    ("__DBL_EPSILON__", Some("2.2204460492503131e-16"), When::Always),
    ("__DBL_DENORM_MIN__", Some("4.9406564584124654e-324"), When::Always),
    ("__DBL_HAS_DENORM__", Some("1"), When::Always),
    ("__DBL_HAS_INFINITY__", Some("1"), When::Always),
    ("__DBL_HAS_QUIET_NAN__", Some("1"), When::Always),
    ("__ORDER_LITTLE_ENDIAN__", Some("1234"), When::Always),
    ("__ORDER_BIG_ENDIAN__", Some("4321"), When::Always),
    ("__ORDER_PDP_ENDIAN__", Some("3412"), When::Always),
    ("__BYTE_ORDER__", Some("__ORDER_LITTLE_ENDIAN__"), When::Always),
    ("__LITTLE_ENDIAN__", Some("1"), When::Always),
    // The orders and scopes of clang's atomic builtins.
    ("__ATOMIC_RELAXED", Some("0"), When::Always),
    ("__ATOMIC_CONSUME", Some("1"), When::Always),
    ("__ATOMIC_ACQUIRE", Some("2"), When::Always),
    ("__ATOMIC_RELEASE", Some("3"), When::Always),
    ("__ATOMIC_ACQ_REL", Some("4"), When::Always),
    ("__ATOMIC_SEQ_CST", Some("5"), When::Always),
    ("__OPENCL_MEMORY_SCOPE_WORK_ITEM", Some("0"), When::Always),
    ("__OPENCL_MEMORY_SCOPE_WORK_GROUP", Some("1"), When::Always),
    ("__OPENCL_MEMORY_SCOPE_DEVICE", Some("2"), When::Always),
    ("__OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES", Some("3"), When::Always),
    ("__OPENCL_MEMORY_SCOPE_SUB_GROUP", Some("4"), When::Always),
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
        When::Pointers64 => opts.target.pointer_bits() == 64,
        When::Pointers32 => opts.target.pointer_bits() == 32,
        When::FastRelaxedMath => opts.fp.fast_relaxed_math,
        When::FiniteMathOnly => opts.fp.finite_math_only,
        When::NotFiniteMathOnly => !opts.fp.finite_math_only,
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
