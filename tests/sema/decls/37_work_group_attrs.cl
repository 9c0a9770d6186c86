// reqd_work_group_size and work_group_size_hint take three positive
// integer constants.
#define WG 16
kernel __attribute__((reqd_work_group_size(WG, WG / 4, 1))) void ok1(void) {}
kernel __attribute__((work_group_size_hint(64, 1, 1))) void ok2(void) {}

kernel __attribute__((reqd_work_group_size(8, 8))) void two_args(void) {}
kernel __attribute__((reqd_work_group_size(0, 1, 1))) void zero(void) {}
kernel __attribute__((work_group_size_hint(-4, 1, 1))) void negative(void) {}
kernel void runtime(int n) __attribute__((reqd_work_group_size(1, 1, 1)));
