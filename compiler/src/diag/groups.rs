//! Warning groups, and the warnings off by default, as clang-22 has them
//! (its `DiagnosticGroups.td`), for the warnings clc reports: so
//! `-Wno-parentheses`, `-Wall`, `-Wextra` or `-Werror=unused` mean in a
//! clc command line what they mean in a clang one.

/// `(group, members)`; a member may itself be a group. `everything` holds
/// every warning and is not listed.
#[rustfmt::skip]
#[path = "clang_warnings.rs"]
mod clang_warnings;

const GROUPS: &[(&str, &[&str])] = &[
    ("all", &["most", "parentheses", "switch"]),
    ("most", &["unused", "uninitialized", "missing-braces", "return-type", "string-plus-int", "tautological-compare", "format", "unknown-pragmas", "comment", "int-in-bool-context"]),
    ("extra", &["sign-compare", "unused-parameter", "unused-but-set-parameter", "empty-init-stmt", "missing-field-initializers", "unterminated-string-initialization"]),
    ("unused", &["unused-value", "unused-variable", "unused-but-set-variable", "unused-function", "unused-label"]),
    ("unused-value", &["unused-comparison", "unused-result"]),
    (
        "parentheses",
        &["logical-op-parentheses", "logical-not-parentheses", "bitwise-conditional-parentheses", "bitwise-op-parentheses", "shift-op-parentheses", "parentheses-equality", "dangling-else"],
    ),
    ("tautological-compare", &["tautological-constant-compare", "tautological-pointer-compare", "tautological-overlap-compare", "tautological-bitwise-compare", "tautological-negation-compare"]),
    ("tautological-constant-compare", &["tautological-constant-out-of-range-compare"]),
    ("conversion", &["constant-conversion", "literal-conversion", "implicit-float-conversion", "sign-conversion", "float-conversion", "int-conversion", "shorten-64-to-32", "implicit-int-conversion"]),
    ("implicit-float-conversion", &["implicit-int-float-conversion"]),
    ("implicit-int-float-conversion", &["implicit-const-int-float-conversion"]),
    ("format", &["format-extra-args", "format-insufficient-args", "format-invalid-specifier"]),
    ("sequence-point", &["unsequenced"]),
    // A warning of its own too ("is uninitialized when used here").
    ("uninitialized", &["sometimes-uninitialized"]),
    ("incompatible-pointer-types", &["incompatible-pointer-types-discards-qualifiers"]),
    ("attributes", &["unknown-attributes", "ignored-attributes"]),
    ("pragmas", &["unknown-pragmas", "ignored-pragmas"]),
    ("pointer-to-int-cast", &["void-pointer-to-int-cast"]),
    ("shadow-all", &["shadow"]),
];

/// Warnings clang reports only when asked (by name or through a group
/// such as `-Wall` or `-Wextra`).
const OFF_BY_DEFAULT: &[&str] = &[
    "unused-variable",
    "unused-but-set-variable",
    "unused-parameter",
    "unused-but-set-parameter",
    "sign-compare",
    "missing-field-initializers",
    "unterminated-string-initialization",
    "bitwise-op-parentheses",
    "logical-op-parentheses",
    "uninitialized",
    "sometimes-uninitialized",
    "conditional-uninitialized",
    "missing-braces",
    "comment",
    "int-in-bool-context",
    // clang finds these while building a function's control-flow graph,
    // which it does for -Wall's analyses only.
    "tautological-bitwise-compare",
    "tautological-negation-compare",
    "shadow",
    "missing-prototypes",
    "undef",
    "implicit-fallthrough",
    "cast-qual",
    "double-promotion",
    "float-conversion",
    "implicit-float-conversion",
    "date-time",
    "shorten-64-to-32",
    "implicit-int-conversion",
    "sign-conversion",
    "implicit-int-float-conversion",
];

/// Warnings clc reports that clang-22 has no option for: the memory
/// model's (`sema::memory_model`), the parser's missing `;` after a
/// member, and warnings clang gives without an option (an empty GNU case
/// range, `#pragma pack(show)`'s value; in `#if`, an operation that
/// overflows 128 bits and a negative value converted to unsigned).
const CLC_ONLY: &[&str] = &["fence-relaxed", "atomic-scope-reduced", "missing-semicolon", "empty-case-range", "pragma-pack-show", "pp-integer-overflow", "pp-negative-to-unsigned"];

/// Is `-W<name>` (or `-Wno-<name>`, `-Werror=<name>`) an option clc or
/// clang-22 knows? clc accepts every option of clang's, so a clang
/// command line keeps working, and warns about the rest, as clang does.
pub fn is_known(name: &str) -> bool {
    clang_warnings::NAMES.binary_search(&name).is_ok()
        || CLC_ONLY.contains(&name)
        || GROUPS.iter().any(|(g, _)| *g == name)
        || driver_option(name)
}

/// Is `-W<name>` a warning or a group of them, as `__has_warning("-W<name>")`
/// asks? clang-22 says yes for its groups (every name [`is_known`] takes
/// from it but `error`, `everything` and the `no-…` spellings, which are
/// options, not groups) and for GCC's levels it keeps as groups; clc adds
/// its own warnings.
pub fn is_warning(name: &str) -> bool {
    const GCC_LEVELS: &[&str] = &[
        "format=2", "frame-larger-than", "frame-larger-than=", "strict-aliasing=0", "strict-aliasing=1", "strict-aliasing=2",
        "strict-overflow=0", "strict-overflow=1", "strict-overflow=2", "strict-overflow=3", "strict-overflow=4", "strict-overflow=5",
    ];
    let option = matches!(name, "error" | "everything") || name.starts_with("no-");
    (!option && (clang_warnings::NAMES.binary_search(&name).is_ok() || CLC_ONLY.contains(&name) || GROUPS.iter().any(|(g, _)| *g == name))) || GCC_LEVELS.contains(&name)
}

/// clang's driver options spelt `-W…` that are not warning names: sizes
/// (`-Wframe-larger-than=N`, `-Wlarger-than=N`, `-Wlarger-than-N`), GCC's
/// levels (`-Wformat=2`, `-Wstrict-overflow=N`), and options for other
/// tools (`-Wl,…`, `-Wa,…`, `-Wp,…`).
fn driver_option(name: &str) -> bool {
    ["frame-larger-than=", "larger-than=", "larger-than-", "format=", "strict-overflow=", "l,", "a,", "p,"].iter().any(|p| name.starts_with(p))
}

/// The option clang-22 suggests for the unknown `name`: the known name
/// fewest edits away (insertions, deletions, substitutions), if no other
/// is as near and it is at most `name`'s length away
/// (`DiagnosticIDs::getNearestOption`). GCC's options clang ignores are
/// never suggested.
pub fn nearest(name: &str) -> Option<&'static str> {
    let candidates = clang_warnings::NAMES.iter().filter(|n| clang_warnings::NOT_SUGGESTED.binary_search(n).is_err()).chain(CLC_ONLY);
    let mut best: Option<&'static str> = None;
    let mut best_distance = name.chars().count() + 1;
    for cand in candidates {
        if cand.chars().count().abs_diff(name.chars().count()) > best_distance {
            continue;
        }
        let d = clc_builtins::suggest::levenshtein(name, cand);
        if d < best_distance {
            best = Some(cand);
            best_distance = d;
        } else if d == best_distance {
            best = None;
        }
    }
    best
}

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
    fn has_warning_knows_groups_not_options() {
        for yes in ["unused", "all", "extra", "format=2", "strict-overflow=5", "frame-larger-than", "fence-relaxed", "#warnings", "implicitly-unsigned-literal"] {
            assert!(is_warning(yes), "{yes}");
        }
        for no in ["error", "everything", "no-unused", "no-error", "l,foo", "larger-than=10", "format=3", "frame-larger-than=100", "no-such-warning", ""] {
            assert!(!is_warning(no), "{no}");
        }
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
        // These are warnings of their own as well as groups (clang's).
        for w in OFF_BY_DEFAULT.iter().filter(|w| !matches!(**w, "uninitialized" | "implicit-float-conversion" | "implicit-int-float-conversion")) {
            assert!(members(w).is_empty(), "{w}");
            assert!(!on_by_default(w));
        }
        assert!(on_by_default("unused-value"));
        // A group off by default whose member is on.
        assert!(!on_by_default("implicit-int-float-conversion") && on_by_default("implicit-const-int-float-conversion"));
    }

    #[test]
    fn clang_options_are_known_and_misspelt_ones_get_clangs_suggestion() {
        // What clang-22 answers for each (`clang-22 -fsyntax-only -W<name>`).
        for known in ["all", "extra", "everything", "unused-variable", "#warnings", "CL4", "shadow", "frame-larger-than=100", "format=2", "fence-relaxed"] {
            assert!(is_known(known), "{known}");
        }
        for (unknown, suggestion) in [
            ("unused-varable", Some("unused-variable")),
            ("foo", None),
            ("ed=", Some("odr")),
            ("#pragma", Some("pragmas")),
            ("#line", Some("main")),
            ("endif", Some("undef")),
            ("fr0", Some("arc")),
            ("stack-usage=10", None),
            ("unused-result=3", Some("unused-result")),
            ("normalized=nfc", Some("format-pedantic")),
            ("sign-compar", Some("sign-compare")),
            // GCC's options clang ignores are never suggested.
            ("redundant-declsq", None),
            ("fence-relaxd", Some("fence-relaxed")),
        ] {
            assert!(!is_known(unknown), "{unknown}");
            assert_eq!(nearest(unknown), suggestion, "{unknown}");
        }
    }

    #[test]
    fn every_warning_clc_reports_has_a_known_name() {
        // The names in `Diagnostic::warning("name", …)` and in the
        // constants such calls use, over the compiler's sources.
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut names = Vec::new();
        let mut dirs = vec![src];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    // Code, not comments; a call's name may be on the next line.
                    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
                    for (i, _) in code.match_indices("warning(") {
                        if let Some(r) = code[i + 8..].trim_start().strip_prefix('"') {
                            names.push(r[..r.find('"').unwrap()].to_string());
                        }
                    }
                    for line in code.lines().filter(|l| l.contains("const W_")) {
                        names.extend(line.split('"').nth(1).map(str::to_string));
                    }
                }
            }
        }
        assert!(names.len() > 40, "{names:?}");
        // Names only (this test's own `"warning("` is none); the unit
        // tests' warnings are named "w", "a", …
        let name = |n: &&String| n.len() > 1 && n.chars().all(|c| c.is_ascii_alphanumeric() || "#+-".contains(c));
        for n in names.iter().filter(name) {
            assert!(is_known(n), "-W{n}");
        }
    }
}
