//! The typed program sema hands to code generation ("HIR").
//!
//! Built only by [`super::check`] for a translation unit with no errors
//! (after errors `Program::functions` and `Program::globals` are empty).
//! Every expression carries its type; every implicit conversion of C and
//! OpenCL C (usual arithmetic conversions, promotions, scalar widening,
//! array decay, null pointers, address-space casts to `__generic`,
//! argument, assignment, initialization and return conversions) is an
//! explicit [`ExprKind::Convert`] node, and reading an object is an
//! explicit [`ExprKind::Load`].
//!
//! Each function owns an arena of expressions ([`ExprId`]) and of locals
//! ([`LocalId`], parameters first).

use super::types::{QualType, Types};
use crate::parse::ast::{BinOp, UnOp};
use crate::source::Span;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExprId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);

/// A program-scope variable.
#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: QualType,
    pub span: Span,
    /// The initializer; its expressions live in `init_exprs`.
    pub init: Option<Init>,
    pub init_exprs: Vec<Expr>,
}

/// A function with a body.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Its `TypeKind::Function` type.
    pub ty: QualType,
    pub kernel: bool,
    /// Declared `static`: no other program may call it (other functions
    /// are exported, `codegen::lower`'s `abi`).
    pub internal: bool,
    pub span: Span,
    /// `reqd_work_group_size(x, y, z)`.
    pub reqd_work_group_size: Option<[u64; 3]>,
    pub work_group_size_hint: Option<[u64; 3]>,
    /// `vec_type_hint(T)`, the type as written.
    pub vec_type_hint: Option<String>,
    /// The parameters, in order (the first locals).
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub exprs: Vec<Expr>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Local {
    /// Empty for an unnamed parameter.
    pub name: String,
    pub ty: QualType,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    /// The type; an lvalue's type is its object's (with address space).
    pub ty: QualType,
    /// Does it designate an object (read with [`ExprKind::Load`])?
    pub lvalue: bool,
    pub span: Span,
}

/// What code generation must do for a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvKind {
    /// Integer to integer (truncate, or extend by the source's signedness).
    IntResize { signed: bool },
    IntToFloat { signed: bool },
    /// Float to integer; `signed` is the target's signedness.
    FloatToInt { signed: bool },
    FloatResize,
    /// Any scalar (integer, float, pointer) to `bool`: compare with zero.
    ToBool,
    /// Scalar to vector: every lane the (already converted) scalar.
    Splat,
    /// Vector to vector, lane by lane, by the inner kind of conversion.
    Lanes(LaneConv),
    /// Pointer to pointer of another pointee type, same address space.
    PtrCast,
    /// Pointer to a pointer into another address space (to `__generic`
    /// implicitly, from it by a cast).
    AddrSpaceCast,
    IntToPtr,
    PtrToInt,
    /// Array object (lvalue) to a pointer to its first element.
    ArrayDecay,
    /// Function to a pointer to it.
    FuncToPtr,
    /// A null pointer constant to a pointer type.
    NullToPtr,
    /// An integer to an opaque value: a sampler from its constant
    /// encoding, `0` to a null `event_t`/`clk_event_t`/`queue_t`.
    IntToOpaque,
    /// Reinterpret the bits (same-size types).
    Bitcast,
}

/// The per-lane conversion of [`ConvKind::Lanes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneConv {
    IntResize { signed: bool },
    IntToFloat { signed: bool },
    FloatToInt { signed: bool },
    FloatResize,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant of the expression's type (`bool` and enum
    /// constants included; `sizeof`, `vec_step` and `__alignof` folded).
    Int(i128),
    Float(f64),
    /// A string literal: an lvalue `__constant char[N]` (with the NUL).
    Str(Vec<u8>),
    Local(LocalId),
    Global(GlobalId),
    /// A builtin constant (`CLK_LOCAL_MEM_FENCE`, `M_PI`, `NULL`...).
    BuiltinConst(String),
    /// A function named as a value (`Convert FuncToPtr` makes it a pointer).
    Func(String),
    /// Reads the object the lvalue operand designates.
    Load(ExprId),
    Convert { kind: ConvKind, expr: ExprId },
    /// `-x`, `~x`, `+x`, `!x` on an operand of the result type (for `!`,
    /// a scalar or vector compared with zero; the result is `int` or a
    /// signed integer vector).
    Unary { op: UnOp, expr: ExprId },
    /// Arithmetic, bitwise, shifts and comparisons: both operands already
    /// converted to `op_ty` (for comparisons the result is `int`, or a
    /// signed integer vector of `op_ty`'s width). `&&`/`||`: scalar
    /// operands compared with zero, short-circuit, result `int`.
    Binary { op: BinOp, lhs: ExprId, rhs: ExprId, op_ty: QualType },
    /// `ptr + offset` / `ptr - offset` (offset converted to `ptrdiff_t`).
    PtrOffset { ptr: ExprId, offset: ExprId, sub: bool },
    /// `p - q`, in elements, as `ptrdiff_t`.
    PtrDiff { lhs: ExprId, rhs: ExprId },
    /// `lhs = rhs`, `rhs` converted to the type of `lhs`; the value is the
    /// stored value.
    Assign { lhs: ExprId, rhs: ExprId },
    /// `lhs op= rhs`: load `lhs`, convert it to `comp_ty`, apply `op` with
    /// `rhs` (already converted to `comp_ty`, or to `ptrdiff_t` for
    /// pointer arithmetic), convert back to the type of `lhs`, store.
    CompoundAssign { op: BinOp, lhs: ExprId, rhs: ExprId, comp_ty: QualType },
    /// `++`/`--` on an lvalue (by 1, or by one element for pointers).
    IncDec { inc: bool, prefix: bool, expr: ExprId },
    /// An element: `base` a pointer value (or a vector lvalue), `index`
    /// converted to `ptrdiff_t` (lvalue).
    Index { base: ExprId, index: ExprId },
    /// A struct/union member of an lvalue (or rvalue) record.
    Member { base: ExprId, field: u32 },
    /// Components of a vector (lvalue when the vector is).
    Swizzle { base: ExprId, lanes: Vec<u8> },
    /// `(float4)(a, b, ...)`: scalars converted to the element type,
    /// vectors of the element type, concatenated.
    VectorLiteral(Vec<ExprId>),
    /// A call of a user function, arguments converted to the parameters.
    Call { name: String, func: Option<FuncId>, args: Vec<ExprId> },
    /// A call through a function pointer or block value.
    CallValue { callee: ExprId, args: Vec<ExprId> },
    /// A builtin call with its resolved overload; arguments converted to
    /// its parameter types (variadic extras: promoted values).
    BuiltinCall { name: String, overload: Box<clc_builtins::Overload>, args: Vec<ExprId> },
    /// `c ? a : b`, `a` and `b` converted to the result type; a vector
    /// condition selects lane by lane (`select`).
    Cond { cond: ExprId, then: ExprId, else_: ExprId },
    Comma { lhs: ExprId, rhs: ExprId },
    /// `&lvalue`.
    AddrOf(ExprId),
    /// `*ptr` (lvalue).
    Deref(ExprId),
    /// `(T){ init }` (lvalue).
    CompoundLiteral(Init),
    /// A block literal (`^(params){ body }`): its parameters are locals of
    /// the enclosing function's arena, and captured variables are the
    /// enclosing function's locals, used by [`LocalId`] in the body. One
    /// without a written return type has the block type it converts to
    /// (`void (^)(...)` where it is not converted).
    BlockLiteral { params: Vec<LocalId>, body: Vec<Stmt> },
    /// A GNU statement expression: `body` runs, then `value` (a value of
    /// the expression's type) is computed, if there is one (else the type
    /// is `void`). Nothing outside jumps into `body`; `break`, `continue`,
    /// `return` and `goto` in it may leave it.
    StmtExpr { body: Vec<Stmt>, value: Option<ExprId> },
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Init {
    /// One expression, converted to the object's type (for arrays of
    /// `char` from a string, the string).
    Expr(ExprId),
    /// A brace list: items with their designators.
    List(Vec<(Vec<Designator>, Init)>),
}

#[derive(Clone, Debug)]
pub enum Designator {
    Field(u32),
    Index(i128),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaseId(pub u32);

#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(ExprId),
    /// A local variable comes into scope, with its initializer.
    Local { local: LocalId, init: Option<Init> },
    If { cond: ExprId, then: Vec<Stmt>, else_: Option<Vec<Stmt>> },
    /// `meta`: what the loop's `#pragma unroll` or `opencl_unroll_hint`
    /// asks, if anything, and where the loop is.
    While { cond: ExprId, body: Vec<Stmt>, meta: LoopMeta },
    DoWhile { body: Vec<Stmt>, cond: ExprId, meta: LoopMeta },
    For { init: Vec<Stmt>, cond: Option<ExprId>, step: Option<ExprId>, body: Vec<Stmt>, meta: LoopMeta },
    /// `cond` (promoted integer) jumps to the `Case` marker of the range
    /// `lo..=hi` in `cases` it is in (values converted to its type, no
    /// two overlapping; `lo == hi` but for GNU case ranges, empty where
    /// `lo > hi`), else to `default`, else past the body.
    Switch { cond: ExprId, cases: Vec<(i128, i128, CaseId)>, default: Option<CaseId>, body: Vec<Stmt> },
    /// Where a `case`/`default` label of the enclosing switch is.
    Case(CaseId),
    Label(String),
    Goto(String),
    Break,
    Continue,
    Return(Option<ExprId>),
    Block(Vec<Stmt>),
}

/// What a loop tells code generation besides its parts.
#[derive(Clone, Copy, Debug)]
pub struct LoopMeta {
    pub unroll: Option<Unroll>,
    /// From the loop's keyword to the end of its body (with `-g`, the
    /// loop's start and end locations in its `llvm.loop` ID, as clang's).
    pub span: Span,
}

/// What a loop asks of its unrolling: `#pragma unroll`, `#pragma
/// nounroll`, `opencl_unroll_hint`, combined as clang combines them
/// (`sema::decls::loop_hints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unroll {
    /// As far as it pays, whole where the trip count is known (`#pragma
    /// unroll`, `opencl_unroll_hint`).
    Enable,
    /// Not at all (`#pragma nounroll`, `#pragma unroll 1`,
    /// `opencl_unroll_hint(1)`).
    Disable,
    /// `count` copies of the body (`#pragma unroll 4`); `enable` too where
    /// one `opencl_unroll_hint` of the loop gave the count and another
    /// none.
    Count { count: u32, enable: bool },
}

impl Stmt {
    /// The statements directly inside this one, in source order (a
    /// `for`'s init before its body, an `if`'s branch before its `else`).
    pub fn children(&self) -> impl Iterator<Item = &Stmt> {
        let (a, b): (&[Stmt], &[Stmt]) = match self {
            Stmt::Block(b) | Stmt::While { body: b, .. } | Stmt::DoWhile { body: b, .. } | Stmt::Switch { body: b, .. } => (b, &[]),
            Stmt::For { init, body, .. } => (init, body),
            Stmt::If { then, else_, .. } => (then, else_.as_deref().unwrap_or(&[])),
            _ => (&[], &[]),
        };
        a.iter().chain(b)
    }
}

/// A readable dump of the typed program: every expression with its type,
/// conversions visible.
pub fn dump(p: &super::Program) -> String {
    let mut out = String::new();
    for g in &p.globals {
        let unsized_ = matches!(p.types.kind(g.ty.ty), super::types::TypeKind::Array(_, None));
        let _ = writeln!(out, "global {}: {}{}", g.name, p.types.display_qual(g.ty), if unsized_ { " !! no size" } else { "" });
        if let Some(i) = &g.init {
            let d = Dumper { types: &p.types, exprs: &g.init_exprs, locals: &[], globals: &p.globals, functions: &p.functions, ret: None };
            let mut s = String::new();
            d.init(&mut s, i, 1);
            out.push_str(&s);
        }
    }
    for f in &p.functions {
        let _ = writeln!(out, "{}function {}: {}", if f.kernel { "kernel " } else { "" }, f.name, p.types.display(f.ty.ty));
        if let Some([x, y, z]) = f.reqd_work_group_size {
            let _ = writeln!(out, "  reqd_work_group_size({x}, {y}, {z})");
        }
        if let Some([x, y, z]) = f.work_group_size_hint {
            let _ = writeln!(out, "  work_group_size_hint({x}, {y}, {z})");
        }
        if let Some(t) = &f.vec_type_hint {
            let _ = writeln!(out, "  vec_type_hint({t})");
        }
        for (i, l) in f.locals.iter().enumerate() {
            let what = if f.params.contains(&LocalId(i as u32)) { "param" } else { "local" };
            // An object needs a size: an array of unknown length must have
            // been completed from its initializer.
            let unsized_ = matches!(p.types.kind(l.ty.ty), super::types::TypeKind::Array(_, None));
            let _ = writeln!(out, "  {what} %{i} {}: {}{}", l.name, p.types.display_qual(l.ty), if unsized_ { " !! no size" } else { "" });
        }
        let ret = match p.types.kind(f.ty.ty) {
            super::types::TypeKind::Function { ret, .. } => Some(*ret),
            _ => None,
        };
        let d = Dumper { types: &p.types, exprs: &f.exprs, locals: &f.locals, globals: &p.globals, functions: &p.functions, ret };
        for s in &f.body {
            d.stmt(&mut out, s, 1);
        }
    }
    out
}

struct Dumper<'a> {
    types: &'a Types,
    exprs: &'a [Expr],
    locals: &'a [Local],
    globals: &'a [Global],
    functions: &'a [Function],
    /// The return type of the function being dumped.
    ret: Option<QualType>,
}

/// A loop's [`Unroll`] in the dump: ` unroll(4)` and the like.
fn unroll_text(u: Option<Unroll>) -> String {
    match u {
        None => String::new(),
        Some(Unroll::Enable) => " unroll".to_string(),
        Some(Unroll::Disable) => " nounroll".to_string(),
        Some(Unroll::Count { count, enable: false }) => format!(" unroll({count})"),
        Some(Unroll::Count { count, enable: true }) => format!(" unroll({count}) unroll"),
    }
}

fn pad(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

impl Dumper<'_> {
    fn block(&self, out: &mut String, name: &str, b: &[Stmt], depth: usize) {
        pad(out, depth);
        let _ = writeln!(out, "{name}");
        for s in b {
            self.stmt(out, s, depth + 1);
        }
    }

    fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let line = |out: &mut String, t: &str| {
            pad(out, depth);
            let _ = writeln!(out, "{t}");
        };
        match s {
            Stmt::Expr(e) => {
                line(out, "Expr");
                self.expr(out, *e, depth + 1);
            }
            Stmt::Local { local, init } => {
                let l = &self.locals[local.0 as usize];
                line(out, &format!("Local %{} {}", local.0, l.name));
                if let Some(i) = init {
                    self.init(out, i, depth + 1);
                }
            }
            Stmt::If { cond, then, else_ } => {
                line(out, "If");
                self.expr(out, *cond, depth + 1);
                self.block(out, "then", then, depth + 1);
                if let Some(e) = else_ {
                    self.block(out, "else", e, depth + 1);
                }
            }
            Stmt::While { cond, body, meta } => {
                line(out, &format!("While{}", unroll_text(meta.unroll)));
                self.expr(out, *cond, depth + 1);
                self.block(out, "body", body, depth + 1);
            }
            Stmt::DoWhile { body, cond, meta } => {
                line(out, &format!("DoWhile{}", unroll_text(meta.unroll)));
                self.block(out, "body", body, depth + 1);
                self.expr(out, *cond, depth + 1);
            }
            Stmt::For { init, cond, step, body, meta } => {
                line(out, &format!("For{}", unroll_text(meta.unroll)));
                self.block(out, "init", init, depth + 1);
                if let Some(c) = cond {
                    pad(out, depth + 1);
                    out.push_str("cond\n");
                    self.expr(out, *c, depth + 2);
                }
                if let Some(c) = step {
                    pad(out, depth + 1);
                    out.push_str("step\n");
                    self.expr(out, *c, depth + 2);
                }
                self.block(out, "body", body, depth + 1);
            }
            Stmt::Switch { cond, cases, default, body } => {
                let cs: Vec<String> = cases
                    .iter()
                    .map(|(lo, hi, c)| match lo == hi {
                        true => format!("{lo} => case{}", c.0),
                        false => format!("{lo}...{hi} => case{}", c.0),
                    })
                    .collect();
                let d = default.map(|c| format!(", default => case{}", c.0)).unwrap_or_default();
                line(out, &format!("Switch [{}]{d}", cs.join(", ")));
                self.expr(out, *cond, depth + 1);
                self.block(out, "body", body, depth + 1);
            }
            Stmt::Case(c) => line(out, &format!("case{}:", c.0)),
            Stmt::Label(l) => line(out, &format!("Label {l}")),
            Stmt::Goto(l) => line(out, &format!("Goto {l}")),
            Stmt::Break => line(out, "Break"),
            Stmt::Continue => line(out, "Continue"),
            Stmt::Return(e) => {
                let wrong = match (e, self.ret) {
                    (Some(e), Some(r)) => !matches!(self.types.kind(r.ty), super::types::TypeKind::Void) && self.exprs[e.0 as usize].ty.ty != r.ty,
                    _ => false,
                };
                line(out, if wrong { "Return  !! value not of the return type" } else { "Return" });
                if let Some(e) = e {
                    self.expr(out, *e, depth + 1);
                }
            }
            Stmt::Block(b) => self.block(out, "Block", b, depth),
        }
    }

    fn init(&self, out: &mut String, i: &Init, depth: usize) {
        match i {
            Init::Expr(e) => self.expr(out, *e, depth),
            Init::List(items) => {
                pad(out, depth);
                out.push_str("InitList\n");
                for (ds, i) in items {
                    if !ds.is_empty() {
                        pad(out, depth + 1);
                        let ds: Vec<String> = ds.iter().map(|d| match d {
                            Designator::Field(f) => format!(".#{f}"),
                            Designator::Index(i) => format!("[{i}]"),
                        }).collect();
                        let _ = writeln!(out, "designator {}", ds.join(""));
                    }
                    self.init(out, i, depth + 1);
                }
            }
        }
    }

    fn expr(&self, out: &mut String, id: ExprId, depth: usize) {
        let e = &self.exprs[id.0 as usize];
        let ty = self.types.display_qual(e.ty);
        let lv = if e.lvalue { " lvalue" } else { "" };
        let mut kids: Vec<ExprId> = Vec::new();
        let head = match &e.kind {
            ExprKind::Int(v) => format!("Int {v}"),
            ExprKind::Float(v) => format!("Float {v:?}"),
            ExprKind::Str(s) => format!("Str {:?}", String::from_utf8_lossy(s)),
            ExprKind::Local(l) => format!("Local %{} {}", l.0, self.locals.get(l.0 as usize).map_or("", |l| l.name.as_str())),
            ExprKind::Global(g) => format!("Global {}", self.globals.get(g.0 as usize).map_or("?", |g| g.name.as_str())),
            ExprKind::BuiltinConst(n) => format!("BuiltinConst {n}"),
            ExprKind::Func(n) => format!("Func {n}"),
            ExprKind::Load(x) => {
                kids.push(*x);
                "Load".into()
            }
            ExprKind::Convert { kind, expr } => {
                kids.push(*expr);
                let from = self.types.display_qual(self.exprs[expr.0 as usize].ty);
                let k = match kind {
                    ConvKind::IntResize { signed } | ConvKind::IntToFloat { signed } | ConvKind::FloatToInt { signed } => {
                        format!("{} {}", kind_name(kind), if *signed { "signed" } else { "unsigned" })
                    }
                    ConvKind::Lanes(l) => format!("Lanes {l:?}"),
                    _ => kind_name(kind).to_string(),
                };
                format!("Convert {k} ({from} -> {ty})")
            }
            ExprKind::Unary { op, expr } => {
                kids.push(*expr);
                format!("Unary '{}'", op.text())
            }
            ExprKind::Binary { op, lhs, rhs, op_ty } => {
                kids.extend([*lhs, *rhs]);
                format!("Binary '{}' in {}", op.text(), self.types.display_qual(*op_ty))
            }
            ExprKind::PtrOffset { ptr, offset, sub } => {
                kids.extend([*ptr, *offset]);
                format!("PtrOffset {}", if *sub { "-" } else { "+" })
            }
            ExprKind::PtrDiff { lhs, rhs } => {
                kids.extend([*lhs, *rhs]);
                "PtrDiff".into()
            }
            ExprKind::Assign { lhs, rhs } => {
                kids.extend([*lhs, *rhs]);
                "Assign".into()
            }
            ExprKind::CompoundAssign { op, lhs, rhs, comp_ty } => {
                kids.extend([*lhs, *rhs]);
                format!("CompoundAssign '{}=' in {}", op.text(), self.types.display_qual(*comp_ty))
            }
            ExprKind::IncDec { inc, prefix, expr } => {
                kids.push(*expr);
                format!("IncDec {}{}", if *prefix { "pre" } else { "post" }, if *inc { "inc" } else { "dec" })
            }
            ExprKind::Index { base, index } => {
                kids.extend([*base, *index]);
                "Index".into()
            }
            ExprKind::Member { base, field } => {
                kids.push(*base);
                format!("Member #{field}")
            }
            ExprKind::Swizzle { base, lanes } => {
                kids.push(*base);
                format!("Swizzle {lanes:?}")
            }
            ExprKind::VectorLiteral(xs) => {
                kids.extend(xs.iter().copied());
                "VectorLiteral".into()
            }
            ExprKind::Call { name, func, args } => {
                kids.extend(args.iter().copied());
                match func {
                    Some(f) => format!("Call {name} (function #{})", f.0),
                    None => format!("Call {name} (external)"),
                }
            }
            ExprKind::CallValue { callee, args } => {
                kids.push(*callee);
                kids.extend(args.iter().copied());
                "CallValue".into()
            }
            ExprKind::BuiltinCall { name, overload, args } => {
                kids.extend(args.iter().copied());
                let ps: Vec<String> = overload.params.iter().map(|p| p.to_string()).collect();
                let va = if overload.variadic { ", ..." } else { "" };
                format!("BuiltinCall {name} [{} {name}({}{va})] lowering {:?}", overload.ret, ps.join(", "), overload.lowering)
            }
            ExprKind::Cond { cond, then, else_ } => {
                kids.extend([*cond, *then, *else_]);
                "Cond".into()
            }
            ExprKind::Comma { lhs, rhs } => {
                kids.extend([*lhs, *rhs]);
                "Comma".into()
            }
            ExprKind::AddrOf(x) => {
                kids.push(*x);
                "AddrOf".into()
            }
            ExprKind::Deref(x) => {
                kids.push(*x);
                "Deref".into()
            }
            ExprKind::CompoundLiteral(i) => {
                pad(out, depth);
                let _ = writeln!(out, "CompoundLiteral : {ty}{lv}");
                self.init(out, i, depth + 1);
                return;
            }
            ExprKind::BlockLiteral { params, body } => {
                pad(out, depth);
                let ps: Vec<String> = params.iter().map(|p| format!("%{}", p.0)).collect();
                let _ = writeln!(out, "BlockLiteral ({}) : {ty}", ps.join(", "));
                for s in body {
                    self.stmt(out, s, depth + 1);
                }
                return;
            }
            ExprKind::StmtExpr { body, value } => {
                pad(out, depth);
                let _ = writeln!(out, "StmtExpr : {ty}");
                for s in body {
                    self.stmt(out, s, depth + 1);
                }
                if let Some(v) = value {
                    self.expr(out, *v, depth + 1);
                }
                return;
            }
        };
        pad(out, depth);
        let problem = self.problem(e);
        let mark = problem.map(|p| format!("  !! {p}")).unwrap_or_default();
        let _ = writeln!(out, "{head} : {ty}{lv}{mark}");
        for k in kids {
            self.expr(out, k, depth + 1);
        }
    }
}

impl Dumper<'_> {
    /// What is wrong with a node, if anything: the invariants code
    /// generation relies on (values are loaded, operands already have the
    /// operation's type). The dump marks a violation with `!!`, which no
    /// typed program may contain.
    fn problem(&self, e: &Expr) -> Option<String> {
        let x = |id: &ExprId| &self.exprs[id.0 as usize];
        let value = |id: &ExprId, what: &str| if x(id).lvalue { Some(format!("{what} is an unloaded lvalue")) } else { None };
        match &e.kind {
            ExprKind::Load(v) if !x(v).lvalue => Some("Load of a value".into()),
            ExprKind::Convert { kind: ConvKind::ArrayDecay, expr } if !x(expr).lvalue => Some("ArrayDecay of a value".into()),
            ExprKind::Convert { kind, expr } if !matches!(kind, ConvKind::ArrayDecay | ConvKind::FuncToPtr) => value(expr, "converted operand"),
            ExprKind::Binary { op, lhs, rhs, op_ty } => {
                value(lhs, "left operand").or_else(|| value(rhs, "right operand")).or_else(|| {
                    let same = x(lhs).ty.ty == op_ty.ty && x(rhs).ty.ty == op_ty.ty;
                    (!same && !matches!(op, BinOp::And | BinOp::Or)).then(|| "operands not of the operation type".to_string())
                })
            }
            ExprKind::Assign { lhs, rhs } => {
                if !x(lhs).lvalue {
                    Some("assignment to a value".into())
                } else if x(rhs).ty.ty != x(lhs).ty.ty {
                    Some("assigned value not of the object's type".into())
                } else {
                    value(rhs, "assigned value")
                }
            }
            ExprKind::CompoundAssign { lhs, rhs, .. } => if x(lhs).lvalue { value(rhs, "operand") } else { Some("assignment to a value".into()) },
            ExprKind::IncDec { expr, .. } if !x(expr).lvalue => Some("increment of a value".into()),
            ExprKind::AddrOf(v) if !x(v).lvalue => Some("address of a value".into()),
            ExprKind::Unary { expr, .. } | ExprKind::Deref(expr) => value(expr, "operand"),
            ExprKind::PtrOffset { ptr, offset, .. } => value(ptr, "pointer").or_else(|| value(offset, "offset")),
            ExprKind::PtrDiff { lhs, rhs } => value(lhs, "left operand").or_else(|| value(rhs, "right operand")),
            ExprKind::Cond { cond, then, else_ } => value(cond, "condition").or_else(|| value(then, "operand")).or_else(|| value(else_, "operand")).or_else(|| {
                (x(then).ty.ty != e.ty.ty || x(else_).ty.ty != e.ty.ty).then(|| "operands not of the result type".to_string())
            }),
            ExprKind::Call { args, func, .. } => args.iter().find_map(|a| value(a, "argument")).or_else(|| {
                let f = self.functions.get(func.as_ref()?.0 as usize)?;
                let super::types::TypeKind::Function { params, .. } = self.types.kind(f.ty.ty) else { return None };
                let params = params.iter().filter(|p| !matches!(self.types.kind(p.ty), super::types::TypeKind::Void));
                params.zip(args).any(|(p, a)| x(a).ty.ty != p.ty).then(|| "argument not of the parameter type".to_string())
            }),
            ExprKind::BuiltinCall { args, overload, .. } => args.iter().find_map(|a| value(a, "argument")).or_else(|| {
                // Scalar and vector parameters: the argument has exactly
                // the parameter's type.
                let bad = overload.params.iter().zip(args).any(|(p, a)| {
                    matches!(p, clc_builtins::Ty::Scalar(_) | clc_builtins::Ty::Vector(..)) && p.to_string() != self.types.display(x(a).ty.ty)
                });
                bad.then(|| "argument not of the parameter type".to_string())
            }),
            ExprKind::CallValue { args, .. } | ExprKind::VectorLiteral(args) => args.iter().find_map(|a| value(a, "argument")),
            ExprKind::Comma { rhs, .. } => value(rhs, "operand"),
            ExprKind::Int(_) | ExprKind::Float(_) if e.lvalue => Some("constant lvalue".into()),
            _ => None,
        }
    }
}

fn kind_name(k: &ConvKind) -> &'static str {
    match k {
        ConvKind::IntResize { .. } => "IntResize",
        ConvKind::IntToFloat { .. } => "IntToFloat",
        ConvKind::FloatToInt { .. } => "FloatToInt",
        ConvKind::FloatResize => "FloatResize",
        ConvKind::ToBool => "ToBool",
        ConvKind::Splat => "Splat",
        ConvKind::Lanes(_) => "Lanes",
        ConvKind::PtrCast => "PtrCast",
        ConvKind::AddrSpaceCast => "AddrSpaceCast",
        ConvKind::IntToPtr => "IntToPtr",
        ConvKind::PtrToInt => "PtrToInt",
        ConvKind::ArrayDecay => "ArrayDecay",
        ConvKind::FuncToPtr => "FuncToPtr",
        ConvKind::NullToPtr => "NullToPtr",
        ConvKind::IntToOpaque => "IntToOpaque",
        ConvKind::Bitcast => "Bitcast",
    }
}
