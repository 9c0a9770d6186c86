// The work-group attributes describe a kernel: on anything else they are
// errors (clang's "only applies to functions"). A zero size is reported
// once per attribute.
constant int a __attribute__((reqd_work_group_size(8, 16, 32))) = 0;
constant int b __attribute__((vec_type_hint(char))) = 0;
typedef int sized __attribute__((work_group_size_hint(1, 1, 1)));
kernel __attribute__((reqd_work_group_size(0, 0, 4))) void zeros(void) {}
kernel __attribute__((reqd_work_group_size(8, 8, 1), vec_type_hint(float4))) void fine(global int *p) { p[0] = a + b; }
void helper(void) __attribute__((work_group_size_hint(4, 1, 1)));
