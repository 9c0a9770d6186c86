// Exercises: #if/#elif/#else with arithmetic, defined, !defined, nested conditionals, #undef, #ifdef/#ifndef.
#define LEVEL 3
#define FEATURE_A
#undef FEATURE_B

#if LEVEL * 2 + 1 == 7 && defined(FEATURE_A)
#define RESULT 1
#elif LEVEL > 5 || defined FEATURE_B
#define RESULT 2
#else
#define RESULT 3
#endif

#if (1 << 4) != 16
#error "shift arithmetic broken"
#endif

#if -1 < 0u
#error "unsigned comparison in #if must promote -1"
#endif

#if !defined(FEATURE_B) && (LEVEL % 2) && (0x10 / 4 == 4) && ('A' == 65)
#define EXTRA 10
#else
#define EXTRA 0
#endif

#ifdef FEATURE_A
#  ifndef FEATURE_B
#    define BOTH 0
#  else
#    define BOTH 1
#  endif
#endif

#if UNDEFINED_MACRO_IS_ZERO
#error "undefined identifiers evaluate to 0"
#endif

#if LEVEL == 3 ? 1 : 0
#define TERNARY_OK 1
#endif

__kernel void pp_cond(__global int *out)
{
    out[get_global_id(0)] = RESULT + EXTRA + BOTH + TERNARY_OK;
}
