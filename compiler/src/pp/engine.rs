//! The preprocessor's driver: the stack of files being read, directives,
//! conditional groups and `#include`.
//!
//! Directives are only recognised in file text (a `#` with `LINE_START`
//! read from a file), never in macro expansions. Everything is iterative:
//! files, conditional groups and macro contexts live on heap stacks, so
//! deeply nested input cannot overflow the Rust stack.

use super::macros::{Macro, MacroCtx};
use super::{DebugAction, PpOptions, PpOutput, Pragma, PragmaKind, Switch};
use crate::diag::pragmas::PragmaSeverity;
use crate::diag::{Diagnostic, Diagnostics};
use crate::lex::{self, flags, Token, TokenKind};
use crate::source::{FileId, LineMarkerFlag, SourceMap, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};

/// Deepest `#include` nesting, as clang's default.
const MAX_INCLUDE_DEPTH: usize = 200;

/// The extensions `#pragma OPENCL EXTENSION` names without a warning in
/// every dialect: clang-22's list of those that need the pragma.
const PRAGMA_EXTENSIONS: &[&str] = &[
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_clang_storage_class_specifiers",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_device_side_avc_motion_estimation",
];

/// Those clang-22 knows from OpenCL C 2.0 on ("unsupported" before).
const PRAGMA_EXTENSIONS_2_0: &[&str] = &["cl_khr_mipmap_image", "cl_khr_mipmap_image_writes", "cl_khr_subgroups", "cl_khr_srgb_image_writes"];

/// The bit of `name` in [`Pp::bloom`].
pub(super) fn bloom_bit(name: &str) -> (usize, u64) {
    let b = name.as_bytes();
    let h = (b.first().copied().unwrap_or(0) as usize).wrapping_mul(31) ^ (b.last().copied().unwrap_or(0) as usize).wrapping_mul(7) ^ b.len();
    ((h >> 6) & 3, 1u64 << (h & 63))
}

/// Macro names are short strings; FxHash costs less than the lookup
/// itself, where the default SipHash costs more.
pub(super) type FxMap<K, V> = HashMap<K, V>;

/// One file being read.
pub(super) struct FileCtx {
    pub file: FileId,
    pub toks: Vec<Token>,
    pub pos: usize,
    /// Open conditional groups of this file.
    pub conds: Vec<Cond>,
    pub canonical: Option<PathBuf>,
    /// `__INCLUDE_LEVEL__`: 0 for the main file and the list of
    /// `-include` files, one more than its includer's for an `#include`d
    /// file.
    pub level: u32,
    /// The `-I` directory (its index) where `#include` found the file;
    /// `None` for one found next to its includer or by an absolute path.
    /// `__has_include_next` searches the directories after it.
    pub found_in: Option<usize>,
}

pub(super) struct Cond {
    /// The `#if`/`#ifdef`/`#ifndef` directive, for "unterminated" errors.
    pub span: Span,
    /// Some group of this conditional has been taken already.
    pub taken: bool,
    pub seen_else: bool,
}

/// How the expansion loop treats what it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Tokens for the output: error tokens become diagnostics.
    Top,
    /// Argument pre-expansion and `#include`/`#line` operands.
    Plain,
    /// A `#if` line: `defined` is an operator.
    If,
}

pub(super) struct Pp<'a> {
    pub sm: &'a mut SourceMap,
    pub opts: &'a PpOptions,
    pub diags: &'a mut Diagnostics,
    pub out: PpOutput,
    /// Every macro ever defined; `names` maps the live ones.
    pub defs: Vec<Macro>,
    pub names: FxMap<Box<str>, u32>,
    /// A filter over names ever defined (first byte, last byte, length):
    /// most identifiers in a file are not macros, and this rejects them
    /// without hashing.
    pub bloom: [u64; 4],
    pub files: Vec<FileCtx>,
    pub ctxs: Vec<MacroCtx>,
    pub once: HashSet<PathBuf>,
    /// Include guards: canonical path to the guarding macro.
    pub guards: HashMap<PathBuf, Box<str>>,
    pub seen_includes: HashSet<PathBuf>,
    /// Tokens produced by macro expansion so far, against `work_limit`.
    pub work: u64,
    pub work_limit: u64,
    pub work_exceeded: bool,
    /// Nesting of argument pre-expansions (each one recurses).
    pub arg_depth: u32,
    pub arg_depth_reported: bool,
    /// A fatal error (include depth) stops reading altogether.
    pub fatal: bool,
    /// Reading user code (not the predefined or command-line macros).
    pub user_code: bool,
    /// An error inside a `#if` line's `defined` already reported.
    pub if_failed: bool,
    /// Number of tokens emitted so far at top level, for `Pragma::at`.
    pub emitted: usize,
    /// Spans of the texts "0" and "1" for `defined` results.
    pub zero: Span,
    pub one: Span,
    /// Header constants (see `header_macro`) `#undef`ed.
    pub undefined_constants: HashSet<Box<str>>,
    /// `#pragma pack`: the largest member alignment in force (0: none),
    /// and the values `push` saved, with their labels and places.
    pub pack: u32,
    pub pack_stack: Vec<(Option<Box<str>>, u32, Span)>,
    /// `#pragma push_macro`: each name's saved definitions (`None`: it
    /// was not defined).
    pub pushed_macros: FxMap<Box<str>, Vec<Option<u32>>>,
    /// `__COUNTER__`'s next value.
    pub counter: u64,
    /// `__DATE__` and `__TIME__`, fixed at their first use.
    pub date_time: Option<(String, String)>,
    /// An expansion ended with a space for the token after it (see
    /// `MacroCtx::space_after`): the next token read gets it.
    pub pending_space: bool,
}

pub(super) fn run(sm: &mut SourceMap, main: FileId, opts: &PpOptions, diags: &mut Diagnostics) -> PpOutput {
    let consts = sm.add_virtual("<built-in>", "01".to_string());
    let mut pp = Pp {
        sm,
        opts,
        diags,
        out: PpOutput::default(),
        defs: Vec::new(),
        names: FxMap::default(),
        bloom: [0; 4],
        files: Vec::new(),
        ctxs: Vec::new(),
        once: HashSet::default(),
        guards: HashMap::default(),
        seen_includes: HashSet::default(),
        work: 0,
        // Unit tests exercise the limit with less memory.
        work_limit: if cfg!(test) { 1_000_000 } else { 16_000_000 },
        work_exceeded: false,
        arg_depth: 0,
        arg_depth_reported: false,
        fatal: false,
        if_failed: false,
        user_code: false,
        emitted: 0,
        zero: Span::new(consts, 0, 1),
        one: Span::new(consts, 1, 2),
        undefined_constants: HashSet::default(),
        pack: 0,
        pack_stack: Vec::new(),
        pushed_macros: FxMap::default(),
        counter: 0,
        date_time: None,
        pending_space: false,
    };
    pp.define_builtins();
    let predefined = super::predefined::text(opts);
    let id = pp.sm.add_virtual("<built-in>", predefined);
    pp.run_silently(id);
    let cmdline = command_line_text(&opts.macros);
    if !cmdline.is_empty() {
        let id = pp.sm.add_virtual("<command line>", cmdline);
        pp.run_silently(id);
    }
    pp.user_code = true;
    pp.push_file(main, pp.sm.file(main).path.as_deref().and_then(|p| p.canonicalize().ok()));
    // `-include`s: a file of `#include` lines, read first (on top of the
    // main file's); with no path of its own, its quoted names are
    // searched from the working directory.
    if !opts.includes.is_empty() {
        let text: String = opts.includes.iter().map(|f| format!("#include \"{}\"\n", f.display())).collect();
        let id = pp.sm.add_virtual("<command line>", text);
        pp.push_file(id, None);
    }
    let mut toks = Vec::with_capacity(pp.files[0].toks.len());
    pp.expand_loop(0, Mode::Top, &mut toks);
    if !pp.fatal {
        for (_, _, at) in std::mem::take(&mut pp.pack_stack).into_iter().rev() {
            pp.diags.push(Diagnostic::warning("pragma-pack", at, "unterminated '#pragma pack (push, ...)' at end of file"));
        }
    }
    if opts.macro_dump == super::MacroDump::Definitions {
        let mut live: Vec<(&str, &super::macros::Macro)> = pp.names.iter().map(|(n, &id)| (&**n, &pp.defs[id as usize])).filter(|(_, m)| m.builtin == super::builtin::Builtin::None).collect();
        live.sort_unstable_by_key(|(n, _)| *n);
        let lines = live.into_iter().filter_map(|(_, m)| Some(super::MacroLine { at: toks.len(), pragmas_before: pp.out.pragmas.len(), span: m.name_span, text: m.text.as_deref()?.to_string() })).collect();
        pp.out.macro_lines = lines;
    }
    pp.out.tokens = toks;
    pp.out.fatal = pp.fatal;
    pp.out
}

/// clang's -Wcomment (in `-Wall`): the backslashes that continue a `//`
/// comment onto the next line, found in the text
/// between tokens, which holds only blanks and comments.
fn multi_line_comments(text: &str, toks: &[Token]) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut gaps = Vec::with_capacity(toks.len() + 1);
    let mut prev = 0;
    for t in toks {
        gaps.push(prev..(t.span.lo as usize).max(prev));
        prev = prev.max(t.span.hi as usize);
    }
    gaps.push(prev..bytes.len());
    let mut found = Vec::new();
    for gap in gaps {
        let mut i = gap.start;
        while i + 1 < gap.end {
            match &bytes[i..i + 2] {
                b"/*" => i = text[i + 2..gap.end].find("*/").map_or(gap.end, |k| i + 2 + k + 2),
                b"//" => {
                    // Each line the comment continues onto (clc's lexer,
                    // as C, splices only a backslash right before the
                    // newline).
                    let mut j = i + 2;
                    loop {
                        let end = text[j..gap.end].find('\n').map_or(gap.end, |k| j + k);
                        let line = text[j..end].trim_end_matches('\r');
                        if end < gap.end && line.ends_with('\\') {
                            found.push(j + line.len() - 1);
                            j = end + 1;
                        } else {
                            i = end;
                            break;
                        }
                    }
                }
                _ => i += 1,
            }
        }
    }
    found
}

/// `-D`/`-U` options as directive lines.
fn command_line_text(macros: &[super::CmdMacro]) -> String {
    let mut s = String::new();
    for m in macros {
        match m {
            super::CmdMacro::Define(d) => {
                let d = d.replace(['\n', '\r'], " ");
                match d.split_once('=') {
                    Some((name, value)) => s.push_str(&format!("#define {name} {value}\n")),
                    None => s.push_str(&format!("#define {d} 1\n")),
                }
            }
            super::CmdMacro::Undef(u) => s.push_str(&format!("#undef {u}\n")),
        }
    }
    s
}

impl Pp<'_> {
    /// Runs a file of directives (predefined or command-line macros),
    /// dropping any tokens it produces.
    fn run_silently(&mut self, id: FileId) {
        self.push_file(id, None);
        let mut sink = Vec::new();
        self.expand_loop(0, Mode::Plain, &mut sink);
        self.emitted = 0;
        self.fatal = false;
    }

    pub(super) fn push_file(&mut self, file: FileId, canonical: Option<PathBuf>) {
        let toks = lex::lex(file, &self.sm.file(file).text);
        self.diags.policy.pragmas.enter(file, 0);
        self.files.push(FileCtx { file, toks, pos: 0, conds: Vec::new(), canonical, level: 0, found_in: None });
    }

    /// The end of file `f` (popped): what is reported of it as a whole,
    /// once every pragma in it is known.
    fn end_file(&mut self, f: &FileCtx) {
        for c in f.conds.iter().rev() {
            self.diags.push(Diagnostic::error("E0100", c.span, "unterminated conditional directive"));
        }
        if self.user_code && self.diags.policy.enabled("comment") {
            for at in multi_line_comments(&self.sm.file(f.file).text, &f.toks) {
                self.diags.push(Diagnostic::warning("comment", Span::new(f.file, at, at + 1), "multi-line // comment"));
            }
        }
        // The including file resumes after the `#include` line.
        if let Some(g) = self.files.last() {
            let at = g.toks.get(g.pos).map_or(self.sm.file(g.file).text.len() as u32, |t| t.span.lo);
            self.diags.policy.pragmas.enter(g.file, at);
        }
    }

    /// The next token of the current file, after running any directives in
    /// the way; `None` at the end of the main file.
    pub(super) fn file_next(&mut self) -> Option<Token> {
        loop {
            if self.fatal {
                return None;
            }
            let f = self.files.last_mut()?;
            let Some(&tok) = f.toks.get(f.pos) else {
                let f = self.files.pop()?;
                self.end_file(&f);
                if self.files.is_empty() {
                    return None;
                }
                continue;
            };
            f.pos += 1;
            if tok.kind == TokenKind::Hash && tok.has(flags::LINE_START) {
                self.directive(tok);
                continue;
            }
            if tok.kind == TokenKind::Ident && tok.span.len() == "__VA_OPT__".len() {
                self.va_opt_misplaced(&tok);
            }
            return Some(tok);
        }
    }

    /// The rest of the directive line, from the current file.
    pub(super) fn line_rest(&mut self) -> Vec<Token> {
        let Some(f) = self.files.last_mut() else { return Vec::new() };
        let start = f.pos;
        while f.pos < f.toks.len() && !f.toks[f.pos].has(flags::LINE_START) {
            f.pos += 1;
        }
        f.toks[start..f.pos].to_vec()
    }

    /// Skips the rest of the directive line.
    fn skip_line(&mut self) {
        if let Some(f) = self.files.last_mut() {
            while f.pos < f.toks.len() && !f.toks[f.pos].has(flags::LINE_START) {
                f.pos += 1;
            }
        }
    }

    fn peek_line_token(&self) -> Option<Token> {
        let f = self.files.last()?;
        f.toks.get(f.pos).copied().filter(|t| !t.has(flags::LINE_START))
    }

    pub(super) fn text(&self, t: &Token) -> &str {
        self.sm.text(t.spelling)
    }

    fn extra_tokens(&mut self, name: &str) {
        let rest = self.line_rest();
        if let Some(first) = rest.first() {
            let span = first.span.to(rest[rest.len() - 1].span);
            self.diags.push(Diagnostic::warning("extra-tokens", span, format!("extra tokens at end of #{name} directive")));
        }
    }

    fn directive(&mut self, hash: Token) {
        let Some(name_tok) = self.peek_line_token() else { return };
        if name_tok.kind == TokenKind::Number {
            // GNU line marker `# 33 "file" 1`.
            self.do_line(hash, false);
            return;
        }
        if let Some(f) = self.files.last_mut() {
            f.pos += 1;
        }
        const DIRECTIVES: &[&str] = &["define", "undef", "include", "include_next", "if", "ifdef", "ifndef", "elif", "else", "endif", "error", "warning", "line", "pragma"];
        let text = if name_tok.kind.is_word() { self.sm.text(name_tok.spelling) } else { "" };
        let name: &'static str = DIRECTIVES.iter().copied().find(|d| *d == text).unwrap_or("");
        match name {
            "define" => self.do_define(hash.span.to(name_tok.span)),
            "undef" => self.do_undef(hash.span.to(name_tok.span)),
            "include" => self.do_include(hash, None),
            // GNU: the search goes on after the directory the current
            // file was found in.
            "include_next" => {
                let from = self.include_next_start(name_tok);
                self.do_include(hash, Some(from));
            }
            "if" => {
                let v = self.eval_if(name_tok);
                self.open_cond(hash.span.to(name_tok.span), v);
            }
            "ifdef" | "ifndef" => {
                let v = self.ifdef_operand(name_tok, name);
                self.open_cond(hash.span.to(name_tok.span), v == (name == "ifdef"));
            }
            "elif" => self.do_elif(hash, name_tok),
            "else" => self.do_else(hash, name_tok),
            "endif" => {
                let Some(f) = self.files.last_mut() else { return };
                if f.conds.pop().is_none() {
                    self.diags.push(Diagnostic::error("E0101", hash.span.to(name_tok.span), "#endif without #if"));
                }
                self.extra_tokens("endif");
            }
            "error" | "warning" => {
                let rest = self.line_rest();
                let msg = match (rest.first(), rest.last()) {
                    (Some(a), Some(b)) => self.sm.text(Span { file: a.span.file, lo: a.span.lo, hi: b.span.hi }).to_string(),
                    _ => String::new(),
                };
                // At the directive's name, as clang's.
                let span = name_tok.span.start();
                if name == "error" {
                    self.diags.push(Diagnostic::error("E0104", span, msg));
                } else {
                    self.diags.push(Diagnostic::warning("#warnings", span, msg));
                }
            }
            "line" => self.do_line(name_tok, true),
            "pragma" => {
                let rest = self.line_rest();
                let span = rest.last().map_or(hash.span.to(name_tok.span), |t| hash.span.to(t.span));
                self.pragma(&rest, span);
            }
            _ => {
                self.diags.push(Diagnostic::error("E0103", hash.span.to(name_tok.span), "invalid preprocessing directive"));
                self.skip_line();
            }
        }
    }

    /// The operand of `#ifdef`/`#ifndef`: is the macro defined?
    fn ifdef_operand(&mut self, name_tok: Token, directive: &str) -> bool {
        let rest = self.line_rest();
        match rest.first() {
            Some(t) if t.kind.is_word() => {
                self.va_opt_misplaced(t);
                if rest.len() > 1 {
                    let span = rest[1].span.to(rest[rest.len() - 1].span);
                    self.diags.push(Diagnostic::warning("extra-tokens", span, format!("extra tokens at end of #{directive} directive")));
                }
                self.is_defined(self.sm.text(t.spelling))
            }
            Some(t) => {
                self.diags.push(Diagnostic::error("E0108", t.span, "macro name must be an identifier"));
                false
            }
            None => {
                self.diags.push(Diagnostic::error("E0108", name_tok.span, "macro name missing"));
                false
            }
        }
    }

    fn open_cond(&mut self, span: Span, value: bool) {
        let Some(f) = self.files.last_mut() else { return };
        f.conds.push(Cond { span, taken: value, seen_else: false });
        if !value {
            self.skip_group();
        }
    }

    fn do_elif(&mut self, hash: Token, name_tok: Token) {
        let span = hash.span.to(name_tok.span);
        let state = self.files.last().and_then(|f| f.conds.last()).map(|c| (c.taken, c.seen_else));
        match state {
            None => {
                self.diags.push(Diagnostic::error("E0101", span, "#elif without #if"));
                self.skip_line();
            }
            Some((_, true)) => {
                self.diags.push(Diagnostic::error("E0101", span, "#elif after #else"));
                self.skip_line();
                self.skip_group();
            }
            Some((true, _)) => {
                // An earlier group was taken: the expression is not even
                // evaluated (it may use macros that are not defined).
                self.skip_line();
                self.skip_group();
            }
            Some((false, _)) => {
                let v = self.eval_if(name_tok);
                if let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) {
                    c.taken = v;
                }
                if !v {
                    self.skip_group();
                }
            }
        }
    }

    fn do_else(&mut self, hash: Token, name_tok: Token) {
        let span = hash.span.to(name_tok.span);
        let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) else {
            self.diags.push(Diagnostic::error("E0101", span, "#else without #if"));
            self.skip_line();
            return;
        };
        let dup = c.seen_else;
        c.seen_else = true;
        let taken = c.taken;
        c.taken = true;
        if dup {
            self.diags.push(Diagnostic::error("E0101", span, "#else after #else"));
        }
        self.extra_tokens("else");
        if taken {
            self.skip_group();
        }
    }

    /// Skips a false group: stops before the `#elif`, `#else` or `#endif`
    /// that ends it (which the caller then reads as a directive). Nested
    /// conditionals are only counted; nothing else is looked at.
    fn skip_group(&mut self) {
        let Some(f) = self.files.last_mut() else { return };
        let mut depth = 0usize;
        let toks = &f.toks;
        let mut i = f.pos;
        while i < toks.len() {
            let t = toks[i];
            if t.kind == TokenKind::Hash && t.has(flags::LINE_START) {
                if let Some(n) = toks.get(i + 1).filter(|n| !n.has(flags::LINE_START) && n.kind.is_word()) {
                    match self.sm.text(n.spelling) {
                        "if" | "ifdef" | "ifndef" => depth += 1,
                        "endif" if depth > 0 => depth -= 1,
                        "endif" | "else" | "elif" if depth == 0 => {
                            f.pos = i;
                            return;
                        }
                        _ => {}
                    }
                }
            }
            i += 1;
        }
        f.pos = toks.len();
    }

    /// Is `name` a macro here: one defined, or a constant of OpenCL C's
    /// headers (`header_macro`)?
    pub(super) fn is_defined(&self, name: &str) -> bool {
        self.names.contains_key(name) || self.header_macro(name).is_some()
    }

    /// The constant `name` of clang's OpenCL headers, which define it as
    /// a macro (all but the `memory_order_*` and `memory_scope_*`
    /// enumerators), when this dialect has it and its extension's macro
    /// is defined (`M_PI` needs `cl_khr_fp64`), unless `#undef`ed. clc
    /// reads no header: sema answers the names from the same table, so
    /// here they are only seen by `defined`, `#ifdef` and `#if` (which
    /// reads an integer one's value), as in clang: `#ifndef M_PI_F`
    /// must not go on to define it again as a `double`.
    pub(super) fn header_macro(&self, name: &str) -> Option<&'static clc_builtins::Constant> {
        use clc_builtins::functions::Ty;
        let c = clc_builtins::constant(name)?;
        if matches!(c.ty, Ty::MemoryOrder | Ty::MemoryScope) || self.names.contains_key(name) || self.undefined_constants.contains(name) {
            return None;
        }
        self.available(&c.requirement).then_some(c)
    }

    /// Does this dialect have what needs `r`: its version, and its
    /// extensions' macros defined (`cl_khr_fp64`)?
    pub(super) fn available(&self, r: &clc_builtins::functions::Requirement) -> bool {
        let version = self.opts.std.builtin_version();
        let in_version = r.min_version <= version && r.max_version.is_none_or(|m| version <= m);
        in_version && r.extensions.iter().all(|e| self.names.contains_key(e.name()))
    }

    fn eval_if(&mut self, name_tok: Token) -> bool {
        let rest = self.line_rest();
        let end = self.line_end(rest.last().map_or(name_tok.span, |t| t.span));
        if rest.is_empty() {
            self.diags.push(Diagnostic::error("E0115", end, "expected value in expression"));
            return false;
        }
        for t in &rest {
            self.va_opt_misplaced(t);
        }
        self.if_failed = false;
        let expanded = self.expand_list(rest, Mode::If);
        if self.if_failed {
            return false;
        }
        // Only `ULONG_MAX` is spelt with a `U` in clang's header: the
        // others are signed in `#if`, whatever their type.
        let constant = |name: &str| {
            let c = self.header_macro(name)?;
            match c.value {
                clc_builtins::ConstValue::Int(v) => Some((v, c.ty == clc_builtins::functions::Ty::ULONG)),
                clc_builtins::ConstValue::Float(_) => None,
            }
        };
        let (value, diags) = super::expr::eval(self.sm, &expanded, end, &constant);
        for d in diags {
            self.diags.push(d);
        }
        value
    }

    /// Where the line of `last` (its last token) ends, as clang places its
    /// end-of-directive: the newline, past blanks and a `//` comment.
    pub(super) fn line_end(&self, last: Span) -> Span {
        let text = &self.sm.file(last.file).text;
        let after = text.get(last.hi as usize..).unwrap_or("");
        let line = &after[..after.find('\n').unwrap_or(after.len())];
        let rest = line.trim_end_matches('\r').trim_start_matches([' ', '\t']);
        if rest.is_empty() || rest.starts_with("//") {
            let at = last.hi + line.trim_end_matches('\r').len() as u32;
            Span { file: last.file, lo: at, hi: at }
        } else {
            last.end()
        }
    }

    /// `#line N "name"`, or a GNU line marker `# N "name" flags` (`line`
    /// false): from the next line on, lines are counted from `N` in file
    /// `name`, for diagnostics, `__LINE__`, `__FILE__`, `-g` and `-E`.
    fn do_line(&mut self, name_tok: Token, line: bool) {
        let rest = self.line_rest();
        // The new numbering starts after the directive: diagnostics on its
        // line keep the old one, as clang's (which prints them before it
        // reads the rest of the line).
        let end = rest.last().map_or(name_tok.span.hi, |t| t.span.hi);
        let expanded = if line { self.expand_list(rest, Mode::Plain) } else { rest };
        let directive = if line { "#line" } else { "line marker" };
        let positive = "#line directive requires a positive integer argument";
        let Some(first) = expanded.first() else {
            self.diags.push(Diagnostic::error("E0107", name_tok.span.end(), positive));
            return;
        };
        let text = self.text(first);
        let n = match text.bytes().position(|b| !b.is_ascii_digit()) {
            _ if first.kind != TokenKind::Number => None,
            Some(i) => {
                // At the character, where the number is written here (not
                // by a macro).
                let at = first.span.lo + i as u32;
                let span = if self.sm.text(first.span) == text { Span { file: first.span.file, lo: at, hi: at + 1 } } else { first.span };
                self.diags.push(Diagnostic::error("E0107", span, format!("{directive} directive requires a simple digit sequence")));
                return;
            }
            None => text.parse::<u32>().ok(),
        };
        let Some(n) = n else {
            self.diags.push(Diagnostic::error("E0107", first.span, positive));
            return;
        };
        let name = match expanded.get(1) {
            Some(t) if t.kind == TokenKind::StringLit && self.text(t).starts_with('"') => match crate::lex::literal::parse_string(self.text(t)) {
                Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
                Err(e) => {
                    self.diags.push(Diagnostic::error("E0117", t.span, e));
                    return;
                }
            },
            Some(t) => {
                self.diags.push(Diagnostic::error("E0107", t.span, format!("invalid filename for {directive} directive")));
                return;
            }
            None => None,
        };
        let mut flag = LineMarkerFlag::None;
        let mut system = false;
        for t in expanded.iter().skip(2) {
            let bad = |pp: &mut Self, msg: &str| pp.diags.push(Diagnostic::error("E0107", t.span, msg.to_string()));
            if line {
                self.diags.push(Diagnostic::warning("extra-tokens", t.span, "extra tokens at end of #line directive"));
                break;
            }
            // `1` or `2`, then `3` (a system header), then `4` (C code).
            match (self.text(t), flag, system) {
                ("1", LineMarkerFlag::None, false) => flag = LineMarkerFlag::Enter,
                ("2", LineMarkerFlag::None, false) => flag = LineMarkerFlag::Exit,
                ("3", _, false) => system = true,
                ("4", _, true) => {}
                _ => return bad(self, "invalid flag line marker directive"),
            }
        }
        // Line 0 is allowed (`#line 0` is a GNU extension clang names only
        // with -pedantic), and so are lines past C's 2147483647.
        let Some(f) = self.files.last() else { return };
        let file = f.file;
        if !self.sm.add_line_entry(file, end, n, name, flag, (!line).then_some(system)) {
            self.diags.push(Diagnostic::error("E0107", expanded[2].span, "invalid line marker flag '2': cannot pop empty include stack"));
            return;
        }
        if !line {
            self.diags.policy.pragmas.system_region(file, end, system);
        }
    }

    /// Presumed file name and line of a span (for `__FILE__`, `__LINE__`).
    pub(super) fn presumed(&self, span: Span) -> (String, i64) {
        let p = self.sm.presumed(span);
        (p.name.to_string(), p.line as i64)
    }

    /// `#include`, or `#include_next` searching from `-I` directory
    /// `next` on (`Some(None)`: from the start, without the including
    /// file's directory).
    fn do_include(&mut self, hash: Token, next: Option<Option<usize>>) {
        let rest = self.line_rest();
        let dspan = rest.last().map_or(hash.span, |t| hash.span.to(t.span));
        // Where "In file included from" points: the file name.
        let include_at = rest.first().map_or(hash.span, |t| t.span);
        let Some((name, angled)) = self.header_name(&rest) else {
            self.diags.push(Diagnostic::error("E0107", dspan, "expected \"FILENAME\" or <FILENAME>"));
            return;
        };
        let as_path = Path::new(&name);
        let (path, found_in) = match self.find_include(&name, angled, next.flatten()) {
            Some(found) => found,
            // `<x.h>` that `"x.h"` would find (next to the including
            // file): clang's error and fix-it, and it goes on with that
            // file, so nothing cascades.
            None if angled && !as_path.is_absolute() && self.next_to_current_file(&name).is_file() => {
                // The `<…>`, where the quotes go.
                let at = Span { lo: rest.first().map_or(dspan.lo, |t| t.span.lo), ..dspan };
                let d = Diagnostic::error("E0105", at, format!("'{name}' file not found with <angled> include; use \"quotes\" instead")).with_fixit(at, format!("\"{name}\""));
                self.diags.push(d);
                (self.next_to_current_file(&name), None)
            }
            None => {
                // Fatal, as in clang: what follows would be read without
                // the header's declarations, a cascade of errors about
                // nothing. Preprocessing goes on (for `-E`, as clang's);
                // the driver checks nothing more.
                let at = match (rest.first(), rest.last()) {
                    (Some(a), Some(b)) => a.span.to(b.span),
                    _ => dspan,
                };
                self.diags.push(Diagnostic::fatal("E0105", at, format!("'{name}' file not found")));
                return;
            }
        };
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if self.once.contains(&canonical) {
            return;
        }
        if let Some(g) = self.guards.get(&canonical) {
            if self.names.contains_key(g) {
                return;
            }
        }
        if self.files.len() >= MAX_INCLUDE_DEPTH {
            self.diags.push(Diagnostic::error("E0106", dspan, "#include nested too deeply"));
            self.fatal = true;
            return;
        }
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                self.diags.push(Diagnostic::error("E0105", dspan, format!("cannot read '{name}': {e}")));
                return;
            }
        };
        if self.seen_includes.insert(canonical.clone()) {
            self.out.includes.push(path.clone());
        }
        let id = self.sm.add_real(&path, text);
        self.sm.set_included_at(id, include_at);
        let level = self.files.last().map_or(0, |f| f.level + 1);
        self.push_file(id, Some(canonical.clone()));
        if let Some(f) = self.files.last_mut() {
            f.level = level;
            f.found_in = found_in;
        }
        if let Some(g) = self.files.last().and_then(|f| guard_macro(self.sm, &f.toks)) {
            self.guards.insert(canonical, g.into());
        }
    }

    /// Where `#include` finds `name` (`angled`: `<name>`), and the index
    /// of the `-I` directory it is in: an absolute path as it is; `"x"`
    /// next to the current file, then in the `-I` directories; `<x>` in
    /// those. `from` (for `__has_include_next`) searches the `-I`
    /// directories from that index only.
    pub(super) fn find_include(&self, name: &str, angled: bool, from: Option<usize>) -> Option<(PathBuf, Option<usize>)> {
        let as_path = Path::new(name);
        if as_path.is_absolute() {
            return as_path.is_file().then(|| (as_path.to_path_buf(), None));
        }
        if !angled && from.is_none() {
            let here = self.next_to_current_file(name);
            if here.is_file() {
                return Some((here, None));
            }
        }
        let start = from.unwrap_or(0);
        self.opts.include_dirs.iter().enumerate().skip(start).map(|(i, d)| (d.join(name), Some(i))).find(|(p, _)| p.is_file())
    }

    /// `name` in the directory of the file being read.
    fn next_to_current_file(&self, name: &str) -> PathBuf {
        let dir = self.files.last().and_then(|f| self.sm.file(f.file).path.as_deref()).and_then(Path::parent);
        match dir {
            Some(d) if !d.as_os_str().is_empty() => d.join(name),
            _ => PathBuf::from(name),
        }
    }

    /// The header name of an `#include`: `"x"` or `<x>` as written, or
    /// from the macro expansion of the operands.
    fn header_name(&mut self, rest: &[Token]) -> Option<(String, bool)> {
        if let Some(r) = self.header_name_of(rest, true) {
            return Some(r);
        }
        let expanded = self.expand_list(rest.to_vec(), Mode::Plain);
        self.header_name_of(&expanded, false)
    }

    pub(super) fn header_name_of(&self, toks: &[Token], raw: bool) -> Option<(String, bool)> {
        let first = toks.first()?;
        if first.kind == TokenKind::StringLit && toks.len() == 1 {
            let s = self.text(first);
            return s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(|s| (s.to_string(), false));
        }
        if first.kind != TokenKind::Lt {
            return None;
        }
        let gt = toks.iter().position(|t| t.kind == TokenKind::Gt)?;
        if raw {
            // Rebuild from the source text: `<a//b.h>` must not lose its
            // "comment", and spaces inside are kept as written.
            let (l, g) = (first.spelling, toks[gt].spelling);
            if l.file != g.file {
                return None;
            }
            let name = self.sm.text(Span { file: l.file, lo: l.hi, hi: g.lo }).to_string();
            return Some((name, true));
        }
        let mut name = String::new();
        for (i, t) in toks[1..gt].iter().enumerate() {
            if i > 0 && t.has(flags::LEADING_SPACE) {
                name.push(' ');
            }
            name.push_str(self.text(t));
        }
        Some((name, true))
    }

    pub(super) fn pragma(&mut self, toks: &[Token], span: Span) {
        let words: Vec<&str> = toks.iter().map(|t| self.sm.text(t.spelling)).collect();
        // What -E passes on: every pragma but those the preprocessor has
        // done with (clang's -E too), spaced as written.
        let verbatim = (!matches!(words.first(), Some(&("once" | "push_macro" | "pop_macro")))).then(|| {
            let mut text = String::new();
            for (k, (t, w)) in toks.iter().zip(&words).enumerate() {
                if k > 0 && t.has(flags::LEADING_SPACE) {
                    text.push(' ');
                }
                text.push_str(w);
            }
            text
        });
        let at = self.emitted;
        let kind = match words.as_slice() {
            ["OPENCL", "EXTENSION", name, ":", state] if (*state == "enable" || *state == "disable") && toks[2].kind.is_word() => {
                // What clang-22 says of names it does not take.
                let at = toks[2].span;
                let enable = *state == "enable";
                let why = match *name {
                    "all" if enable => Some("expected 'disable' - ignoring".to_string()),
                    "all" => None,
                    n if PRAGMA_EXTENSIONS.contains(&n) => None,
                    n if PRAGMA_EXTENSIONS_2_0.contains(&n) => (!self.opts.std.has_generic()).then(|| format!("unsupported OpenCL extension '{n}' - ignoring")),
                    n => Some(format!("OpenCL extension '{n}' unknown or does not require pragma - ignoring")),
                };
                if let Some(why) = why {
                    self.diags.push(Diagnostic::warning("ignored-pragmas", at, why));
                }
                Some(PragmaKind::Extension { name: name.to_string(), enable })
            }
            ["OPENCL", "EXTENSION", ..] => {
                self.diags.push(Diagnostic::warning("ignored-pragmas", span, "expected '#pragma OPENCL EXTENSION <name> : enable|disable' - ignoring"));
                None
            }
            ["OPENCL", "FP_CONTRACT", s] if matches!(*s, "ON" | "OFF" | "DEFAULT") => Some(PragmaKind::FpContract(match *s {
                "ON" => Switch::On,
                "OFF" => Switch::Off,
                _ => Switch::Default,
            })),
            ["OPENCL", "FP_CONTRACT", ..] => {
                self.diags.push(Diagnostic::warning("ignored-pragmas", span, "expected 'ON' or 'OFF' or 'DEFAULT' in pragma"));
                None
            }
            ["OPENCL", ..] => {
                self.diags.push(Diagnostic::warning("ignored-pragmas", span, "unknown OpenCL pragma ignored"));
                None
            }
            ["unroll", ..] => self.unroll_pragma(toks[0], &toks[1..]),
            ["nounroll", ..] => {
                if let Some(extra) = toks.get(1) {
                    self.diags.push(Diagnostic::warning("ignored-pragmas", extra.span, "extra tokens at end of '#pragma nounroll' - ignored"));
                }
                Some(PragmaKind::Unroll { nounroll: true, count: 0..0, name: toks[0].span })
            }
            ["clc", "__debug", "crash"] => Some(PragmaKind::Debug(DebugAction::Crash)),
            ["clc", "__debug", "llvm_fatal_error"] => Some(PragmaKind::Debug(DebugAction::LlvmFatalError)),
            ["clc", "__debug", ..] => {
                self.diags.push(Diagnostic::warning("ignored-pragmas", span, "unknown '#pragma clc __debug' action ignored (expected 'crash' or 'llvm_fatal_error')"));
                None
            }
            ["STDC", "FP_CONTRACT", s] if matches!(*s, "ON" | "OFF" | "DEFAULT") => Some(PragmaKind::FpContract(match *s {
                "ON" => Switch::On,
                "OFF" => Switch::Off,
                _ => Switch::Default,
            })),
            ["STDC", "FP_CONTRACT", ..] => {
                let at = toks.get(2).map_or(toks[1].span.end(), |t| t.span);
                self.diags.push(Diagnostic::warning("unknown-pragmas", at, "expected 'ON' or 'OFF' or 'DEFAULT' in pragma"));
                None
            }
            // OpenCL's defaults, all clc has: no floating-point environment
            // to access, no complex numbers.
            ["STDC", "FENV_ACCESS" | "CX_LIMITED_RANGE", ..] => None,
            ["STDC", "FENV_ROUND", ..] => {
                let at = toks[toks.len() - 1].span.end();
                self.diags.push(Diagnostic::warning("unknown-pragmas", at, "pragma STDC FENV_ROUND is not supported"));
                None
            }
            ["STDC", ..] => {
                let at = toks.get(1).map_or(toks[0].span.end(), |t| t.span);
                self.diags.push(Diagnostic::warning("unknown-pragmas", at, "unknown pragma in STDC namespace").off_by_default());
                None
            }
            ["clang" | "GCC", "diagnostic", ..] => {
                self.diagnostic_pragma(toks, span);
                None
            }
            ["message", ..] => {
                self.message_pragma(toks[0], &toks[1..], MessageKind::Message);
                None
            }
            ["GCC", "warning", ..] => {
                self.message_pragma(toks[1], &toks[2..], MessageKind::Warning);
                None
            }
            ["GCC", "error", ..] => {
                self.message_pragma(toks[1], &toks[2..], MessageKind::Error);
                None
            }
            ["GCC", "system_header", ..] => {
                if self.files.len() == 1 {
                    self.diags.push(Diagnostic::warning("pragma-system-header-outside-header", toks[1].span, "#pragma system_header ignored in main file"));
                } else if let Some(f) = self.files.last() {
                    // From the pragma on, as clang's (which records it as a
                    // line marker: `-E` writes one with flag 3).
                    let file = f.file;
                    let at = if toks[0].span.file == file { toks[toks.len() - 1].span.hi } else { 0 };
                    self.diags.policy.pragmas.system_region(file, at, true);
                    let next = self.sm.presumed(Span { file, lo: at, hi: at }).line + 1;
                    let _ = self.sm.add_line_entry(file, at, next, None, LineMarkerFlag::None, Some(true));
                }
                None
            }
            ["pack", ..] => self.pack_pragma(toks[0], &toks[1..]),
            ["push_macro" | "pop_macro", ..] => {
                self.push_pop_macro(toks[0], &toks[1..]);
                None
            }
            ["once"] => {
                // The main file is the bottom of the stack (the
                // `-include` list, if any, sits above it, never below).
                if self.files.len() == 1 {
                    self.diags.push(Diagnostic::warning("pragma-once-outside-header", toks[0].span, "#pragma once in main file"));
                }
                if let Some(c) = self.files.last().and_then(|f| f.canonical.clone()) {
                    self.once.insert(c);
                }
                None
            }
            [first, ..] => {
                // clang's -Wunknown-pragmas (in -Wall): a pragma clang
                // knows is no "unknown pragma", whether or not clc acts on
                // it.
                let second = words.get(1).copied().unwrap_or("");
                let unknown_at = match *first {
                    "GCC" if !GCC_PRAGMAS.contains(&second) => toks.get(1),
                    "clang" if !CLANG_PRAGMAS.contains(&second) => toks.get(1),
                    "GCC" | "clang" => None,
                    w if !PRAGMAS.contains(&w) => toks.first(),
                    _ => None,
                };
                if let Some(t) = unknown_at {
                    self.diags.push(Diagnostic::warning("unknown-pragmas", t.span, "unknown pragma ignored").off_by_default());
                }
                None
            }
            [] => {
                self.diags.push(Diagnostic::warning("unknown-pragmas", span.end(), "unknown pragma ignored").off_by_default());
                None
            }
        };
        let kind = match kind {
            Some(kind) => kind,
            None => match verbatim {
                Some(text) if !toks.is_empty() => PragmaKind::Verbatim(text),
                _ => return,
            },
        };
        self.out.pragmas.push(Pragma { at, span, kind });
    }

    /// `#pragma clang diagnostic …` (or `GCC diagnostic`) at `span`:
    /// `push`, `pop`, or `ignored`/`warning`/`error`/`fatal` and a string
    /// naming a warning option, with clang-22's checks and messages.
    fn diagnostic_pragma(&mut self, toks: &[Token], span: Span) {
        // Where clang reports a missing token: the end of the line.
        let end = toks[toks.len() - 1].span.end();
        let next = |i: usize| toks.get(i).map_or(end, |t| t.span);
        let keyword = toks.get(2).filter(|t| t.kind.is_word()).map(|t| self.text(t).to_string());
        let Some(keyword) = keyword else {
            self.diags.push(Diagnostic::warning("unknown-pragmas", next(2), PRAGMA_DIAGNOSTIC_KEYWORDS));
            return;
        };
        let severity = match keyword.as_str() {
            "push" | "pop" => {
                if keyword == "push" {
                    self.diags.policy.pragmas.push();
                } else if !self.diags.policy.pragmas.pop(span) {
                    self.diags.push(Diagnostic::warning("unknown-pragmas", next(3), "pragma diagnostic pop could not pop, no matching push"));
                }
                if let Some(extra) = toks.get(3) {
                    self.diags.push(Diagnostic::warning("unknown-pragmas", extra.span, "unexpected token in pragma diagnostic"));
                }
                return;
            }
            "ignored" => PragmaSeverity::Ignored,
            "warning" => PragmaSeverity::Warning,
            "error" => PragmaSeverity::Error,
            "fatal" => PragmaSeverity::Fatal,
            _ => {
                self.diags.push(Diagnostic::warning("unknown-pragmas", next(3), PRAGMA_DIAGNOSTIC_KEYWORDS));
                return;
            }
        };
        let Some((name, after)) = self.string_operand(&toks[3..], end, "pragma diagnostic") else { return };
        if let Some(extra) = toks[3..].get(after) {
            self.diags.push(Diagnostic::warning("unknown-pragmas", extra.span, "unexpected token in pragma diagnostic"));
            return;
        }
        let string_at = toks[3].span;
        let option = match name.strip_prefix("-W") {
            Some(o) if !o.is_empty() => o,
            // Remarks: clc has none to show or hide.
            _ if name.len() > 2 && name.starts_with("-R") => return,
            _ => {
                self.diags.push(Diagnostic::warning("unknown-pragmas", string_at, "pragma diagnostic expected option name (e.g. \"-Wundef\")"));
                return;
            }
        };
        if option != "everything" && !crate::diag::groups::is_known(option) {
            self.diags.push(Diagnostic::warning("unknown-warning-option", string_at, format!("unknown warning group '{name}', ignored")));
            return;
        }
        self.diags.policy.pragmas.set(span, option, severity);
    }

    /// The string literals starting `toks` (at least one), concatenated:
    /// the operand of a pragma that takes a string, and the number of
    /// tokens they take; `None` after clang's error (for `what`) where no
    /// ordinary string literal stands.
    fn string_operand(&mut self, toks: &[Token], end: Span, what: &str) -> Option<(String, usize)> {
        let mut value = Vec::new();
        let mut n = 0;
        for t in toks {
            let text = self.text(t);
            if t.kind != TokenKind::StringLit || !text.starts_with('"') {
                break;
            }
            match crate::lex::literal::parse_string(text) {
                Ok(bytes) => value.extend_from_slice(&bytes),
                Err(e) => {
                    self.diags.push(Diagnostic::error("E0117", t.span, e));
                    return None;
                }
            }
            n += 1;
        }
        if n == 0 {
            let at = toks.first().map_or(end, |t| t.span);
            self.diags.push(Diagnostic::error("E0122", at, format!("expected string literal in {what}")));
            return None;
        }
        Some((String::from_utf8_lossy(&value).into_owned(), n))
    }

    /// `#pragma message`, `#pragma GCC warning`, `#pragma GCC error`:
    /// `name` is the pragma's word, `rest` what follows it (a string, or
    /// one in parentheses; macros expanded, strings concatenated).
    fn message_pragma(&mut self, name: Token, rest: &[Token], kind: MessageKind) {
        let toks = self.expand_list(rest.to_vec(), Mode::Plain);
        let end = rest.last().map_or(name.span.end(), |t| t.span.end());
        let malformed = format!("pragma {} requires parenthesized string", kind.word());
        let what = format!("pragma {}", kind.word());
        let parens = match toks.first() {
            Some(t) if t.kind == TokenKind::LParen => true,
            Some(t) if t.kind == TokenKind::StringLit => false,
            _ => {
                self.diags.push(Diagnostic::error("E0122", name.span, malformed));
                return;
            }
        };
        let start = usize::from(parens);
        let Some((message, n)) = self.string_operand(&toks[start..], end, &what) else { return };
        let mut i = start + n;
        if parens {
            match toks.get(i) {
                Some(t) if t.kind == TokenKind::RParen => i += 1,
                other => {
                    self.diags.push(Diagnostic::error("E0122", other.map_or(end, |t| t.span), malformed));
                    return;
                }
            }
        }
        if let Some(extra) = toks.get(i) {
            self.diags.push(Diagnostic::error("E0122", extra.span, malformed));
            return;
        }
        let d = match kind {
            MessageKind::Error => Diagnostic::error("E0104", name.span, message),
            _ => Diagnostic::warning("#pragma-messages", name.span, message),
        };
        self.diags.push(d);
    }
}

impl Pp<'_> {
    /// `#pragma pack(…)` as clang reads it (`ParsePragma.cpp`,
    /// `Sema::ActOnPragmaPack`): `(N)`, `()`, `(show)`, `(push[, label][,
    /// N])`, `(pop[, label][, N])`, N one of 0 (none), 1, 2, 4, 8, 16,
    /// macros expanded. Returns the largest member alignment from here on
    /// when the pragma changes it.
    fn pack_pragma(&mut self, name: Token, rest: &[Token]) -> Option<PragmaKind> {
        let toks = self.expand_list(rest.to_vec(), Mode::Plain);
        let end = rest.last().map_or(name.span.end(), |t| t.span.end());
        let at = |i: usize| toks.get(i).map_or(end, |t| t.span);
        let ignored = |pp: &mut Self, span: Span, msg: &str| pp.diags.push(Diagnostic::warning("ignored-pragmas", span, msg.to_string()));
        if toks.first().is_none_or(|t| t.kind != TokenKind::LParen) {
            ignored(self, at(0), "missing '(' after '#pragma pack' - ignoring");
            return None;
        }
        let word = |i: usize| toks.get(i).filter(|t| t.kind.is_word()).map(|t| self.text(t).to_string());
        let (mut push, mut pop, mut show) = (false, false, false);
        let mut label: Option<Box<str>> = None;
        let mut value: Option<&Token> = None;
        let mut i = 1;
        match (toks.get(1), word(1).as_deref()) {
            (Some(t), _) if t.kind == TokenKind::Number => {
                value = Some(t);
                i = 2;
            }
            (Some(_), Some("show")) => {
                show = true;
                i = 2;
            }
            (Some(_), Some(w @ ("push" | "pop"))) => {
                push = w == "push";
                pop = !push;
                i = 2;
                while toks.get(i).is_some_and(|t| t.kind == TokenKind::Comma) {
                    match toks.get(i + 1) {
                        Some(t) if t.kind == TokenKind::Number => {
                            value = Some(t);
                            i += 2;
                            break;
                        }
                        Some(t) if t.kind.is_word() && label.is_none() => {
                            label = Some(self.text(t).into());
                            i += 2;
                        }
                        _ => {
                            ignored(self, at(i + 1), "expected integer or identifier in '#pragma pack' - ignored");
                            return None;
                        }
                    }
                }
            }
            (Some(t), _) if t.kind == TokenKind::RParen => {}
            _ => {
                ignored(self, at(1), "unknown action for '#pragma pack' - ignored");
                return None;
            }
        }
        if toks.get(i).is_none_or(|t| t.kind != TokenKind::RParen) {
            ignored(self, at(i), "missing ')' after '#pragma pack' - ignoring");
            return None;
        }
        if let Some(extra) = toks.get(i + 1) {
            ignored(self, extra.span, "extra tokens at end of '#pragma pack' - ignored");
            return None;
        }
        let n = match value {
            Some(t) => match crate::lex::literal::parse_number(self.text(t)) {
                Ok(crate::lex::literal::NumberLit::Int { value, .. }) if value == 0 || value.is_power_of_two() && value <= 16 => Some(value as u32),
                _ => {
                    ignored(self, name.span, "expected #pragma pack parameter to be '1', '2', '4', '8', or '16'");
                    return None;
                }
            },
            None => None,
        };
        let before = self.pack;
        if show {
            let shown = if self.pack == 0 { 8 } else { self.pack };
            self.diags.push(Diagnostic::warning("pragma-pack-show", name.span, format!("value of #pragma pack(show) == {shown}")));
            return None;
        }
        if push {
            self.pack_stack.push((label, self.pack, name.span));
        } else if pop {
            if n.is_some() && label.is_some() {
                ignored(self, name.span, "specifying both a name and alignment to 'pop' is undefined");
            }
            if self.pack_stack.is_empty() {
                ignored(self, name.span, "#pragma pack(pop, ...) failed: stack empty");
            }
            match &label {
                Some(l) => {
                    if let Some(k) = self.pack_stack.iter().rposition(|(sl, _, _)| sl.as_deref() == Some(&**l)) {
                        self.pack = self.pack_stack[k].1;
                        self.pack_stack.truncate(k);
                    }
                }
                None => {
                    if let Some((_, v, _)) = self.pack_stack.pop() {
                        self.pack = v;
                    }
                }
            }
        }
        match n {
            Some(n) => self.pack = n,
            // `pack()`: back to none.
            None if !push && !pop => self.pack = 0,
            None => {}
        }
        (self.pack != before).then_some(PragmaKind::Pack(self.pack))
    }
}

impl Pp<'_> {
    /// `#pragma push_macro("X")` saves macro `X`'s definition (or that it
    /// has none); `#pragma pop_macro("X")` brings the last saved back.
    fn push_pop_macro(&mut self, word: Token, rest: &[Token]) {
        let toks = self.expand_list(rest.to_vec(), Mode::Plain);
        let push = self.text(&word) == "push_macro";
        let name = match toks.as_slice() {
            [l, s, r, ..] if l.kind == TokenKind::LParen && s.kind == TokenKind::StringLit && r.kind == TokenKind::RParen && self.text(s).starts_with('"') => {
                let text = self.text(s);
                text[1..text.len() - 1].to_string()
            }
            _ => {
                let msg = format!("pragma {} requires a parenthesized string", self.text(&word));
                self.diags.push(Diagnostic::error("E0122", word.span, msg));
                return;
            }
        };
        if push {
            let def = self.names.get(name.as_str()).copied();
            self.pushed_macros.entry(name.into()).or_default().push(def);
            return;
        }
        match self.pushed_macros.get_mut(name.as_str()).and_then(Vec::pop) {
            Some(Some(def)) => {
                let (w, bit) = bloom_bit(&name);
                self.bloom[w] |= bit;
                self.names.insert(name.into(), def);
            }
            Some(None) => {
                self.names.remove(name.as_str());
            }
            None => {
                let msg = format!("pragma pop_macro could not pop '{name}', no matching push_macro");
                self.diags.push(Diagnostic::warning("ignored-pragmas", word.span, msg));
            }
        }
    }
}

/// clang's message for a `#pragma clang diagnostic` without a known word.
const PRAGMA_DIAGNOSTIC_KEYWORDS: &str = "pragma diagnostic expected 'error', 'warning', 'ignored', 'fatal', 'push', or 'pop'";

/// Which of the pragmas that print a message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MessageKind {
    Message,
    Warning,
    Error,
}

impl MessageKind {
    fn word(self) -> &'static str {
        match self {
            MessageKind::Message => "message",
            MessageKind::Warning => "warning",
            MessageKind::Error => "error",
        }
    }
}

/// The pragmas clang-22 knows for OpenCL C on its targets (so no
/// -Wunknown-pragmas), by first word; `GCC` and `clang` by second word.
/// clc acts on `once`, `message`, `unroll`, `nounroll`, `OPENCL`, `STDC`,
/// `GCC`/`clang diagnostic`, `GCC warning`/`error`/`system_header` and
/// `clang loop`; the others are ignored, as clang ignores several of them
/// for OpenCL C.
const PRAGMAS: &[&str] = &[
    "once", "mark", "message", "pack", "push_macro", "pop_macro", "weak", "redefine_extname", "align", "options", "float_control", "region", "endregion",
    "comment", "unroll", "nounroll", "unroll_and_jam", "nounroll_and_jam", "omp", "acc", "OPENCL", "STDC", "ms_struct", "clc",
];
const GCC_PRAGMAS: &[&str] = &["system_header", "visibility", "poison", "dependency", "warning", "error", "diagnostic"];
const CLANG_PRAGMAS: &[&str] = &[
    "diagnostic", "optimize", "fp", "attribute", "section", "max_tokens_here", "max_tokens_total", "assume_nonnull", "deprecated",
    "restrict_expansion", "final", "loop", "module", "arc_cf_code_audited", "__debug", "system_header", "riscv",
];

impl Pp<'_> {
    /// `#pragma unroll` and its count as clang reads them: `N` to the end
    /// of the line, or `(N)` with anything after the `)` ignored (a
    /// warning), macros expanded first. The count's tokens go to
    /// [`super::PpOutput::pragma_tokens`] for the parser.
    fn unroll_pragma(&mut self, name: Token, rest: &[Token]) -> Option<PragmaKind> {
        let mut toks = Vec::new();
        for t in self.expand_list(rest.to_vec(), Mode::Plain) {
            if t.kind.is_error() {
                self.lex_error(t);
            } else {
                toks.push(t);
            }
        }
        let mut count = &toks[..];
        if let (Some(open), Some(last)) = (toks.first(), toks.last())
            && open.kind == TokenKind::LParen
        {
            let mut depth = 0usize;
            let close = toks.iter().position(|t| {
                match t.kind {
                    TokenKind::LParen => depth += 1,
                    TokenKind::RParen => depth -= 1,
                    _ => {}
                }
                depth == 0
            });
            let end = last.span.end();
            match close {
                None => {
                    self.diags.push(Diagnostic::error("E0121", end, "expected ')'"));
                    return None;
                }
                Some(1) => {
                    self.diags.push(Diagnostic::error("E0121", end, "missing argument; expected an integer value"));
                    return None;
                }
                Some(c) => {
                    if let Some(extra) = toks.get(c + 1) {
                        self.diags.push(Diagnostic::warning("ignored-pragmas", extra.span, "extra tokens at end of '#pragma unroll' - ignored"));
                    }
                    count = &toks[1..c];
                }
            }
        }
        let start = self.out.pragma_tokens.len();
        self.out.pragma_tokens.extend_from_slice(count);
        Some(PragmaKind::Unroll { nounroll: false, count: start..self.out.pragma_tokens.len(), name: name.span })
    }
}

/// The include-guard macro of a file shaped `#ifndef X … #endif` with
/// nothing outside, or `None`. A file so guarded can be skipped when
/// included again while `X` is defined: it would expand to nothing.
fn guard_macro<'s>(sm: &'s SourceMap, toks: &[Token]) -> Option<&'s str> {
    let is_dir = |i: usize| toks[i].kind == TokenKind::Hash && toks[i].has(flags::LINE_START);
    if toks.len() < 3 || !is_dir(0) || sm.text(toks[1].spelling) != "ifndef" || !toks[2].kind.is_word() {
        return None;
    }
    if toks.get(3).is_some_and(|t| !t.has(flags::LINE_START)) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = 3;
    while i < toks.len() {
        if is_dir(i) {
            if let Some(n) = toks.get(i + 1).filter(|n| !n.has(flags::LINE_START)) {
                match sm.text(n.spelling) {
                    "if" | "ifdef" | "ifndef" => depth += 1,
                    "else" | "elif" if depth == 0 => return None,
                    "endif" if depth == 0 => {
                        let rest_on_line = toks[i + 2..].iter().take_while(|t| !t.has(flags::LINE_START)).count();
                        return if i + 2 + rest_on_line == toks.len() { Some(sm.text(toks[2].spelling)) } else { None };
                    }
                    "endif" => depth -= 1,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    None
}
