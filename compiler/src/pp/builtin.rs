//! The builtin macros: names the preprocessor defines whose expansion it
//! computes where they are used, as clang-22 does: `__FILE__`, `__LINE__`,
//! `__COUNTER__`, `__DATE__`, `__TIME__`, `__TIMESTAMP__`,
//! `__BASE_FILE__`, `__FILE_NAME__` and `__INCLUDE_LEVEL__`.
//!
//! They are macros like others for `defined`, `#ifdef`, `#undef` (with
//! clang's warning) and redefinition. The date and the time come from
//! [`super::PpOptions::source_date_epoch`] when set (in UTC, as clang's
//! `SOURCE_DATE_EPOCH`), else from the clock and the file's modification
//! time in local time; each use warns under `-Wdate-time` (off by default).

use super::Expansion;
use super::engine::Pp;
use super::macros::Macro;
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
            self.add_macro(Macro { name: name.into(), name_span: span, def_span: None, function: false, params: Vec::new(), variadic: false, body: Rc::new([]), builtin: b, busy: false });
        }
    }

    /// The token the builtin `b`, used as `name`, expands to.
    pub(super) fn builtin_token(&mut self, name: Token, b: Builtin) -> Token {
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
            Builtin::None => (TokenKind::Number, "0".to_string()),
        };
        let len = text.len();
        let v = self.sm.add_virtual("<scratch space>", text);
        let spelling = Span::new(v, 0, len);
        let macro_name = BUILTINS.iter().find(|(_, k)| *k == b).map_or("", |(n, _)| n);
        let id = self.out.expansions.push(Expansion { macro_name: macro_name.into(), use_span: name.span, def_span: None, parent: name.expansion });
        Token { kind, span: name.span, spelling, expansion: id, flags: (name.flags & !flags::LINE_START) | flags::SYNTHETIC }
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
        let f = &self.files[i];
        f.presumed_name.clone().unwrap_or_else(|| self.sm.file(f.file).name.clone())
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
