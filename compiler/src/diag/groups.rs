//! Warning groups, and the warnings off by default, as clang-22 has them
//! (its `DiagnosticGroups.td`), for the warnings clc reports: so
//! `-Wno-parentheses`, `-Wall`, `-Wextra` or `-Werror=unused` mean in a
//! clc command line what they mean in a clang one.

/// `(group, members)`; a member may itself be a group. `everything` holds
/// every warning and is not listed.
const GROUPS: &[(&str, &[&str])] = &[
    ("all", &["most", "parentheses", "switch"]),
    ("most", &["unused", "uninitialized", "return-type", "string-plus-int", "tautological-compare", "format", "unknown-pragmas", "comment"]),
    ("extra", &["sign-compare", "unused-parameter", "unused-but-set-parameter", "empty-init-stmt"]),
    ("unused", &["unused-value", "unused-variable", "unused-but-set-variable", "unused-function", "unused-label"]),
    ("unused-value", &["unused-comparison", "unused-result"]),
    (
        "parentheses",
        &["logical-op-parentheses", "logical-not-parentheses", "bitwise-conditional-parentheses", "bitwise-op-parentheses", "shift-op-parentheses", "parentheses-equality", "dangling-else"],
    ),
    ("tautological-compare", &["tautological-constant-compare", "tautological-pointer-compare", "tautological-overlap-compare", "tautological-bitwise-compare"]),
    ("tautological-constant-compare", &["tautological-constant-out-of-range-compare"]),
    ("conversion", &["constant-conversion", "literal-conversion", "implicit-float-conversion", "sign-conversion", "float-conversion", "int-conversion"]),
    ("implicit-float-conversion", &["implicit-int-float-conversion"]),
    ("implicit-int-float-conversion", &["implicit-const-int-float-conversion"]),
    ("format", &["format-extra-args", "format-insufficient-args", "format-invalid-specifier"]),
    ("sequence-point", &["unsequenced"]),
    ("incompatible-pointer-types", &["incompatible-pointer-types-discards-qualifiers"]),
    ("attributes", &["unknown-attributes", "ignored-attributes"]),
    ("pragmas", &["unknown-pragmas", "ignored-pragmas"]),
];

/// Warnings clang reports only when asked (by name or through a group
/// such as `-Wall` or `-Wextra`).
const OFF_BY_DEFAULT: &[&str] = &[
    "unused-variable",
    "unused-but-set-variable",
    "unused-parameter",
    "unused-but-set-parameter",
    "sign-compare",
    "bitwise-op-parentheses",
    "logical-op-parentheses",
    "uninitialized",
    "comment",
];

/// Is `warning` in `group` (or is it `group`)?
pub fn contains(group: &str, warning: &str) -> bool {
    group == warning || group == "everything" || members(group).iter().any(|m| contains(m, warning))
}

fn members(group: &str) -> &'static [&'static str] {
    GROUPS.iter().find(|(g, _)| *g == group).map_or(&[], |(_, m)| m)
}

/// Is `warning` reported without being asked for?
pub fn on_by_default(warning: &str) -> bool {
    !OFF_BY_DEFAULT.contains(&warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_reach_their_members_transitively() {
        assert!(contains("parentheses", "shift-op-parentheses"));
        assert!(contains("all", "unused-comparison"));
        assert!(contains("all", "unused-variable"));
        assert!(contains("tautological-compare", "tautological-constant-out-of-range-compare"));
        assert!(contains("extra", "sign-compare"));
        assert!(!contains("all", "sign-compare"));
        assert!(!contains("unused", "parentheses"));
        assert!(contains("everything", "sign-compare"));
        assert!(contains("array-bounds", "array-bounds"));
    }

    #[test]
    fn groups_are_acyclic_and_off_by_default_names_are_warnings_not_groups() {
        fn depth(g: &str, n: usize) -> usize {
            assert!(n < 16, "cycle through {g}");
            members(g).iter().map(|m| depth(m, n + 1)).max().unwrap_or(n)
        }
        for (g, _) in GROUPS {
            depth(g, 0);
        }
        for w in OFF_BY_DEFAULT {
            assert!(members(w).is_empty(), "{w}");
            assert!(!on_by_default(w));
        }
        assert!(on_by_default("unused-value"));
    }
}
