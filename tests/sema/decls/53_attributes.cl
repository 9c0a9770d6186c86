// GNU attributes as clang-22 treats them: one it does not know draws a
// warning (with clang's guess if misspelt) and is ignored with its arguments
// (early OpenCL drafts' max_constant_size names a macro nobody defines); one
// it knows and that changes nothing clc compiles is accepted; one that would
// change the program and that clc does not implement is an error; `__name__`
// is `name`. Parameters take attributes after their name and after `*`.
kernel void horizontal(const global float *input __attribute__((max_constant_size(MAX_CONST_SIZE))),
                       global float * __attribute__((endian(host))) output,
                       constant float *filter __attribute__((__nonnull__)),
                       int n __attribute__((unused)))
{
    output[0] = input[0] * filter[0] + n;
}

__attribute__((always_inline, __noinline__, const, visibility("default")))
int helper(int x) __attribute__((warn_unused_result));

int helper(int x) { return x; }

void tagged(void) __attribute__((__xcl_reqd_pipe_depth__(16)));

typedef int si __attribute__((mode(SI)));
typedef float gv __attribute__((vector_size(16)));
kernel void spaces(__attribute__((opencl_global)) int *p, int y __attribute__((cleanup(drop))))
{
    int v __attribute__((__aligned__(3))) = 0;
    p[0] = v + y;
}

// A misspelt name: clang's guess among the names it knows.
kernel __attribute__((reqd_work_group_sise(1, 1, 1))) void guessed(global int *p) { p[0] = 1; }
__attribute__((__alwys_inline__)) int guessed_too(int x) { return x; }

// An unknown attribute's arguments after the first identifier are
// expressions, checked; a type is not one.
kernel __attribute__((vec_type_hnit(float4), tile(TILE, 2 * 4))) void first_word(global int *p) { p[0] = 1; }
kernel __attribute__((tile(8, TILE))) void second_word(global int *p) { p[0] = 1; }
kernel __attribute__((vec_type_hnit(int))) void keyword(global int *p) { p[0] = 1; }
