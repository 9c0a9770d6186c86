//! Diagnostics as data.
//!
//! Every stage reports problems by pushing [`Diagnostic`]s into a
//! [`Diagnostics`] sink and carries on. Nothing here renders: that is
//! [`render`], which the driver and the snapshot tests call. Stages must not
//! print, and must not decide whether a warning is an error: the sink applies
//! `-w`, `-Werror`, `-W<name>` and `-Wno-<name>` ([`WarningPolicy`]) as
//! diagnostics arrive, so every stage gets them for free.

pub mod groups;
pub mod pragmas;
pub mod render;

use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
    /// An error after which nothing more is reported: a missing
    /// `#include`, `#pragma clang diagnostic fatal`, `-Wfatal-errors`.
    Fatal,
    /// A bug in clc, not in the user's program.
    Internal,
}

/// A label: a span and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A note with an optional location of its own ("expanded from macro `X`"
/// points at the macro's definition; "the rule is …" points nowhere).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Option<Span>,
    pub message: String,
}

/// A suggested edit: replace `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixIt {
    pub span: Span,
    pub replacement: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable identifier: `E0xxx` for errors, a warning's `-W` name for
    /// warnings (so `-Wno-<code>` silences it).
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    /// What the primary location is about (an operation whose operator
    /// is the primary span; the other access of an unsequenced pair):
    /// underlined around the caret, `a ~~^~~ b`, as clang shows it.
    pub ranges: Vec<Span>,
    pub secondary: Vec<Label>,
    pub notes: Vec<Note>,
    pub fixit: Option<FixIt>,
    /// Reported only when asked for, though its warning option is on by
    /// default (clang's options are per diagnostic: `-Wunknown-pragmas`'
    /// "unknown pragma ignored" needs `-Wall`, its "pragma diagnostic pop
    /// could not pop" does not).
    pub off_by_default: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, span, message)
    }

    pub fn fatal(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Fatal, code, span, message)
    }

    pub fn warning(name: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, name, span, message)
    }

    pub fn new(severity: Severity, code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            primary: Label { span, message: String::new() },
            ranges: Vec::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
            fixit: None,
            off_by_default: false,
        }
    }

    /// Marks the warning as one reported only when asked for (see
    /// [`Diagnostic::off_by_default`]).
    pub fn off_by_default(mut self) -> Diagnostic {
        self.off_by_default = true;
        self
    }

    /// Text printed under the primary span.
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        self.primary.message = message.into();
        self
    }

    /// Underlines `range` around the primary span (see [`Diagnostic::ranges`]).
    pub fn with_range(mut self, range: Span) -> Diagnostic {
        self.ranges.push(range);
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    pub fn with_note(mut self, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note { span: None, message: message.into() });
        self
    }

    pub fn with_note_at(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note { span: Some(span), message: message.into() });
        self
    }

    pub fn with_fixit(mut self, span: Span, replacement: impl Into<String>) -> Diagnostic {
        self.fixit = Some(FixIt { span, replacement: replacement.into() });
        self
    }
}

/// How warnings are treated, from `-w`, `-Werror`, `-W<name>`,
/// `-Wno-<name>`, `-Werror=<name>`, `-Wno-error=<name>`. A name may be a
/// group ([`groups`]: `-Wall`, `-Wparentheses`, …); the options apply in
/// the order given, so `-Wno-unused -Wunused-variable` turns on only
/// that one. `#pragma clang diagnostic` changes them from where it stands
/// ([`pragmas`]).
#[derive(Clone, Debug, Default)]
pub struct WarningPolicy {
    /// `-w`: drop every warning (but those made errors by name).
    pub suppress_all: bool,
    /// `-Werror`: every warning that is kept becomes an error.
    pub all_errors: bool,
    /// `-Wfatal-errors`: the first error is fatal.
    pub fatal_errors: bool,
    /// The per-name options, in command-line order.
    pub per_name: Vec<(String, WarningState)>,
    /// The diagnostic pragmas read so far (the preprocessor fills it).
    pub pragmas: pragmas::PragmaStates,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningState {
    /// `-Wno-<name>`.
    Off,
    /// `-W<name>`.
    On,
    /// `-Werror=<name>`: on, and an error.
    Error,
    /// `-Wno-error=<name>`: a warning even under `-Werror` (not turned on).
    NoError,
}

impl WarningPolicy {
    /// Sets `name` (a warning or a group), after the options before.
    pub fn set(&mut self, name: impl Into<String>, state: WarningState) {
        self.per_name.push((name.into(), state));
    }

    /// Whether warning `name` is on, and whether it is an error by name
    /// (`Some(false)`: kept a warning by name).
    fn state(&self, name: &str, off_by_default: bool) -> (bool, Option<bool>) {
        let mut on = groups::on_by_default(name) && !off_by_default;
        let mut error = None;
        for (option, state) in &self.per_name {
            if !groups::contains(option, name) {
                continue;
            }
            match state {
                WarningState::Off => on = false,
                WarningState::On => on = true,
                WarningState::Error => {
                    on = true;
                    error = Some(true);
                }
                WarningState::NoError => error = Some(false),
            }
        }
        (on, error)
    }

    /// Could warning `name` be reported somewhere? (To skip work no one
    /// asked for.)
    pub fn enabled(&self, name: &str) -> bool {
        let (on, error) = self.state(name, false);
        on && (!self.suppress_all || error == Some(true)) || !self.suppress_all && self.pragmas.may_turn_on(name)
    }

    /// Applies the policy; `None` means the diagnostic is dropped.
    pub fn apply(&self, mut d: Diagnostic) -> Option<Diagnostic> {
        if d.severity != Severity::Warning {
            return Some(d);
        }
        // A pragma in force decides over the command line, but for `-w`
        // (clang's too).
        match self.pragmas.lookup(d.primary.span, d.code) {
            None => {}
            Some(pragmas::PragmaSeverity::Ignored) => return None,
            Some(_) if self.suppress_all => return None,
            Some(pragmas::PragmaSeverity::Warning) => return Some(d),
            Some(pragmas::PragmaSeverity::Error) => {
                d.severity = Severity::Error;
                return Some(d);
            }
            Some(pragmas::PragmaSeverity::Fatal) => {
                d.severity = Severity::Fatal;
                return Some(d);
            }
        }
        let (on, error) = self.state(d.code, d.off_by_default);
        if !on {
            return None;
        }
        match error {
            Some(true) => {
                d.severity = Severity::Error;
                return Some(d);
            }
            _ if self.suppress_all => return None,
            Some(false) => return Some(d),
            None => {}
        }
        if self.all_errors {
            d.severity = Severity::Error;
            d.notes.push(Note { span: None, message: format!("treated as an error because of -Werror [-W{}]", d.code) });
        }
        Some(d)
    }
}

/// The sink every stage writes into.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub policy: WarningPolicy,
    list: Vec<Diagnostic>,
    errors: usize,
    /// Errors that are no warnings made errors (`-Werror`): clang's
    /// "uncompilable" errors, after which it skips some analyses.
    hard_errors: usize,
    /// Source that a syntax error broke (see [`Diagnostics::quiet`]).
    broken: Vec<Span>,
    /// A fatal error was kept: nothing more is, as clang's.
    fatal: bool,
}

impl Diagnostics {
    pub fn new(policy: WarningPolicy) -> Diagnostics {
        Diagnostics { policy, list: Vec::new(), errors: 0, hard_errors: 0, broken: Vec::new(), fatal: false }
    }

    /// Marks `span` as broken by a syntax error (reported already): later
    /// errors and warnings inside it (sema's, about what the parser made
    /// of the rest) are dropped.
    pub fn quiet(&mut self, span: Span) {
        self.broken.push(span);
    }

    pub fn push(&mut self, d: Diagnostic) {
        let at = d.primary.span;
        if d.severity != Severity::Internal && self.broken.iter().any(|b| b.file == at.file && b.lo <= at.lo && at.hi <= b.hi) {
            return;
        }
        if self.fatal && d.severity != Severity::Internal {
            return;
        }
        let hard = d.severity >= Severity::Error;
        if let Some(mut d) = self.policy.apply(d) {
            if d.severity >= Severity::Error {
                self.errors += 1;
                self.hard_errors += usize::from(hard);
                if self.policy.fatal_errors && d.severity == Severity::Error {
                    d.severity = Severity::Fatal;
                }
                self.fatal |= d.severity == Severity::Fatal;
            }
            self.list.push(d);
        }
    }

    /// Whether a fatal error was reported: later stages need not run.
    pub fn has_fatal(&self) -> bool {
        self.fatal
    }

    /// Drops the warnings `name` inside `span`, which an error about the
    /// same construct says better (clang does not warn about a division
    /// by zero in an array size it reports as not constant).
    pub fn drop_warnings(&mut self, name: &str, span: Span) {
        self.list.retain(|d| !(d.severity == Severity::Warning && d.code == name && d.primary.span.file == span.file && span.lo <= d.primary.span.lo && d.primary.span.hi <= span.hi));
    }

    /// How many diagnostics were kept so far: a mark for [`Diagnostics::retarget`].
    pub fn mark(&self) -> usize {
        self.list.len()
    }

    /// Points the diagnostics kept since `mark` that are about all of
    /// `whole` (an operation) at `at` (its operator), their ranges (`whole`
    /// if they have none) underlined around it: where clang points them.
    /// Their notes located at `whole` move with them.
    pub fn retarget(&mut self, mark: usize, whole: Span, at: Span) {
        for d in &mut self.list[mark..] {
            if d.primary.span == whole {
                d.primary.span = at;
                if d.ranges.is_empty() {
                    d.ranges.push(whole);
                }
                for n in &mut d.notes {
                    if n.span == Some(whole) {
                        n.span = Some(at);
                    }
                }
            }
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Errors so far that are not warnings made errors by `-Werror`.
    pub fn hard_error_count(&self) -> usize {
        self.hard_errors
    }

    pub fn warning_count(&self) -> usize {
        self.list.iter().filter(|d| d.severity == Severity::Warning).count()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn warn(name: &'static str) -> Diagnostic {
        Diagnostic::warning(name, Span::new(FileId(0), 0, 1), "w")
    }

    #[test]
    fn policy_orders_suppression_and_promotion() {
        let mut p = WarningPolicy::default();
        assert_eq!(p.apply(warn("a")).unwrap().severity, Severity::Warning);
        p.all_errors = true;
        assert_eq!(p.apply(warn("a")).unwrap().severity, Severity::Error);
        p.set("a", WarningState::Off);
        assert!(p.apply(warn("a")).is_none());
        p.set("a", WarningState::NoError);
        assert!(p.apply(warn("a")).is_none(), "-Wno-error= does not turn a warning on");
        p.set("a", WarningState::On);
        assert_eq!(p.apply(warn("a")).unwrap().severity, Severity::Warning, "-Wno-error=a keeps it a warning");
        p.suppress_all = true;
        assert!(p.apply(warn("b")).is_none());
        p.set("b", WarningState::Error);
        assert_eq!(p.apply(warn("b")).unwrap().severity, Severity::Error);
        let e = Diagnostic::error("E0001", Span::default(), "e");
        assert!(p.apply(e).is_some(), "errors are never dropped");
    }

    #[test]
    fn groups_apply_in_command_line_order() {
        let mut p = WarningPolicy::default();
        assert!(p.apply(warn("unused-variable")).is_none(), "off by default, as in clang");
        p.set("all", WarningState::On);
        assert!(p.apply(warn("unused-variable")).is_some());
        assert!(p.apply(warn("sign-compare")).is_none(), "-Wextra's, not -Wall's");
        p.set("unused", WarningState::Off);
        assert!(p.apply(warn("unused-variable")).is_none());
        assert!(p.apply(warn("unused-comparison")).is_none(), "through unused-value");
        p.set("unused-comparison", WarningState::On);
        assert!(p.apply(warn("unused-comparison")).is_some());
        p.set("parentheses", WarningState::Error);
        assert_eq!(p.apply(warn("dangling-else")).unwrap().severity, Severity::Error);
        p.set("dangling-else", WarningState::NoError);
        assert_eq!(p.apply(warn("dangling-else")).unwrap().severity, Severity::Warning);
        assert!(p.enabled("shift-op-parentheses") && !p.enabled("unused-variable"));
    }

    #[test]
    fn pragmas_decide_after_their_place_but_for_minus_w() {
        use crate::source::FileId;
        let at = |lo: u32| Span { file: FileId(0), lo, hi: lo + 1 };
        let warn_at = |name: &'static str, lo: u32| Diagnostic::warning(name, at(lo), "w");
        let mut p = WarningPolicy { all_errors: true, ..Default::default() };
        p.set("unused", WarningState::Off);
        p.pragmas.enter(FileId(0), 0);
        p.pragmas.set(at(10), "unused-variable", pragmas::PragmaSeverity::Warning);
        p.pragmas.set(at(20), "dangling-else", pragmas::PragmaSeverity::Ignored);
        assert!(p.apply(warn_at("unused-variable", 5)).is_none(), "before the pragma: -Wno-unused");
        assert_eq!(p.apply(warn_at("unused-variable", 15)).unwrap().severity, Severity::Warning, "a warning even under -Werror");
        assert_eq!(p.apply(warn_at("dangling-else", 15)).unwrap().severity, Severity::Error);
        assert!(p.apply(warn_at("dangling-else", 25)).is_none());
        assert!(p.enabled("unused-variable") && !p.enabled("unused-value"), "turned on somewhere, or nowhere");
        p.suppress_all = true;
        assert!(p.apply(warn_at("unused-variable", 15)).is_none(), "-w drops what pragmas turn on");
        assert!(!p.enabled("unused-variable"));
        let quiet = warn_at("unknown-pragmas", 0).off_by_default();
        let mut q = WarningPolicy::default();
        assert!(q.apply(quiet.clone()).is_none() && q.apply(warn_at("unknown-pragmas", 0)).is_some(), "off by default, though the option is on");
        q.set("all", WarningState::On);
        assert!(q.apply(quiet).is_some());
    }

    #[test]
    fn sink_counts_errors_after_policy() {
        let mut d = Diagnostics::new(WarningPolicy { all_errors: true, ..Default::default() });
        d.push(warn("x"));
        assert!(d.has_errors());
        assert_eq!(d.len(), 1);
    }
}
