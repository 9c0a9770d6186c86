//! The syntax tree [`super::parse`] builds: C's structure, unchecked.
//!
//! Declarations keep C's split into declaration specifiers and declarators;
//! nothing here knows what a type *is* (that is sema's job), nor whether a
//! name refers to anything. Every node carries the [`Span`] of the text it
//! came from.
//!
//! Vector literals: `(float4)(a, b.xy, 1.0f)` parses in C as a cast of a
//! parenthesized comma expression. When the operand of a cast is a
//! parenthesized comma expression (two or more elements) the parser builds
//! [`ExprKind::VectorLiteral`] with the elements flattened. Sema decides:
//! if the type is a vector type it is a vector literal; otherwise it is a
//! cast of the comma expression (evaluate every element, keep the last), as
//! in C. A cast of a single parenthesized expression stays an
//! [`ExprKind::Cast`] (for a vector type that is a splat, which has the same
//! meaning as a one-element vector literal).
//!
//! Dropping a [`TranslationUnit`] takes the tree apart iteratively, so a
//! tree of any depth (a 100 000-term `a+a+…` chain) can be dropped; a
//! subtree moved out of the unit and dropped on its own is dropped
//! recursively.

use crate::source::Span;
use clc_builtins::types::BuiltinType;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
    /// The identifiers of file-scope declarations a syntax error broke
    /// (what they declared is lost): sema reports no use of them as
    /// undeclared.
    pub lost_names: rustc_hash::FxHashSet<String>,
}

#[derive(Debug)]
pub enum ExternalDecl {
    Decl(Decl),
    FunctionDef(Box<FunctionDef>),
    StaticAssert(StaticAssert),
}

/// `specs declarator body`.
#[derive(Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub body: Block,
    pub span: Span,
}

/// `_Static_assert(cond, "message");`
#[derive(Debug, Clone)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<Vec<u8>>,
    pub span: Span,
}

/// A declaration: `static const int a = 1, *b;`. `declarators` is empty
/// for `struct S { … };` and the like.
#[derive(Debug, Clone)]
pub struct Decl {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

impl Decl {
    pub fn is_typedef(&self) -> bool {
        self.specs.is_typedef()
    }
}

#[derive(Debug, Clone)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    /// Attributes after the declarator: `void f(int) __attribute__((overloadable))`.
    pub attrs: Vec<Attribute>,
    pub init: Option<Box<Initializer>>,
    pub span: Span,
}

/// Declaration specifiers in source order.
#[derive(Debug, Clone)]
pub struct DeclSpecs {
    pub items: Vec<DeclSpec>,
    pub span: Span,
}

impl DeclSpecs {
    pub fn is_typedef(&self) -> bool {
        self.items.iter().any(|s| matches!(s, DeclSpec::Storage(StorageClass::Typedef, _)))
    }
}

#[derive(Debug, Clone)]
pub enum DeclSpec {
    Storage(StorageClass, Span),
    Qual(TypeQual, Span),
    AddrSpace(AddrSpace, Span),
    Access(AccessQual, Span),
    FnSpec(FnSpec, Span),
    /// `pipe`: the declared type is a pipe of the type the other
    /// specifiers name (`read_only pipe int p`).
    Pipe(Span),
    Type(TypeSpec),
    Attr(Attribute),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeQual {
    Const,
    Volatile,
    Restrict,
}

/// Address-space qualifiers name the same `AddrSpace` sema and the
/// builtins table use.
pub use clc_builtins::AddrSpace;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessQual {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnSpec {
    Inline,
    Kernel,
}

#[derive(Debug, Clone)]
pub struct TypeSpec {
    pub kind: TypeSpecKind,
    pub span: Span,
}

/// One type-specifier word or construct. Multi-word types (`unsigned long`)
/// are several of these; sema combines them.
#[derive(Debug, Clone)]
pub enum TypeSpecKind {
    Void,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Signed,
    Unsigned,
    Bool,
    Half,
    Complex,
    Imaginary,
    /// A single-word builtin type (`float4`, `image2d_t`, `size_t`);
    /// `name` is its spelling.
    Builtin { name: String, ty: BuiltinType },
    TypedefName(Ident),
    /// GNU `__typeof__(expr)`: the type of the expression (as an lvalue's
    /// object, qualifiers and address space included), not evaluated.
    TypeofExpr(Box<Expr>),
    /// GNU `__typeof__(type-name)`.
    TypeofType(Box<TypeName>),
    // Boxed: specifier lists sit on the parser's symbol stack, whose
    // entries are as large as the largest one.
    Struct(Box<StructSpec>),
    Enum(Box<EnumSpec>),
    /// A parameter the parser could not read (its syntax error is
    /// reported): no type, and no further diagnostics.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructKind {
    Struct,
    Union,
}

/// `struct name { members }`; `members` is `None` for a reference
/// (`struct S *p`).
#[derive(Debug, Clone)]
pub struct StructSpec {
    pub kind: StructKind,
    pub attrs: Vec<Attribute>,
    pub name: Option<Ident>,
    pub members: Option<Vec<StructMember>>,
    pub span: Span,
    /// The `#pragma pack` value in force at the `{` (0: none): the
    /// largest alignment a member gets.
    pub pack: u32,
}

#[derive(Debug, Clone)]
pub enum StructMember {
    Field { specs: DeclSpecs, declarators: Vec<FieldDeclarator>, span: Span },
    StaticAssert(StaticAssert),
}

/// `declarator`, `declarator : width` or `: width`.
#[derive(Debug, Clone)]
pub struct FieldDeclarator {
    pub declarator: Option<Declarator>,
    pub bit_width: Option<Expr>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EnumSpec {
    pub attrs: Vec<Attribute>,
    pub name: Option<Ident>,
    pub enumerators: Option<Vec<Enumerator>>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Enumerator {
    pub name: Ident,
    pub value: Option<Expr>,
    pub span: Span,
}

/// `__attribute__((name))` or `__attribute__((name(args)))`; one per name
/// (a single `__attribute__((a, b))` gives two).
#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum AttrArg {
    Expr(Expr),
    /// A type name (`vec_type_hint(float4)`). An identifier that is not a
    /// type is an `Expr` (`Ident`).
    Type(TypeName),
}

/// A type name: specifiers and an optional abstract declarator
/// (`const int *[3]`).
#[derive(Debug, Clone)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Option<Declarator>,
    pub span: Span,
}

/// A declarator as written, outermost construct first. The type of the
/// declared name is found by applying each layer, outside in, to the base
/// type: `*a[3]` is `Pointer { inner: Array { inner: Name(a) } }`, and `a`
/// gets `array of 3 pointers to base`.
#[derive(Debug, Clone)]
pub struct Declarator {
    pub kind: DeclaratorKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum DeclaratorKind {
    /// The declared name; `None` in an abstract declarator.
    Name(Option<Ident>),
    /// `* quals inner`, or `^ quals inner` for a block pointer.
    Pointer { block: bool, quals: Vec<DeclSpec>, inner: Box<Declarator> },
    /// `inner [size]`.
    Array { inner: Box<Declarator>, size: Option<Box<Expr>> },
    /// `inner (params)`. `()` has no params and `variadic == false`; `(void)`
    /// is one unnamed parameter of type `void` (sema tells them apart).
    Function { inner: Box<Declarator>, params: Vec<ParamDecl>, variadic: bool },
}

impl Declarator {
    /// The declared name, if any.
    pub fn name(&self) -> Option<&Ident> {
        match &self.kind {
            DeclaratorKind::Name(n) => n.as_ref(),
            DeclaratorKind::Pointer { inner, .. } | DeclaratorKind::Array { inner, .. } | DeclaratorKind::Function { inner, .. } => {
                inner.name()
            }
        }
    }

    /// The parameters of the function declarator closest to the name: the
    /// ones in scope in a function definition's body.
    pub fn function_params(&self) -> Option<&[ParamDecl]> {
        let mut d = self;
        let mut found = None;
        loop {
            match &d.kind {
                DeclaratorKind::Name(_) => return found,
                DeclaratorKind::Pointer { inner, .. } | DeclaratorKind::Array { inner, .. } => d = inner,
                DeclaratorKind::Function { inner, params, .. } => {
                    found = Some(params.as_slice());
                    d = inner;
                }
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    /// A declarator, possibly abstract (no name), or none (`int`).
    pub declarator: Option<Declarator>,
    /// Attributes after a named declarator.
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

impl ParamDecl {
    pub fn name(&self) -> Option<&Ident> {
        self.declarator.as_ref().and_then(|d| d.name())
    }
}

#[derive(Debug, Clone)]
pub enum Initializer {
    Expr(Expr),
    List { items: Vec<InitItem>, span: Span },
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List { span, .. } => *span,
        }
    }
}

/// `designators = init` or `init`.
#[derive(Debug, Clone)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Debug, Clone)]
pub enum Designator {
    Field(Ident),
    /// `[i]`, at the brackets.
    Index(Expr, Span),
    /// GNU's `[lo ... hi]`: the `...`, then the brackets.
    Range(Box<(Expr, Expr)>, Span, Span),
}

/// The index expressions of a member designator (`__builtin_offsetof`'s
/// `m.n[i][j]`).
pub fn offsetof_indices(path: &[Designator]) -> impl Iterator<Item = &Expr> {
    path.iter().filter_map(|d| match d {
        Designator::Index(e, _) => Some(e),
        Designator::Field(_) | Designator::Range(..) => None,
    })
}

// ---------------------------------------------------------------- statements

#[derive(Debug, Clone)]
pub struct Block {
    pub items: Vec<Stmt>,
    pub span: Span,
}

impl Block {
    /// A statement expression's statements, and the expression whose value
    /// it has: the last item when that is an expression statement.
    pub fn split_value(&self) -> (&[Stmt], Option<&Expr>) {
        match self.items.split_last() {
            Some((Stmt { kind: StmtKind::Expr(e), .. }, rest)) => (rest, Some(e)),
            _ => (&self.items, None),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    /// Statement attributes: `__attribute__((opencl_unroll_hint(4))) for …`.
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

/// `#pragma unroll`, `#pragma unroll N` or `#pragma nounroll` on the loop
/// that follows it. `N` is a constant expression (macros expanded) the
/// checker evaluates.
#[derive(Debug, Clone)]
pub struct Unroll {
    pub nounroll: bool,
    pub count: Option<Box<Expr>>,
    /// The word `unroll`/`nounroll`.
    pub name: Span,
    /// The whole pragma.
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Compound(Block),
    Decl(Decl),
    StaticAssert(StaticAssert),
    Expr(Expr),
    /// `;`
    Null,
    If { cond: Expr, then: Box<Stmt>, else_: Option<Box<Stmt>> },
    Switch { cond: Expr, body: Box<Stmt> },
    /// `case value:`, or GNU's `case value ... high:` (both bounds
    /// included).
    Case { value: Expr, high: Option<Box<Expr>>, body: Box<Stmt> },
    Default { body: Box<Stmt> },
    Label { name: Ident, body: Box<Stmt> },
    /// `unroll`: the loop's `#pragma unroll`s, usually none or one (more
    /// are the checker's error).
    While { cond: Expr, body: Box<Stmt>, unroll: Vec<Unroll> },
    DoWhile { body: Box<Stmt>, cond: Expr, unroll: Vec<Unroll> },
    /// Parts boxed to keep `Stmt` small (it sits on the parser's stack).
    For { init: ForInit, cond: Option<Box<Expr>>, step: Option<Box<Expr>>, body: Box<Stmt>, unroll: Vec<Unroll> },
    Goto(Ident),
    Break,
    Continue,
    Return(Option<Expr>),
    /// What a syntax error left (already reported).
    Error,
}

#[derive(Debug, Clone)]
pub enum ForInit {
    None,
    Expr(Box<Expr>),
    Decl(Box<Decl>),
}

// --------------------------------------------------------------- expressions

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// The operator's token of a unary, binary, assignment or conditional
    /// expression (`?`), a subscript's `[`, a call's `(`: where clang
    /// points a diagnostic about the operation (`a ~~^~~ b`), the whole
    /// `span` being underlined around it.
    pub op: Option<Span>,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span, op: None }
    }

    /// An operation's expression with its operator's token at `op`.
    pub fn with_op(kind: ExprKind, span: Span, op: Span) -> Expr {
        Expr { kind, span, op: Some(op) }
    }

    /// Where a diagnostic about this expression points: its operator's
    /// token if it has one, else its start.
    pub fn loc(&self) -> Span {
        self.op.unwrap_or(self.span)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Plus,
    Neg,
    BitNot,
    Not,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

impl UnOp {
    pub fn text(self) -> &'static str {
        match self {
            UnOp::Plus => "+",
            UnOp::Neg => "-",
            UnOp::BitNot => "~",
            UnOp::Not => "!",
            UnOp::Deref => "*",
            UnOp::AddrOf => "&",
            UnOp::PreInc => "++x",
            UnOp::PreDec => "--x",
            UnOp::PostInc => "x++",
            UnOp::PostDec => "x--",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Comma,
}

impl BinOp {
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Comma => ",",
        }
    }
}

/// `sizeof`, `_Alignof`, `vec_step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeofKind {
    Sizeof,
    Alignof,
    VecStep,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Ident(Ident),
    /// `from_macro`: a macro's expansion wrote it (clang's literal-shape
    /// warnings leave those alone).
    IntLit { value: u64, suffix: crate::lex::literal::IntSuffix, radix: u32, from_macro: bool },
    FloatLit { value: f64, value_f32: f32, suffix: crate::lex::literal::FloatSuffix },
    CharLit(i64),
    /// Adjacent string literals, concatenated; no terminating NUL.
    StringLit(Vec<u8>),
    BoolLit(bool),
    Paren(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`op == None`) or `lhs op= rhs`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`; GNU's `c ?: b` has no `a` (it is `c`, evaluated once).
    Cond(Box<Expr>, Option<Box<Expr>>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    /// `(T)(a, b, …)`: see the module docs.
    VectorLiteral(Box<TypeName>, Vec<Expr>),
    CompoundLiteral(Box<TypeName>, Box<Initializer>),
    SizeofExpr(SizeofKind, Box<Expr>),
    SizeofType(SizeofKind, Box<TypeName>),
    /// `__builtin_offsetof(T, m.n[i])`: the path starts with a member.
    Offsetof(Box<TypeName>, Vec<Designator>),
    Index(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    /// `base.name` / `base->name` (swizzles are member accesses here).
    Member { base: Box<Expr>, arrow: bool, name: Ident },
    /// A Clang block literal `^ ret (params) { body }`.
    BlockLit(Box<BlockLit>),
    /// A GNU statement expression `({ …; value; })`: the value of its last
    /// statement when that is an expression statement, else `void`.
    StmtExpr(Box<Block>),
    /// What a bad literal or syntax error left (already reported).
    Error,
}

#[derive(Debug)]
pub struct BlockLit {
    pub ret: Option<TypeName>,
    pub params: Option<Vec<ParamDecl>>,
    pub variadic: bool,
    pub body: Block,
}

impl Clone for BlockLit {
    fn clone(&self) -> BlockLit {
        // Blocks hold statements, which are not `Clone`; a cloned block
        // literal keeps its signature and loses its body. Nothing in the
        // front end clones expressions containing blocks.
        BlockLit { ret: self.ret.clone(), params: self.params.clone(), variadic: self.variadic, body: Block { items: Vec::new(), span: self.body.span } }
    }
}

// ------------------------------------------------------------ iterative drop

// The work stack of `dismantle` is short-lived; boxing its entries would
// cost an allocation per node for nothing.
#[allow(clippy::large_enum_variant)]
enum Node {
    E(Expr),
    S(Stmt),
    I(Initializer),
    D(Decl),
}

const DUMMY: ExprKind = ExprKind::Error;

fn take_expr(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::new(DUMMY, e.span))
}

fn take_stmt(s: &mut Stmt) -> Stmt {
    std::mem::replace(s, Stmt { kind: StmtKind::Null, attrs: Vec::new(), span: s.span })
}

impl Drop for TranslationUnit {
    fn drop(&mut self) {
        let mut stack: Vec<Node> = Vec::new();
        for item in std::mem::take(&mut self.items) {
            match item {
                ExternalDecl::Decl(d) => stack.push(Node::D(d)),
                ExternalDecl::FunctionDef(mut f) => {
                    stack.extend(std::mem::take(&mut f.body.items).into_iter().map(Node::S));
                }
                ExternalDecl::StaticAssert(s) => stack.push(Node::E(s.cond)),
            }
            while let Some(node) = stack.pop() {
                dismantle(node, &mut stack);
            }
        }
    }
}

/// Moves a node's children onto `stack`, then drops the (now shallow) node.
fn dismantle(node: Node, stack: &mut Vec<Node>) {
    match node {
        Node::E(mut e) => match &mut e.kind {
            ExprKind::Paren(a) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeofExpr(_, a) => {
                stack.push(Node::E(take_expr(a)))
            }
            ExprKind::Member { base, .. } => stack.push(Node::E(take_expr(base))),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
                stack.push(Node::E(take_expr(a)));
                stack.push(Node::E(take_expr(b)));
            }
            ExprKind::Cond(a, b, c) => {
                stack.push(Node::E(take_expr(a)));
                if let Some(b) = b {
                    stack.push(Node::E(take_expr(b)));
                }
                stack.push(Node::E(take_expr(c)));
            }
            ExprKind::Call(f, args) => {
                stack.push(Node::E(take_expr(f)));
                stack.extend(std::mem::take(args).into_iter().map(Node::E));
            }
            ExprKind::VectorLiteral(_, elems) => stack.extend(std::mem::take(elems).into_iter().map(Node::E)),
            ExprKind::Offsetof(_, path) => stack.extend(std::mem::take(path).into_iter().filter_map(|d| match d {
                Designator::Index(e, _) => Some(Node::E(e)),
                Designator::Field(_) | Designator::Range(..) => None,
            })),
            ExprKind::CompoundLiteral(_, init) => {
                stack.push(Node::I(std::mem::replace(&mut **init, Initializer::List { items: Vec::new(), span: e.span })))
            }
            ExprKind::BlockLit(b) => stack.extend(std::mem::take(&mut b.body.items).into_iter().map(Node::S)),
            ExprKind::StmtExpr(b) => stack.extend(std::mem::take(&mut b.items).into_iter().map(Node::S)),
            _ => {}
        },
        Node::I(Initializer::Expr(e)) => stack.push(Node::E(e)),
        Node::I(Initializer::List { items, .. }) => stack.extend(items.into_iter().map(|i| Node::I(i.init))),
        Node::D(d) => stack.extend(d.declarators.into_iter().filter_map(|i| i.init).map(|i| Node::I(*i))),
        Node::S(mut s) => match &mut s.kind {
            StmtKind::Compound(b) => stack.extend(std::mem::take(&mut b.items).into_iter().map(Node::S)),
            StmtKind::Decl(_) => {
                if let StmtKind::Decl(d) = std::mem::replace(&mut s.kind, StmtKind::Null) {
                    stack.push(Node::D(d));
                }
            }
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => stack.push(Node::E(take_expr(e))),
            StmtKind::If { cond, then, else_ } => {
                stack.push(Node::E(take_expr(cond)));
                stack.push(Node::S(take_stmt(then)));
                if let Some(e) = else_ {
                    stack.push(Node::S(take_stmt(e)));
                }
            }
            StmtKind::Switch { cond, body } | StmtKind::While { cond, body, .. } | StmtKind::DoWhile { body, cond, .. } => {
                stack.push(Node::E(take_expr(cond)));
                stack.push(Node::S(take_stmt(body)));
            }
            StmtKind::Case { value, high, body } => {
                stack.push(Node::E(take_expr(value)));
                if let Some(h) = high {
                    stack.push(Node::E(take_expr(h)));
                }
                stack.push(Node::S(take_stmt(body)));
            }
            StmtKind::Default { body } | StmtKind::Label { body, .. } => stack.push(Node::S(take_stmt(body))),
            StmtKind::For { init, cond, step, body, .. } => {
                match std::mem::replace(init, ForInit::None) {
                    ForInit::Expr(e) => stack.push(Node::E(*e)),
                    ForInit::Decl(d) => stack.push(Node::D(*d)),
                    ForInit::None => {}
                }
                stack.extend(cond.take().map(|e| Node::E(*e)));
                stack.extend(step.take().map(|e| Node::E(*e)));
                stack.push(Node::S(take_stmt(body)));
            }
            _ => {}
        },
    }
}
