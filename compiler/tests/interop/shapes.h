// The record shapes of `def.cl` and `caller.cl`, with the classes clang
// gives them on x86-64.
typedef struct { float x, y; } F2;                          // <2 x float>
typedef struct { float a; int b; } FI;                      // i64
typedef struct { float a, b, c; } F3;                       // <2 x float>, float
typedef struct { double d; int i; } DI;                     // double, i32
typedef struct { long a, b, c; } B24;                       // memory
typedef struct __attribute__((packed)) { char c; int i; } Pk; // memory (misaligned)
typedef union { float f; int i; } U;                        // i32
typedef struct { char c[5]; } AC;                           // i40
typedef struct { float4 v; } V4;                            // <4 x float>
typedef struct { float2 v; float x; } V2F;                  // double, float
typedef struct { char a, b, c; } C3;                        // i24
