// pp-options: -cl-std=CL3.0 --target=spirv64 -cl-fast-relaxed-math
__OPENCL_VERSION__ __OPENCL_C_VERSION__ __SPIR__ __SPIR64__ __SPIRV__ __SPIRV64__
#if defined(__opencl_c_generic_address_space) && defined(__opencl_c_fp64) && defined(__opencl_c_images) && defined(__opencl_c_subgroups)
features
#endif
#if defined(__opencl_c_device_enqueue) && defined(__opencl_c_pipes) && defined(__opencl_c_3d_image_writes)
device_enqueue_pipes_3d_image_writes
#endif
#if defined(__x86_64__) || defined(__SPIR32__)
not_this_target
#endif
__FAST_RELAXED_MATH__ __FAST_MATH__ __FINITE_MATH_ONLY__ __SIZE_TYPE__ __LP64__
