#if __has_include_next("plain.h")
found_relative_so_searched_from_the_start
#endif
