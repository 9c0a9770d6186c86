//! The C99 preprocessor, with OpenCL's predefined macros and pragmas.
//!
//! Entry point: [`preprocess`]. It reads the main file and its includes
//! into the [`SourceMap`], runs directives and macro expansion, and returns
//! the token stream the parser consumes ([`PpOutput`]).
//!
//! Every output token keeps two places: `span`, where the user sees it
//! (the outermost macro invocation for expanded tokens), and `spelling`,
//! where its characters are. `expansion` indexes [`Expansions`], which
//! turns into "expanded from macro `X`" notes ([`Expansions::notes`]).
//!
//! The work is split by concern: `engine` drives files, directives,
//! conditionals and includes; `macros` defines and expands macros;
//! `builtin` computes the builtin macros (`__LINE__`, `__COUNTER__`,
//! `__has_include`…), `features` what the feature tests answer; `expr`
//! evaluates `#if`; `predefined` holds the one table
//! of predefined macros; `print` writes `-E` output. The preprocessor knows
//! nothing of the grammar beyond tokens.
//!
//! Error codes (stable; warnings use their `-W` name instead):
//! - `E0100` unterminated conditional directive
//! - `E0101` `#else`/`#elif`/`#endif` without `#if`, or after `#else`
//! - `E0103` invalid preprocessing directive
//! - `E0104` `#error`, `#pragma GCC error`
//! - `E0105` `#include` file not found or unreadable
//! - `E0106` `#include` nested too deeply
//! - `E0107` malformed `#include` / `#line` / `#ifdef` / `__has_include`
//!   operands
//! - `E0108` bad macro name
//! - `E0109` bad macro parameter list, misplaced `#` or `##` in a body,
//!   malformed `__VA_OPT__`
//! - `E0112` wrong number of macro arguments (feature tests' too)
//! - `E0113` unterminated function-like macro invocation
//! - `E0114` `##` forming an invalid token
//! - `E0115` malformed `#if` expression or feature-test operand
//!   (`__has_builtin(1)`), a literal too large for `#if`'s 128 bits
//! - `E0116` division or remainder by zero in `#if`
//! - `E0117` invalid token (unterminated literal or comment, stray character)
//! - `E0118` macro expansion too large or nested too deeply
//! - `E0120` malformed `_Pragma`
//! - `E0121` malformed `#pragma unroll` count (`(` unclosed, nothing in
//!   the parentheses)
//! - `E0122` a pragma's string operand missing or malformed (`#pragma
//!   clang diagnostic ignored`, `#pragma message(` …)

mod builtin;
mod engine;
mod expr;
mod features;
mod macros;
mod predefined;
mod print;
#[cfg(test)]
mod tests;

pub use print::{print, print_macros};

use crate::diag::{Diagnostics, Note};
use crate::lex::Token;
use crate::options::{ClStd, Target};
use crate::source::{FileId, SourceMap, Span};
use std::path::PathBuf;

/// Preprocesses `main` (already in `sm`): runs the predefined macros and
/// `opts.macros`, then the file and everything it includes. Never fails:
/// problems become diagnostics and the output holds what could be made.
pub fn preprocess(sm: &mut SourceMap, main: FileId, opts: &PpOptions, diags: &mut Diagnostics) -> PpOutput {
    engine::run(sm, main, opts, diags)
}

/// What the preprocessor needs to know.
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub std: ClStd,
    pub target: Target,
    /// `-I` directories, searched in order after the including file's
    /// directory (for `"..."`) and before nothing else (for `<...>`).
    pub include_dirs: Vec<PathBuf>,
    /// `-D` and `-U` in command-line order.
    pub macros: Vec<CmdMacro>,
    /// `-include FILE`s, in order: read before the main file as if it
    /// began with `#include "FILE"` lines (searched from the working
    /// directory, then the `-I` directories).
    pub includes: Vec<PathBuf>,
    /// The floating-point options, which `__FAST_RELAXED_MATH__` and
    /// `__FINITE_MATH_ONLY__` tell the program.
    pub fp: crate::options::FpOptions,
    /// Seconds since 1970 (`SOURCE_DATE_EPOCH`, which the driver reads):
    /// `__DATE__`, `__TIME__` and `__TIMESTAMP__` give this time in UTC.
    /// `None` (the default): now and the file's modification time, in
    /// local time.
    pub source_date_epoch: Option<u64>,
    /// What `-E` prints of the macros (`-dM`, `-dD`): the definition
    /// lines are kept in [`PpOutput::macro_lines`] only when asked for.
    pub macro_dump: MacroDump,
}

/// What `-dM` and `-dD` ask `-E` to print of the macros, as clang does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MacroDump {
    /// Nothing more (the default).
    #[default]
    None,
    /// `-dM`: only the `#define` line of every macro defined at the end
    /// (predefined ones too; not the builtin ones, `__LINE__`), sorted by
    /// name ([`print_macros`]).
    Definitions,
    /// `-dD`: the `#define` and `#undef` lines where they are, predefined
    /// and command-line ones first, along with the output ([`print`]).
    InPlace,
}

/// A `#define` or `#undef` line as clang's `-dM`/`-dD` print it
/// (`#define F(x,y) ((x)+(y))`: parameters without spaces, the body's
/// tokens one space apart where they were apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroLine {
    /// Index in [`PpOutput::tokens`] of the first token after the
    /// directive (as [`Pragma::at`]), and how many pragmas came before it.
    pub at: usize,
    pub pragmas_before: usize,
    /// The directive's name token (its file and line place the `-dD`
    /// line).
    pub span: Span,
    pub text: String,
}

/// A `-D`/`-U` option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CmdMacro {
    /// `-DNAME`, `-DNAME=VALUE`, `-D'F(x)=x*2'`: the text after `-D`.
    Define(String),
    /// `-UNAME`.
    Undef(String),
}

/// The result of preprocessing one translation unit.
#[derive(Debug, Default)]
pub struct PpOutput {
    /// The tokens, macros expanded, directives removed. Never contains
    /// `Hash`/`HashHash` produced by directives, nor error tokens (those
    /// became diagnostics).
    pub tokens: Vec<Token>,
    pub expansions: Expansions,
    /// Pragmas the later stages care about, in source order.
    pub pragmas: Vec<Pragma>,
    /// The operand tokens of pragmas that take an expression (`#pragma
    /// unroll N`), macros expanded, each pragma's a range of this list
    /// ([`PragmaKind::Unroll`]'s `count`): the parser reads them as an
    /// expression.
    pub pragma_tokens: Vec<Token>,
    /// `#define`/`#undef` lines for `-dD` (in order), or the definitions
    /// at the end for `-dM` (sorted), as [`PpOptions::macro_dump`] asks.
    pub macro_lines: Vec<MacroLine>,
    /// Every file `#include`d, in the order first read (for build scripts'
    /// `rerun-if-changed`).
    pub includes: Vec<PathBuf>,
    /// Preprocessing stopped at an error that makes the rest meaningless
    /// (an `#include` not found or nested too deeply): nothing after it
    /// is checked.
    pub fatal: bool,
}

/// A pragma, anchored in the token stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Pragma {
    /// Index in [`PpOutput::tokens`] of the first token after the pragma
    /// (`tokens.len()` at the end of the file).
    pub at: usize,
    /// The pragma's text in the source, for diagnostics.
    pub span: Span,
    pub kind: PragmaKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PragmaKind {
    /// `#pragma OPENCL EXTENSION name : enable|disable` (`name` may be
    /// `all`).
    Extension { name: String, enable: bool },
    /// `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT`.
    FpContract(Switch),
    /// `#pragma unroll`, `#pragma unroll N`, `#pragma unroll (N)`,
    /// `#pragma nounroll`: applies to the loop that follows. `N` is a
    /// constant expression (clang's), so its tokens are kept for the parser
    /// and the checker, macros expanded: `count` indexes
    /// [`PpOutput::pragma_tokens`], empty without `N`. `name` is the word
    /// `unroll`/`nounroll`, where clang reports duplicate pragmas.
    Unroll { nounroll: bool, count: std::ops::Range<usize>, name: Span },
    /// `#pragma pack`: the largest alignment of the members of structs
    /// and unions defined from here on (0: their own alignment).
    Pack(u32),
    /// Any other pragma but `once`, as written (words joined by a space),
    /// for `-E` to pass on, as clang does.
    Verbatim(String),
    /// `#pragma clc __debug crash|llvm_fatal_error`: makes the `clc`
    /// command fail on purpose, to test its crash reports (clang's
    /// `#pragma clang __debug crash`).
    Debug(DebugAction),
}

/// What `#pragma clc __debug` does (see `crash::debug_action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugAction {
    /// A SIGSEGV.
    Crash,
    /// LLVM's `report_fatal_error`.
    LlvmFatalError,
}

impl DebugAction {
    pub fn name(self) -> &'static str {
        match self {
            DebugAction::Crash => "crash",
            DebugAction::LlvmFatalError => "llvm_fatal_error",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    On,
    Off,
    Default,
}

/// One macro expansion: which macro, where it was used, where it is
/// defined, and the expansion it happened inside (`0` = none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansion {
    pub macro_name: String,
    pub use_span: Span,
    /// The macro's name in its `#define`; `None` for builtin macros
    /// (`__LINE__`) and command-line ones.
    pub def_span: Option<Span>,
    pub parent: u32,
}

/// The table of expansions; index 0 is reserved for "not from a macro".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansions {
    entries: Vec<Expansion>,
}

impl Default for Expansions {
    fn default() -> Expansions {
        Expansions { entries: vec![Expansion { macro_name: String::new(), use_span: Span::default(), def_span: None, parent: 0 }] }
    }
}

impl Expansions {
    /// Records an expansion and returns its index (never 0).
    pub fn push(&mut self, e: Expansion) -> u32 {
        self.entries.push(e);
        (self.entries.len() - 1) as u32
    }

    pub fn get(&self, id: u32) -> Option<&Expansion> {
        if id == 0 { None } else { self.entries.get(id as usize) }
    }

    /// "expanded from macro `X`" notes for a token from expansion `id`,
    /// innermost first, each pointing at the macro's definition.
    pub fn notes(&self, mut id: u32) -> Vec<Note> {
        let mut notes = Vec::new();
        while let Some(e) = self.get(id) {
            notes.push(Note { span: e.def_span, message: format!("expanded from macro `{}`", e.macro_name) });
            if notes.len() > 8 {
                break;
            }
            id = e.parent;
        }
        notes
    }
}

#[cfg(test)]
mod expansion_tests {
    use super::*;

    #[test]
    fn notes_walk_the_expansion_chain() {
        let mut ex = Expansions::default();
        let outer = ex.push(Expansion { macro_name: "OUTER".into(), use_span: Span::new(FileId(0), 0, 5), def_span: Some(Span::new(FileId(0), 10, 15)), parent: 0 });
        let inner = ex.push(Expansion { macro_name: "INNER".into(), use_span: Span::new(FileId(0), 0, 5), def_span: None, parent: outer });
        let notes = ex.notes(inner);
        assert_eq!(notes.len(), 2);
        assert_eq!(notes[0].message, "expanded from macro `INNER`");
        assert_eq!(notes[1].span, Some(Span::new(FileId(0), 10, 15)));
        assert!(ex.notes(0).is_empty());
    }
}
