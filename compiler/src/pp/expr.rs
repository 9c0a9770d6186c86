//! `#if` expressions: C99 integer constant expressions over `intmax_t` and
//! `uintmax_t`, after macro expansion and `defined`. clang-22 makes those
//! 128-bit for OpenCL (`__INTMAX_WIDTH__` is 128), so they are `i128` and
//! `u128` here, with clang's diagnostics: its overflow and sign-change
//! warnings, a literal too large for 128 bits an error that does not stop
//! the evaluation.
//!
//! The evaluation follows clang's (`PPExpressions.cpp`): a value, then
//! operators by precedence, where the top level stops at `,` and `:` (only
//! a parenthesised expression may hold a comma). Identifiers left after
//! expansion are 0, except `true` and `false` (clang treats them as 1 and
//! 0 in OpenCL) and the integer constants of OpenCL C's headers, which
//! clang's headers define as macros. Operands that are not evaluated
//! (`0 && x`, the unchosen side of `?:`) are parsed but draw no division
//! by zero, overflow or sign-change diagnostic. Nesting is bounded so that
//! no input overflows the stack.

use crate::diag::Diagnostic;
use crate::lex::literal::{parse_char, parse_pp_number};
use crate::lex::{Token, TokenKind};
use crate::source::{SourceMap, Span};

/// Deepest nesting of parentheses, unary operators and `?:` accepted.
const MAX_DEPTH: u32 = 256;

/// The precedence of `?`, where the top level of a `#if` starts (clang's
/// `getPrecedence`); `,` and `:` are below it.
const PREC_QUESTION: u8 = 4;
const PREC_COMMA: u8 = 3;

/// A value with its type (`unsigned`: `uintmax_t`, else `intmax_t`), the
/// source it comes from (for ranges), and the identifier it was, if it was
/// one (`foo(1)` with `foo` undefined).
#[derive(Clone, Copy, Debug)]
struct Val {
    v: u128,
    unsigned: bool,
    span: Span,
    ident: Option<Span>,
}

impl Val {
    fn new(v: u128, unsigned: bool, span: Span) -> Val {
        Val { v, unsigned, span, ident: None }
    }
    fn truth(self) -> bool {
        self.v != 0
    }
    fn negative(self) -> bool {
        !self.unsigned && (self.v as i128) < 0
    }
}

/// Evaluates the expanded tokens of a `#if`/`#elif` line; `end` is where
/// the line ends (where a missing operand or `)` is reported). `constant` gives the value of an
/// identifier that is a header constant (see `Pp::header_macro`) and
/// whether it is unsigned. Returns whether the group is taken, and the
/// diagnostics: an error that stops the evaluation makes the value false;
/// others (a literal too large, tokens after a complete expression) keep
/// it, as in clang.
pub(super) fn eval(sm: &SourceMap, toks: &[Token], end: Span, constant: &dyn Fn(&str) -> Option<(i128, bool)>) -> (bool, Vec<Diagnostic>) {
    let mut p = Parser { sm, toks, pos: 0, depth: 0, end, constant, diags: Vec::new() };
    let v = match p.top() {
        Ok(v) => v.truth(),
        Err(d) => {
            p.diags.push(*d);
            false
        }
    };
    (v, p.diags)
}

struct Parser<'a> {
    sm: &'a SourceMap,
    toks: &'a [Token],
    pos: usize,
    depth: u32,
    /// The end of the line.
    end: Span,
    constant: &'a dyn Fn(&str) -> Option<(i128, bool)>,
    /// Diagnostics that do not stop the evaluation.
    diags: Vec<Diagnostic>,
}

type R = Result<Val, Box<Diagnostic>>;

/// clang's precedences: `Some(0)` ends an expression (`)`, the end of the
/// line), `None` is no operator at all.
fn precedence(t: Option<Token>) -> Option<u8> {
    use TokenKind::*;
    let Some(t) = t else { return Some(0) };
    Some(match t.kind {
        Star | Slash | Percent => 14,
        Plus | Minus => 13,
        Shl | Shr => 12,
        Lt | Gt | Le | Ge => 11,
        EqEq | Ne => 10,
        Amp => 9,
        Caret => 8,
        Pipe1 => 7,
        AmpAmp => 6,
        PipePipe => 5,
        Question => PREC_QUESTION,
        Comma => PREC_COMMA,
        Colon => 2,
        RParen => 0,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<Token> {
        self.toks.get(self.pos).copied()
    }

    /// Where a missing token goes: the next token, or the end of the line.
    fn here(&self) -> Span {
        self.peek().map_or(self.end, |t| t.span)
    }

    fn error(&self, span: Span, msg: impl Into<String>) -> Box<Diagnostic> {
        Box::new(Diagnostic::error("E0115", span, msg))
    }

    fn enter(&mut self) -> Result<(), Box<Diagnostic>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(self.here(), "preprocessor expression nested too deeply"));
        }
        Ok(())
    }

    fn top(&mut self) -> R {
        let v = self.value(true)?;
        if self.peek().is_none() {
            return Ok(v);
        }
        let v = self.binary(v, PREC_QUESTION, true)?;
        if let Some(t) = self.peek() {
            // clang reports it and keeps the value.
            self.diags.push(Diagnostic::error("E0115", t.span, "expected end of line in preprocessor expression"));
        }
        Ok(v)
    }

    /// The error for a token that is no operator after `lhs`.
    fn not_an_operator(&self, lhs: &Val) -> Box<Diagnostic> {
        let t = self.peek();
        match (t, lhs.ident) {
            (Some(t), Some(name)) if t.kind == TokenKind::LParen => self.error(name, format!("function-like macro '{}' is not defined", self.sm.text(name))),
            _ => Box::new(Diagnostic::error("E0115", self.here(), "token is not a valid binary operator in a preprocessor subexpression").with_range(lhs.span)),
        }
    }

    /// clang's `EvaluateDirectiveSubExpr`: applies the operators of
    /// precedence `min` or more that follow `lhs`.
    fn binary(&mut self, mut lhs: Val, min: u8, live: bool) -> R {
        let mut peek_prec = precedence(self.peek()).ok_or_else(|| self.not_an_operator(&lhs))?;
        loop {
            if peek_prec < min {
                return Ok(lhs);
            }
            let op = self.toks[self.pos];
            self.pos += 1;
            if op.kind == TokenKind::Question {
                // Each `?` may nest another in its middle or its end.
                self.enter()?;
            }
            let rhs_live = match op.kind {
                TokenKind::AmpAmp | TokenKind::Question => live && lhs.truth(),
                TokenKind::PipePipe => live && !lhs.truth(),
                _ => live,
            };
            let mut rhs = self.value(rhs_live)?;
            let this_prec = peek_prec;
            peek_prec = precedence(self.peek()).ok_or_else(|| self.not_an_operator(&rhs))?;
            // The middle of `?:` is a whole expression, commas included;
            // everything else takes what binds tighter.
            let rhs_min = if op.kind == TokenKind::Question { PREC_COMMA } else { this_prec + 1 };
            if peek_prec >= rhs_min {
                rhs = self.binary(rhs, rhs_min, rhs_live)?;
                peek_prec = precedence(self.peek()).ok_or_else(|| self.not_an_operator(&rhs))?;
            }
            let res = match op.kind {
                TokenKind::Question => {
                    match self.peek() {
                        Some(t) if t.kind == TokenKind::Colon => {}
                        _ => {
                            let d = Diagnostic::error("E0115", self.here(), "expected ':'").with_range(lhs.span).with_range(rhs.span);
                            return Err(Box::new(d.with_note_at(op.span, "to match this '?'")));
                        }
                    }
                    self.pos += 1;
                    let else_live = live && !lhs.truth();
                    let e = self.value(else_live)?;
                    // Right-associative: `a ? b : c ? d : e`.
                    let e = self.binary(e, this_prec, else_live)?;
                    self.depth -= 1;
                    peek_prec = precedence(self.peek()).ok_or_else(|| self.not_an_operator(&e))?;
                    // No conversion of the value, but the type is the
                    // common one.
                    Val::new(if lhs.truth() { rhs.v } else { e.v }, rhs.unsigned || e.unsigned, lhs.span.to(e.span))
                }
                TokenKind::Colon => {
                    let d = Diagnostic::error("E0115", op.span, "':' without preceding '?'").with_range(lhs.span).with_range(rhs.span);
                    return Err(Box::new(d));
                }
                _ => self.apply(op, lhs, rhs, live)?,
            };
            lhs = res;
        }
    }

    /// A binary operator other than `?:`, with C's usual arithmetic
    /// conversions where they apply and clang's warnings.
    fn apply(&mut self, op: Token, mut l: Val, mut r: Val, live: bool) -> R {
        use TokenKind::*;
        let span = l.span.to(r.span);
        if !matches!(op.kind, Shl | Shr | Comma | PipePipe | AmpAmp) {
            let unsigned = l.unsigned || r.unsigned;
            if live && unsigned {
                for (side, v) in [("left", l), ("right", r)] {
                    if v.negative() {
                        let msg = format!("{side} side of operator converted from negative value to unsigned: {} to {}", v.v as i128, v.v);
                        self.diags.push(Diagnostic::warning("pp-negative-to-unsigned", op.span, msg).with_range(l.span).with_range(r.span));
                    }
                }
            }
            l.unsigned = unsigned;
            r.unsigned = unsigned;
        }
        let (a, b) = (l.v, r.v);
        let (sa, sb) = (a as i128, b as i128);
        let unsigned = l.unsigned;
        let bool_val = |x: bool| Val::new(x as u128, false, span);
        let mut overflow = false;
        let v = match op.kind {
            Slash | Percent if b == 0 => {
                if live {
                    let what = if op.kind == Slash { "division" } else { "remainder" };
                    let d = Diagnostic::error("E0116", op.span, format!("{what} by zero in preprocessor expression")).with_range(l.span).with_range(r.span);
                    return Err(Box::new(d));
                }
                Val::new(0, unsigned, span)
            }
            Slash if unsigned => Val::new(a / b, true, span),
            Slash => {
                overflow = sa == i128::MIN && sb == -1;
                Val::new(sa.wrapping_div(sb) as u128, false, span)
            }
            Percent if unsigned => Val::new(a % b, true, span),
            Percent => Val::new(sa.wrapping_rem(sb) as u128, false, span),
            Star if unsigned => Val::new(a.wrapping_mul(b), true, span),
            Star => {
                overflow = sa.checked_mul(sb).is_none();
                Val::new(sa.wrapping_mul(sb) as u128, false, span)
            }
            Plus if unsigned => Val::new(a.wrapping_add(b), true, span),
            Plus => {
                overflow = sa.checked_add(sb).is_none();
                Val::new(sa.wrapping_add(sb) as u128, false, span)
            }
            Minus if unsigned => Val::new(a.wrapping_sub(b), true, span),
            Minus => {
                overflow = sa.checked_sub(sb).is_none();
                Val::new(sa.wrapping_sub(sb) as u128, false, span)
            }
            // Shifts take the left operand's type; the amount is read as
            // unsigned (a negative one is huge), as by clang's `APInt`.
            Shl => {
                let v = if b >= 128 {
                    overflow = true;
                    0
                } else {
                    let room = if l.unsigned {
                        a.leading_zeros() + 1
                    } else if sa >= 0 {
                        a.leading_zeros()
                    } else {
                        a.leading_ones()
                    };
                    overflow = b >= u128::from(room);
                    a << b
                };
                Val::new(v, l.unsigned, span)
            }
            Shr => {
                // clang reads the amount as a 64-bit number (saturated)
                // cast to 32 bits, and shifts by 127 at most.
                let mut amount = b.min(u128::from(u64::MAX)) as u64 as u32;
                if amount >= 128 {
                    overflow = true;
                    amount = 127;
                }
                let v = if l.unsigned { a >> amount } else { (sa >> amount) as u128 };
                Val::new(v, l.unsigned, span)
            }
            Lt | Gt | Le | Ge => {
                let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
                bool_val(match op.kind {
                    Lt => ord.is_lt(),
                    Gt => ord.is_gt(),
                    Le => ord.is_le(),
                    _ => ord.is_ge(),
                })
            }
            EqEq => bool_val(a == b),
            Ne => bool_val(a != b),
            Amp => Val::new(a & b, unsigned, span),
            Caret => Val::new(a ^ b, unsigned, span),
            Pipe1 => Val::new(a | b, unsigned, span),
            AmpAmp => bool_val(l.truth() && r.truth()),
            PipePipe => bool_val(l.truth() || r.truth()),
            // `,`: clang warns only with `-pedantic`, which clc has not.
            _ => Val::new(b, r.unsigned, span),
        };
        if overflow && live {
            self.diags.push(Diagnostic::warning("pp-integer-overflow", op.span, "integer overflow in preprocessor expression").with_range(l.span).with_range(r.span));
        }
        Ok(v)
    }

    /// clang's `EvaluateValue`: a literal, an identifier, a parenthesised
    /// expression or a unary operator and its operand.
    fn value(&mut self, live: bool) -> R {
        let Some(t) = self.peek() else { return Err(self.error(self.here(), "expected value in expression")) };
        self.pos += 1;
        let text = self.sm.text(t.spelling);
        match t.kind {
            TokenKind::LParen => {
                self.enter()?;
                let mut v = self.value(live)?;
                if self.peek().is_none_or(|r| r.kind != TokenKind::RParen) {
                    v = self.binary(v, 1, live)?;
                    if self.peek().is_none_or(|r| r.kind != TokenKind::RParen) {
                        let d = Diagnostic::error("E0115", self.here(), "expected ')' in preprocessor expression").with_range(v.span);
                        return Err(Box::new(d.with_note_at(t.span, "to match this '('")));
                    }
                }
                let close = self.toks[self.pos];
                self.pos += 1;
                self.depth -= 1;
                Ok(Val::new(v.v, v.unsigned, t.span.to(close.span)))
            }
            TokenKind::Plus | TokenKind::Minus | TokenKind::Tilde | TokenKind::Bang => {
                self.enter()?;
                let v = self.value(live)?;
                self.depth -= 1;
                let span = t.span.to(v.span);
                Ok(match t.kind {
                    TokenKind::Plus => Val::new(v.v, v.unsigned, span),
                    TokenKind::Minus => {
                        let n = v.v.wrapping_neg();
                        // Only the most negative value overflows.
                        if live && !v.unsigned && n == 1 << 127 {
                            let d = Diagnostic::warning("pp-integer-overflow", t.span, "integer overflow in preprocessor expression").with_range(span);
                            self.diags.push(d);
                        }
                        Val::new(n, v.unsigned, span)
                    }
                    TokenKind::Tilde => Val::new(!v.v, v.unsigned, span),
                    _ => Val::new(u128::from(!v.truth()), false, span),
                })
            }
            TokenKind::Number => self.number(t, text, live),
            TokenKind::CharLit => match parse_char(text) {
                Ok(v) => Ok(Val::new(i128::from(v) as u128, false, t.span)),
                Err(e) => Err(self.error(t.span, e)),
            },
            TokenKind::True | TokenKind::False => Ok(Val { v: u128::from(t.kind == TokenKind::True), unsigned: false, span: t.span, ident: Some(t.spelling) }),
            k if k.is_word() => match (self.constant)(text) {
                Some((v, unsigned)) => Ok(Val::new(v as u128, unsigned, t.span)),
                None => {
                    // clang's -Wundef (off by default), where the value
                    // counts.
                    if live {
                        self.diags.push(Diagnostic::warning("undef", t.span, format!("'{text}' is not defined, evaluates to 0")));
                    }
                    Ok(Val { v: 0, unsigned: false, span: t.span, ident: Some(t.spelling) })
                }
            },
            TokenKind::RParen => Err(self.error(t.span, "expected value in expression")),
            _ => Err(self.error(t.span, "invalid token at start of a preprocessor expression")),
        }
    }

    /// An integer literal: `intmax_t` if it fits (unless `u`), else
    /// `uintmax_t`, with clang's warning for a decimal one. One too large
    /// for 128 bits is an error, reported even where it is not evaluated,
    /// and its low 128 bits go on, as in clang.
    fn number(&mut self, t: Token, text: &str, live: bool) -> R {
        let n = match parse_pp_number(text) {
            Ok(Some(n)) => n,
            Ok(None) => return Err(self.error(t.span, "floating point literal in preprocessor expression")),
            Err(e) => return Err(self.error(t.span, e)),
        };
        if n.overflow {
            self.diags.push(Diagnostic::error("E0115", t.span, "integer literal is too large to be represented in any integer type"));
            return Ok(Val::new(n.value, true, t.span));
        }
        let mut unsigned = n.suffix.unsigned;
        if !unsigned && n.value > i128::MAX as u128 {
            if live && n.radix == 10 {
                let msg = "integer literal is too large to be represented in a signed integer type, interpreting as unsigned";
                self.diags.push(Diagnostic::warning("implicitly-unsigned-literal", t.span, msg));
            }
            unsigned = true;
        }
        Ok(Val::new(n.value, unsigned, t.span))
    }
}
