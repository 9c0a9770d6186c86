// Predefined macros for the default dialect and target.
__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0
__ENDIAN_LITTLE__ __IMAGE_SUPPORT__ FP_FAST_FMA FP_FAST_FMAF __STDC__ __STDC_VERSION__
__kernel_exec(64, float4) void k(void) {}
kernel_exec(1, int) void k2(void) {}
#if defined(cl_khr_fp64) && defined(cl_khr_fp16) && defined(cl_khr_subgroups) && defined(cl_khr_int64_base_atomics)
extensions
#endif
#ifdef __opencl_c_generic_address_space
no_feature_macros_before_3_0
#endif
#ifdef __SPIR__
not_spirv
#endif
#if __x86_64__
host_x86_64
#endif
