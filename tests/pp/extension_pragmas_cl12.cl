// pp-options: -cl-std=CL1.2
// `#pragma OPENCL EXTENSION` names: clang-22's warnings (-Wignored-pragmas)
// for names it does not take; the pragma is recorded all the same.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION all : disable
#pragma OPENCL EXTENSION all : enable
#pragma OPENCL EXTENSION made_up_extension : enable
#pragma OPENCL EXTENSION cl_khr_icd : disable
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable
