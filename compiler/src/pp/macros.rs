//! Macro definitions and expansion (C99 6.10.3, and C23's `__VA_OPT__`,
//! which clang-22 takes in OpenCL C).
//!
//! Expansion works on a stack of macro contexts, as clang's does: a
//! macro's replacement list is pushed as a context and read like input,
//! which is the "rescan with the rest of the source" of C99 6.10.3.4.
//! While a context is on the stack its macro is busy; a busy macro's name
//! read from input is painted `NO_EXPAND` for good (the blue-paint rule).
//! Arguments are pre-expanded in isolation behind a floor context that the
//! reader cannot pop, so a function-like macro at the end of an argument
//! cannot reach past it.
//!
//! Spacing follows clang's (`TokenLexer`), so that `-E` output matches
//! it: a replacement token takes the space before the first body token
//! that made it, or before one that made nothing (an empty argument, a
//! left-out `__VA_OPT__`); a space left over goes to the token after the
//! expansion.

use super::builtin::Builtin;
use super::engine::{Mode, Pp};
use super::{Expansion, MacroDump, MacroLine};
use crate::diag::Diagnostic;
use crate::lex::{self, flags, Token, TokenKind};
use crate::source::Span;
use std::rc::Rc;

/// "No macro" in [`MacroCtx::def`].
pub(super) const NO_DEF: u32 = u32::MAX;

/// Deepest nesting of macro invocations inside arguments; each level of
/// argument pre-expansion recurses.
const MAX_ARG_DEPTH: u32 = 200;

/// What a replacement-list token does when the macro is expanded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Op {
    Plain,
    Param(u32),
    /// `#param`; the token is the `#`.
    Stringize(u32),
    /// A `##` operator.
    Paste,
    /// `__VA_OPT__(` (the token is `__VA_OPT__`, or the `#` of
    /// `#__VA_OPT__(`, `stringize`): the body up to index `close`, its `)`,
    /// is there only when the variable arguments are not empty (C23
    /// 6.10.5.1, as clang-22 has it in C and OpenCL C). `va_space`: the
    /// `__VA_OPT__` after a `#` has a space before it.
    VaOpt { close: u32, stringize: bool, va_space: bool },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct BodyTok {
    pub tok: Token,
    pub op: Op,
}

#[derive(Debug)]
pub(super) struct Macro {
    pub name: Box<str>,
    /// The name in the `#define`; for builtins, in the `<built-in>` file.
    pub name_span: Span,
    /// `name_span` when the definition is in user code, for notes.
    pub def_span: Option<Span>,
    pub function: bool,
    /// Parameter names; a variadic macro's last one is `__VA_ARGS__` (or
    /// the GNU named variadic parameter).
    pub params: Vec<Box<str>>,
    pub variadic: bool,
    pub body: Rc<[BodyTok]>,
    pub builtin: Builtin,
    /// An expansion of this definition is being read.
    pub busy: bool,
    /// The `#define` line as `-dM` prints it, kept when asked for.
    pub text: Option<Box<str>>,
}

/// A token list being read: a macro's expansion (`def` is busy until it
/// is popped), or a pushed-back token or argument list (`NO_DEF`).
pub(super) struct MacroCtx {
    pub toks: Vec<Token>,
    pub pos: usize,
    pub def: u32,
    /// The token after this expansion gets a leading space: a space in
    /// the replacement list was left with nothing after it (`[F()]` for
    /// `#define F(x) a x` is `[a ]`), or the macro expanded to nothing
    /// after a space (`[E E]` is `[ ]`), as clang's spacing goes.
    pub space_after: bool,
}

/// An element of a replacement list under construction: pasting needs to
/// see operators and C99's placemarkers (empty arguments next to `##`).
#[derive(Clone, Copy)]
enum Item {
    T(Token),
    Paste(Token),
    Placemarker,
}

impl Pp<'_> {
    pub(super) fn add_macro(&mut self, m: Macro) {
        let id = self.defs.len() as u32;
        let (w, bit) = super::engine::bloom_bit(&m.name);
        self.bloom[w] |= bit;
        self.names.insert(m.name.clone(), id);
        self.defs.push(m);
    }

    /// The live macro named `text`.
    pub(super) fn macro_named(&self, text: &str) -> Option<u32> {
        let (w, bit) = super::engine::bloom_bit(text);
        if self.bloom[w] & bit != 0 { self.names.get(text).copied() } else { None }
    }

    /// The next token: from the innermost macro context, else (only at
    /// `floor == 0`) from the file. Contexts above `floor` are popped when
    /// exhausted; the context at `floor - 1` is an argument list that ends
    /// the read.
    pub(super) fn next_token(&mut self, floor: usize) -> Option<Token> {
        loop {
            let len = self.ctxs.len();
            if len == 0 || len < floor {
                return if floor == 0 { self.file_next() } else { None };
            }
            let c = &mut self.ctxs[len - 1];
            if let Some(&t) = c.toks.get(c.pos) {
                c.pos += 1;
                return Some(t);
            }
            if len == floor {
                return None;
            }
            let c = self.ctxs.pop()?;
            if c.def != NO_DEF {
                self.defs[c.def as usize].busy = false;
            }
            self.pending_space |= c.space_after;
        }
    }

    /// Reads tokens until `floor` runs dry, expanding macros, into `sink`.
    pub(super) fn expand_loop(&mut self, floor: usize, mode: Mode, sink: &mut Vec<Token>) {
        while let Some(mut tok) = self.next_token(floor) {
            if std::mem::take(&mut self.pending_space) {
                tok.flags |= flags::LEADING_SPACE;
            }
            if tok.kind.is_word() && !tok.has(flags::NO_EXPAND) {
                let text = self.sm.text(tok.spelling);
                let def = self.macro_named(text);
                let special = def.is_none() && matches!(text, "defined" | "_Pragma");
                if let Some(def) = def {
                    if self.defs[def as usize].busy {
                        tok.flags |= flags::NO_EXPAND;
                    } else if self.expand_macro(tok, def, floor, mode) {
                        continue;
                    }
                } else if special && mode == Mode::If && tok.kind == TokenKind::Ident && text == "defined" {
                    let t = self.defined_op(tok, floor);
                    sink.push(t);
                    continue;
                } else if special && mode != Mode::If && text == "_Pragma" {
                    self.pragma_op(tok, floor);
                    continue;
                }
            }
            if mode == Mode::Top {
                if tok.kind.is_error() {
                    self.lex_error(tok);
                    continue;
                }
                sink.push(tok);
                self.emitted = sink.len();
            } else {
                sink.push(tok);
            }
        }
    }

    pub(super) fn lex_error(&mut self, tok: Token) {
        let msg = match tok.kind {
            TokenKind::UnterminatedString => "missing terminating '\"' character".to_string(),
            TokenKind::UnterminatedChar => "missing terminating ' character".to_string(),
            TokenKind::UnterminatedComment => "unterminated /* comment".to_string(),
            _ => format!("invalid character '{}'", self.text(&tok)),
        };
        let notes = self.out.expansions.notes(tok.expansion);
        let mut d = Diagnostic::error("E0117", tok.span, msg);
        d.notes = notes;
        self.diags.push(d);
    }

    /// Expands the token list `toks` completely, as an argument or a
    /// directive's operands.
    pub(super) fn expand_list(&mut self, toks: Vec<Token>, mode: Mode) -> Vec<Token> {
        // An argument's spacing is its own.
        let pending_space = std::mem::take(&mut self.pending_space);
        self.ctxs.push(MacroCtx { toks, pos: 0, def: NO_DEF, space_after: false });
        let floor = self.ctxs.len();
        let mut out = Vec::new();
        self.expand_loop(floor, mode, &mut out);
        // Everything above the floor was popped by the loop.
        self.ctxs.truncate(floor - 1);
        self.pending_space = pending_space;
        out
    }

    fn expand_arg(&mut self, toks: &[Token], mode: Mode, at: Span) -> Vec<Token> {
        if toks.is_empty() {
            return Vec::new();
        }
        if self.arg_depth >= MAX_ARG_DEPTH {
            if !self.arg_depth_reported {
                self.arg_depth_reported = true;
                self.diags.push(Diagnostic::error("E0118", at, "macro invocations nested too deeply in arguments"));
            }
            return toks.to_vec();
        }
        self.arg_depth += 1;
        let mode = if mode == Mode::If { Mode::If } else { Mode::Plain };
        let out = self.expand_list(toks.to_vec(), mode);
        self.arg_depth -= 1;
        out
    }

    /// Expands macro `def` named by `name`; `false` when it is not
    /// expanded after all (a function-like macro without `(`).
    pub(super) fn expand_macro(&mut self, name: Token, def: u32, floor: usize, mode: Mode) -> bool {
        if self.work_exceeded {
            return false;
        }
        let m = &self.defs[def as usize];
        if m.builtin != Builtin::None {
            let b = m.builtin;
            if let Some(t) = self.expand_builtin(name, b, floor, mode) {
                self.ctxs.push(MacroCtx { toks: vec![t], pos: 0, def: NO_DEF, space_after: false });
            }
            return true;
        }
        let (use_span, args) = if m.function {
            match self.next_token(floor) {
                Some(t) if t.kind == TokenKind::LParen => {}
                Some(t) => {
                    self.ctxs.push(MacroCtx { toks: vec![t], pos: 0, def: NO_DEF, space_after: false });
                    return false;
                }
                None => return false,
            }
            let Some((args, rparen)) = self.collect_args(name, def, floor) else { return true };
            let span = if name.expansion != 0 { name.span } else { name.span.to(rparen.span) };
            (span, args)
        } else {
            (name.span, Vec::new())
        };
        let m = &self.defs[def as usize];
        let id = self.out.expansions.push(Expansion { macro_name: m.name.to_string(), use_span, def_span: m.def_span, parent: name.expansion });
        let (toks, space_left) = self.substitute(def, &args, name, use_span, id, mode);
        self.work += toks.len() as u64 + 1;
        if self.work_exceeded {
            // Reported already, by an expansion inside the arguments.
            return true;
        }
        if self.work > self.work_limit {
            self.work_exceeded = true;
            let mut d = Diagnostic::error("E0118", use_span, "macro expansion produces too many tokens; stopping expansion");
            d.notes = self.out.expansions.notes(id);
            self.diags.push(d);
            return true;
        }
        let space_after = space_left || (toks.is_empty() && name.has(flags::LEADING_SPACE));
        self.defs[def as usize].busy = true;
        self.ctxs.push(MacroCtx { toks, pos: 0, def, space_after });
        true
    }

    /// Reads the arguments after `(`; `None` after an error (the
    /// invocation is dropped, as clang does).
    fn collect_args(&mut self, name: Token, def: u32, floor: usize) -> Option<(Vec<Vec<Token>>, Token)> {
        let (nparams, variadic) = {
            let m = &self.defs[def as usize];
            (m.params.len(), m.variadic)
        };
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        let rparen = loop {
            let Some(mut t) = self.next_token(floor) else {
                let mut d = Diagnostic::error("E0113", name.span, "unterminated function-like macro invocation");
                d.notes = self.out.expansions.notes(name.expansion);
                if let Some(s) = self.defs[def as usize].def_span {
                    d = d.with_note_at(s, "macro defined here");
                }
                self.diags.push(d);
                return None;
            };
            if t.has(flags::LINE_START) {
                t.flags = (t.flags & !flags::LINE_START) | flags::LEADING_SPACE;
            }
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => break t,
                TokenKind::RParen => depth -= 1,
                TokenKind::Comma if depth == 0 && !(variadic && args.len() == nparams) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        };
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if variadic && args.len() + 1 == nparams {
            // `F(a)` for `F(x, ...)`: an empty variable part, as clang allows.
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let msg = if args.len() > nparams { "too many arguments provided to function-like macro invocation" } else { "too few arguments provided to function-like macro invocation" };
            let span = if name.expansion != 0 { name.span } else { name.span.to(rparen.span) };
            let mut d = Diagnostic::error("E0112", span, msg);
            if let Some(s) = self.defs[def as usize].def_span {
                d = d.with_note_at(s, "macro defined here");
            }
            d.notes.extend(self.out.expansions.notes(name.expansion));
            self.diags.push(d);
            return None;
        }
        Some((args, rparen))
    }

    /// The replacement list of `def` with arguments substituted, `#`, `##`
    /// and `__VA_OPT__` applied (C99 6.10.3.1–3, C23 6.10.5.1), and
    /// whether a space was left over for the token after it.
    fn substitute(&mut self, def: u32, args: &[Vec<Token>], name: Token, use_span: Span, id: u32, mode: Mode) -> (Vec<Token>, bool) {
        let m = &self.defs[def as usize];
        let body = m.body.clone();
        let va = if m.variadic { m.params.len() as u32 - 1 } else { u32::MAX };
        let mut s = Subst { body, args, va, expanded: vec![None; args.len()], use_span, id, mode, next_space: false };
        let mut items: Vec<Item> = Vec::with_capacity(s.body.len());
        let len = s.body.len();
        self.substitute_range(&mut s, 0, len, false, &mut items);
        let res = self.paste_items(items, use_span, id);
        let mut out: Vec<Token> = Vec::with_capacity(res.len());
        for it in res {
            if let Item::T(mut t) = it {
                t.flags &= !flags::LINE_START;
                if out.is_empty() {
                    t.flags = (t.flags & !flags::LEADING_SPACE) | (name.flags & (flags::LEADING_SPACE | flags::LINE_START));
                    if name.has(flags::LINE_START) {
                        t.flags |= flags::LEADING_SPACE;
                    }
                }
                t.span = use_span;
                t.expansion = id;
                out.push(t);
            }
        }
        (out, s.next_space)
    }

    /// Substitutes the body tokens `start..end` into `items`; `va_opt`:
    /// they are the inside of a `__VA_OPT__`. Spacing is clang's: a token
    /// takes the space before the first body token that made it (or
    /// before one that made nothing, an empty argument's), except after
    /// `##`.
    fn substitute_range(&mut self, s: &mut Subst, start: usize, end: usize, va_opt: bool, items: &mut Vec<Item>) {
        let body = s.body.clone();
        let is_paste = |i: usize| body.get(i).is_some_and(|b| b.op == Op::Paste);
        let space = |t: &mut Token, on: bool| {
            t.flags = (t.flags & !flags::LEADING_SPACE) | if on { flags::LEADING_SPACE } else { 0 };
        };
        let mut i = start;
        while i < end {
            let bt = body[i];
            if i > 0 && !is_paste(i - 1) && bt.tok.has(flags::LEADING_SPACE) {
                s.next_space = true;
            }
            match bt.op {
                Op::Plain => {
                    let mut t = bt.tok;
                    space(&mut t, std::mem::take(&mut s.next_space));
                    items.push(Item::T(t));
                }
                Op::Paste => {
                    // The `##` takes the space for itself (it goes).
                    s.next_space = false;
                    // GNU `, ## __VA_ARGS__`: the comma goes when the
                    // variable arguments are empty, and nothing is pasted.
                    let prev_comma = matches!(items.last(), Some(Item::T(t)) if t.kind == TokenKind::Comma);
                    if let (true, Some(BodyTok { op: Op::Param(p), .. })) = (prev_comma, body.get(i + 1)) {
                        if *p == s.va {
                            let arg = &s.args[*p as usize];
                            if arg.is_empty() {
                                items.pop();
                            } else {
                                // Spaced as written, as in clang.
                                let space = arg[0].has(flags::LEADING_SPACE);
                                push_arg(items, arg, space);
                            }
                            i += 2;
                            continue;
                        }
                    }
                    items.push(Item::Paste(bt.tok));
                }
                Op::Stringize(p) => {
                    let mut t = self.stringize(&s.args[p as usize], bt.tok);
                    space(&mut t, std::mem::take(&mut s.next_space));
                    items.push(Item::T(t));
                }
                Op::Param(p) => {
                    let p = p as usize;
                    if is_paste(i + 1) || (i > 0 && is_paste(i - 1)) {
                        if s.args[p].is_empty() {
                            items.push(Item::Placemarker);
                        } else {
                            push_arg(items, &s.args[p], std::mem::take(&mut s.next_space));
                        }
                    } else {
                        let e = self.expanded_arg(s, p);
                        if !e.is_empty() {
                            push_arg(items, &e, std::mem::take(&mut s.next_space));
                        } else if va_opt && ((i == start && matches!(items.last(), Some(Item::Paste(_)))) || (i + 1 == end && is_paste(end + 1))) {
                            // An empty argument at an end of a `__VA_OPT__`
                            // next to a `##` outside it: a placemarker.
                            items.push(Item::Placemarker);
                        }
                    }
                }
                Op::VaOpt { close, stringize, va_space } => {
                    let close = close as usize;
                    let present = s.va != u32::MAX && !self.expanded_arg(s, s.va as usize).is_empty();
                    // For `#__VA_OPT__`, the `#`'s space is the string's.
                    let space_before = stringize && std::mem::take(&mut s.next_space);
                    s.next_space |= va_space;
                    let mut inside = Vec::new();
                    if present {
                        let target = if stringize { &mut inside } else { &mut *items };
                        let before = target.len();
                        self.substitute_range(s, i + 1, close, true, target);
                        if target.len() == before && !stringize {
                            target.push(Item::Placemarker);
                        }
                    } else {
                        // Left out, it is a placemarker; the spaces in it
                        // still count.
                        s.next_space |= body[i + 1..=close].iter().enumerate().any(|(k, b)| b.tok.has(flags::LEADING_SPACE) && !is_paste(i + k));
                        if !stringize {
                            items.push(Item::Placemarker);
                        }
                    }
                    if body[close].tok.has(flags::LEADING_SPACE) && !is_paste(close - 1) {
                        s.next_space = true;
                    }
                    if stringize {
                        let toks: Vec<Token> = self.paste_items(inside, s.use_span, s.id).into_iter().filter_map(|it| if let Item::T(t) = it { Some(t) } else { None }).collect();
                        let mut t = self.stringize(&toks, bt.tok);
                        space(&mut t, space_before);
                        items.push(Item::T(t));
                    }
                    i = close + 1;
                    continue;
                }
            }
            i += 1;
        }
    }

    /// Argument `p` macro-expanded (once per invocation).
    fn expanded_arg(&mut self, s: &mut Subst, p: usize) -> Rc<[Token]> {
        if s.expanded[p].is_none() {
            let e = self.expand_arg(&s.args[p], s.mode, s.use_span);
            s.expanded[p] = Some(e.into());
        }
        s.expanded[p].clone().unwrap_or_else(|| Rc::from([]))
    }

    /// Applies the `##` operators of `items` (placemarkers go where they
    /// are pasted, and stay elsewhere).
    fn paste_items(&mut self, items: Vec<Item>, use_span: Span, id: u32) -> Vec<Item> {
        let mut res: Vec<Item> = Vec::with_capacity(items.len());
        let mut k = 0;
        while k < items.len() {
            match items[k] {
                Item::Paste(_) => {
                    let rhs = match items.get(k + 1) {
                        Some(Item::Paste(t)) => Item::T(*t),
                        Some(&r) => r,
                        None => Item::Placemarker,
                    };
                    let lhs = res.pop().unwrap_or(Item::Placemarker);
                    self.paste(lhs, rhs, use_span, id, &mut res);
                    k += 2;
                }
                it => {
                    res.push(it);
                    k += 1;
                }
            }
        }
        res
    }

    /// clang's warning for `__VA_OPT__` where it is no operator: outside
    /// the body of a variadic macro (and in that of a GNU named variadic
    /// parameter's, where it works nonetheless).
    pub(super) fn va_opt_misplaced(&mut self, t: &Token) {
        if t.kind == TokenKind::Ident && self.sm.text(t.spelling) == "__VA_OPT__" {
            self.diags.push(Diagnostic::warning("variadic-macros", t.span, "__VA_OPT__ can only appear in the expansion of a variadic macro"));
        }
    }

    /// How clang names `t`'s kind in a diagnostic: `identifier`, a
    /// keyword or punctuator as written (quoted for a punctuator), a
    /// literal by its kind.
    fn token_kind_name(&self, t: &Token) -> String {
        let text = self.sm.text(t.spelling);
        match t.kind {
            TokenKind::Ident | TokenKind::BuiltinType => "identifier".to_string(),
            k if k.is_word() => text.to_string(),
            TokenKind::Number => "<numeric_constant>".to_string(),
            TokenKind::StringLit => "<string_literal>".to_string(),
            TokenKind::CharLit => "<char_constant>".to_string(),
            _ => format!("'{text}'"),
        }
    }

    fn paste(&mut self, lhs: Item, rhs: Item, use_span: Span, id: u32, res: &mut Vec<Item>) {
        let (a, b) = match (lhs, rhs) {
            (Item::Placemarker, r) => return res.push(r),
            (l, Item::Placemarker) => return res.push(l),
            (Item::T(a), Item::T(b)) => (a, b),
            (l, r) => {
                res.push(l);
                return res.push(r);
            }
        };
        let text = format!("{}{}", self.text(&a), self.text(&b));
        match lex::lex_one(&text) {
            Some(kind) if !kind.is_error() => {
                let len = text.len();
                let file = self.sm.add_virtual("<scratch space>", text);
                let spelling = Span::new(file, 0, len);
                res.push(Item::T(Token { kind, span: a.span, spelling, expansion: a.expansion, flags: (a.flags & !flags::NO_EXPAND) | flags::SYNTHETIC }));
            }
            _ => {
                let mut d = Diagnostic::error(
                    "E0114",
                    use_span,
                    format!("pasting \"{}\" and \"{}\" does not give a valid preprocessing token", self.text(&a), self.text(&b)),
                );
                d.notes = self.out.expansions.notes(id);
                self.diags.push(d);
                res.push(Item::T(a));
                res.push(Item::T(b));
            }
        }
    }

    /// `#arg`: a string literal of the argument's spelling (C99 6.10.3.2).
    fn stringize(&mut self, arg: &[Token], hash: Token) -> Token {
        let mut s = String::from("\"");
        for (k, t) in arg.iter().enumerate() {
            if k > 0 && t.flags & (flags::LEADING_SPACE | flags::LINE_START) != 0 {
                s.push(' ');
            }
            let text = self.sm.text(t.spelling);
            if matches!(t.kind, TokenKind::StringLit | TokenKind::CharLit | TokenKind::UnterminatedString | TokenKind::UnterminatedChar) {
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            } else {
                s.push_str(text);
            }
        }
        s.push('"');
        let len = s.len();
        let file = self.sm.add_virtual("<scratch space>", s);
        let spelling = Span::new(file, 0, len);
        Token { kind: TokenKind::StringLit, span: hash.span, spelling, expansion: 0, flags: (hash.flags & flags::LEADING_SPACE) | flags::SYNTHETIC }
    }

    /// `defined X` / `defined(X)` in `#if`: a `0` or `1` token.
    fn defined_op(&mut self, tok: Token, floor: usize) -> Token {
        let mut t = self.next_token(floor);
        let paren = t.is_some_and(|t| t.kind == TokenKind::LParen);
        if paren {
            t = self.next_token(floor);
        }
        let mut value = false;
        match t {
            Some(n) if n.kind.is_word() => {
                value = self.is_defined(self.sm.text(n.spelling));
                if paren {
                    match self.next_token(floor) {
                        Some(r) if r.kind == TokenKind::RParen => {}
                        other => {
                            let span = other.map_or(n.span, |o| o.span);
                            self.diags.push(Diagnostic::error("E0115", span, "missing ')' after 'defined'").with_note_at(tok.span, "to match this 'defined'"));
                            self.if_failed = true;
                        }
                    }
                }
            }
            other => {
                let span = other.map_or(tok.span, |o| o.span);
                self.diags.push(Diagnostic::error("E0115", span, "macro name must be an identifier"));
                self.if_failed = true;
            }
        }
        let spelling = if value { self.one } else { self.zero };
        Token { kind: TokenKind::Number, span: tok.span, spelling, expansion: tok.expansion, flags: tok.flags | flags::SYNTHETIC }
    }

    /// `_Pragma("...")`: the string, destringized, runs as `#pragma`.
    fn pragma_op(&mut self, tok: Token, floor: usize) {
        let a = self.next_token(floor);
        let s = self.next_token(floor);
        let c = self.next_token(floor);
        let (Some(a), Some(s), Some(c)) = (a, s, c) else {
            self.diags.push(Diagnostic::error("E0120", tok.span, "_Pragma takes a parenthesized string literal"));
            return;
        };
        if a.kind != TokenKind::LParen || s.kind != TokenKind::StringLit || c.kind != TokenKind::RParen {
            self.diags.push(Diagnostic::error("E0120", tok.span, "_Pragma takes a parenthesized string literal"));
            return;
        }
        let lit = self.sm.text(s.spelling).trim_start_matches(['L', 'u', 'U', '8']);
        let inner = &lit[1..lit.len() - 1];
        let mut text = String::with_capacity(inner.len());
        let mut chars = inner.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch == '\\' && matches!(chars.peek(), Some('"') | Some('\\')) {
                if let Some(n) = chars.next() {
                    text.push(n);
                }
            } else {
                text.push(ch);
            }
        }
        let v = self.sm.add_virtual("<_Pragma>", text);
        let span = if tok.expansion != 0 { tok.span } else { tok.span.to(c.span) };
        // The user sees the pragma's words where `_Pragma` stands: its
        // diagnostics are reported there, and judged by the diagnostic
        // pragmas in force there.
        let mut toks = lex::lex(v, &self.sm.file(v).text);
        for t in &mut toks {
            t.span = span;
            t.expansion = tok.expansion;
        }
        self.pragma(&toks, span);
    }

    pub(super) fn do_undef(&mut self, directive: Span) {
        let rest = self.line_rest();
        match rest.first() {
            Some(t) if t.kind.is_word() => {
                if self.sm.text(t.spelling) == "defined" {
                    self.diags.push(Diagnostic::error("E0108", t.span, "'defined' cannot be used as a macro name"));
                    return;
                }
                self.va_opt_misplaced(t);
                let name = self.sm.text(t.spelling);
                if self.header_macro(name).is_some() {
                    self.undefined_constants.insert(name.into());
                }
                if self.names.get(name).is_some_and(|&id| self.defs[id as usize].builtin != Builtin::None) {
                    self.diags.push(Diagnostic::warning("builtin-macro-redefined", t.span, "undefining builtin macro"));
                }
                if self.opts.macro_dump == MacroDump::InPlace {
                    let text = format!("#undef {}", self.sm.text(t.spelling));
                    self.record_macro_line(t.span, text);
                }
                let name = self.sm.text(t.spelling);
                self.names.remove(name);
                if rest.len() > 1 {
                    let span = rest[1].span.to(rest[rest.len() - 1].span);
                    self.diags.push(Diagnostic::warning("extra-tokens", span, "extra tokens at end of #undef directive"));
                }
            }
            Some(t) => self.diags.push(Diagnostic::error("E0108", t.span, "macro name must be an identifier")),
            None => self.diags.push(Diagnostic::error("E0108", directive, "macro name missing")),
        }
    }

    pub(super) fn do_define(&mut self, directive: Span) {
        let rest = self.line_rest();
        let Some(&name) = rest.first() else {
            self.diags.push(Diagnostic::error("E0108", directive, "macro name missing"));
            return;
        };
        if !name.kind.is_word() {
            self.diags.push(Diagnostic::error("E0108", name.span, "macro name must be an identifier"));
            return;
        }
        let name_text = self.sm.text(name.spelling).to_string();
        if name_text == "defined" {
            self.diags.push(Diagnostic::error("E0108", name.span, "'defined' cannot be used as a macro name"));
            return;
        }
        self.va_opt_misplaced(&name);
        let function = rest.get(1).is_some_and(|t| t.kind == TokenKind::LParen && !t.has(flags::LEADING_SPACE));
        let mut params: Vec<Box<str>> = Vec::new();
        let mut variadic = false;
        let mut i = 1;
        if function {
            i = 2;
            loop {
                let t = rest.get(i).copied();
                match t {
                    Some(t) if t.kind == TokenKind::RParen && params.is_empty() => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.kind == TokenKind::Ellipsis => {
                        variadic = true;
                        params.push("__VA_ARGS__".into());
                        i += 1;
                    }
                    Some(t) if t.kind.is_word() => {
                        self.va_opt_misplaced(&t);
                        let p = self.sm.text(t.spelling);
                        if params.iter().any(|q| &**q == p) {
                            self.diags.push(Diagnostic::error("E0109", t.span, format!("duplicate macro parameter name '{p}'")));
                            return;
                        }
                        params.push(p.into());
                        i += 1;
                        if rest.get(i).is_some_and(|t| t.kind == TokenKind::Ellipsis) {
                            variadic = true;
                            i += 1;
                        }
                    }
                    other => {
                        let span = other.map_or(name.span, |t| t.span);
                        self.diags.push(Diagnostic::error("E0109", span, "expected parameter name, found something else in macro parameter list"));
                        return;
                    }
                }
                match rest.get(i) {
                    Some(t) if t.kind == TokenKind::RParen => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.kind == TokenKind::Comma && !variadic => i += 1,
                    other => {
                        let span = other.map_or(name.span, |t| t.span);
                        let msg = if variadic { "missing ')' after '...' in macro parameter list" } else { "expected comma in macro parameter list" };
                        self.diags.push(Diagnostic::error("E0109", span, msg));
                        return;
                    }
                }
            }
        }
        let mut body: Vec<BodyTok> = Vec::with_capacity(rest.len().saturating_sub(i));
        let param_of = |pp: &Self, t: &Token| -> Option<u32> {
            if !t.kind.is_word() {
                return None;
            }
            let s = pp.sm.text(t.spelling);
            params.iter().position(|p| &**p == s).map(|p| p as u32)
        };
        // `__VA_OPT__` is an operator in the body of a variadic macro
        // only (clang warns elsewhere, and of a GNU named variadic
        // parameter's, where it works all the same).
        let named_variadic = variadic && params.last().is_some_and(|p| &**p != "__VA_ARGS__");
        let is_va_opt = |pp: &Self, t: &Token| t.kind == TokenKind::Ident && pp.sm.text(t.spelling) == "__VA_OPT__";
        // The open `__VA_OPT__(`: its body index, its `(`, and the depth
        // of the parentheses inside it.
        let mut open: Option<(usize, Token, u32)> = None;
        // The last token put in the body, for "missing ')' after …".
        let mut last = name;
        let mut k = i;
        while k < rest.len() {
            let t = rest[k];
            let va_opt_at = if is_va_opt(self, &t) {
                Some(k)
            } else if function && t.kind == TokenKind::Hash && rest.get(k + 1).is_some_and(|n| is_va_opt(self, n)) {
                Some(k + 1)
            } else {
                None
            };
            if let Some(at) = va_opt_at
                && variadic
            {
                let va = rest[at];
                if named_variadic {
                    self.va_opt_misplaced(&va);
                }
                if open.is_some() {
                    self.diags.push(Diagnostic::error("E0109", va.span, "__VA_OPT__ cannot be nested within its own replacement tokens"));
                    return;
                }
                let Some(&lparen) = rest.get(at + 1).filter(|p| p.kind == TokenKind::LParen) else {
                    let span = rest.get(at + 1).map_or(va.span.end(), |n| n.span);
                    self.diags.push(Diagnostic::error("E0109", span, "missing '(' following __VA_OPT__"));
                    return;
                };
                if let Some(h) = rest.get(at + 2).filter(|h| h.kind == TokenKind::HashHash) {
                    self.diags.push(Diagnostic::error("E0109", h.span, "'##' cannot appear at start of __VA_OPT__ argument"));
                    return;
                }
                open = Some((body.len(), lparen, 0));
                let stringize = at != k;
                body.push(BodyTok { tok: t, op: Op::VaOpt { close: 0, stringize, va_space: stringize && va.has(flags::LEADING_SPACE) } });
                last = va;
                k = at + 2;
                continue;
            }
            if is_va_opt(self, &t) {
                self.va_opt_misplaced(&t);
            }
            if let Some((start, _, depth)) = &mut open {
                match t.kind {
                    TokenKind::LParen => *depth += 1,
                    TokenKind::RParen if *depth > 0 => *depth -= 1,
                    TokenKind::RParen => {
                        if body.last().is_some_and(|b| b.op == Op::Paste) {
                            self.diags.push(Diagnostic::error("E0109", t.span, "'##' cannot appear at end of __VA_OPT__ argument"));
                            return;
                        }
                        let close = body.len() as u32;
                        if let Op::VaOpt { stringize, va_space, .. } = body[*start].op {
                            body[*start].op = Op::VaOpt { close, stringize, va_space };
                        }
                        open = None;
                        body.push(BodyTok { tok: t, op: Op::Plain });
                        last = t;
                        k += 1;
                        continue;
                    }
                    _ => {}
                }
            }
            if function && t.kind == TokenKind::Hash {
                match rest.get(k + 1).and_then(|n| param_of(self, n)) {
                    Some(p) => {
                        body.push(BodyTok { tok: t, op: Op::Stringize(p) });
                        last = rest[k + 1];
                        k += 2;
                        continue;
                    }
                    None => {
                        // Where the parameter should be, as clang reports it.
                        let at = rest.get(k + 1).map_or_else(|| self.line_end(t.span), |n| n.span);
                        self.diags.push(Diagnostic::error("E0109", at, "'#' is not followed by a macro parameter"));
                        return;
                    }
                }
            }
            let op = if t.kind == TokenKind::HashHash {
                Op::Paste
            } else if function {
                param_of(self, &t).map_or(Op::Plain, Op::Param)
            } else {
                Op::Plain
            };
            body.push(BodyTok { tok: t, op });
            last = t;
            k += 1;
        }
        if let Some((_, lparen, _)) = open {
            let at = self.line_end(rest.last().map_or(last.span, |t| t.span));
            let d = Diagnostic::error("E0109", at, format!("missing ')' after {}", self.token_kind_name(&last)));
            self.diags.push(d.with_note_at(lparen.span, "to match this '('"));
            return;
        }
        if let Some(first) = body.first().filter(|b| b.op == Op::Paste) {
            self.diags.push(Diagnostic::error("E0109", first.tok.span, "'##' cannot appear at start of macro expansion"));
            return;
        }
        if let Some(end) = body.last().filter(|b| b.op == Op::Paste) {
            self.diags.push(Diagnostic::error("E0109", end.tok.span, "'##' cannot appear at end of macro expansion"));
            return;
        }
        let text = (self.opts.macro_dump != MacroDump::None).then(|| self.definition_line(&name_text, function, &params, variadic, &rest[i..]).into_boxed_str());
        if let Some(text) = text.as_deref().filter(|_| self.opts.macro_dump == MacroDump::InPlace) {
            self.record_macro_line(name.span, text.to_string());
        }
        let is_user = self.user_code;
        let m = Macro {
            name: name_text.as_str().into(),
            name_span: name.span,
            def_span: if is_user { Some(name.span) } else { None },
            function,
            params,
            variadic,
            body: body.into(),
            builtin: Builtin::None,
            busy: false,
            text,
        };
        if self.user_code && self.header_macro(&name_text).is_some() {
            let d = Diagnostic::warning("macro-redefined", name.span, format!("'{}' macro redefined", m.name));
            self.diags.push(d.with_note("OpenCL C's standard header defines it"));
        }
        if let Some(&old) = self.names.get(name_text.as_str()) {
            let old = &self.defs[old as usize];
            if !self.same_definition(old, &m) {
                let (code, msg) = if old.builtin != Builtin::None {
                    ("builtin-macro-redefined", "redefining builtin macro".to_string())
                } else {
                    ("macro-redefined", format!("'{}' macro redefined", m.name))
                };
                let mut d = Diagnostic::warning(code, name.span, msg);
                if old.builtin == Builtin::None {
                    d = d.with_note_at(old.name_span, "previous definition is here");
                }
                self.diags.push(d);
            }
        }
        self.add_macro(m);
    }

    /// clang's spelling of a `#define` line (its `PrintMacroDefinition`):
    /// `body` is the replacement list's tokens as written.
    fn definition_line(&self, name: &str, function: bool, params: &[Box<str>], variadic: bool, body: &[Token]) -> String {
        let mut s = format!("#define {name}");
        if function {
            s.push('(');
            for (k, p) in params.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                let last = k + 1 == params.len();
                match (last && variadic, &**p) {
                    (true, "__VA_ARGS__") => s.push_str("..."),
                    (true, named) => {
                        s.push_str(named);
                        s.push_str("...");
                    }
                    (false, p) => s.push_str(p),
                }
            }
            s.push(')');
        }
        // Always a space after the name, as GCC's, but never two.
        if body.first().is_none_or(|t| !t.has(flags::LEADING_SPACE)) {
            s.push(' ');
        }
        for t in body {
            if t.has(flags::LEADING_SPACE) {
                s.push(' ');
            }
            s.push_str(self.sm.text(t.spelling));
        }
        s
    }

    /// Keeps a `-dD` line for the directive named at `span`.
    fn record_macro_line(&mut self, span: Span, text: String) {
        let line = MacroLine { at: self.emitted, pragmas_before: self.out.pragmas.len(), span, text };
        self.out.macro_lines.push(line);
    }

    /// C99 6.10.3p2: identical parameters and replacement lists, with
    /// whitespace separations the same.
    fn same_definition(&self, a: &Macro, b: &Macro) -> bool {
        a.builtin == b.builtin
            && a.function == b.function
            && a.variadic == b.variadic
            && a.params == b.params
            && a.body.len() == b.body.len()
            && a.body.iter().zip(b.body.iter()).enumerate().all(|(i, (x, y))| {
                self.sm.text(x.tok.spelling) == self.sm.text(y.tok.spelling)
                    && (i == 0 || x.tok.has(flags::LEADING_SPACE) == y.tok.has(flags::LEADING_SPACE))
            })
    }
}

/// Appends an argument's tokens; the first has a leading space if `space`.
fn push_arg(items: &mut Vec<Item>, arg: &[Token], space: bool) {
    for (k, t) in arg.iter().enumerate() {
        let mut t = *t;
        if k == 0 {
            t.flags = (t.flags & !(flags::LEADING_SPACE | flags::LINE_START)) | if space { flags::LEADING_SPACE } else { 0 };
        }
        items.push(Item::T(t));
    }
}

/// A macro invocation being substituted.
struct Subst<'a> {
    body: Rc<[BodyTok]>,
    args: &'a [Vec<Token>],
    /// The variable arguments' index (`u32::MAX`: not variadic).
    va: u32,
    /// The arguments macro-expanded, as needed.
    expanded: Vec<Option<Rc<[Token]>>>,
    use_span: Span,
    /// The expansion's index, for notes.
    id: u32,
    mode: Mode,
    /// The next token gets a leading space (clang's `NextTokGetsSpace`).
    next_space: bool,
}
