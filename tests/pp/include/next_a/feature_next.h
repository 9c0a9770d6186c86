#if __has_include_next(<feature_next.h>)
next_header_found_after_a
#endif
#if __has_include_next("only_in_a.h")
#else
only_in_a_not_after_a
#endif
