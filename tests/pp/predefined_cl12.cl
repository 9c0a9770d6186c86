// pp-options: -cl-std=CL1.2 --target=spirv32 -DFOO -DBAR=2 -DF(a)=(a+1) -UBAR -DBAZ= -cl-finite-math-only
__OPENCL_VERSION__ __OPENCL_C_VERSION__ __SPIR__ __SPIR32__
FOO BAR F(3) [BAZ]
#ifdef cl_khr_subgroups
no_subgroups_in_1_2
#endif
#if defined(__opencl_c_generic_address_space) || defined(__opencl_c_pipes)
no_feature_macros_before_2_0
#endif
// 32-bit pointers; -cl-finite-math-only alone.
__opencl_c_int64 | __SIZE_TYPE__ | __PTRDIFF_TYPE__ | __INTPTR_TYPE__ | __UINTPTR_TYPE__ | __SIZE_MAX__ | __SIZEOF_POINTER__ | __POINTER_WIDTH__
#ifdef __LP64__
not_lp64
#endif
__FINITE_MATH_ONLY__
#ifdef __FAST_RELAXED_MATH__
not_fast_relaxed_math
#endif
