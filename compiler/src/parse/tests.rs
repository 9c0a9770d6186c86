//! Parser tests: unit checks of the tricky cases, and snapshots of
//! `tests/parse/*.cl` (dump followed by rendered diagnostics).

use super::*;
use crate::diag::render::{Format, render};
use crate::lex::lex;
use crate::pp::{Pragma, PragmaKind};

/// Lexes `src` directly (no preprocessor) into a `PpOutput`. Lines of the
/// form `#pragma unroll [N]` / `#pragma nounroll` become pragmas anchored
/// at the next token, and are blanked out before lexing; the pragmas and
/// `N`'s tokens point into a copy of `src` as written.
fn pp_output(sm: &mut SourceMap, src: &str) -> (PpOutput, crate::source::FileId) {
    let mut text = String::with_capacity(src.len());
    // (byte offset, len, nounroll, count, the count's offset)
    let mut pending: Vec<(usize, usize, bool, &str, usize)> = Vec::new();
    let mut off = 0;
    for line in src.split_inclusive('\n') {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("#pragma") {
            let rest = rest.trim();
            let at = off + line.len() - line.trim_start().len();
            if rest == "nounroll" {
                pending.push((at, t.len(), true, "", 0));
            } else if let Some(n) = rest.strip_prefix("unroll") {
                let n = n.trim();
                pending.push((at, t.len(), false, n, off + line.find(n).unwrap_or(0)));
            }
            text.push_str(&" ".repeat(line.trim_end_matches('\n').len()));
            if line.ends_with('\n') {
                text.push('\n');
            }
        } else {
            text.push_str(line);
        }
        off += line.len();
    }
    let written = sm.add_virtual("input.cl", src.to_string());
    let file = sm.add_virtual("input.cl", text.clone());
    let tokens = lex(file, &text);
    let mut pragma_tokens = Vec::new();
    let mut pragmas = Vec::new();
    for (o, len, nounroll, count, at) in pending {
        let start = pragma_tokens.len();
        if !count.is_empty() {
            crate::lex::lex_into(written, count, at, &mut pragma_tokens);
        }
        let span = Span::new(written, o, o + len);
        pragmas.push(Pragma {
            at: tokens.partition_point(|t| (t.span.lo as usize) < o),
            span,
            kind: PragmaKind::Unroll { nounroll, count: start..pragma_tokens.len(), name: span },
        });
    }
    (PpOutput { tokens, pragmas, pragma_tokens, ..Default::default() }, file)
}

fn run(src: &str, std: ClStd) -> (String, Vec<String>) {
    let mut sm = SourceMap::new();
    let (pp, _) = pp_output(&mut sm, src);
    let mut diags = Diagnostics::default();
    let tu = parse(&sm, &pp, std, &mut diags);
    let out = dump(&sm, &tu);
    let ds = diags.iter().map(|d| render(&sm, d, Format::Clang)).collect();
    (out, ds)
}

/// Dump plus diagnostics, as the snapshots show them.
fn check(src: &str) -> String {
    let (mut out, ds) = run(src, ClStd::Cl20);
    if !ds.is_empty() {
        out.push_str("\n--- diagnostics ---\n");
        for d in ds {
            out.push_str(&d);
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

fn errors(src: &str) -> Vec<String> {
    run(src, ClStd::Cl20).1
}

fn ok(src: &str) -> String {
    let (out, ds) = run(src, ClStd::Cl20);
    assert!(ds.is_empty(), "unexpected diagnostics for {src}:\n{}", ds.join("\n"));
    out
}

#[test]
fn snapshots() {
    insta::glob!("../../../tests/parse", "*.cl", |path| {
        let src = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&src));
    });
}

#[test]
fn typedef_shadowed_in_inner_scope() {
    let out = ok("typedef int T; void f() { float T = 1; T += 2; } T x;");
    assert!(out.contains("Decl `T` 1:33 float"), "{out}");
    assert!(out.contains("Assign +="), "{out}");
    assert!(out.contains("Decl `x` 1:52 T"), "{out}");
}

#[test]
fn typedef_star_is_declaration_or_multiplication() {
    let out = ok("typedef int T; void f() { T * x; }");
    assert!(out.contains("Decl `x` 1:31 T *"), "{out}");
    let out = ok("int T, x; void f() { T * x; }");
    assert!(out.contains("Binary *"), "{out}");
}

#[test]
fn block_scoped_typedef_ends_at_brace() {
    let out = ok("void f() { { typedef float U; U a; } int U = 3; U * 2; }");
    assert!(out.contains("Decl `a` 1:33 U"), "{out}");
    assert!(out.contains("Binary *"), "{out}");
    // After the block, `U * x;` is a multiplication again.
    let out = ok("void f() { { typedef float U; U a; } int x; U * x; }");
    assert!(out.contains("Binary *"), "{out}");
}

#[test]
fn unknown_type_names_start_declarations() {
    // Two names in a row, or a qualifier then a name then `*`, or a
    // file-scope parameter `name *`: the first name is a type nobody
    // declared (sema says so), and the rest parses as a declaration.
    let out = ok("void f(foo *p, bar q); const baz *r; void g() { unit n = 0, m = n; __local qux *l; }");
    for d in ["Param `p` 1:8 foo *", "Param `q` 1:16 bar", "Decl `r` 1:35 const baz *", "Decl `m` 1:61 unit", "Decl `l` 1:81 __local qux *"] {
        assert!(out.contains(d), "{d} in {out}");
    }
    // Names times names stay products wherever an expression can be.
    let out = ok("enum { A = 2 }; int x = (A * 3); __attribute__((aligned(A * 8))) int y; void h(int b) { b * b; g(b * b); }");
    assert_eq!(out.matches("Binary *").count(), 4, "{out}");
}

#[test]
fn parameters_shadow_typedefs() {
    let out = ok("typedef int T; void f(float T) { T = 1; } T y;");
    assert!(out.contains("Param `T` 1:23 float"), "{out}");
    assert!(out.contains("Assign ="), "{out}");
    assert!(out.contains("Decl `y`"), "{out}");
    // A prototype's parameter does not leak.
    ok("typedef int T; void g(float T); T z;");
}

#[test]
fn for_scope_shadowing_ends_with_loop() {
    let out = ok("typedef int T; void f() { for (int T = 0; T < 3; T++) { T += 1; } T y; }");
    assert!(out.contains("Decl `y`"), "{out}");
}

#[test]
fn typedef_name_as_member_and_tag() {
    ok("typedef int T; struct S { T T; int U; }; typedef struct S S; void f(S s) { s.T = 1; struct S t; }");
}

#[test]
fn generic_and_pipe_are_identifiers_before_cl20() {
    let (out, ds) = run("void f() { int generic = 1; int pipe = generic; }", ClStd::Cl12);
    assert!(ds.is_empty(), "{ds:?}");
    assert!(out.contains("Decl `generic`"), "{out}");
    let (_, ds) = run("void f() { int generic = 1; }", ClStd::Cl20);
    assert!(!ds.is_empty());
    let (out, ds) = run("void f(__generic int *p) {}", ClStd::Cl12);
    assert!(ds.is_empty() && out.contains("__generic int *"), "{out}{ds:?}");
}

#[test]
fn vector_literal_vs_cast() {
    let out = ok("void f() { float4 v = (float4)(a, b.xy, 1.0f); float s = (float)(x); int c = (int)(a, b); }");
    assert!(out.contains("VectorLiteral float4"), "{out}");
    assert!(out.contains("Cast float"), "{out}");
    assert!(out.contains("VectorLiteral int"), "{out}");
}

#[test]
fn three_errors_reported() {
    let ds = errors("void f() {\n  int a = 1\n  a = (2;\n  b = * ;\n  return;\n}\nint ok;\n");
    assert_eq!(ds.len(), 3, "{ds:#?}");
}

#[test]
fn missing_semicolon_points_after_previous_token() {
    let ds = errors("void f() {\n  x = 1\n  y = 2;\n}\n");
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert!(ds[0].starts_with("input.cl:2:8: error: expected ';' after expression"), "{}", ds[0]);
}

#[test]
fn deep_nesting_is_refused() {
    let src = format!("int x = {}1{};", "(".repeat(10_000), ")".repeat(10_000));
    let ds = errors(&src);
    assert_eq!(ds.len(), 1);
    assert!(ds[0].contains("nesting too deep"), "{}", ds[0]);
    let src = format!("void f() {}{}", "{".repeat(10_000), "}".repeat(10_000));
    assert!(errors(&src)[0].contains("nesting too deep"));
}

#[test]
fn long_operator_chains_drop_and_dump() {
    let n = 100_000;
    let src = format!("int x = {}1;\nint y = {}1;", "1 + ".repeat(n), "-".repeat(n));
    let (out, ds) = run(&src, ClStd::Cl20);
    assert!(ds.is_empty());
    assert!(out.contains("nested too deep to dump"));
}

#[test]
fn deep_statement_nesting_drops() {
    let n = 50_000;
    let src = format!("void f() {{ {} x; }}", "if (a) ".repeat(n));
    let (_, ds) = run(&src, ClStd::Cl20);
    assert!(ds.is_empty(), "{ds:?}");
}

#[test]
fn bad_literal_is_reported() {
    let ds = errors("int x = 12abc;");
    assert_eq!(ds.len(), 1);
    assert!(ds[0].contains("invalid suffix"), "{}", ds[0]);
}

