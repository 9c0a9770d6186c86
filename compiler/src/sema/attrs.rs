//! GNU attributes (`__attribute__((…))`): which names clang-22 knows, and
//! what clc does with each.
//!
//! clang warns about a name it does not know and ignores it; of its
//! arguments the first may be any identifier
//! (`max_constant_size(MAX_CONST_SIZE)` from early OpenCL drafts compiles
//! with an undefined macro in it), the others are expressions and checked.
//! clc does the same, so it needs clang's list of names (and guesses a
//! misspelt one from it): [`KNOWN`], read off clang-22 (the GNU
//! spellings its attribute printer knows, each checked with
//! `clang-22 -cl-std=CL2.0 -fsyntax-only` to draw no "unknown attribute"
//! warning on x86-64; `__name__` is the same as `name`).

/// What the checker does with an attribute clang knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handling {
    /// clc gives it its meaning and checks its arguments.
    Checked,
    /// It changes no program clc compiles (a hint, an optimisation
    /// choice, something for another language or target): accepted and
    /// ignored, its arguments unchecked.
    Ignored,
    /// It changes what the program means, and clc does not implement it:
    /// an error, rather than a program that silently means something
    /// else. The text says what to write instead.
    Unsupported(&'static str),
}

/// Attributes whose meaning clc gives (checked where they apply).
const CHECKED: &[&str] = &[
    "aligned",
    "ext_vector_type",
    "opencl_unroll_hint",
    "overloadable",
    "packed",
    "reqd_work_group_size",
    "vec_type_hint",
    "work_group_size_hint",
];

/// Attributes clc does not implement whose absence would change the
/// program, with what to use instead.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("address_space", "use the OpenCL address space qualifiers ('__global', '__local', ...)"),
    ("alias", "call the other function instead"),
    ("arm_sve_vector_bits", "use the OpenCL vector types"),
    ("cleanup", "call the cleanup function where the variable's scope ends"),
    ("ifunc", "call the implementation instead"),
    ("matrix_type", "use arrays or the OpenCL vector types"),
    ("mode", "use the OpenCL type of that size ('short', 'long', ...)"),
    ("neon_polyvector_type", "use the OpenCL vector types"),
    ("neon_vector_type", "use the OpenCL vector types"),
    ("opencl_constant", "use '__constant'"),
    ("opencl_generic", "use '__generic'"),
    ("opencl_global", "use '__global'"),
    ("opencl_global_device", "use '__global'"),
    ("opencl_global_host", "use '__global'"),
    ("opencl_local", "use '__local'"),
    ("opencl_private", "use '__private'"),
    ("riscv_rvv_vector_bits", "use the OpenCL vector types"),
    ("transparent_union", "pass the union's member explicitly"),
    ("vector_size", "use the OpenCL vector types or 'ext_vector_type'"),
    ("weakref", "name the referenced symbol directly"),
];

/// How clc treats the attribute named `name` (already without `__…__`);
/// `None`: clang does not know it either.
pub fn handling(name: &str) -> Option<Handling> {
    if CHECKED.contains(&name) {
        return Some(Handling::Checked);
    }
    if let Some((_, hint)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
        return Some(Handling::Unsupported(hint));
    }
    KNOWN.binary_search(&name).is_ok().then_some(Handling::Ignored)
}

/// Every attribute name clang-22 knows, for "did you mean".
pub fn known_names() -> impl Iterator<Item = &'static str> {
    KNOWN.iter().chain(CHECKED).chain(UNSUPPORTED.iter().map(|(n, _)| n)).copied()
}

/// Every GNU attribute name clang-22 knows (see the module comment),
/// sorted.
const KNOWN: &[&str] = &[
    "NSObject", "aarch64_sve_pcs", "aarch64_vector_pcs", "abi_tag", "acquire_capability",
    "acquire_handle", "acquire_shared_capability", "acquired_after", "acquired_before",
    "address_space", "alias", "align_value", "aligned", "alloc_align", "alloc_size", "allocating",
    "always_destroy", "always_inline", "amdgpu_flat_work_group_size", "amdgpu_kernel",
    "amdgpu_max_num_work_groups", "amdgpu_num_sgpr", "amdgpu_num_vgpr", "amdgpu_waves_per_eu",
    "analyzer_noreturn", "annotate", "argument_with_type_tag", "arm_sve_vector_bits", "artificial",
    "assert_capability", "assert_exclusive_lock", "assert_shared_capability", "assert_shared_lock",
    "assume", "assume_aligned", "atomic", "availability", "available_only_in_default_eval_method",
    "blocking", "blocks", "btf_decl_tag", "btf_type_tag", "callable_when", "callback",
    "called_once", "capability", "carries_dependency", "cdecl", "cf_audited_transfer",
    "cf_consumed", "cf_returns_not_retained", "cf_returns_retained", "cf_unknown_transfer",
    "cfi_canonical_jump_table", "cfi_salt", "cfi_unchecked_callee",
    "clang_arm_mve_strict_polymorphism", "clang_builtin_alias", "cleanup", "clspv_libclc_builtin",
    "cluster_dims", "cmse_nonsecure_call", "code_align", "cold", "common", "const", "constant",
    "constructor", "consumable", "consumable_auto_cast_state", "consumable_set_state_on_read",
    "convergent", "coro_await_elidable", "coro_await_elidable_argument",
    "coro_disable_lifetimebound", "coro_lifetimebound", "coro_only_destroy_when_complete",
    "coro_return_type", "coro_wrapper", "counted_by", "counted_by_or_null", "cpu_dispatch",
    "cpu_specific", "deprecated", "destructor", "device", "device_builtin_surface_type",
    "device_builtin_texture_type", "device_kernel", "diagnose_as_builtin", "diagnose_if",
    "disable_sanitizer_instrumentation", "disable_tail_calls", "enable_if",
    "enforce_read_only_placement", "enforce_tcb", "enforce_tcb_leaf", "enum_extensibility", "error",
    "exclude_from_explicit_instantiation", "exclusive_lock_function", "exclusive_locks_required",
    "exclusive_trylock_function", "ext_vector_type", "external_source_symbol", "fallthrough",
    "fastcall", "flag_enum", "flatten", "force_align_arg_pointer", "format", "format_arg",
    "format_matches", "function_return", "gcc_struct", "global", "gnu_inline", "grid_constant",
    "guarded_by", "guarded_var", "host", "hot", "ibaction", "iboutlet", "iboutletcollection",
    "ifunc", "init_priority", "intel_ocl_bicc", "intel_reqd_sub_group_size", "internal_linkage",
    "interrupt", "launch_bounds", "leaf", "lifetime_capture_by", "lifetimebound",
    "loader_uninitialized", "lock_returned", "locks_excluded", "lto_visibility_public", "m68k_rtd",
    "malloc", "malloc_span", "managed", "matrix_type", "may_alias", "maybe_undef",
    "mig_server_routine", "min_vector_width", "minsize", "mode", "model", "modular_format",
    "ms_abi", "ms_struct", "musttail", "naked", "neon_polyvector_type", "neon_vector_type",
    "no_builtin", "no_caller_saved_registers", "no_cluster", "no_destroy", "no_instrument_function",
    "no_profile_instrument_function", "no_randomize_layout", "no_sanitize", "no_specializations",
    "no_speculative_load_hardening", "no_split_stack", "no_stack_protector",
    "no_thread_safety_analysis", "nocf_check", "nocommon", "noconvergent", "nodebug", "noderef",
    "noduplicate", "noescape", "noinline", "nomerge", "nonallocating", "nonblocking", "nonnull",
    "nonstring", "noreturn", "nosvm", "not_tail_called", "nothrow", "nouwtable", "ns_consumed",
    "ns_consumes_self", "ns_error_domain", "ns_returns_autoreleased", "ns_returns_not_retained",
    "ns_returns_retained", "nvptx_kernel", "objc_arc_weak_reference_unavailable", "objc_boxable",
    "objc_bridge", "objc_bridge_mutable", "objc_bridge_related", "objc_class_stub",
    "objc_designated_initializer", "objc_direct", "objc_direct_members", "objc_exception",
    "objc_externally_retained", "objc_gc", "objc_independent_class", "objc_method_family",
    "objc_non_runtime_protocol", "objc_nonlazy_class", "objc_ownership", "objc_precise_lifetime",
    "objc_protocol_requires_explicit_implementation", "objc_requires_property_definitions",
    "objc_requires_super", "objc_returns_inner_pointer", "objc_root_class", "objc_runtime_name",
    "objc_runtime_visible", "objc_subclassing_restricted", "opencl_constant", "opencl_generic",
    "opencl_global", "opencl_global_device", "opencl_global_host", "opencl_local", "opencl_private",
    "opencl_unroll_hint", "optnone", "os_consumed", "os_consumes_this", "os_returns_not_retained",
    "os_returns_retained", "os_returns_retained_on_non_zero", "os_returns_retained_on_zero",
    "overloadable", "ownership_holds", "ownership_returns", "ownership_takes", "packed",
    "param_typestate", "pascal", "pass_dynamic_object_size", "pass_object_size",
    "patchable_function_entry", "pcs", "pointer_with_type_tag", "preferred_name", "preferred_type",
    "preserve_all", "preserve_most", "preserve_none", "pt_guarded_by", "pt_guarded_var",
    "ptrauth_vtable_pointer", "pure", "randomize_layout", "reentrant_capability", "regcall",
    "regparm", "reinitializes", "release_capability", "release_generic_capability",
    "release_handle", "release_shared_capability", "reqd_work_group_size",
    "require_constant_initialization", "require_explicit_initialization", "requires_capability",
    "requires_shared_capability", "retain", "return_typestate", "returns_nonnull", "returns_twice",
    "riscv_rvv_vector_bits", "riscv_vector_cc", "riscv_vls_cc", "scoped_lockable", "section",
    "selectany", "sentinel", "set_typestate", "shared", "shared_capability", "shared_lock_function",
    "shared_locks_required", "shared_trylock_function", "sized_by", "sized_by_or_null",
    "speculative_load_hardening", "standalone_debug", "stdcall", "suppress", "swift_async",
    "swift_async_context", "swift_async_error", "swift_async_name", "swift_attr", "swift_bridge",
    "swift_bridged_typedef", "swift_context", "swift_error", "swift_error_result",
    "swift_indirect_result", "swift_name", "swift_newtype", "swift_objc_members", "swift_private",
    "swift_wrapper", "swiftasynccall", "swiftcall", "sycl_kernel", "sycl_special_class", "sysv_abi",
    "target", "target_clones", "test_typestate", "thiscall", "tls_model", "transparent_union",
    "trivial_abi", "try_acquire_capability", "try_acquire_shared_capability",
    "type_tag_for_datatype", "type_visibility", "unavailable", "uninitialized", "unlock_function",
    "unsafe_buffer_usage", "unused", "use_handle", "used", "using_if_exists", "vec_type_hint",
    "vecreturn", "vector_size", "vectorcall", "visibility", "warn_unused", "warn_unused_result",
    "warning", "weak", "weak_import", "weakref", "work_group_size_hint", "xray_always_instrument",
    "xray_log_args", "xray_never_instrument", "zero_call_used_regs",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_list_is_sorted_and_holds_every_checked_and_unsupported_name() {
        assert!(KNOWN.windows(2).all(|w| w[0] < w[1]));
        for n in CHECKED.iter().chain(UNSUPPORTED.iter().map(|(n, _)| n)) {
            assert!(KNOWN.contains(n), "{n}");
        }
    }

    #[test]
    fn names_are_classified() {
        assert_eq!(handling("aligned"), Some(Handling::Checked));
        assert_eq!(handling("noinline"), Some(Handling::Ignored));
        assert_eq!(handling("nosvm"), Some(Handling::Ignored));
        assert!(matches!(handling("mode"), Some(Handling::Unsupported(_))));
        assert_eq!(handling("max_constant_size"), None);
        assert_eq!(handling("endian"), None);
    }
}
