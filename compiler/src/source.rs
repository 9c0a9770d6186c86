//! Source files and byte spans into them.
//!
//! Every token, AST node and diagnostic points into a [`SourceMap`] through a
//! [`Span`]. Text that no file on disk holds — the result of `##` pasting, of
//! `#` stringizing, of `-D` options, of `_Pragma` — is added as a *virtual*
//! file, so a span always names real text and `SourceMap::text(span)` never
//! fails. This module knows nothing of tokens or diagnostics.

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
}

/// All the text a compilation has seen.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
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
        self.files.push(SourceFile { name: name.into(), path, text, kind, line_starts });
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

    /// `file:line:col` of the start of a span, as editors parse it.
    pub fn describe(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (l, c) = f.line_col(span.lo);
        format!("{}:{}:{}", f.name, l, c)
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

    #[test]
    fn spans_merge_within_a_file_only() {
        let a = Span::new(FileId(0), 4, 6);
        let b = Span::new(FileId(0), 1, 2);
        assert_eq!(a.to(b), Span::new(FileId(0), 1, 6));
        let c = Span::new(FileId(1), 0, 9);
        assert_eq!(a.to(c), a);
    }
}
