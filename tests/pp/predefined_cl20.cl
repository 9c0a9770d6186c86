// Predefined macros for the default dialect and target.
__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0
__ENDIAN_LITTLE__ __IMAGE_SUPPORT__ FP_FAST_FMA FP_FAST_FMAF __STDC__ __STDC_VERSION__
__kernel_exec(64, float4) void k(void) {}
kernel_exec(1, int) void k2(void) {}
#if defined(cl_khr_fp64) && defined(cl_khr_fp16) && defined(cl_khr_subgroups) && defined(cl_khr_int64_base_atomics)
extensions
#endif
#if defined(__opencl_c_generic_address_space) && defined(__opencl_c_pipes) && defined(__opencl_c_device_enqueue) && defined(__opencl_c_int64)
feature_macros_of_2_0_as_clang_defines_them
#endif
#if defined(__opencl_c_subgroups) || defined(__opencl_c_fp64) || defined(__opencl_c_3d_image_writes)
features_of_3_0_only
#endif
#ifdef __SPIR__
not_spirv
#endif
#if __x86_64__
host_x86_64
#endif
// The C types and limits, 64-bit pointers.
__SIZE_TYPE__ | __PTRDIFF_TYPE__ | __INTPTR_TYPE__ | __UINTPTR_TYPE__ | __SIZE_MAX__ | __SIZEOF_POINTER__ | __LP64__
__INT8_TYPE__ | __UINT64_TYPE__ | __INT_MAX__ | __LONG_MAX__ | __CHAR_BIT__ | __FLT_MAX__ | __DBL_EPSILON__
__BYTE_ORDER__ | __ATOMIC_SEQ_CST | __OPENCL_MEMORY_SCOPE_DEVICE | __FINITE_MATH_ONLY__
#if defined(__FAST_RELAXED_MATH__) || defined(__FAST_MATH__)
not_fast_relaxed_math
#endif
