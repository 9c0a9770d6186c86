//! `#pragma clang diagnostic` (GCC's spelling too) and `#pragma GCC
//! system_header`: warning options that change part way through a
//! translation unit, as clang keeps them (`DiagStateMap`).
//!
//! A pragma applies from where it stands to the end of the translation
//! unit in reading order: into the files included after it, and on in the
//! including file after a header that holds it. The preprocessor tells
//! [`PragmaStates`] where each file's text starts and resumes
//! ([`PragmaStates::enter`]), which orders any location of the unit; each
//! diagnostic is then judged by the state at its location (the outermost
//! macro invocation for text from macros, as clc reports it).

use super::groups;
use crate::source::{FileId, Span};

/// What a pragma makes of the warnings it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PragmaSeverity {
    /// `ignored`.
    Ignored,
    /// `warning`: on, and a warning even under `-Werror` (clang's).
    Warning,
    /// `error`.
    Error,
    /// `fatal`: an error after which nothing more is reported.
    Fatal,
}

/// A position in reading order: a piece of a file, and a byte in it.
type Position = (u32, u32);

#[derive(Clone, Debug)]
struct Node {
    /// The state this one adds to (node 0, the command line's, has none).
    parent: u32,
    /// The option (a warning or a group) and what it becomes.
    name: Box<str>,
    severity: PragmaSeverity,
}

/// The warning options' changes through one translation unit.
#[derive(Clone, Debug, Default)]
pub struct PragmaStates {
    /// Pieces of files in reading order, `(file, first byte)`: an
    /// `#include` splits the including file in two.
    pieces: Vec<(FileId, u32)>,
    /// Each file's pieces (by file index), in order.
    by_file: Vec<Vec<u32>>,
    /// Every state but the command line's (node 0, not stored: index
    /// `i + 1` is `nodes[i]`). A state is its parent's plus one option.
    nodes: Vec<Node>,
    /// Where the state changes, in reading order, and the state from there.
    changes: Vec<(Position, u32)>,
    /// The states `push` saved.
    stack: Vec<u32>,
    /// The state in force at the end of what was read.
    current: u32,
    /// Options some pragma turns on (`warning`, `error`): a warning off on
    /// the command line may still be wanted somewhere.
    turned_on: Vec<Box<str>>,
    /// Where each file (by index) starts or stops being a system header,
    /// whose warnings are dropped: `#pragma GCC system_header`, line
    /// markers with flag `3`. In order of offset.
    system: Vec<Vec<(u32, bool)>>,
}

impl PragmaStates {
    /// The preprocessor starts reading `file` at byte `at`: at its
    /// beginning, or where it resumes after an `#include`.
    pub fn enter(&mut self, file: FileId, at: u32) {
        let i = file.0 as usize;
        if self.by_file.len() <= i {
            self.by_file.resize(i + 1, Vec::new());
        }
        self.by_file[i].push(self.pieces.len() as u32);
        self.pieces.push((file, at));
    }

    /// `#pragma clang diagnostic <severity> "-W<name>"` at `at`.
    pub fn set(&mut self, at: Span, name: &str, severity: PragmaSeverity) {
        self.nodes.push(Node { parent: self.current, name: name.into(), severity });
        if severity != PragmaSeverity::Ignored && !self.turned_on.iter().any(|n| **n == *name) {
            self.turned_on.push(name.into());
        }
        self.change(at, self.nodes.len() as u32);
    }

    /// `#pragma clang diagnostic push`.
    pub fn push(&mut self) {
        self.stack.push(self.current);
    }

    /// `#pragma clang diagnostic pop` at `at`; `false` when no `push` is
    /// left to match it.
    pub fn pop(&mut self, at: Span) -> bool {
        match self.stack.pop() {
            Some(state) => {
                self.change(at, state);
                true
            }
            None => false,
        }
    }

    /// From byte `at` of `file` on, its warnings are dropped (`on`: after
    /// `#pragma GCC system_header`, a line marker with flag `3`) or kept
    /// (a line marker without it, in a file that had one).
    pub fn system_region(&mut self, file: FileId, at: u32, on: bool) {
        let i = file.0 as usize;
        let was_on = self.system.get(i).and_then(|v| v.last()).is_some_and(|&(_, s)| s);
        if was_on == on {
            return;
        }
        if self.system.len() <= i {
            self.system.resize(i + 1, Vec::new());
        }
        self.system[i].push((at, on));
    }

    fn change(&mut self, at: Span, state: u32) {
        self.current = state;
        let Some(mut pos) = self.position(at) else { return };
        // A pragma from a macro is placed at the macro's use, which may
        // lie before a pragma read earlier from the same use: keep the
        // order in which they were read.
        if let Some(&(last, _)) = self.changes.last() {
            pos = pos.max(last);
        }
        self.changes.push((pos, state));
    }

    fn position(&self, at: Span) -> Option<Position> {
        let pieces = self.by_file.get(at.file.0 as usize)?;
        let k = pieces.partition_point(|&p| self.pieces[p as usize].1 <= at.lo);
        let piece = *pieces.get(k.checked_sub(1)?)?;
        Some((piece, at.lo))
    }

    /// Whether no pragma changed anything: every warning is as the
    /// command line says.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.system.is_empty()
    }

    /// What the pragmas in force at `at` make of `warning`: `None` where
    /// none names it (the command line decides).
    pub fn lookup(&self, at: Span, warning: &str) -> Option<PragmaSeverity> {
        if let Some(regions) = self.system.get(at.file.0 as usize) {
            let k = regions.partition_point(|&(lo, _)| lo <= at.lo);
            if k > 0 && regions[k - 1].1 {
                return Some(PragmaSeverity::Ignored);
            }
        }
        if self.changes.is_empty() {
            return None;
        }
        let pos = self.position(at)?;
        let k = self.changes.partition_point(|&(p, _)| p <= pos);
        let mut state = self.changes.get(k.checked_sub(1)?)?.1;
        // The option nearest the state decides alone: each makes the
        // warning off, a warning or an error whatever came before.
        while state != 0 {
            let node = &self.nodes[state as usize - 1];
            if groups::contains(&node.name, warning) {
                return Some(node.severity);
            }
            state = node.parent;
        }
        None
    }

    /// Does some pragma turn `warning` on?
    pub fn may_turn_on(&self, warning: &str) -> bool {
        self.turned_on.iter().any(|n| groups::contains(n, warning))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: u32, lo: u32) -> Span {
        Span { file: FileId(file), lo, hi: lo + 1 }
    }

    #[test]
    fn a_pragma_applies_after_it_and_through_includes() {
        let mut s = PragmaStates::default();
        s.enter(FileId(1), 0);
        s.set(at(1, 10), "unused", PragmaSeverity::Ignored);
        // File 2 included at byte 50 of file 1, then file 1 resumes at 60.
        s.enter(FileId(2), 0);
        s.push();
        s.set(at(2, 5), "unused-variable", PragmaSeverity::Error);
        s.enter(FileId(1), 60);
        assert_eq!(s.lookup(at(1, 5), "unused-variable"), None, "before the pragma");
        assert_eq!(s.lookup(at(1, 20), "unused-variable"), Some(PragmaSeverity::Ignored));
        assert_eq!(s.lookup(at(2, 1), "unused-variable"), Some(PragmaSeverity::Ignored), "the header, before its pragma");
        assert_eq!(s.lookup(at(2, 9), "unused-variable"), Some(PragmaSeverity::Error));
        assert_eq!(s.lookup(at(1, 70), "unused-variable"), Some(PragmaSeverity::Error), "on after the header");
        assert_eq!(s.lookup(at(1, 70), "unused-value"), Some(PragmaSeverity::Ignored), "through the group");
        assert_eq!(s.lookup(at(1, 70), "shadow"), None);
        assert!(s.pop(at(1, 80)));
        assert_eq!(s.lookup(at(1, 90), "unused-variable"), Some(PragmaSeverity::Ignored), "the pushed state");
        assert!(!s.pop(at(1, 95)), "nothing left to pop");
        assert!(s.may_turn_on("unused-variable") && !s.may_turn_on("unused-value"));
        assert_eq!(s.lookup(at(7, 0), "unused-variable"), None, "a file read before any pragma (built-in text)");
    }

    #[test]
    fn system_headers_drop_their_warnings() {
        let mut s = PragmaStates::default();
        s.enter(FileId(1), 0);
        s.system_region(FileId(3), 10, true);
        assert_eq!(s.lookup(at(3, 10), "shadow"), Some(PragmaSeverity::Ignored));
        assert_eq!(s.lookup(at(3, 9), "shadow"), None, "before the pragma");
        assert_eq!(s.lookup(at(1, 0), "shadow"), None);
        // Line markers turn it off and on again.
        s.system_region(FileId(3), 20, true);
        s.system_region(FileId(3), 30, false);
        s.system_region(FileId(3), 40, true);
        assert_eq!(s.lookup(at(3, 25), "shadow"), Some(PragmaSeverity::Ignored));
        assert_eq!(s.lookup(at(3, 35), "shadow"), None);
        assert_eq!(s.lookup(at(3, 45), "shadow"), Some(PragmaSeverity::Ignored));
    }
}
