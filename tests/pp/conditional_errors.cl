// Stray and unterminated conditionals.
#else
#elif 1
#endif
#if 1
#else
#else
#endif
#if 1
#elif
#endif
#if 0
#else junk
#endif
#ifdef X
#if 1
