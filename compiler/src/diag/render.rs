//! Turning [`Diagnostic`]s into text.
//!
//! Two formats: codespan-reporting's rich format (boxes, labels, colour on a
//! terminal), and clang's format — a `file:line:col: error: message [-Wname]`
//! header that editors and CI parse, followed by the source line and a caret
//! line. This is the only module that knows codespan-reporting exists.

use super::{Diagnostic, Severity};
use crate::source::{FileId, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;
use std::fmt::Write as _;
use std::ops::Range;

/// Which way to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// codespan-reporting's multi-line format.
    #[default]
    Rich,
    /// `file:line:col: severity: message`, then the snippet and a caret.
    Clang,
}

/// What one diagnostic's rendering leaves for the next: clang prints a
/// header's "In file included from" lines only when they differ from the
/// previous diagnostic's.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderState {
    /// The presumed include location of the last place shown.
    last_include: Option<Span>,
    pub style: ClangStyle,
}

/// What clang's format shows, as clang's `-f[no-]diagnostics-show-line-numbers`,
/// `-f[no-]caret-diagnostics` and `-f[no-]show-column` set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClangStyle {
    /// A `  12 | ` gutter before source lines.
    pub line_numbers: bool,
    /// The source line and the caret under it.
    pub caret: bool,
    /// The column in `file:line:col:`.
    pub column: bool,
}

impl Default for ClangStyle {
    fn default() -> ClangStyle {
        ClangStyle { line_numbers: true, caret: true, column: true }
    }
}

impl RenderState {
    pub fn new(style: ClangStyle) -> RenderState {
        RenderState { last_include: None, style }
    }
}

/// Renders one diagnostic, as the first of a run. `color` only affects
/// [`Format::Rich`] through [`render_to`]; this function always returns
/// plain text.
pub fn render(sm: &SourceMap, d: &Diagnostic, format: Format) -> String {
    match format {
        Format::Rich => {
            let mut out = String::new();
            let config = rich_config();
            if term::emit_to_string(&mut out, &config, &Adapter(sm), &to_codespan(sm, d)).is_err() {
                // A span outside its file is a compiler bug; fall back to the
                // format that never fails rather than losing the message.
                return render(sm, d, Format::Clang);
            }
            out
        }
        Format::Clang => render_clang(sm, d, &mut RenderState::default()),
    }
}

/// Renders one diagnostic to a terminal stream, in colour when the stream
/// supports it; `state` carries what the run's earlier diagnostics showed.
pub fn render_to(
    w: &mut dyn codespan_reporting::term::termcolor::WriteColor,
    sm: &SourceMap,
    d: &Diagnostic,
    format: Format,
    state: &mut RenderState,
) -> std::io::Result<()> {
    match format {
        Format::Rich => {
            let config = rich_config();
            term::emit_to_write_style(w, &config, &Adapter(sm), &to_codespan(sm, d))
                .or_else(|_| w.write_all(render_clang(sm, d, state).as_bytes()))
        }
        Format::Clang => w.write_all(render_clang(sm, d, state).as_bytes()),
    }
}

/// The closing summary clang prints: `2 errors generated.`
pub fn summary(errors: usize, warnings: usize) -> Option<String> {
    let plural = |n: usize, w: &str| if n == 1 { format!("{n} {w}") } else { format!("{n} {w}s") };
    match (errors, warnings) {
        (0, 0) => None,
        (0, w) => Some(format!("{} generated.", plural(w, "warning"))),
        (e, 0) => Some(format!("{} generated.", plural(e, "error"))),
        (e, w) => Some(format!("{} and {} generated.", plural(w, "warning"), plural(e, "error"))),
    }
}

fn rich_config() -> term::Config {
    term::Config { start_context_lines: 1, end_context_lines: 1, ..term::Config::default() }
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
        Severity::Fatal => "fatal error",
        Severity::Internal => "internal compiler error",
    }
}

/// clang's "In file included from" lines for a place in a header, when
/// the previous place shown was included from elsewhere (not for notes:
/// clang's `-fno-diagnostics-show-note-include-stack`).
fn include_stack(out: &mut String, sm: &SourceMap, span: Span, note: bool, state: &mut RenderState) {
    let include = sm.presumed(span).include;
    if include == state.last_include {
        return;
    }
    state.last_include = include;
    if note {
        return;
    }
    for (name, line) in sm.include_stack(span) {
        let _ = writeln!(out, "In file included from {name}:{line}:");
    }
}

fn render_clang(sm: &SourceMap, d: &Diagnostic, state: &mut RenderState) -> String {
    let mut out = String::new();
    let style = state.style;
    let place = |span: Span| {
        if style.column {
            return sm.describe(span);
        }
        let p = sm.presumed(span);
        format!("{}:{}", p.name, p.line)
    };
    include_stack(&mut out, sm, d.primary.span, false, state);
    let flag = match d.severity {
        Severity::Warning => format!(" [-W{}]", d.code),
        Severity::Error if d.code.starts_with('E') => String::new(),
        // A warning promoted by -Werror keeps its name, as clang does.
        Severity::Error => format!(" [-Werror,-W{}]", d.code),
        Severity::Fatal if !d.code.starts_with('E') => format!(" [-W{}]", d.code),
        _ => String::new(),
    };
    let _ = writeln!(out, "{}: {}: {}{}", place(d.primary.span), severity_word(d.severity), d.message, flag);
    if style.caret {
        let gutter = snippet(&mut out, sm, d.primary.span, &d.ranges, style);
        if let Some(fix) = &d.fixit {
            let f = sm.file(fix.span.file);
            let (_, col) = f.line_col(fix.span.lo);
            let _ = writeln!(out, "{gutter}{}{}", " ".repeat(col as usize - 1), fix.replacement);
        }
    }
    for l in &d.secondary {
        include_stack(&mut out, sm, l.span, true, state);
        let _ = writeln!(out, "{}: note: {}", place(l.span), l.message);
        if style.caret {
            snippet(&mut out, sm, l.span, &[], style);
        }
    }
    for n in &d.notes {
        match n.span {
            Some(s) => {
                include_stack(&mut out, sm, s, true, state);
                let _ = writeln!(out, "{}: note: {}", place(s), n.message);
                if style.caret {
                    snippet(&mut out, sm, s, &[], style);
                }
            }
            None => {
                let _ = writeln!(out, "note: {}", n.message);
            }
        }
    }
    out
}

/// The source line of `span` and a `^~~~` line under it, with the parts
/// of `ranges` on that line underlined too (`~~~ ^ ~~~`), after clang's
/// gutter of line numbers if `style` has it. Returns the gutter of the
/// lines after the source line, for a fix-it.
fn snippet(out: &mut String, sm: &SourceMap, span: Span, ranges: &[Span], style: ClangStyle) -> String {
    let f = sm.file(span.file);
    let (line, col) = f.line_col(span.lo);
    let (numbered, gutter) = if style.line_numbers {
        // clang's width: at least 4, and room for 16 lines more.
        let shown = sm.presumed(span).line;
        let width = 4.max((shown as u64 + 16).to_string().len());
        (format!("{:>w$} | ", shown, w = width + 1), format!("{:w$} | ", "", w = width + 1))
    } else {
        (String::new(), String::new())
    };
    let text: Vec<char> = f.line_text(line).chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let (end_line, end_col) = f.line_col(span.hi);
    let width = if end_line == line { (end_col.saturating_sub(col)).max(1) } else { 1 } as usize;
    let col = col as usize - 1;
    // A generated or minified line can be thousands of characters long:
    // show a window around the caret, as clang does.
    let (start, prefix) = if text.len() > MAX_SNIPPET && col > MAX_SNIPPET / 2 { (col - MAX_SNIPPET / 2, "...") } else { (0, "") };
    let end = (start + MAX_SNIPPET).min(text.len());
    let suffix = if end < text.len() { "..." } else { "" };
    let shown: String = text[start.min(end)..end].iter().collect();
    let _ = writeln!(out, "{numbered}{prefix}{shown}{suffix}");
    let caret_col = col - start + prefix.len();
    let tildes = width.saturating_sub(1).min(end.saturating_sub(col + 1));
    let mut marks: Vec<char> = format!("{}^{}", " ".repeat(caret_col), "~".repeat(tildes)).chars().collect();
    for r in ranges.iter().filter(|r| r.file == span.file) {
        // The range's columns on the caret's line, in the window shown.
        let (lo_line, lo_col) = f.line_col(r.lo);
        let (hi_line, hi_col) = f.line_col(r.hi);
        let from = if lo_line == line { lo_col as usize - 1 } else if lo_line < line { 0 } else { usize::MAX };
        let to = if hi_line == line { hi_col as usize - 1 } else if hi_line > line { text.len() } else { 0 };
        for c in from.max(start)..to.min(end) {
            let at = c - start + prefix.len();
            if marks.len() <= at {
                marks.resize(at + 1, ' ');
            }
            if marks[at] == ' ' {
                marks[at] = '~';
            }
        }
    }
    let marks: String = marks.into_iter().collect();
    let _ = writeln!(out, "{gutter}{}", marks.trim_end());
    gutter
}

/// The widest source line shown in the clang format.
const MAX_SNIPPET: usize = 160;

/// A file, and its region between `#line` directives: codespan names a
/// snippet's file once, so each presumed file is a file of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    file: FileId,
    region: u32,
}

fn to_codespan(sm: &SourceMap, d: &Diagnostic) -> cs::Diagnostic<Region> {
    let severity = match d.severity {
        Severity::Note => cs::Severity::Note,
        Severity::Warning => cs::Severity::Warning,
        Severity::Error | Severity::Fatal => cs::Severity::Error,
        Severity::Internal => cs::Severity::Bug,
    };
    let region = |s: Span| Region { file: s.file, region: if (s.file.0 as usize) < sm.len() { sm.presumed(s).region } else { 0 } };
    let primary = |s: Span| cs::Label::primary(region(s), range(s));
    let secondary = |s: Span| cs::Label::secondary(region(s), range(s));
    let mut labels = vec![primary(d.primary.span).with_message(&d.primary.message)];
    labels.extend(d.ranges.iter().map(|r| secondary(*r)));
    labels.extend(d.secondary.iter().map(|l| secondary(l.span).with_message(&l.message)));
    let mut notes = Vec::new();
    for n in &d.notes {
        match n.span {
            // codespan has no located notes: show the location as a
            // secondary label so the snippet appears, and the text as a note.
            Some(s) => labels.push(secondary(s).with_message(&n.message)),
            None => notes.push(n.message.clone()),
        }
    }
    if let Some(fix) = &d.fixit {
        if fix.span.is_empty() {
            notes.push(format!("help: insert `{}`", fix.replacement));
        } else {
            notes.push(format!("help: replace with `{}`", fix.replacement));
        }
    }
    let code = match d.severity {
        Severity::Warning => format!("-W{}", d.code),
        _ => d.code.to_string(),
    };
    cs::Diagnostic::new(severity).with_message(&d.message).with_code(code).with_labels(labels).with_notes(notes)
}

fn range(s: Span) -> Range<usize> {
    s.lo as usize..s.hi as usize
}

struct Adapter<'a>(&'a SourceMap);

impl<'a> Files<'a> for Adapter<'a> {
    type FileId = Region;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: Region) -> Result<&'a str, FilesError> {
        self.check(id)?;
        Ok(self.0.region_name(id.file, id.region))
    }

    fn source(&'a self, id: Region) -> Result<&'a str, FilesError> {
        self.check(id)?;
        Ok(&self.0.file(id.file).text)
    }

    fn line_index(&'a self, id: Region, byte_index: usize) -> Result<usize, FilesError> {
        self.check(id)?;
        let starts = self.0.file(id.file).line_starts();
        Ok(starts.partition_point(|&s| s as usize <= byte_index) - 1)
    }

    fn line_number(&'a self, id: Region, line_index: usize) -> Result<usize, FilesError> {
        self.check(id)?;
        // codespan cannot show line 0, which a line marker may give.
        Ok((self.0.file(id.file).presumed_line(id.region, line_index) as usize).max(1))
    }

    fn line_range(&'a self, id: Region, line_index: usize) -> Result<Range<usize>, FilesError> {
        self.check(id)?;
        let f = self.0.file(id.file);
        let starts = f.line_starts();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge { given: line_index, max: starts.len() - 1 })?;
        let end = starts.get(line_index + 1).map_or(f.text.len(), |&e| e as usize);
        Ok(start as usize..end)
    }
}

impl Adapter<'_> {
    fn check(&self, id: Region) -> Result<(), FilesError> {
        if (id.file.0 as usize) < self.0.len() { Ok(()) } else { Err(FilesError::FileMissing) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clang_format_has_header_snippet_and_caret() {
        let mut sm = SourceMap::new();
        let f = sm.add_virtual("k.cl", "kernel void f() {\n  int x = y;\n}\n".into());
        let d = Diagnostic::error("E0100", Span::new(f, 28, 29), "use of undeclared identifier 'y'");
        let text = render(&sm, &d, Format::Clang);
        assert_eq!(text, "k.cl:2:11: error: use of undeclared identifier 'y'\n    2 |   int x = y;\n      |           ^\n");
        // clang's -fno-diagnostics-show-line-numbers, -fno-show-column,
        // -fno-caret-diagnostics.
        let mut state = RenderState::new(ClangStyle { line_numbers: false, ..ClangStyle::default() });
        assert_eq!(render_clang(&sm, &d, &mut state), "k.cl:2:11: error: use of undeclared identifier 'y'\n  int x = y;\n          ^\n");
        let mut state = RenderState::new(ClangStyle { caret: false, column: false, line_numbers: true });
        assert_eq!(render_clang(&sm, &d, &mut state), "k.cl:2: error: use of undeclared identifier 'y'\n");
    }

    #[test]
    fn long_lines_are_windowed_around_the_caret() {
        let mut sm = SourceMap::new();
        let line = format!("int x = {}y{};\n", "(".repeat(500), ")".repeat(500));
        let f = sm.add_virtual("k.cl", line);
        let d = Diagnostic::error("E0100", Span::new(f, 508, 509), "here");
        let text = render(&sm, &d, Format::Clang);
        let lines: Vec<&str> = text.lines().map(|l| &l[8..]).collect();
        assert!(lines[1].starts_with("...(((") && lines[1].ends_with(")))..."), "{}", lines[1]);
        assert_eq!(lines[1].len(), MAX_SNIPPET + 6);
        let caret = lines[2].find('^').unwrap();
        assert_eq!(&lines[1][caret..caret + 1], "y");
    }

    #[test]
    fn a_range_is_underlined_around_the_caret() {
        let mut sm = SourceMap::new();
        let f = sm.add_virtual("k.cl", "int x = a << b + c;\n".into());
        let d = Diagnostic::warning("shift-op-parentheses", Span::new(f, 10, 12), "here").with_range(Span::new(f, 8, 18));
        let text = render(&sm, &d, Format::Clang);
        assert_eq!(text, "k.cl:1:11: warning: here [-Wshift-op-parentheses]\n    1 | int x = a << b + c;\n      |         ~~^~~~~~~~\n");
    }

    #[test]
    fn rich_format_names_file_and_code() {
        let mut sm = SourceMap::new();
        let f = sm.add_virtual("k.cl", "int x = 1\n".into());
        let d = Diagnostic::warning("unused", Span::new(f, 4, 5), "unused variable 'x'").with_label("declared here");
        let text = render(&sm, &d, Format::Rich);
        assert!(text.contains("warning[-Wunused]: unused variable 'x'"), "{text}");
        assert!(text.contains("k.cl:1:5"), "{text}");
        assert!(text.contains("declared here"), "{text}");
    }

    /// A line marker may say line 0 (clang shows it); codespan has no line
    /// 0 and shows line 1, and renders rather than panicking.
    #[test]
    fn presumed_places_in_both_formats() {
        let mut sm = SourceMap::new();
        let f = sm.add_virtual("k.cl", "# 0 \"gen.cl\"\nint x = y;\n".into());
        assert!(sm.add_line_entry(f, 12, 0, Some("gen.cl".into()), crate::source::LineMarkerFlag::None, None));
        let d = Diagnostic::error("E0100", Span::new(f, 21, 22), "use of undeclared identifier 'y'");
        assert_eq!(render(&sm, &d, Format::Clang), "gen.cl:0:9: error: use of undeclared identifier 'y'\n    0 | int x = y;\n      |         ^\n");
        let rich = render(&sm, &d, Format::Rich);
        assert!(rich.contains("gen.cl:1:9") && rich.contains("1 │ int x = y;"), "{rich}");
    }

    #[test]
    fn summary_wording_matches_clang() {
        assert_eq!(summary(0, 0), None);
        assert_eq!(summary(1, 0).unwrap(), "1 error generated.");
        assert_eq!(summary(2, 1).unwrap(), "1 warning and 2 errors generated.");
    }
}
