// #line and GNU line markers (`# N "file" flags`) as clang-22 reads them:
// __LINE__, __FILE__, diagnostics' places with their "In file included
// from" lines, and -E's markers with flags 1 (enter) and 2 (leave).
#define L 40
#line L "macro.cl"
at = __LINE__ __FILE__;
# 10 "entered.h" 1
in_header = __LINE__ __FILE__;
#warning in entered
# 20 "deeper.h" 1
#warning deeper
# 12 "entered.h" 2
#warning back
# 5 "main.cl" 2
#warning main again
# 6 "main.cl" 2
# 7 "main.cl" 5
# 8 "main.cl" 3 1
#line 9 "main.cl" 1
#line 0x20
# 3 "sys.h" 1 3 4
#if 1 2
#endif
#if 1
#endif dropped in a system header
# 11 "main.cl" 2
#if 1 2
#endif kept
#line 2147483648
#line 4294967296
end = __LINE__;
