// #if arithmetic is 128-bit, as clang-22's for OpenCL (__INTMAX_WIDTH__
// is 128): the expected output and diagnostics are clang-22's
// (-x cl -cl-std=CL2.0 -E), but for the warnings' -W names, which clang
// does not give.
#if 18446744073709551616
beyond_64_bits
#endif
#if 0x7fffffffffffffff + 1 < 0
#else
no_wrap_at_64_bits
#endif
#if 18446744073709551615 == -1
#else
u64_max_is_not_minus_one
#endif
#if 170141183460469231731687303715884105727 > 0
i128_max_is_signed
#endif
#if 170141183460469231731687303715884105728 > 0
decimal_beyond_i128_is_unsigned
#endif
#if 0x80000000000000000000000000000000 > 0
hex_beyond_i128_is_unsigned_silently
#endif
#if 0 && 170141183460469231731687303715884105728
#else
no_warning_where_not_evaluated
#endif
#if 340282366920938463463374607431768211455 == -1
all_ones
#endif
#if 340282366920938463463374607431768211456
#else
too_large_keeps_its_low_bits
#endif
#if 1 || 340282366920938463463374607431768211457
too_large_reported_even_unevaluated
#endif
#if 0xffffffffffffffffUL == 18446744073709551615 && ULONG_MAX == 0xffffffffffffffff && UINT_MAX > 0
header_limits
#endif
#if -1 < 0u
#else
minus_one_becomes_unsigned
#endif
#if 0u + -1 > 0
right_side_converted
#endif
#if 0 && -1 < 0u
#endif
#if (1 ? -1 : 0u) > 0
conditional_type_without_warning
#endif
#if 0x7fffffffffffffffffffffffffffffff + 1 < 0
signed_overflow_wraps
#endif
#if -0x7fffffffffffffffffffffffffffffff - 2
#endif
#if 9223372036854775807 * 2 == 18446744073709551614
product_beyond_64_bits
#endif
#if (-0x7fffffffffffffffffffffffffffffff - 1) / -1 < 0
min_divided_by_minus_one
#endif
#if (-0x7fffffffffffffffffffffffffffffff - 1) % -1 == 0
min_remainder_minus_one
#endif
#if -(-0x7fffffffffffffffffffffffffffffff - 1) < 0
negated_min
#endif
#if 1 << 127 < 0
shift_into_the_sign_bit
#endif
#if 1u << 127 > 0 && (1 << 126) > 0
unsigned_shift_fits
#endif
#if 1 << 200
#endif
#if 1 << -1
#endif
#if (-1 >> 200) == -1
arithmetic_shift_saturates
#endif
#if (0u - 1) >> 127 == 1
logical_shift
#endif
#if 0 && (1 << 200)
#endif
#if 0 ? (0x7fffffffffffffffffffffffffffffff + 1) : 1
dead_branch_no_overflow
#endif
#if 1 , 2
comma_at_top_level_keeps_its_value
#endif
#if (1, 0)
#else
comma_in_parentheses
#endif
#if 1 )
#endif
#if 1 : 2
#endif
#if (1 : 2)
#endif
#if undefined_function(1)
#endif
#if 1 + (foo (2))
#endif
#if 1 ? 2
#endif
#if 1 ? 2 3
#endif
#if (1 3
#endif
#if 1 / 0 + 2
#endif
#if
#endif
#if 0
#elif
#endif
