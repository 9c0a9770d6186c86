//! `#if` expressions: C99 integer constant expressions over `intmax_t` and
//! `uintmax_t` (i64/u64 here), after macro expansion and `defined`.
//!
//! Identifiers left after expansion are 0, except `true` and `false`
//! (clang treats them as 1 and 0 in OpenCL) and the integer constants of
//! OpenCL C's headers, which clang's headers define as macros. Unevaluated operands of `&&`,
//! `||` and `?:` are parsed but not checked for division by zero. Nesting
//! is bounded so that no input overflows the stack.

use crate::diag::Diagnostic;
use crate::lex::literal::{parse_char, parse_number, NumberLit};
use crate::lex::{Token, TokenKind};
use crate::source::{SourceMap, Span};

/// Deepest nesting of parentheses, unary operators and `?:` accepted.
const MAX_DEPTH: u32 = 256;

/// A value with its type: `unsigned` is `uintmax_t`, else `intmax_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Val {
    v: u64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val { v: v as u64, unsigned: false }
    }
    fn truth(self) -> bool {
        self.v != 0
    }
}

/// Evaluates the expanded tokens of a `#if`/`#elif` line; `directive` is
/// where to report an empty or truncated expression.
/// `constant` gives the value of an identifier that is a header constant
/// (see `Pp::header_macro`).
pub(super) fn eval(sm: &SourceMap, toks: &[Token], directive: Span, constant: &dyn Fn(&str) -> Option<i64>) -> Result<bool, Box<Diagnostic>> {
    let mut p = Parser { sm, toks, pos: 0, depth: 0, directive, constant };
    let v = p.comma(true)?;
    if let Some(t) = p.toks.get(p.pos) {
        let msg = if t.kind == TokenKind::RParen { "unexpected ')' in preprocessor expression".to_string() } else { "token is not a valid binary operator in a preprocessor subexpression".to_string() };
        return Err(p.err(*t, msg));
    }
    Ok(v.truth())
}

struct Parser<'a> {
    sm: &'a SourceMap,
    toks: &'a [Token],
    pos: usize,
    depth: u32,
    directive: Span,
    constant: &'a dyn Fn(&str) -> Option<i64>,
}

type R = Result<Val, Box<Diagnostic>>;

fn binary_prec(k: TokenKind) -> Option<u8> {
    use TokenKind::*;
    Some(match k {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe1 => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl Parser<'_> {
    fn err(&self, t: Token, msg: impl Into<String>) -> Box<Diagnostic> {
        Box::new(Diagnostic::error("E0115", t.span, msg))
    }

    fn peek(&self) -> Option<Token> {
        self.toks.get(self.pos).copied()
    }

    fn end_err(&self, msg: &str) -> Box<Diagnostic> {
        let span = self.toks.last().map_or(self.directive, |t| t.span.end());
        Box::new(Diagnostic::error("E0115", span, msg))
    }

    fn enter(&mut self) -> Result<(), Box<Diagnostic>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.peek().map_or(self.directive, |t| t.span);
            return Err(Box::new(Diagnostic::error("E0115", span, "preprocessor expression nested too deeply")));
        }
        Ok(())
    }

    fn comma(&mut self, live: bool) -> R {
        let mut v = self.cond(live)?;
        while self.peek().is_some_and(|t| t.kind == TokenKind::Comma) {
            self.pos += 1;
            v = self.cond(live)?;
        }
        Ok(v)
    }

    fn cond(&mut self, live: bool) -> R {
        let c = self.binary(1, live)?;
        if self.peek().is_none_or(|t| t.kind != TokenKind::Question) {
            return Ok(c);
        }
        let q = self.toks[self.pos];
        self.pos += 1;
        self.enter()?;
        let a = self.comma(live && c.truth())?;
        match self.peek() {
            Some(t) if t.kind == TokenKind::Colon => self.pos += 1,
            Some(t) => return Err(self.err(t, "expected ':' in preprocessor expression").with_note_at(q.span, "to match this '?'").into()),
            None => return Err(Box::new((*self.end_err("expected ':' in preprocessor expression")).clone().with_note_at(q.span, "to match this '?'"))),
        }
        let b = self.cond(live && !c.truth())?;
        self.depth -= 1;
        let unsigned = a.unsigned || b.unsigned;
        let v = if c.truth() { a.v } else { b.v };
        Ok(Val { v, unsigned })
    }

    fn binary(&mut self, min: u8, live: bool) -> R {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.peek() {
            let Some(prec) = binary_prec(op.kind) else { break };
            if prec < min {
                break;
            }
            self.pos += 1;
            let rhs_live = match op.kind {
                TokenKind::AmpAmp => live && lhs.truth(),
                TokenKind::PipePipe => live && !lhs.truth(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = self.apply(op, lhs, rhs, live)?;
        }
        Ok(lhs)
    }

    fn apply(&self, op: Token, l: Val, r: Val, live: bool) -> R {
        use TokenKind::*;
        let unsigned = l.unsigned || r.unsigned;
        let bool_val = |b: bool| Val::int(b as i64);
        let (a, b) = (l.v, r.v);
        let (sa, sb) = (a as i64, b as i64);
        Ok(match op.kind {
            Star => Val { v: a.wrapping_mul(b), unsigned },
            Slash | Percent => {
                if b == 0 {
                    if !live {
                        return Ok(Val { v: 0, unsigned });
                    }
                    let what = if op.kind == Slash { "division" } else { "remainder" };
                    return Err(Box::new(Diagnostic::error("E0116", op.span, format!("{what} by zero in preprocessor expression"))));
                }
                let v = match (op.kind, unsigned) {
                    (Slash, true) => a / b,
                    (Slash, false) => sa.wrapping_div(sb) as u64,
                    (_, true) => a % b,
                    (_, false) => sa.wrapping_rem(sb) as u64,
                };
                Val { v, unsigned }
            }
            Plus => Val { v: a.wrapping_add(b), unsigned },
            Minus => Val { v: a.wrapping_sub(b), unsigned },
            // Shifts take the left operand's type.
            Shl => Val { v: if b >= 64 { 0 } else { a << b }, unsigned: l.unsigned },
            Shr => {
                let v = if l.unsigned {
                    if b >= 64 { 0 } else { a >> b }
                } else if b >= 64 {
                    (sa >> 63) as u64
                } else {
                    (sa >> b) as u64
                };
                Val { v, unsigned: l.unsigned }
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
            Amp => Val { v: a & b, unsigned },
            Caret => Val { v: a ^ b, unsigned },
            Pipe1 => Val { v: a | b, unsigned },
            AmpAmp => bool_val(l.truth() && r.truth()),
            _ => bool_val(l.truth() || r.truth()),
        })
    }

    fn unary(&mut self, live: bool) -> R {
        let Some(t) = self.peek() else { return Err(self.end_err("expected value in expression")) };
        let op = match t.kind {
            TokenKind::Plus | TokenKind::Minus | TokenKind::Tilde | TokenKind::Bang => t.kind,
            _ => return self.primary(live),
        };
        self.pos += 1;
        self.enter()?;
        let v = self.unary(live)?;
        self.depth -= 1;
        Ok(match op {
            TokenKind::Plus => v,
            TokenKind::Minus => Val { v: v.v.wrapping_neg(), unsigned: v.unsigned },
            TokenKind::Tilde => Val { v: !v.v, unsigned: v.unsigned },
            _ => Val::int(!v.truth() as i64),
        })
    }

    fn primary(&mut self, live: bool) -> R {
        let Some(t) = self.peek() else { return Err(self.end_err("expected value in expression")) };
        self.pos += 1;
        let text = self.sm.text(t.spelling);
        match t.kind {
            TokenKind::LParen => {
                self.enter()?;
                let v = self.comma(live)?;
                self.depth -= 1;
                match self.peek() {
                    Some(r) if r.kind == TokenKind::RParen => {
                        self.pos += 1;
                        Ok(v)
                    }
                    Some(r) => Err(Box::new(Diagnostic::error("E0115", r.span, "expected ')' in preprocessor expression").with_note_at(t.span, "to match this '('"))),
                    None => Err(Box::new((*self.end_err("expected ')' in preprocessor expression")).clone().with_note_at(t.span, "to match this '('"))),
                }
            }
            TokenKind::Number => match parse_number(text) {
                Ok(NumberLit::Int { value, suffix, .. }) => Ok(Val { v: value, unsigned: suffix.unsigned || value > i64::MAX as u64 }),
                Ok(NumberLit::Float { .. }) => Err(self.err(t, "floating point literal in preprocessor expression")),
                Err(e) => Err(self.err(t, e)),
            },
            TokenKind::CharLit => match parse_char(text) {
                Ok(v) => Ok(Val::int(v)),
                Err(e) => Err(self.err(t, e)),
            },
            TokenKind::True => Ok(Val::int(1)),
            TokenKind::False => Ok(Val::int(0)),
            k if k.is_word() => Ok(Val::int((self.constant)(text).unwrap_or(0))),
            TokenKind::RParen => Err(self.err(t, "expected value in expression")),
            _ => Err(self.err(t, "invalid token at start of a preprocessor expression")),
        }
    }
}
