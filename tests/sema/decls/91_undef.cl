// RUN: -Wundef — clang's (off by default): an identifier that is no macro, read as 0 in #if or #elif
// where its value counts (not after '0 &&', '1 ||', nor under 'defined'). Same as clang-22.
#if FOO
#endif
#if 0 && BAR
#endif
#if 1 || BAZ
#endif
#if defined(Q) && Q
#endif
#if (QQ)
#endif
#ifdef X
#elif Y
#endif
int x;
