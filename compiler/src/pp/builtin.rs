//! The builtin macros: names the preprocessor defines whose expansion it
//! computes where they are used, as clang-22 does: `__FILE__`, `__LINE__`,
//! `__COUNTER__`, `__DATE__`, `__TIME__`, `__TIMESTAMP__`,
//! `__BASE_FILE__`, `__FILE_NAME__` and `__INCLUDE_LEVEL__`, and the
//! feature tests, which read a parenthesised operand: `__has_include`,
//! `__has_include_next`, `__has_builtin`, `__has_attribute`,
//! `__has_c_attribute`, `__has_feature`, `__has_extension`,
//! `__has_warning`, `__is_identifier` (their answers are `features`').
//!
//! They are macros like others for `defined`, `#ifdef`, `#undef` (with
//! clang's warning) and redefinition. The date and the time come from
//! [`super::PpOptions::source_date_epoch`] when set (in UTC, as clang's
//! `SOURCE_DATE_EPOCH`), else from the clock and the file's modification
//! time in local time; each use warns under `-Wdate-time` (off by default).
//!
//! The feature tests read their operands as clang does, with its
//! diagnostics and recovery: `__has_include` only in `#if`/`#elif` (else
//! the name is left as it is, after an error), its header name macro
//! expanded as `#include`'s; the others anywhere, giving `0` after a
//! malformed operand, and nothing when the line ends first.

use super::Expansion;
use super::engine::{Mode, Pp};
use super::features;
use super::macros::{Macro, MacroCtx, NO_DEF};
use crate::diag::Diagnostic;
use crate::lex::{flags, Token, TokenKind};
use crate::source::Span;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Builtin {
    /// Not a builtin: a macro with a replacement list.
    None,
    File,
    Line,
    Counter,
    Date,
    Time,
    Timestamp,
    BaseFile,
    FileName,
    IncludeLevel,
    HasInclude,
    HasIncludeNext,
    HasBuiltin,
    HasAttribute,
    HasCAttribute,
    HasFeature,
    HasExtension,
    HasWarning,
    IsIdentifier,
}

/// Every builtin macro, by name.
const BUILTINS: &[(&str, Builtin)] = &[
    ("__FILE__", Builtin::File),
    ("__LINE__", Builtin::Line),
    ("__COUNTER__", Builtin::Counter),
    ("__DATE__", Builtin::Date),
    ("__TIME__", Builtin::Time),
    ("__TIMESTAMP__", Builtin::Timestamp),
    ("__BASE_FILE__", Builtin::BaseFile),
    ("__FILE_NAME__", Builtin::FileName),
    ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
    ("__has_include", Builtin::HasInclude),
    ("__has_include_next", Builtin::HasIncludeNext),
    ("__has_builtin", Builtin::HasBuiltin),
    ("__has_attribute", Builtin::HasAttribute),
    ("__has_c_attribute", Builtin::HasCAttribute),
    ("__has_feature", Builtin::HasFeature),
    ("__has_extension", Builtin::HasExtension),
    ("__has_warning", Builtin::HasWarning),
    ("__is_identifier", Builtin::IsIdentifier),
];

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

impl Pp<'_> {
    /// Defines the builtin macros, named in a `<built-in>` file of their
    /// own so that they have spans.
    pub(super) fn define_builtins(&mut self) {
        let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
        let file = self.sm.add_virtual("<built-in>", names.join(" "));
        let mut lo = 0;
        for &(name, b) in BUILTINS {
            let span = Span::new(file, lo, lo + name.len());
            lo += name.len() + 1;
            self.add_macro(Macro { name: name.into(), name_span: span, def_span: None, function: false, params: Vec::new(), variadic: false, body: Rc::new([]), builtin: b, busy: false, text: None });
        }
    }

    /// The token the builtin `b` named by `name` expands to (reading its
    /// operand from the contexts above `floor`), if any.
    pub(super) fn expand_builtin(&mut self, name: Token, b: Builtin, floor: usize, mode: Mode) -> Option<Token> {
        match b {
            Builtin::HasInclude | Builtin::HasIncludeNext => self.has_include(name, b == Builtin::HasIncludeNext, floor, mode),
            Builtin::HasBuiltin | Builtin::HasAttribute | Builtin::HasCAttribute | Builtin::HasFeature | Builtin::HasExtension | Builtin::HasWarning | Builtin::IsIdentifier => {
                self.feature_test(name, b, floor, mode)
            }
            _ => Some(self.builtin_token(name, b)),
        }
    }

    /// The token a builtin without operand, used as `name`, expands to.
    fn builtin_token(&mut self, name: Token, b: Builtin) -> Token {
        let (kind, text) = match b {
            Builtin::Line => (TokenKind::Number, self.presumed(name.span).1.to_string()),
            Builtin::Counter => {
                self.counter += 1;
                (TokenKind::Number, (self.counter - 1).to_string())
            }
            Builtin::IncludeLevel => (TokenKind::Number, self.file_index(name.span).map_or(0, |i| self.files[i].level).to_string()),
            Builtin::File => (TokenKind::StringLit, quote(&self.presumed(name.span).0)),
            Builtin::BaseFile => (TokenKind::StringLit, quote(&self.base_file(name.span))),
            Builtin::FileName => {
                let file = self.presumed(name.span).0;
                let last = std::path::Path::new(&file).file_name().map_or(file.clone(), |n| n.to_string_lossy().into_owned());
                (TokenKind::StringLit, quote(&last))
            }
            Builtin::Date | Builtin::Time | Builtin::Timestamp => {
                self.diags.push(Diagnostic::warning("date-time", name.span, "expansion of date or time macro is not reproducible"));
                let text = match b {
                    Builtin::Timestamp => self.timestamp(),
                    _ => {
                        let epoch = self.opts.source_date_epoch;
                        let (date, time) = self.date_time.get_or_insert_with(|| date_and_time(epoch));
                        if b == Builtin::Date { date.clone() } else { time.clone() }
                    }
                };
                (TokenKind::StringLit, text)
            }
            _ => (TokenKind::Number, "0".to_string()),
        };
        let len = text.len();
        let v = self.sm.add_virtual("<scratch space>", text);
        let spelling = Span::new(v, 0, len);
        let macro_name = BUILTINS.iter().find(|(_, k)| *k == b).map_or("", |(n, _)| n);
        let id = self.out.expansions.push(Expansion { macro_name: macro_name.into(), use_span: name.span, def_span: None, parent: name.expansion });
        Token { kind, span: name.span, spelling, expansion: id, flags: (name.flags & !flags::LINE_START) | flags::SYNTHETIC }
    }

    /// A feature test's `0` or `1`, in place of `at` (`name` to its `)`).
    fn answer(&self, value: bool, at: Span, name: Token) -> Token {
        let spelling = if value { self.one } else { self.zero };
        Token { kind: TokenKind::Number, span: at, spelling, expansion: name.expansion, flags: (name.flags & !flags::LINE_START) | flags::SYNTHETIC }
    }

    /// The next token, macros expanded (as clang's `Lex`, where the
    /// operand is read so).
    fn next_expanded(&mut self, floor: usize, mode: Mode) -> Option<Token> {
        loop {
            let mut tok = self.next_token(floor)?;
            if tok.kind.is_word() && !tok.has(flags::NO_EXPAND) {
                if let Some(def) = self.macro_named(self.sm.text(tok.spelling)) {
                    if self.defs[def as usize].busy {
                        tok.flags |= flags::NO_EXPAND;
                    } else if self.expand_macro(tok, def, floor, mode) {
                        continue;
                    }
                }
            }
            return Some(tok);
        }
    }

    /// Reads one token and puts it back.
    fn peek_token(&mut self, floor: usize) -> Option<Token> {
        let t = self.next_token(floor)?;
        self.ctxs.push(MacroCtx { toks: vec![t], pos: 0, def: NO_DEF, space_after: false });
        Some(t)
    }

    /// Is `colon` (a `:`) the first half of a `::`, another `:` right
    /// after it? That one is then read (clc's lexer has no `::`, C's
    /// having no use for it; clang's does, for C23 attribute names).
    fn colon_colon(&mut self, colon: Token, floor: usize) -> bool {
        if colon.kind != TokenKind::Colon {
            return false;
        }
        match self.peek_token(floor) {
            Some(n) if n.kind == TokenKind::Colon && !n.has(flags::LEADING_SPACE | flags::LINE_START) => {
                self.next_token(floor);
                true
            }
            _ => false,
        }
    }

    /// How clang names `t` in "missing ')' after …": a word or a
    /// punctuator as written, a literal by its kind.
    fn describe_token(&self, t: &Token, coloncolon: bool) -> String {
        let text = self.sm.text(t.spelling);
        let prefix = match text.find(['"', '\'']) {
            Some(i) => &text[..i],
            None => "",
        };
        let width = match prefix {
            "L" => "wide_",
            "u8" => "utf8_",
            "u" => "utf16_",
            "U" => "utf32_",
            _ => "",
        };
        match t.kind {
            _ if coloncolon => "'::'".to_string(),
            TokenKind::Number => "<numeric_constant>".to_string(),
            TokenKind::StringLit => format!("<{width}string_literal>"),
            TokenKind::CharLit => format!("<{width}char_constant>"),
            k if k.is_error() => "<unknown>".to_string(),
            _ => format!("'{text}'"),
        }
    }

    /// A feature test other than `__has_include`, as clang's
    /// `EvaluateFeatureLikeBuiltinMacro`: `(`, one operand, `)`, with
    /// clang's errors for anything else, after which the answer is 0.
    fn feature_test(&mut self, name: Token, b: Builtin, floor: usize, mode: Mode) -> Option<Token> {
        let name_text = self.sm.text(name.spelling).to_string();
        let lparen = match self.next_token(floor) {
            Some(t) if t.kind == TokenKind::LParen => t,
            other => {
                let at = other.map_or(name.span.end(), |t| t.span);
                self.diags.push(Diagnostic::error("E0115", at, format!("missing '(' after '{name_text}'")));
                // A `0` in place of the token read, to spare further errors.
                return other.map(|t| self.answer(false, t.span, name));
            }
        };
        let expand = matches!(b, Builtin::HasAttribute | Builtin::HasCAttribute);
        let mut depth = 1u32;
        let mut result: Option<(bool, Token, bool)> = None;
        let mut suppress = false;
        let mut pending: Option<Token> = None;
        let mut last = lparen;
        loop {
            let tok = match pending.take() {
                Some(t) => Some(t),
                None if expand => self.next_expanded(floor, mode),
                None => self.next_token(floor),
            };
            let Some(tok) = tok else {
                self.diags.push(Diagnostic::error("E0113", last.span.end(), "unterminated function-like macro invocation"));
                return None;
            };
            last = tok;
            match tok.kind {
                TokenKind::Comma => {
                    if !suppress {
                        self.diags.push(Diagnostic::error("E0112", tok.span, "too many arguments provided to function-like macro invocation"));
                        suppress = true;
                    }
                    continue;
                }
                TokenKind::LParen => {
                    depth += 1;
                    if result.is_none() {
                        if !suppress {
                            self.diags.push(Diagnostic::error("E0115", tok.span, format!("nested parentheses not permitted in '{name_text}'")));
                            suppress = true;
                        }
                        continue;
                    }
                }
                TokenKind::RParen => {
                    depth -= 1;
                    if depth > 0 {
                        continue;
                    }
                    if result.is_none() && !suppress {
                        self.diags.push(Diagnostic::error("E0112", tok.span, "too few arguments provided to function-like macro invocation"));
                    }
                    let value = result.is_some_and(|(v, _, _)| v);
                    return Some(self.answer(value, name.span.to(tok.span), name));
                }
                _ if result.is_none() => {
                    let (value, seen, next) = self.feature_operand(b, tok, floor, mode);
                    result = Some((value, seen.0, seen.1));
                    if next.is_none() {
                        last = seen.0;
                    }
                    pending = next;
                    continue;
                }
                _ => {}
            }
            // A second operand.
            if !suppress {
                let (after, cc) = result.map_or((tok, false), |(_, t, cc)| (t, cc));
                let d = Diagnostic::error("E0115", tok.span, format!("missing ')' after {}", self.describe_token(&after, cc))).with_range(after.span);
                self.diags.push(d.with_note_at(lparen.span, "to match this '('"));
                suppress = true;
            }
        }
    }

    /// Reads the operand of feature test `b` that starts with `tok`: the
    /// answer, the last token it looked at (and whether that was a `::`),
    /// and a token read past the operand, if it read one.
    fn feature_operand(&mut self, b: Builtin, tok: Token, floor: usize, mode: Mode) -> (bool, (Token, bool), Option<Token>) {
        let text = self.sm.text(tok.spelling).to_string();
        let needs_word = |pp: &mut Self, t: Token| {
            if t.kind.is_word() {
                return true;
            }
            pp.diags.push(Diagnostic::error("E0115", t.span, "builtin feature check macro requires a parenthesized identifier"));
            false
        };
        match b {
            Builtin::IsIdentifier => (features::is_identifier(&text, tok.kind), (tok, false), None),
            Builtin::HasWarning => self.has_warning_operand(tok, floor),
            Builtin::HasCAttribute => {
                // `name` or `scope::name` (clang's C23 attributes): clc
                // has no `[[…]]` attributes, so the answer is 0 for any.
                let cc = self.colon_colon(tok, floor);
                if !needs_word(self, tok) {
                    return (false, (tok, cc), None);
                }
                let Some(next) = self.next_token(floor) else { return (false, (tok, false), None) };
                if !self.colon_colon(next, floor) {
                    return (false, (next, false), Some(next));
                }
                match self.next_expanded(floor, mode) {
                    Some(n) => {
                        needs_word(self, n);
                        (false, (n, false), None)
                    }
                    None => (false, (next, true), None),
                }
            }
            _ => {
                if !needs_word(self, tok) {
                    return (false, (tok, false), None);
                }
                let value = match b {
                    Builtin::HasBuiltin => self.has_builtin(&text, tok.kind),
                    Builtin::HasAttribute => features::has_attribute(&text, &self.opts.target),
                    Builtin::HasFeature => features::has_feature(&text, self.opts.std, false),
                    _ => features::has_feature(&text, self.opts.std, true),
                };
                (value, (tok, false), None)
            }
        }
    }

    /// `__has_warning`'s operand: string literals (concatenated, macros
    /// not expanded) naming a `-W` option.
    fn has_warning_operand(&mut self, tok: Token, floor: usize) -> (bool, (Token, bool), Option<Token>) {
        let ordinary = |pp: &Self, t: &Token| t.kind == TokenKind::StringLit && pp.sm.text(t.spelling).starts_with('"');
        if !ordinary(self, &tok) {
            self.diags.push(Diagnostic::error("E0115", tok.span, "expected string literal in '__has_warning'"));
            return (false, (tok, false), None);
        }
        let mut bytes = Vec::new();
        let mut valid = true;
        let mut next = Some(tok);
        while let Some(t) = next.filter(|t| ordinary(self, t)) {
            match crate::lex::literal::parse_string(self.sm.text(t.spelling)) {
                Ok(b) => bytes.extend(b),
                Err(e) => {
                    self.diags.push(Diagnostic::error("E0117", t.span, e));
                    valid = false;
                }
            }
            next = self.next_token(floor);
        }
        let after = next.unwrap_or(tok);
        if !valid {
            return (false, (after, false), next);
        }
        let option = String::from_utf8_lossy(&bytes).into_owned();
        let Some(warning) = option.strip_prefix("-W").filter(|w| !w.is_empty()) else {
            self.diags.push(Diagnostic::warning("malformed-warning-check", tok.span, "__has_warning expected option name (e.g. \"-Wundef\")"));
            return (false, (after, false), next);
        };
        (crate::diag::groups::is_warning(warning), (after, false), next)
    }

    /// `__has_include(…)`/`__has_include_next(…)`, as clang's
    /// `EvaluateHasIncludeCommon`: a header name searched as `#include`
    /// would (after the directory where the current file was found, for
    /// `_next`). After an error, the token it stopped at is left to the
    /// `#if`, unless it is the `)`.
    fn has_include(&mut self, name: Token, next: bool, floor: usize, mode: Mode) -> Option<Token> {
        let name_text = self.sm.text(name.spelling).to_string();
        let from = if next { self.include_next_start(name) } else { None };
        if mode != Mode::If {
            self.diags.push(Diagnostic::error("E0115", name.span, format!("'{name_text}' must be used within a preprocessing directive")));
            let mut t = name;
            t.flags |= flags::NO_EXPAND;
            return Some(t);
        }
        let first = self.next_expanded(floor, mode);
        // Where the line ends, if it does: after the last token read.
        let end = first.map_or(name.span, |t| t.span).end();
        let (lparen, header) = match first {
            Some(t) if t.kind == TokenKind::LParen => (t.span, self.next_expanded(floor, mode)),
            other => {
                let at = name.span.end();
                self.diags.push(Diagnostic::error("E0115", at, format!("missing '(' after '{name_text}'")));
                // Read on if a header name follows, as clang does.
                match other {
                    Some(t) if t.kind == TokenKind::Lt || (t.kind == TokenKind::StringLit && self.sm.text(t.spelling).starts_with('"')) => (at, other),
                    _ => return other,
                }
            }
        };
        let (file, header_end) = match header {
            Some(t) if t.kind == TokenKind::StringLit && self.sm.text(t.spelling).starts_with('"') => {
                let s = self.sm.text(t.spelling);
                ((s[1..s.len() - 1].to_string(), false), t.span)
            }
            Some(t) if t.kind == TokenKind::Lt => {
                let mut toks = vec![t];
                loop {
                    match self.next_expanded(floor, mode) {
                        Some(g) if g.kind == TokenKind::Gt => {
                            toks.push(g);
                            break;
                        }
                        Some(o) => toks.push(o),
                        None => {
                            let end = toks.last().map_or(t.span, |l| l.span).end();
                            self.diags.push(Diagnostic::error("E0107", end, "expected '>'").with_note_at(t.span, "to match this '<'"));
                            return None;
                        }
                    }
                }
                let raw = toks.iter().all(|t| t.expansion == 0 && !t.has(flags::SYNTHETIC) && t.span.file == toks[0].span.file);
                let end = toks.last().map_or(t.span, |l| l.span);
                (self.header_name_of(&toks, raw)?, end)
            }
            other => {
                let at = other.map_or(end, |t| t.span);
                self.diags.push(Diagnostic::error("E0107", at, "expected \"FILENAME\" or <FILENAME>"));
                return match other {
                    Some(t) if t.kind == TokenKind::RParen => Some(self.answer(false, name.span.to(t.span), name)),
                    _ => other,
                };
            }
        };
        let rparen = match self.next_expanded(floor, mode) {
            Some(t) if t.kind == TokenKind::RParen => t,
            other => {
                let d = Diagnostic::error("E0115", header_end.end(), format!("missing ')' after '{name_text}'"));
                self.diags.push(d.with_note_at(lparen, "to match this '('"));
                return other;
            }
        };
        let (path, angled) = file;
        let found = if path.is_empty() {
            self.diags.push(Diagnostic::error("E0107", rparen.span, "empty filename"));
            false
        } else {
            self.find_include(&path, angled, from).is_some()
        };
        Some(self.answer(found, name.span.to(rparen.span), name))
    }

    /// Where `__has_include_next` starts its search: after the `-I`
    /// directory the current file was found in. From the start of the
    /// search path, with clang's warnings, in the main file or in one not
    /// found through the search path.
    pub(super) fn include_next_start(&mut self, name: Token) -> Option<usize> {
        if self.files.len() <= 1 {
            self.diags.push(Diagnostic::warning("include-next-outside-header", name.span, "#include_next in primary source file; will search from start of include path"));
            return None;
        }
        match self.files.last().and_then(|f| f.found_in) {
            Some(i) => Some(i + 1),
            None => {
                let msg = "#include_next in file found relative to primary source file or found by absolute path; will search from start of include path";
                self.diags.push(Diagnostic::warning("include-next-absolute-path", name.span, msg));
                None
            }
        }
    }

    /// The index in `files` of the file `span` is in (the innermost, as
    /// for `presumed`).
    fn file_index(&self, span: Span) -> Option<usize> {
        self.files.iter().rposition(|f| f.file == span.file)
    }

    /// `__BASE_FILE__`: the presumed name of the file at the bottom of
    /// `span`'s chain of `#include`s (the main file, or the list of
    /// `-include` files for theirs).
    fn base_file(&self, span: Span) -> String {
        let Some(mut i) = self.file_index(span) else { return self.presumed(span).0 };
        while i > 0 && self.files[i].level > 0 {
            i -= 1;
        }
        // The name in force where that file is being read.
        let f = &self.files[i];
        let at = f.toks.get(f.pos.saturating_sub(1)).map_or(Span { file: f.file, lo: 0, hi: 0 }, |t| t.span);
        self.presumed(at).0
    }

    /// `__TIMESTAMP__`: `SOURCE_DATE_EPOCH` in UTC, else the modification
    /// time of the file being read, in local time, as C's `asctime` writes
    /// them; clang's question marks when there is no such file.
    fn timestamp(&self) -> String {
        if let Some(epoch) = self.opts.source_date_epoch {
            return broken_down(epoch as i64, true).map_or_else(unknown_timestamp, |tm| asctime(&tm));
        }
        let path = self.files.last().and_then(|f| self.sm.file(f.file).path.clone());
        let modified = path.and_then(|p| std::fs::metadata(p).ok()).and_then(|m| m.modified().ok());
        let secs = modified.map(|t| match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => d.as_secs() as i64,
            Err(e) => -(e.duration().as_secs() as i64),
        });
        secs.and_then(|s| broken_down(s, false)).map_or_else(unknown_timestamp, |tm| asctime(&tm))
    }
}

/// A string literal of `s`, with `\` and `"` escaped.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `__DATE__` and `__TIME__` (`"Mmm dd yyyy"`, `"hh:mm:ss"`): at
/// `epoch` in UTC, or now in local time.
fn date_and_time(epoch: Option<u64>) -> (String, String) {
    let tm = match epoch {
        Some(e) => broken_down(e as i64, true),
        None => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
            broken_down(now, false)
        }
    };
    match tm {
        Some(tm) => (
            format!("\"{} {:2} {:4}\"", MONTHS[tm.tm_mon.rem_euclid(12) as usize], tm.tm_mday, tm.tm_year + 1900),
            format!("\"{:02}:{:02}:{:02}\"", tm.tm_hour, tm.tm_min, tm.tm_sec),
        ),
        None => ("\"??? ?? ????\"".to_string(), "\"??:??:??\"".to_string()),
    }
}

/// C's `asctime` without its newline, quoted: `"Thu Jan  1 00:00:00 1970"`.
fn asctime(tm: &libc::tm) -> String {
    format!(
        "\"{} {}{:3} {:02}:{:02}:{:02} {}\"",
        DAYS[tm.tm_wday.rem_euclid(7) as usize],
        MONTHS[tm.tm_mon.rem_euclid(12) as usize],
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec,
        tm.tm_year + 1900
    )
}

fn unknown_timestamp() -> String {
    "\"??? ??? ?? ??:??:?? ????\"".to_string()
}

/// `secs` since the epoch as a calendar time, in UTC or in the local
/// time zone (C's `gmtime_r`/`localtime_r`, which know the zone rules).
fn broken_down(secs: i64, utc: bool) -> Option<libc::tm> {
    let t = libc::time_t::try_from(secs).ok()?;
    // SAFETY: `tm` is plain data (its one pointer, `tm_zone`, may be null);
    // both functions only write `tm` and read `t`, and are thread-safe.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        let r = if utc { libc::gmtime_r(&t, &mut tm) } else { libc::localtime_r(&t, &mut tm) };
        (!r.is_null()).then_some(tm)
    }
}
