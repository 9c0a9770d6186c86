// Exercises: #line, __FILE__, __LINE__, __OPENCL_C_VERSION__, CL_VERSION_2_0, __ENDIAN_LITTLE__.
#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < CL_VERSION_2_0
#error "this file needs OpenCL C 2.0"
#endif

#ifdef __ENDIAN_LITTLE__
#define ENDIAN 1
#else
#define ENDIAN 0
#endif

#if __OPENCL_C_VERSION__ != 200
#error "expected OpenCL C 2.0 (200)"
#endif

__kernel void predefined(__global int *out)
{
    out[0] = __LINE__;
#line 1000 "renamed.cl"
    out[1] = __LINE__;
    printf("%s:%d version %d endian %d\n", __FILE__, __LINE__, __OPENCL_C_VERSION__, ENDIAN);
#line 42
    out[2] = __LINE__ + CL_VERSION_2_0 + ENDIAN;
}
