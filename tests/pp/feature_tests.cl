// pp-options: -Iinclude -Iinclude/next_a -Iinclude/next_b
// The feature-test macros, as clang-22 reads them (-x cl -cl-std=CL2.0 -E
// with the same -I): the same diagnostics, and the same output but for
// the lines named clc_…, where clc's answer differs from clang's on
// purpose (clc lacks what clang has, or reads the word otherwise).
#ifdef __has_include
ifdef_has_include
#endif
#if defined(__has_include) && defined __has_include_next && defined(__has_builtin) && defined(__has_attribute) && defined(__has_c_attribute) && defined(__has_feature) && defined(__has_extension) && defined(__has_warning) && defined(__is_identifier)
all_defined
#endif
#if __has_include("include/plain.h") && __has_include(<plain.h>) && !__has_include("no_such_file.h") && !__has_include(<include/plain.h>)
has_include_searches_as_include
#endif
#define QUOTED "include/plain.h"
#define ANGLED <sub/nested.h>
#define LPAREN (
#if __has_include(QUOTED) && __has_include(ANGLED) && __has_include LPAREN "include/plain.h")
has_include_expands_macros
#endif
#include <feature_next.h>
#include <last_dir.h>
#include "include/relative_next.h"
#if __has_include_next(<plain.h>)
next_in_main_file_searches_from_the_start
#endif
#if __has_builtin(__builtin_offsetof) && __has_builtin(sqrt) && __has_builtin(printf) && __has_builtin(to_global) && __has_builtin(read_pipe)
builtins_clc_has_like_clang
#endif
#if __has_builtin(get_global_id) || __has_builtin(vec_step) || __has_builtin(sizeof) || __has_builtin(__has_builtin) || __has_builtin(convert_int)
#else
not_clang_builtins
#endif
#if __has_builtin(__builtin_shufflevector) || __has_builtin(__builtin_astype) || __has_builtin(memcpy)
#else
clc_lacks_these
#endif
#define OFFSETOF __builtin_offsetof
#if __has_builtin(OFFSETOF)
#else
builtin_operand_not_expanded
#endif
#define ATTR reqd_work_group_size
#if __has_attribute(ATTR) && __has_attribute(__packed__) && __has_attribute(noinline) && !__has_attribute(no_such_attribute)
attributes_and_expanded_operand
#endif
#if __has_attribute(vector_size) || __has_attribute(mode)
#else
clc_rejects_these_attributes
#endif
#if __has_c_attribute(nodiscard) || __has_c_attribute(gnu::aligned) || __has_c_attribute(fallthrough)
#else
clc_has_no_c23_attributes
#endif
#if __has_feature(attribute_ext_vector_type) && __has_feature(__attribute_overloadable__) && __has_feature(blocks) && !__has_feature(c_static_assert) && __has_extension(c_static_assert)
features_and_extensions
#endif
#if __has_feature(address_sanitizer) || __has_extension(c_generic_selections) || __has_extension(cxx_binary_literals) || __has_feature(no_such_feature)
#else
features_clc_lacks
#endif
#if __has_warning("-Wunused") && __has_warning("-W" "all") && __has_warning("-Wformat=2") && !__has_warning("-Weverything") && !__has_warning("-Wno-unused") && !__has_warning("-Wnope")
warnings
#endif
#if __is_identifier(foo) && __is_identifier(main) && !__is_identifier(int) && !__is_identifier(kernel) && !__is_identifier(__func__) && !__is_identifier(1) && !__is_identifier(+)
identifiers
#endif
#if __is_identifier(_Generic) && !__is_identifier(uint)
clc_identifiers
#endif
in_text = __has_builtin(__builtin_offsetof) __has_feature(blocks) __is_identifier(int)
#define HB __has_builtin
via_macro = HB(sqrt)
__has_include("include/plain.h")
__has_include_next(<plain.h>)
#if __has_include
#endif
#if __has_include(
#endif
#if __has_include()
#endif
#if __has_include("include/plain.h"
#endif
#if __has_include "include/plain.h"
#endif
#if __has_include(plain.h)
#endif
#if __has_include(<plain.h)
#endif
#if __has_include("")
#endif
#if __has_include("include/plain.h" "x")
#endif
#if __has_builtin
#endif
#if __has_builtin(
#endif
#if __has_builtin()
#endif
#if __has_builtin(1)
#endif
#if __has_builtin(a b)
#endif
#if __has_builtin(a, b)
#endif
#if __has_builtin((__builtin_offsetof))
nested_parentheses_error_keeps_the_answer
#endif
#if __has_builtin(1 2)
#endif
#if __has_attribute("x")
#endif
#if __has_c_attribute(::x)
#endif
#if __has_c_attribute(clang::)
#endif
#if __has_c_attribute(x y)
#endif
#if __has_warning(-Wall)
#endif
#if __has_warning(L"-Wall")
#endif
#if __has_warning("Wall") || __has_warning("-W")
#endif
#if __has_warning("-Wall" 2)
#endif
#if __has_builtin LPAREN __builtin_offsetof)
#endif
text_missing_paren = __has_feature x
#undef __has_include
