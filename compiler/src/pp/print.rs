//! `-E` output: tokens back to text, with `# line "file"` markers as
//! clang writes them, so compiler errors in the output map back.
//!
//! Lines follow each token's `span` (for expanded tokens, the macro
//! invocation); spacing follows `LEADING_SPACE`, plus a space where two
//! tokens would otherwise lex as one. Pragmas the preprocessor consumed
//! are written back as `#pragma` lines.

use super::{PpOutput, Pragma, PragmaKind, Switch};
use crate::lex::{self, Token};
use crate::source::{FileId, SourceMap, Span};
use std::fmt::Write;

/// More blank lines than this and a line marker is written instead.
const MAX_BLANK_LINES: u32 = 8;

/// The preprocessed text of `out`, with `-dD`'s `#define` and `#undef`
/// lines where they were if `out` has them.
pub fn print(sm: &SourceMap, out: &PpOutput) -> String {
    let mut p = Printer { sm, s: String::new(), file: None, line: 0, region: 0, chain: Vec::new(), at_line_start: true, prev: None, cache: (FileId(u32::MAX), 0) };
    let mut pragmas = out.pragmas.iter().enumerate().peekable();
    let mut defines = out.macro_lines.iter().peekable();
    for i in 0..=out.tokens.len() {
        // Pragmas and macro lines before token `i`, in source order.
        loop {
            let define_first = match (pragmas.peek(), defines.peek()) {
                (_, Some(d)) if d.at > i => false,
                (Some((k, pr)), Some(d)) => d.at < pr.at || (d.at == pr.at && d.pragmas_before <= *k),
                (None, Some(_)) => true,
                _ => false,
            };
            if define_first {
                if let Some(d) = defines.next() {
                    p.directive(d.span, &d.text);
                }
            } else if let Some((_, pr)) = pragmas.next_if(|(_, pr)| pr.at <= i) {
                p.pragma(pr, &out.pragma_tokens);
            } else {
                break;
            }
        }
        if let Some(tok) = out.tokens.get(i) {
            p.token(tok);
        }
    }
    if !p.s.ends_with('\n') {
        p.s.push('\n');
    }
    p.s
}

/// `-dM`'s output: the `#define` line of every macro `out` holds (see
/// [`super::MacroDump::Definitions`]).
pub fn print_macros(out: &PpOutput) -> String {
    out.macro_lines.iter().map(|m| format!("{}\n", m.text)).collect()
}

struct Printer<'a> {
    sm: &'a SourceMap,
    s: String,
    file: Option<FileId>,
    /// The real line of `file` the output is on.
    line: u32,
    /// Its region of `#line` directives (see [`crate::source::Presumed`]).
    region: u32,
    /// Where the presumed file the output is in was included from,
    /// outermost first: markers enter (flag `1`) and leave (flag `2`)
    /// includes as this changes.
    chain: Vec<Span>,
    at_line_start: bool,
    prev: Option<Token>,
    /// The file and 0-based line index of the last lookup: tokens mostly
    /// come in order, so the next one is usually on the same line or the
    /// one after, and a binary search per token would dominate.
    cache: (FileId, usize),
}

impl Printer<'_> {
    /// Moves the output to real line `line` of `at`'s file: newlines, or a
    /// line marker with the presumed file and line, as clang's: flag `1`
    /// entering an include (after moving to the place that included it),
    /// `2` back from one.
    fn goto(&mut self, at: Span, line: u32) {
        if self.file == Some(at.file) && line == self.line {
            return;
        }
        let p = self.sm.presumed(at);
        // The same region of the same file: the same presumed file and
        // includes (the usual case, a line or a few further on).
        if self.file == Some(at.file) && p.region == self.region && line >= self.line && line - self.line <= MAX_BLANK_LINES {
            for _ in self.line..line {
                self.s.push('\n');
                self.at_line_start = true;
            }
            self.line = line;
            return;
        }
        let chain = self.sm.include_chain(at);
        let common = self.chain.iter().zip(&chain).take_while(|(a, b)| a == b).count();
        // Leave the includes `at` is not in.
        while self.chain.len() > common {
            let Some(from) = self.chain.pop() else { break };
            if self.chain.len() == chain.len() {
                // Back in `at`'s file: at its line.
                self.marker(p.line, p.name, " 2", p.system);
                self.place(at.file, line, p.region);
                return;
            }
            let q = self.sm.presumed(from);
            self.marker(q.line + 1, q.name, " 2", q.system);
            self.place(from.file, self.sm.file(from.file).line_col(from.lo).0 + 1, q.region);
        }
        if let Some(&from) = chain.get(common..).and_then(|c| c.last()) {
            // Enter the include from its place in the includer.
            let from_line = self.sm.file(from.file).line_col(from.lo).0;
            self.goto(from, from_line);
            self.marker(p.line, p.name, " 1", p.system);
            self.chain = chain;
        } else {
            self.marker(p.line, p.name, "", p.system);
        }
        self.place(at.file, line, p.region);
    }

    /// A line marker: the next line is `line` of `name`; `flag` enters
    /// (` 1`) or leaves (` 2`) an include, `system` adds ` 3`.
    fn marker(&mut self, line: u32, name: &str, flag: &str, system: bool) {
        if !self.s.is_empty() && !self.s.ends_with('\n') {
            self.s.push('\n');
        }
        let system = if system { " 3" } else { "" };
        let _ = writeln!(self.s, "# {line} \"{}\"{flag}{system}", name.replace('\\', "\\\\").replace('"', "\\\""));
        self.at_line_start = true;
    }

    fn place(&mut self, file: FileId, line: u32, region: u32) {
        self.file = Some(file);
        self.line = line;
        self.region = region;
    }

    /// 0-based line index of `lo` in `file`.
    fn line_index(&mut self, file: FileId, lo: u32) -> usize {
        let starts = self.sm.file(file).line_starts();
        let contains = |i: usize| starts.get(i).is_some_and(|&s| s <= lo) && starts.get(i + 1).is_none_or(|&e| lo < e);
        let (cf, ci) = self.cache;
        let idx = if cf == file && contains(ci) {
            ci
        } else if cf == file && contains(ci + 1) {
            ci + 1
        } else {
            starts.partition_point(|&s| s <= lo).saturating_sub(1)
        };
        self.cache = (file, idx);
        idx
    }

    fn token(&mut self, tok: &Token) {
        let idx = self.line_index(tok.span.file, tok.span.lo);
        let line = idx as u32 + 1;
        self.goto(tok.span, line);
        let text = self.sm.text(tok.spelling);
        if self.at_line_start {
            // Indent as in the source, as clang does.
            let f = self.sm.file(tok.span.file);
            let start = f.line_starts()[idx] as usize;
            let col = f.text.get(start..tok.span.lo as usize).map_or(0, |s| s.chars().count());
            for _ in 0..col {
                self.s.push(' ');
            }
        } else if tok.has(lex::flags::LEADING_SPACE) || self.would_merge(text) {
            self.s.push(' ');
        }
        self.s.push_str(text);
        self.at_line_start = false;
        self.prev = Some(*tok);
    }

    /// Would the previous token and `text` lex as something else when
    /// written together (`+` `+` from different macros)?
    fn would_merge(&self, text: &str) -> bool {
        let Some(prev) = self.prev else { return false };
        let p = self.sm.text(prev.spelling);
        let (Some(a), Some(b)) = (p.chars().last(), text.chars().next()) else { return false };
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        // A word followed by a word would merge, a number followed by `.`
        // too, and so would `.` followed by a digit; a name followed by
        // `.` (`v.xy`, `<plain.h>`) or `.` followed by a name would not.
        if (word(a) && (word(b) || (b == '.' && prev.kind == lex::TokenKind::Number))) || (a == '.' && b.is_ascii_digit()) {
            return true;
        }
        if a.is_ascii_punctuation() && b.is_ascii_punctuation() {
            let joined = format!("{p}{text}");
            return lex::lex_one(&joined).is_some() || joined.contains("//") || joined.contains("/*");
        }
        false
    }

    /// A `-dD` line, on the line of its directive.
    fn directive(&mut self, span: Span, text: &str) {
        let (line, _) = self.sm.file(span.file).line_col(span.lo);
        self.goto(span, line);
        if !self.at_line_start {
            self.s.push('\n');
        }
        self.s.push_str(text);
        self.s.push('\n');
        self.line += 1;
        self.at_line_start = true;
        self.prev = None;
    }

    fn pragma(&mut self, pr: &Pragma, pragma_tokens: &[Token]) {
        let (line, _) = self.sm.file(pr.span.file).line_col(pr.span.lo);
        if self.sm.file(pr.span.file).kind == crate::source::FileKind::Real {
            self.goto(pr.span, line);
        }
        if !self.at_line_start {
            self.s.push('\n');
        }
        let text = match &pr.kind {
            PragmaKind::Extension { name, enable } => format!("#pragma OPENCL EXTENSION {name} : {}", if *enable { "enable" } else { "disable" }),
            PragmaKind::FpContract(s) => format!(
                "#pragma OPENCL FP_CONTRACT {}",
                match s {
                    Switch::On => "ON",
                    Switch::Off => "OFF",
                    Switch::Default => "DEFAULT",
                }
            ),
            PragmaKind::Unroll { nounroll: true, .. } => "#pragma nounroll".to_string(),
            PragmaKind::Unroll { count, .. } => {
                let mut t = "#pragma unroll".to_string();
                for tok in &pragma_tokens[count.clone()] {
                    t.push(' ');
                    t.push_str(self.sm.text(tok.spelling));
                }
                t
            }
            PragmaKind::Debug(action) => format!("#pragma clc __debug {}", action.name()),
            // The value in force: push and pop done already.
            PragmaKind::Pack(n) => format!("#pragma pack({n})"),
            PragmaKind::Verbatim(text) => format!("#pragma {text}"),
        };
        self.s.push_str(&text);
        self.s.push('\n');
        self.line += 1;
        self.at_line_start = true;
        self.prev = None;
    }
}
