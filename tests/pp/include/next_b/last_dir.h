#if __has_include_next(<last_dir.h>)
#else
nothing_after_the_last_directory
#endif
