// Pragmas the compiler cares about, _Pragma, and malformed ones.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
double d;
#pragma OPENCL EXTENSION all : disable
#pragma OPENCL FP_CONTRACT ON
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL FP_CONTRACT DEFAULT
#pragma OPENCL FP_CONTRACT MAYBE
#pragma OPENCL EXTENSION cl_khr_fp16 enable
#pragma OPENCL EXTENSION cl_khr_fp16 : on
#pragma OPENCL SOMETHING
#pragma unroll
for (;;) {}
#pragma unroll 4
#pragma unroll(8)
#pragma nounroll
#pragma unroll x
#pragma GCC diagnostic push
#pragma
_Pragma("OPENCL EXTENSION cl_khr_fp16 : enable") half h;
#define DO_PRAGMA(x) _Pragma(#x)
DO_PRAGMA(unroll 2) for (;;) {}
#define EXT(name) _Pragma("OPENCL EXTENSION " #name " : disable")
EXT(cl_khr_fp16)
_Pragma(1)
_Pragma
end
#pragma clc __debug crash
#pragma clc __debug llvm_fatal_error
#pragma clc __debug nope
#define N 4
#pragma unroll N
#pragma unroll (N * 2) 3
#pragma unroll (2
#pragma unroll ()
#pragma nounroll 1
