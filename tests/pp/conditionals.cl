// Conditional groups: nesting, skipping, elif chains, defined.
#define ONE 1
#if ONE
yes1
#else
no1
#endif
#ifdef ONE
yes2
#endif
#ifndef ONE
no2
#elif defined ONE && defined(ONE)
yes3
#else
no3
#endif
#if 0
#error not reached
#foo invalid directives are not checked in skipped groups
#if garbage ((
#else
#endif
'unterminated in skipped code
#elif 1
yes4
#elif 1/0
no4
#else
no5
#endif
#if 0
#elif 0
#else
yes5
#endif
#if defined(UNDEFINED) || !defined ONE
no6
#endif
#define CHECK(x) defined(x)
#if CHECK(ONE)
yes6
#endif
#ifdef
#endif
#ifdef 3
#endif
#ifdef ONE junk
#endif
#if
#endif
#if defined(ONE
#endif
#if defined
#endif
