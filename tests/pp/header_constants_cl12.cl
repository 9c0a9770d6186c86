// pp-options: -cl-std=CL1.2
// The constants of OpenCL C's headers are macros to the preprocessor, as
// clang's headers define them (clc reads no header; sema answers the
// names): `defined` and `#ifdef` see them in the dialects and with the
// extensions that have them, `#if` reads an integer one's value, and
// `#undef` removes one. Redefining one is `-Wmacro-redefined`.
#ifndef M_PI_F
pi_redefined_as_double
#endif
#if CLK_LOCAL_MEM_FENCE == 1 && CLK_GLOBAL_MEM_FENCE == 2 && defined(FLT_MAX)
fences_read_in_if
#endif
#if defined(M_PI) && defined(cl_khr_fp64)
double_constants_with_fp64
#endif
#ifdef CLK_IMAGE_MEM_FENCE
image_fence_in_1_2
#endif
#ifdef memory_order_relaxed
enumerators_are_not_macros
#endif
#undef MAXFLOAT
#ifndef MAXFLOAT
maxfloat_undefined
#endif
#define FLT_EPSILON 1e-6f
FLT_EPSILON M_PI_F
