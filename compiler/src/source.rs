//! Source files and byte spans into them.
//!
//! Every token, AST node and diagnostic points into a [`SourceMap`] through a
//! [`Span`]. Text that no file on disk holds — the result of `##` pasting, of
//! `#` stringizing, of `-D` options, of `_Pragma` — is added as a *virtual*
//! file, so a span always names real text and `SourceMap::text(span)` never
//! fails. This module knows nothing of tokens or diagnostics.
//!
//! A file also has a *presumed* name and line for each place in it, what
//! `#line` directives and GNU line markers (`# 12 "gen.cl" 1`) say, and
//! where it was included from: diagnostics, `-g` line tables and `-E`
//! show those, as clang's `PresumedLoc`.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `lo..hi` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: usize, hi: usize) -> Span {
        Span { file, lo: lo as u32, hi: hi as u32 }
    }

    /// The smallest span covering both, or `self` when they lie in
    /// different files (a construct that starts in one header and ends in
    /// another is reported at its start).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// An empty span at the start of this one, where a missing word goes.
    pub fn start(self) -> Span {
        Span { file: self.file, lo: self.lo, hi: self.lo }
    }

    /// An empty span at the end of this one, where a missing token belongs.
    pub fn end(self) -> Span {
        Span { file: self.file, lo: self.hi, hi: self.hi }
    }

    pub fn len(self) -> usize {
        (self.hi - self.lo) as usize
    }

    pub fn is_empty(self) -> bool {
        self.hi == self.lo
    }
}

/// Why a file is in the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Read from disk (the main file or an `#include`).
    Real,
    /// Made by the compiler: command-line macros, pasted or stringized
    /// tokens, `_Pragma` strings, builtin headers.
    Virtual,
}

#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub path: Option<PathBuf>,
    pub text: String,
    pub kind: FileKind,
    /// Byte offsets where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<u32>,
    /// Where the `#include` that read this file stands.
    included_at: Option<Span>,
    /// The `#line` directives and line markers in this file, in order.
    line_entries: Vec<LineEntry>,
}

/// A `#line` directive or line marker: from `offset` on, the line after
/// the directive's (real line `directive_line`) is line `line` of `name`.
#[derive(Clone, Debug)]
struct LineEntry {
    offset: u32,
    directive_line: u32,
    line: u32,
    /// Index in [`SourceMap::names`]; `None`: the file's own name.
    name: Option<u32>,
    /// Offset in this file of the line marker that entered the presumed
    /// file (flag `1`), whose place is its include location.
    include: Option<u32>,
    /// A system header from here on (flag `3`, `#pragma GCC
    /// system_header`): what `-E` says of it.
    system: bool,
}

/// How a line marker moves through presumed includes: its flag `1` or `2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineMarkerFlag {
    /// `#line`, or a marker without `1` or `2`.
    None,
    /// `1`: entering an included file.
    Enter,
    /// `2`: returning to the file that included the current one.
    Exit,
}

/// A place as `#line` directives present it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presumed<'a> {
    pub name: &'a str,
    pub line: u32,
    pub col: u32,
    /// Where the presumed file was included from.
    pub include: Option<Span>,
    /// Which region of the file between `#line` directives the place is in
    /// (0: before the first): places in one region count lines alike.
    pub region: u32,
    /// In a system header, by a line marker's flag `3` or `#pragma GCC
    /// system_header`.
    pub system: bool,
}

impl SourceFile {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else { return "" };
        let end = self.line_starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// The region of `#line` entries `offset` is in (0: before the first).
    fn region_at(&self, offset: u32) -> u32 {
        self.line_entries.partition_point(|e| e.offset <= offset) as u32
    }

    /// The `#line` entry that starts `region`.
    fn entry(&self, region: u32) -> Option<&LineEntry> {
        self.line_entries.get(region.checked_sub(1)? as usize)
    }

    /// The presumed line of 0-based real line `index`, in the region of
    /// `#line` directives that `region` names (as [`Presumed::region`]).
    pub fn presumed_line(&self, region: u32, index: usize) -> u32 {
        match self.entry(region) {
            None => index as u32 + 1,
            Some(e) => (e.line as i64 + index as i64 - e.directive_line as i64).clamp(0, u32::MAX as i64) as u32,
        }
    }
}

/// All the text a compilation has seen.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// File names `#line` directives give.
    names: Vec<String>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: String, kind: FileKind) -> FileId {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
            .collect();
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile { name: name.into(), path, text, kind, line_starts, included_at: None, line_entries: Vec::new() });
        id
    }

    /// Adds a file read from disk; the name shown in diagnostics is the path
    /// as given.
    pub fn add_real(&mut self, path: &Path, text: String) -> FileId {
        self.add(path.display().to_string(), Some(path.to_path_buf()), text, FileKind::Real)
    }

    pub fn add_virtual(&mut self, name: impl Into<String>, text: String) -> FileId {
        self.add(name, None, text, FileKind::Virtual)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn text(&self, span: Span) -> &str {
        &self.file(span.file).text[span.lo as usize..span.hi as usize]
    }

    /// `file:line:col` of the start of a span, as editors parse it: the
    /// presumed file and line.
    pub fn describe(&self, span: Span) -> String {
        let p = self.presumed(span);
        format!("{}:{}:{}", p.name, p.line, p.col)
    }

    /// The presumed name of `file` in `region` (as [`Presumed::region`]).
    pub fn region_name(&self, file: FileId, region: u32) -> &str {
        let f = self.file(file);
        match f.entry(region) {
            Some(LineEntry { name: Some(i), .. }) => &self.names[*i as usize],
            _ => &f.name,
        }
    }

    /// Records that `file` was read by the `#include` at `at`.
    pub fn set_included_at(&mut self, file: FileId, at: Span) {
        self.files[file.0 as usize].included_at = Some(at);
    }

    /// Records a `#line` directive or line marker in `file` that ends at
    /// `offset`: the next line is line `line` of `name` (`None`: the name
    /// in force), in a system header if `system` (`None`: as before).
    /// False, recording nothing, for a marker that leaves a presumed
    /// include no marker entered.
    #[must_use]
    pub fn add_line_entry(&mut self, file: FileId, offset: u32, line: u32, name: Option<String>, flag: LineMarkerFlag, system: Option<bool>) -> bool {
        let f = &self.files[file.0 as usize];
        let directive_line = f.line_col(offset).0;
        let prev = f.line_entries.last();
        let include = match flag {
            // Just before the marker, so that the include location lies in
            // the region before it (clang's `Offset - 1`).
            LineMarkerFlag::Enter => Some(offset.saturating_sub(1)),
            LineMarkerFlag::None => prev.and_then(|e| e.include),
            LineMarkerFlag::Exit => {
                let Some(entered) = prev.and_then(|e| e.include) else { return false };
                // The include of the entry in force where the file was
                // entered.
                f.entry(f.region_at(entered)).and_then(|e| e.include)
            }
        };
        let name = match name {
            Some(n) => {
                let i = match self.names.iter().position(|m| *m == n) {
                    Some(i) => i,
                    None => {
                        self.names.push(n);
                        self.names.len() - 1
                    }
                };
                Some(i as u32)
            }
            None => prev.and_then(|e| e.name),
        };
        let system = system.unwrap_or_else(|| prev.is_some_and(|e| e.system));
        self.files[file.0 as usize].line_entries.push(LineEntry { offset, directive_line, line, name, include, system });
        true
    }

    /// The presumed file, line and column of the start of `span`, and the
    /// presumed place it was included from.
    pub fn presumed(&self, span: Span) -> Presumed<'_> {
        let f = self.file(span.file);
        let (real, col) = f.line_col(span.lo);
        let region = f.region_at(span.lo);
        let entry = f.entry(region);
        Presumed {
            name: self.region_name(span.file, region),
            line: f.presumed_line(region, real as usize - 1),
            col,
            include: entry.and_then(|e| e.include).map(|o| Span { file: span.file, lo: o, hi: o }).or(f.included_at),
            region,
            system: entry.is_some_and(|e| e.system),
        }
    }

    /// The presumed places `span`'s file was included from, outermost
    /// first: clang's "In file included from" lines.
    pub fn include_stack(&self, span: Span) -> Vec<(&str, u32)> {
        self.include_chain(span).into_iter().map(|s| {
            let p = self.presumed(s);
            (p.name, p.line)
        }).collect()
    }

    /// The places (`#include` file names, line markers) `span`'s presumed
    /// file was included from, outermost first.
    pub fn include_chain(&self, span: Span) -> Vec<Span> {
        let mut chain = Vec::new();
        let mut at = self.presumed(span).include;
        // Each step goes to an earlier place or an earlier file; the cap
        // only bounds the work.
        while let Some(s) = at.filter(|_| chain.len() < 512) {
            chain.push(s);
            at = self.presumed(s).include;
        }
        chain.reverse();
        chain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let mut sm = SourceMap::new();
        let f = sm.add_virtual("t.cl", "ab\ncd\n\nxyz".to_string());
        let file = sm.file(f);
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(1), (1, 2));
        assert_eq!(file.line_col(3), (2, 1));
        assert_eq!(file.line_col(6), (3, 1));
        assert_eq!(file.line_col(9), (4, 3));
        assert_eq!(file.line_text(2), "cd");
        assert_eq!(file.line_text(4), "xyz");
        assert_eq!(sm.describe(Span::new(f, 8, 9)), "t.cl:4:2");
    }

    /// Line markers as clang's `LineTableInfo` reads them: flag 1 enters a
    /// presumed include (placed at the marker's line before it), flag 2
    /// returns, and popping more than was entered is refused.
    #[test]
    fn line_markers_give_presumed_places_and_includes() {
        let mut sm = SourceMap::new();
        let text = "a\n# 10 \"h.h\" 1\nb\n# 5 \"m.cl\" 2\nc\n";
        let f = sm.add_virtual("m.cl", text.to_string());
        let end = |n: usize| text.match_indices('\n').nth(n).unwrap().0 as u32;
        assert!(sm.add_line_entry(f, end(1), 10, Some("h.h".into()), LineMarkerFlag::Enter, Some(false)));
        assert!(sm.add_line_entry(f, end(3), 5, Some("m.cl".into()), LineMarkerFlag::Exit, Some(false)));
        assert!(!sm.add_line_entry(f, end(3), 6, None, LineMarkerFlag::Exit, None), "nothing left to leave");
        let at = |line: usize| {
            let lo = sm.file(f).line_starts()[line - 1];
            Span::new(f, lo as usize, lo as usize)
        };
        assert_eq!(sm.describe(at(1)), "m.cl:1:1");
        assert_eq!(sm.describe(at(3)), "h.h:10:1");
        assert_eq!(sm.include_stack(at(3)), vec![("m.cl", 2)]);
        assert_eq!(sm.describe(at(5)), "m.cl:5:1");
        assert!(sm.include_stack(at(5)).is_empty());
        assert_eq!(sm.region_name(f, sm.presumed(at(3)).region), "h.h");
        assert_eq!(sm.file(f).presumed_line(sm.presumed(at(5)).region, 4), 5);
    }

    #[test]
    fn spans_merge_within_a_file_only() {
        let a = Span::new(FileId(0), 4, 6);
        let b = Span::new(FileId(0), 1, 2);
        assert_eq!(a.to(b), Span::new(FileId(0), 1, 6));
        let c = Span::new(FileId(1), 0, 9);
        assert_eq!(a.to(c), a);
    }
}
