// #if arithmetic in intmax_t / uintmax_t (128-bit: see if_expr_128.cl).
#if -1 < 0
signed_ok
#endif
#if -1 < 0u
bad
#else
unsigned_wins
#endif
#if 0xffffffffffffffff == -1
#else
not_all_ones_in_128_bits
#endif
#if 18446744073709551615 > 0
big_is_unsigned
#endif
#if (2 + 3 * 4) == 14 && (1 << 3) == 8 && (-8 >> 1) == -4 && (7 % 3) == 1 && (-7 / 2) == -3
precedence
#endif
#if (1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3 && (0, 5) == 5
ternary_comma
#endif
#if ((0 ? 1u : -1) > 0)
ternary_unsigned
#endif
#if 'a' == 97 && '\n' == 10 && '\377' < 0 && '\x41' == 65
chars
#endif
#if ~0 == -1 && !0 == 1 && -(-3) == 3 && +4 == 4 && (5 ^ 3) == 6 && (5 | 2) == 7 && (6 & 3) == 2
unary_bitwise
#endif
#if undefined_ident == 0 && kernel == 0 && true == 1 && false == 0
identifiers_are_zero
#endif
#if 0 && (1 / 0)
#else
short_circuit_and
#endif
#if 1 || (1 % 0)
short_circuit_or
#endif
#if 0 ? 1 / 0 : 2
ternary_unevaluated
#endif
#if 0x7fffffffffffffff + 1 < 0
#else
no_wrap_at_64_bits
#endif
#if 10 >= 10 && 3 <= 2 == 0 && 1 != 2
compare
#endif
#if 1 / 0
#endif
#if 1 % 0
#endif
#if 1.0
#endif
#if "str"
#endif
#if (1
#endif
#if 1 +
#endif
#if 1 2
#endif
#if 1 ? 2
#endif
#if )
#endif
#if 123abc
#endif
