//! The lexer: source text to [`Token`]s, with logos.
//!
//! It produces *preprocessing* tokens in the C sense, with one twist: words
//! that are keywords of OpenCL C come out as their keyword kinds already,
//! so the parser never looks words up. The preprocessor treats every
//! keyword as an identifier ([`TokenKind::is_word`]), because a macro may be
//! named `kernel` or `float4`.
//!
//! Numbers are C *pp-numbers* ([`TokenKind::Number`]): whether `0x1p-3f` is
//! a valid float is decided by [`literal::parse_number`] after
//! preprocessing, as C requires (`##` may build a number from pieces).
//!
//! The lexer never fails: a stray character, an unterminated string or an
//! unterminated comment becomes a [`TokenKind::Unknown`] /
//! [`TokenKind::UnterminatedString`] / … token that the preprocessor turns
//! into a diagnostic.

pub mod literal;

use crate::source::{FileId, Span};
use logos::Logos;

/// Bit flags on a token.
pub mod flags {
    /// First token on its (logical) line: `#` here starts a directive.
    pub const LINE_START: u8 = 1;
    /// Whitespace or a comment comes right before this token.
    pub const LEADING_SPACE: u8 = 2;
    /// Produced by `##` or `#`, or otherwise by the preprocessor.
    pub const SYNTHETIC: u8 = 4;
    /// An identifier that must not be expanded again (the blue-paint rule
    /// of C99 6.10.3.4p2).
    pub const NO_EXPAND: u8 = 8;
}

/// A token.
///
/// `span` is where the user sees the token: for a token that came out of a
/// macro expansion it is the macro invocation in the file being compiled.
/// `spelling` is where its characters are: the macro body, or a virtual
/// file for pasted tokens. `expansion` indexes the preprocessor's expansion
/// table (`0` = not from a macro) so diagnostics can add "expanded from
/// macro `X`" notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    pub spelling: Span,
    pub expansion: u32,
    pub flags: u8,
}

impl Token {
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// Lexes a whole file. Tokens carry `span == spelling`, `expansion == 0`.
pub fn lex(file: FileId, text: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(text.len() / 4);
    lex_into(file, text, 0, &mut out);
    out
}

/// Lexes `text`, which starts at byte `base` of `file`, appending to `out`.
/// The first token gets `LINE_START` when it is the first token of `text`.
pub fn lex_into(file: FileId, text: &str, base: usize, out: &mut Vec<Token>) {
    let mut lexer = TokenKind::lexer(text);
    let mut prev_end = 0usize;
    let mut first = true;
    while let Some(res) = lexer.next() {
        let range = lexer.span();
        let kind = match res {
            Ok(k) => k,
            Err(()) => classify_error(&text[range.clone()]),
        };
        let gap = &text[prev_end..range.start];
        let mut f = 0;
        if first || gap_has_newline(gap) {
            f |= flags::LINE_START;
        }
        if !gap.is_empty() {
            f |= flags::LEADING_SPACE;
        }
        first = false;
        prev_end = range.end;
        let span = Span::new(file, base + range.start, base + range.end);
        out.push(Token { kind, span, spelling: span, expansion: 0, flags: f });
    }
}

/// Relexes a single token's text (for `##`), returning `None` when the text
/// is not exactly one token.
pub fn lex_one(text: &str) -> Option<TokenKind> {
    let mut lexer = TokenKind::lexer(text);
    let kind = match lexer.next()? {
        Ok(k) => k,
        Err(()) => classify_error(lexer.slice()),
    };
    if lexer.span() != (0..text.len()) || lexer.next().is_some() {
        return None;
    }
    Some(kind)
}

fn classify_error(text: &str) -> TokenKind {
    let prefix = text.trim_start_matches(['L', 'u', 'U', '8']);
    if prefix.starts_with('"') {
        TokenKind::UnterminatedString
    } else if prefix.starts_with('\'') {
        TokenKind::UnterminatedChar
    } else if text.starts_with("/*") {
        TokenKind::UnterminatedComment
    } else {
        TokenKind::Unknown
    }
}

/// Does whitespace-and-comments text end a line? A newline inside a block
/// comment does not (C replaces the comment by one space); an escaped
/// newline does not.
fn gap_has_newline(gap: &str) -> bool {
    if !gap.contains('\n') {
        return false;
    }
    let b = gap.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'\\' if b.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => i += 3,
            b'\n' => return true,
            _ => i += 1,
        }
    }
    false
}

/// Every kind of token.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[logos(skip r"[ \t\r\n\f\v]+")]
#[logos(skip r"\\\r?\n")]
// A `//` comment ends at a newline that no backslash escapes.
#[logos(skip(r"//([^\\\n]|\\[^\n]|\\\r?\n)*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum TokenKind {
    #[regex(r"[A-Za-z_$][A-Za-z0-9_$]*")]
    Ident,
    /// A C pp-number: `1`, `0x1F`, `1.5e-3f`, `0x1p4`, `1.0h`.
    #[regex(r"\.?[0-9]([0-9A-Za-z_.]|[eEpP][+-])*")]
    Number,
    #[regex(r#"(L|u|U|u8)?'([^'\\\n]|\\.|\\\n)*'"#)]
    CharLit,
    #[regex(r#"(L|u|U|u8)?"([^"\\\n]|\\.|\\\n)*""#)]
    StringLit,

    // Error tokens. A terminated literal or comment is one character
    // longer than its unterminated pattern, so longest-match picks the right
    // one; `Unknown` comes from `classify_error`.
    #[regex(r#"(L|u|U|u8)?"([^"\\\n]|\\.)*"#)]
    UnterminatedString,
    #[regex(r#"(L|u|U|u8)?'([^'\\\n]|\\.)*"#)]
    UnterminatedChar,
    #[token("/*", |lex| lex.bump(lex.remainder().len()))]
    UnterminatedComment,
    Unknown,

    // --- C99 keywords ---
    #[token("auto")]
    Auto,
    #[token("break")]
    Break,
    #[token("case")]
    Case,
    #[token("char")]
    Char,
    #[token("const")]
    #[token("__const")]
    #[token("__const__")]
    Const,
    #[token("continue")]
    Continue,
    #[token("default")]
    Default,
    #[token("do")]
    Do,
    #[token("double")]
    Double,
    #[token("else")]
    Else,
    #[token("enum")]
    Enum,
    #[token("extern")]
    Extern,
    #[token("float")]
    Float,
    #[token("for")]
    For,
    #[token("goto")]
    Goto,
    #[token("if")]
    If,
    #[token("inline")]
    #[token("__inline")]
    #[token("__inline__")]
    Inline,
    #[token("int")]
    Int,
    #[token("long")]
    Long,
    #[token("register")]
    Register,
    #[token("restrict")]
    #[token("__restrict")]
    #[token("__restrict__")]
    Restrict,
    #[token("return")]
    Return,
    #[token("short")]
    Short,
    #[token("signed")]
    #[token("__signed")]
    #[token("__signed__")]
    Signed,
    #[token("sizeof")]
    Sizeof,
    #[token("static")]
    Static,
    #[token("struct")]
    Struct,
    #[token("switch")]
    Switch,
    #[token("typedef")]
    Typedef,
    #[token("union")]
    Union,
    #[token("unsigned")]
    Unsigned,
    #[token("void")]
    Void,
    #[token("volatile")]
    #[token("__volatile")]
    #[token("__volatile__")]
    Volatile,
    #[token("while")]
    While,
    #[token("_Bool")]
    #[token("bool")]
    Bool,
    #[token("_Complex")]
    Complex,
    #[token("_Imaginary")]
    Imaginary,
    #[token("_Alignof")]
    #[token("__alignof__")]
    #[token("__alignof")]
    Alignof,
    #[token("_Static_assert")]
    StaticAssert,
    /// GNU `__typeof__`/`__typeof` (plain `typeof` is C23's, not OpenCL
    /// C's: clang-22 takes it as a name there).
    #[token("__typeof__")]
    #[token("__typeof")]
    Typeof,
    #[token("true")]
    True,
    #[token("false")]
    False,

    // --- OpenCL C keywords ---
    #[token("half")]
    Half,
    #[token("__kernel")]
    #[token("kernel")]
    Kernel,
    #[token("__global")]
    #[token("global")]
    Global,
    #[token("__local")]
    #[token("local")]
    Local,
    #[token("__constant")]
    #[token("constant")]
    Constant,
    #[token("__private")]
    #[token("private")]
    Private,
    #[token("__generic")]
    #[token("generic")]
    Generic,
    #[token("__read_only")]
    #[token("read_only")]
    ReadOnly,
    #[token("__write_only")]
    #[token("write_only")]
    WriteOnly,
    #[token("__read_write")]
    #[token("read_write")]
    ReadWrite,
    #[token("pipe")]
    Pipe,
    #[token("__attribute__")]
    #[token("__attribute")]
    Attribute,
    #[token("vec_step")]
    VecStep,
    #[token("__builtin_offsetof")]
    BuiltinOffsetof,
    /// A builtin type name that is a single word: `uint`, `float4`,
    /// `image2d_t`, `sampler_t`, `atomic_int`, `size_t`, … The text says
    /// which; `builtins` maps it to a type.
    #[regex(r"(u?(char|short|int|long)|float|double|half)(2|3|4|8|16)")]
    #[regex(r"uchar|ushort|uint|ulong")]
    #[regex(r"size_t|ptrdiff_t|intptr_t|uintptr_t")]
    #[regex(r"image(1d|1d_array|1d_buffer|2d|2d_array|3d|2d_depth|2d_array_depth|2d_msaa|2d_array_msaa|2d_msaa_depth|2d_array_msaa_depth)_t")]
    #[regex(r"sampler_t|event_t|queue_t|ndrange_t|clk_event_t|reserve_id_t|cl_mem_fence_flags|memory_order|memory_scope")]
    #[regex(r"atomic_(int|uint|long|ulong|float|double|intptr_t|uintptr_t|size_t|ptrdiff_t|flag|half)")]
    BuiltinType,

    // --- punctuators (digraphs map to the same kinds) ---
    #[token("[")]
    #[token("<:")]
    LBracket,
    #[token("]")]
    #[token(":>")]
    RBracket,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    #[token("<%")]
    LBrace,
    #[token("}")]
    #[token("%>")]
    RBrace,
    #[token(".")]
    Dot,
    #[token("->")]
    Arrow,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("&")]
    Amp,
    #[token("*")]
    Star,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("^")]
    Caret,
    #[token("|")]
    Pipe1,
    #[token("&&")]
    AmpAmp,
    #[token("||")]
    PipePipe,
    #[token("?")]
    Question,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,
    #[token("...")]
    Ellipsis,
    #[token("=")]
    Eq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("&=")]
    AmpEq,
    #[token("^=")]
    CaretEq,
    #[token("|=")]
    PipeEq,
    #[token(",")]
    Comma,
    #[token("#")]
    #[token("%:")]
    Hash,
    #[token("##")]
    #[token("%:%:")]
    HashHash,
}

impl TokenKind {
    /// Identifiers and keywords: what the preprocessor may treat as a macro
    /// name, and what `defined X` accepts.
    pub fn is_word(self) -> bool {
        self == TokenKind::Ident || (self >= TokenKind::Auto && self <= TokenKind::BuiltinType)
    }

    /// A keyword that names a type or starts naming one (`int`,
    /// `unsigned`, `float4`, `struct`, `__typeof__`).
    pub fn is_type_word(self) -> bool {
        use TokenKind::*;
        matches!(
            self,
            Void | Char | Short | Int | Long | Float | Double | Signed | Unsigned | Bool | Half | BuiltinType | Struct | Union
                | Enum | Typeof
        )
    }

    /// A keyword that qualifies a declaration without naming a type: a
    /// qualifier, storage class, function specifier, address space, access
    /// qualifier, or `pipe`.
    pub fn is_specifier_word(self) -> bool {
        use TokenKind::*;
        matches!(
            self,
            Const | Volatile | Restrict | Static | Extern | Typedef | Inline | Register | Auto | Kernel | Global | Local
                | Constant | Private | Generic | ReadOnly | WriteOnly | ReadWrite | Pipe
        )
    }

    pub fn is_error(self) -> bool {
        matches!(
            self,
            TokenKind::UnterminatedString | TokenKind::UnterminatedChar | TokenKind::UnterminatedComment | TokenKind::Unknown
        )
    }

    /// How the token is written, for messages ("expected `;`"); `None` for
    /// kinds whose text varies.
    pub fn fixed_text(self) -> Option<&'static str> {
        use TokenKind::*;
        Some(match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe1 => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Eq => "=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            PlusEq => "+=",
            MinusEq => "-=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            CaretEq => "^=",
            PipeEq => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
            Auto => "auto",
            Break => "break",
            Case => "case",
            Char => "char",
            Continue => "continue",
            Default => "default",
            Do => "do",
            Double => "double",
            Else => "else",
            Enum => "enum",
            Extern => "extern",
            Float => "float",
            For => "for",
            Goto => "goto",
            If => "if",
            Int => "int",
            Long => "long",
            Register => "register",
            Return => "return",
            Short => "short",
            Sizeof => "sizeof",
            Typeof => "__typeof__",
            Static => "static",
            Struct => "struct",
            Switch => "switch",
            Typedef => "typedef",
            Union => "union",
            Unsigned => "unsigned",
            Void => "void",
            While => "while",
            Half => "half",
            Pipe => "pipe",
            VecStep => "vec_step",
            BuiltinOffsetof => "__builtin_offsetof",
            True => "true",
            False => "false",
            _ => return None,
        })
    }

    /// A phrase naming the token for people: "`;`", "an identifier".
    pub fn describe(self) -> String {
        match self.fixed_text() {
            Some(t) => format!("'{t}'"),
            None => match self {
                TokenKind::Ident => "an identifier".into(),
                TokenKind::Number => "a number".into(),
                TokenKind::CharLit => "a character literal".into(),
                TokenKind::StringLit => "a string literal".into(),
                TokenKind::BuiltinType => "a type name".into(),
                k if k.is_error() => "an invalid token".into(),
                _ => "a keyword".into(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        lex(FileId(0), s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn keywords_identifiers_and_builtin_types() {
        use TokenKind::*;
        assert_eq!(
            kinds("__kernel kernel void f(__global float4 *p, uint n, image2d_t img, atomic_int a, float4x)"),
            vec![
                Kernel, Kernel, Void, Ident, LParen, Global, BuiltinType, Star, Ident, Comma, BuiltinType, Ident, Comma,
                BuiltinType, Ident, Comma, BuiltinType, Ident, Comma, Ident, RParen
            ]
        );
        assert_eq!(kinds("int2 float16 uchar3 double8 half4 long17"), vec![BuiltinType, BuiltinType, BuiltinType, BuiltinType, BuiltinType, Ident]);
    }

    #[test]
    fn pp_numbers_cover_every_literal_form() {
        for n in ["0", "42u", "0x1Fu", "017", "1.5f", "1e-3", "0x1p-3f", ".5", "1.0h", "10UL", "1.e+5"] {
            assert_eq!(kinds(n), vec![TokenKind::Number], "{n}");
        }
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        use TokenKind::*;
        assert_eq!(kinds("a<<=b>>c->d...e##f"), vec![Ident, ShlEq, Ident, Shr, Ident, Arrow, Ident, Ellipsis, Ident, HashHash, Ident]);
        assert_eq!(kinds("<: :> <% %> %: %:%:"), vec![LBracket, RBracket, LBrace, RBrace, Hash, HashHash]);
    }

    #[test]
    fn comments_and_flags() {
        let toks = lex(FileId(0), "a /* x\n y */ b\n  c // d \\\n still comment\n#e\\\nf");
        let f: Vec<u8> = toks.iter().map(|t| t.flags).collect();
        use flags::*;
        assert_eq!(f, vec![LINE_START, LEADING_SPACE, LINE_START | LEADING_SPACE, LINE_START | LEADING_SPACE, 0, LEADING_SPACE]);
    }

    #[test]
    fn errors_become_tokens() {
        use TokenKind::*;
        assert_eq!(kinds("a \"abc\nb"), vec![Ident, UnterminatedString, Ident]);
        assert_eq!(kinds("x @ y"), vec![Ident, Unknown, Ident]);
        assert_eq!(kinds("x /* never closed"), vec![Ident, UnterminatedComment]);
        assert_eq!(kinds("'a' L\"w\" u8\"s\""), vec![CharLit, StringLit, StringLit]);
    }

    #[test]
    fn lex_one_rejects_multiple_tokens() {
        assert_eq!(lex_one("ab"), Some(TokenKind::Ident));
        assert_eq!(lex_one("+="), Some(TokenKind::PlusEq));
        assert_eq!(lex_one("+ ="), None);
        assert_eq!(lex_one("a+"), None);
    }
}
