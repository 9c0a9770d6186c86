// pp-options: -cl-std=CL1.2 --target=spirv32 -DFOO -DBAR=2 -DF(a)=(a+1) -UBAR -DBAZ=
__OPENCL_VERSION__ __OPENCL_C_VERSION__ __SPIR__ __SPIR32__
FOO BAR F(3) [BAZ]
#ifdef cl_khr_subgroups
no_subgroups_in_1_2
#endif
