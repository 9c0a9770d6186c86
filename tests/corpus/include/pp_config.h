// pp_config.h: configuration macros tested with #if arithmetic and defined().
#ifndef PP_CONFIG_H
#define PP_CONFIG_H
#define CONFIG_LEVEL 3
#define CONFIG_USE_FAST_MATH 1
#define CONFIG_VECTOR_WIDTH 4
#endif
