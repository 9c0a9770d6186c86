//! Builds the typed program ([`super::super::hir`]) from the AST and the
//! facts the checker recorded while typing it (a child of `expr`, so it
//! reuses the checker's type rules). Runs only after a check with no
//! errors, so every fact it reads is there; where one is missing it
//! degrades (no conversion) rather than panicking.

use super::*;
use crate::sema::hir::{self, CaseId, ConvKind, ExprId, LaneConv, LocalId};
use super::init::Step;
use clc_builtins::functions::{GnuOp, Lowering};

/// What typing learned, keyed by AST node address (the AST is borrowed
/// for the whole check, so addresses are stable) or declaration span.
#[derive(Default)]
pub(crate) struct Facts {
    /// Record at all? Off when no typed program is wanted
    /// (`-fsyntax-only`), so checking alone pays nothing for it.
    pub enabled: bool,
    /// Every typed expression: its type and whether it is an lvalue.
    pub ty: HashMap<usize, (QualType, bool)>,
    /// The type an expression was implicitly converted to.
    pub conv: HashMap<usize, QualType>,
    /// What an identifier expression names: its declaration.
    pub names: HashMap<usize, DeclKey>,
    /// The function type a call's callee identifier resolved to.
    pub callee: HashMap<usize, TypeId>,
    /// The overload a builtin call's identifier resolved to.
    pub builtins: HashMap<usize, clc_builtins::Overload>,
    /// Swizzle lanes, by the member name's address.
    pub lanes: HashMap<usize, Vec<u8>>,
    /// The type of every declared variable and parameter.
    pub decls: HashMap<DeclKey, QualType>,
    /// Integer constant expressions evaluated while their names were in
    /// scope (`sizeof`, enumerators, case values, designators), by node
    /// address: after the check the scopes are gone.
    pub consts: HashMap<usize, i128>,
    /// The text of each predefined identifier (`__func__`), by node
    /// address.
    pub strings: HashMap<usize, Vec<u8>>,
    /// Where each item of an array's or record's braced list goes, from
    /// the list's object, and the type there, by item address.
    /// Items one past the previous item of their list are left out.
    pub places: HashMap<usize, (Vec<Step>, QualType)>,
    /// The first excess item of each list that has some (by address).
    pub excess: rustc_hash::FxHashSet<usize>,
    /// Items whose braced list replaces what earlier items of the list
    /// put in its sub-object (the lowering zeroes the sub-object first).
    pub resets: rustc_hash::FxHashSet<usize>,
}

/// A declaration: the address of its name's node in the syntax tree
/// (which outlives the check and the lowering). Not its span: every token
/// a macro expansion produces has the expansion's span, so a macro that
/// defines several functions declares their parameters `a` and `b` at one
/// span, each with its own type.
pub(crate) type DeclKey = usize;

pub(crate) fn addr<T>(x: &T) -> usize {
    x as *const T as usize
}

pub(crate) struct Lower<'c, 'd, 't> {
    pub c: &'c mut Checker<'d>,
    /// The initializers of program-scope block variables (a block literal
    /// or another such variable). They are not objects: each use lowers
    /// the literal where it is used, as a block literal there (one that
    /// captures nothing).
    pub global_blocks: HashMap<DeclKey, &'t Expr>,
    pub exprs: Vec<hir::Expr>,
    pub locals: Vec<hir::Local>,
    pub local_ids: HashMap<DeclKey, LocalId>,
    pub global_ids: HashMap<DeclKey, hir::GlobalId>,
    pub func_ids: HashMap<(String, TypeId), hir::FuncId>,
    /// For each switch being lowered: its promoted type (case values
    /// convert to it) and its cases so far.
    pub cases: Vec<(Option<IntTy>, Vec<(i128, i128, CaseId)>)>,
    pub defaults: Vec<Option<CaseId>>,
    pub next_case: u32,
}

impl Lower<'_, '_, '_> {
    fn push(&mut self, kind: hir::ExprKind, ty: QualType, lvalue: bool, span: Span) -> ExprId {
        self.exprs.push(hir::Expr { kind, ty, lvalue, span });
        ExprId(self.exprs.len() as u32 - 1)
    }

    fn ty(&self, id: ExprId) -> QualType {
        self.exprs[id.0 as usize].ty
    }

    fn private(t: TypeId) -> QualType {
        QualType::new(t, AddrSpace::Private)
    }

    /// The value of an expression (lvalue conversion and decay).
    pub fn rvalue(&mut self, e: &Expr) -> ExprId {
        let id = self.expr(e);
        self.load(id)
    }

    fn load(&mut self, id: ExprId) -> ExprId {
        let x = &self.exprs[id.0 as usize];
        let (ty, span, lvalue) = (x.ty, x.span, x.lvalue);
        match self.c.types.kind(ty.ty).clone() {
            TypeKind::Array(elem, _) => {
                let p = self.c.types.pointer(elem);
                self.push(hir::ExprKind::Convert { kind: ConvKind::ArrayDecay, expr: id }, Self::private(p), false, span)
            }
            TypeKind::Function { .. } => {
                let p = self.c.types.pointer(QualType::new(ty.ty, AddrSpace::Private));
                self.push(hir::ExprKind::Convert { kind: ConvKind::FuncToPtr, expr: id }, Self::private(p), false, span)
            }
            _ if lvalue => self.push(hir::ExprKind::Load(id), Self::private(ty.ty), false, span),
            _ => id,
        }
    }

    /// The value of `e`, converted as the checker recorded (if it did).
    fn value_conv(&mut self, e: &Expr) -> ExprId {
        let id = self.rvalue(e);
        match self.c.facts.conv.get(&addr(e)).copied() {
            Some(to) => self.coerce_expr(e, id, to),
            None => id,
        }
    }

    /// Converts `id`, the value of `e`, to `to`. A sampler from an integer
    /// constant expression becomes one from its value: the code generators
    /// read a sampler's bits at compile time, however they are spelled.
    fn coerce_expr(&mut self, e: &Expr, id: ExprId, to: QualType) -> ExprId {
        let sampler = matches!(self.c.types.kind(to.ty), TypeKind::Opaque(Opaque::Sampler));
        if sampler && !matches!(self.exprs[id.0 as usize].kind, hir::ExprKind::Int(_)) {
            if let Ok(v) = consteval::eval(e, self.c) {
                let from = self.ty(id);
                let span = self.exprs[id.0 as usize].span;
                let folded = self.push(hir::ExprKind::Int(v.value), from, false, span);
                return self.coerce(folded, to, false);
            }
        }
        self.coerce(id, to, is_null_expr(e))
    }

    /// Converts value `id` to the type `to` with explicit nodes.
    pub fn coerce(&mut self, id: ExprId, to: QualType, null: bool) -> ExprId {
        let from = self.ty(id);
        let (f, t) = (from.ty, to.ty);
        let span = self.exprs[id.0 as usize].span;
        // Distinct types of one representation (`size_t` and `ulong`, an
        // enum and `int`, pointers differing in qualifiers) still get a
        // (no-op) node, so every operand has exactly its operation's type.
        if f == t || (matches!(self.c.types.kind(t), TypeKind::Record(_)) && self.c.same_unqual(f, t)) {
            return id;
        }
        let to = Self::private(t);
        // A block literal whose return type is not written has the type it
        // converts to (the checker types it `void (^)(...)`, not inferring
        // the return type).
        if matches!(self.c.types.kind(t), TypeKind::Block { .. }) && matches!(self.exprs[id.0 as usize].kind, hir::ExprKind::BlockLiteral { .. }) {
            self.exprs[id.0 as usize].ty = to;
            return id;
        }
        let fk = self.c.types.kind(f).clone();
        let tk = self.c.types.kind(t).clone();
        let kind = match (&tk, &fk) {
            (TypeKind::Vector(ts, tn), TypeKind::Vector(fs, fn_)) if tn == fn_ => match scalar_conv(*fs, *ts) {
                Some(ConvKind::IntResize { signed }) => ConvKind::Lanes(LaneConv::IntResize { signed }),
                Some(ConvKind::IntToFloat { signed }) => ConvKind::Lanes(LaneConv::IntToFloat { signed }),
                Some(ConvKind::FloatToInt { signed }) => ConvKind::Lanes(LaneConv::FloatToInt { signed }),
                Some(ConvKind::FloatResize) => ConvKind::Lanes(LaneConv::FloatResize),
                _ => ConvKind::Bitcast,
            },
            (TypeKind::Vector(ts, _), _) if self.c.arith(f).is_some() => {
                let el = self.c.sc(*ts);
                let x = self.coerce(id, el, false);
                return self.push(hir::ExprKind::Convert { kind: ConvKind::Splat, expr: x }, to, false, span);
            }
            (TypeKind::Pointer(_), _) if null => ConvKind::NullToPtr,
            (TypeKind::Pointer(tp), TypeKind::Pointer(fp)) => {
                if tp.space != fp.space {
                    ConvKind::AddrSpaceCast
                } else {
                    ConvKind::PtrCast
                }
            }
            (TypeKind::Pointer(_), _) if self.c.arith(f).is_some() => ConvKind::IntToPtr,
            (TypeKind::Scalar(Scalar::Bool), _) => ConvKind::ToBool,
            (TypeKind::Opaque(_), _) if self.c.arith(f).is_some() && self.c.arith(t).is_none() => ConvKind::IntToOpaque,
            (_, TypeKind::Pointer(_)) if self.c.arith(t).is_some() => ConvKind::PtrToInt,
            _ => match (self.c.arith(f), self.c.arith(t)) {
                (Some(a), Some(b)) => scalar_conv(a, b).unwrap_or(ConvKind::Bitcast),
                _ => ConvKind::Bitcast,
            },
        };
        // A pointer changing both pointee type and space: cast the space
        // first, then the pointee.
        if kind == ConvKind::AddrSpaceCast {
            if let (TypeKind::Pointer(tp), TypeKind::Pointer(fp)) = (&tk, &fk) {
                if !self.c.same_unqual(tp.ty, fp.ty) {
                    let mid = self.c.types.pointer(QualType { space: tp.space, ..*fp });
                    let x = self.push(hir::ExprKind::Convert { kind, expr: id }, Self::private(mid), false, span);
                    return self.push(hir::ExprKind::Convert { kind: ConvKind::PtrCast, expr: x }, to, false, span);
                }
            }
        }
        self.push(hir::ExprKind::Convert { kind, expr: id }, to, false, span)
    }

    fn ptrdiff(&mut self) -> QualType {
        self.c.sc(Scalar::PtrDiff)
    }

    /// Lowers an expression as typed (an lvalue stays an lvalue).
    pub fn expr(&mut self, e: &Expr) -> ExprId {
        use hir::ExprKind as K;
        let (ty, lvalue) = match self.c.facts.ty.get(&addr(e)).copied() {
            Some(t) => t,
            None => (Self::private(self.c.types.void()), false),
        };
        let span = e.span;
        match &e.kind {
            ExprKind::Paren(x) => self.expr(x),
            ExprKind::Error => self.push(K::Int(0), ty, false, span),
            ExprKind::IntLit { value, .. } => self.push(K::Int(*value as i128), ty, false, span),
            ExprKind::CharLit(v) => self.push(K::Int(*v as i128), ty, false, span),
            ExprKind::BoolLit(b) => self.push(K::Int(*b as i128), ty, false, span),
            ExprKind::FloatLit { value, .. } => self.push(K::Float(*value), ty, false, span),
            ExprKind::StringLit(b) => self.push(K::Str(b.clone()), ty, true, span),
            ExprKind::Ident(id) if self.c.facts.strings.contains_key(&addr(id)) => self.push(K::Str(self.c.facts.strings[&addr(id)].clone()), ty, true, span),
            ExprKind::Ident(id) => {
                if let Some(&d) = self.c.facts.names.get(&addr(id)) {
                    if let Some(l) = self.local_ids.get(&d) {
                        return self.push(K::Local(*l), ty, lvalue, span);
                    }
                    if let Some(init) = self.global_blocks.get(&d).copied() {
                        let block = self.rvalue(init);
                        return self.coerce(block, ty, false);
                    }
                    if let Some(g) = self.global_ids.get(&d) {
                        return self.push(K::Global(*g), ty, lvalue, span);
                    }
                    if matches!(self.c.types.kind(ty.ty), TypeKind::Function { .. }) {
                        return self.push(K::Func(id.name.clone()), ty, false, span);
                    }
                }
                let folded = self.c.facts.consts.get(&addr(id)).copied().or_else(|| consteval::eval(e, self.c).ok().map(|v| v.value));
                match folded {
                    Some(v) if self.c.arith(ty.ty).is_some_and(is_int) => self.push(K::Int(v), ty, false, span),
                    _ => self.push(K::BuiltinConst(id.name.clone()), ty, lvalue, span),
                }
            }
            ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) => {
                let v = self.folded(e);
                self.push(K::Int(v), ty, false, span)
            }
            ExprKind::Offsetof(t, path) => {
                // The constant part, plus each varying index times its
                // element's size, in `size_t`.
                let (offset, varying) = self.c.offsetof_parts(t, path).unwrap_or_default();
                let mut sum = self.push(K::Int(offset as i128), ty, false, span);
                for (x, size) in varying {
                    let i = self.rvalue(x);
                    let i = self.coerce(i, ty, false);
                    let size = self.push(K::Int(size as i128), ty, false, x.span);
                    let scaled = self.push(K::Binary { op: BinOp::Mul, lhs: i, rhs: size, op_ty: ty }, ty, false, x.span);
                    sum = self.push(K::Binary { op: BinOp::Add, lhs: sum, rhs: scaled, op_ty: ty }, ty, false, span);
                }
                sum
            }
            ExprKind::Unary(op, x) => match op {
                UnOp::AddrOf => {
                    let x = self.expr(x);
                    self.push(K::AddrOf(x), ty, false, span)
                }
                UnOp::Deref => {
                    let x = self.rvalue(x);
                    self.push(K::Deref(x), ty, lvalue, span)
                }
                UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                    let x = self.expr(x);
                    let inc = matches!(op, UnOp::PreInc | UnOp::PostInc);
                    let prefix = matches!(op, UnOp::PreInc | UnOp::PreDec);
                    self.push(K::IncDec { inc, prefix, expr: x }, ty, false, span)
                }
                UnOp::Not => {
                    let x = self.rvalue(x);
                    self.push(K::Unary { op: *op, expr: x }, ty, false, span)
                }
                _ => {
                    let x = self.rvalue(x);
                    let x = self.coerce(x, ty, false);
                    self.push(K::Unary { op: *op, expr: x }, ty, false, span)
                }
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, ty, span),
            ExprKind::Assign(op, l, r) => {
                let lhs = self.expr(l);
                let lt = self.ty(lhs);
                let rhs = self.rvalue(r);
                match op {
                    None => {
                        let rhs = self.coerce(rhs, lt, is_null_expr(r));
                        self.push(K::Assign { lhs, rhs }, ty, false, span)
                    }
                    Some(op) => {
                        let rt = self.ty(rhs);
                        let (comp, rhs) = if self.c.is_pointer(lt.ty) {
                            let pd = self.ptrdiff();
                            (Self::private(lt.ty), self.coerce(rhs, pd, false))
                        } else {
                            let comp = self.op_type(Self::private(lt.ty), rt, *op);
                            (comp, self.coerce(rhs, comp, false))
                        };
                        self.push(K::CompoundAssign { op: *op, lhs, rhs, comp_ty: comp }, ty, false, span)
                    }
                }
            }
            ExprKind::Cond(c, Some(a), b) => {
                let cond = self.rvalue(c);
                let then = self.rvalue(a);
                let then = self.coerce(then, ty, is_null_expr(a));
                let else_ = self.rvalue(b);
                let else_ = self.coerce(else_, ty, is_null_expr(b));
                self.push(K::Cond { cond, then, else_ }, ty, false, span)
            }
            // GNU's `c ?: b`: `c ? c : b` with `c` evaluated once: read
            // twice if that has no effect, else kept in a temporary
            // (`(t = c) ? t : b`, in a statement expression declaring it).
            ExprKind::Cond(c, None, b) => {
                let else_ = |l: &mut Self| {
                    let v = l.rvalue(b);
                    l.coerce(v, ty, is_null_expr(b))
                };
                if no_side_effects(c) {
                    let cond = self.rvalue(c);
                    let then = self.rvalue(c);
                    let then = self.coerce(then, ty, is_null_expr(c));
                    let else_ = else_(self);
                    return self.push(K::Cond { cond, then, else_ }, ty, false, span);
                }
                let v = self.rvalue(c);
                let vt = self.ty(v);
                let tq = QualType { space: AddrSpace::Private, ..vt };
                let t = self.new_local("cond.tmp", tq, c.span, None);
                let slot = self.push(K::Local(t), tq, true, c.span);
                let cond = self.push(K::Assign { lhs: slot, rhs: v }, vt, false, c.span);
                let slot = self.push(K::Local(t), tq, true, c.span);
                let then = self.push(K::Load(slot), vt, false, c.span);
                let then = self.coerce(then, ty, is_null_expr(c));
                let else_ = else_(self);
                let value = self.push(K::Cond { cond, then, else_ }, ty, false, span);
                self.push(K::StmtExpr { body: vec![hir::Stmt::Local { local: t, init: None }], value: Some(value) }, ty, false, span)
            }
            ExprKind::Cast(_, x) => {
                let v = self.rvalue(x);
                if matches!(self.c.types.kind(ty.ty), TypeKind::Void) {
                    return v;
                }
                let null = is_null_expr(x);
                self.coerce(v, ty, null)
            }
            ExprKind::VectorLiteral(_, xs) if self.c.vector_of(ty.ty).is_none() => {
                // `(int)(a, b)`: a cast of the comma expression — every
                // element evaluated, the last one converted.
                let mut acc: Option<hir::ExprId> = None;
                for x in xs {
                    let v = self.rvalue(x);
                    acc = Some(match acc {
                        Some(l) => {
                            let vt = self.ty(v);
                            self.push(K::Comma { lhs: l, rhs: v }, vt, false, span)
                        }
                        None => v,
                    });
                }
                let Some(v) = acc else { return self.push(K::Int(0), ty, false, span) };
                if matches!(self.c.types.kind(ty.ty), TypeKind::Void) {
                    return v;
                }
                self.coerce(v, ty, false)
            }
            ExprKind::VectorLiteral(_, xs) => {
                let el = self.c.vector_of(ty.ty).map(|(s, _)| s).unwrap_or(Scalar::Int);
                let mut ids = Vec::new();
                for x in xs {
                    let v = self.rvalue(x);
                    let vt = self.ty(v);
                    let v = match self.c.vector_of(vt.ty) {
                        Some((_, n)) => {
                            let t = self.c.vec_or_scalar(el, n);
                            self.coerce(v, t, false)
                        }
                        None => {
                            let t = self.c.sc(el);
                            self.coerce(v, t, false)
                        }
                    };
                    ids.push(v);
                }
                if ids.len() == 1 && self.c.vector_of(self.ty(ids[0]).ty).is_none() {
                    return self.push(K::Convert { kind: ConvKind::Splat, expr: ids[0] }, ty, false, span);
                }
                self.push(K::VectorLiteral(ids), ty, false, span)
            }
            ExprKind::CompoundLiteral(_, init) => {
                // `(int[]){1, 2, 3}` is an `int[3]`.
                let ty = self.c.complete_from_init(ty, init);
                let i = self.init(init, ty);
                self.push(K::CompoundLiteral(i), ty, true, span)
            }
            ExprKind::Index(a, b) => {
                let at = self.c.facts.ty.get(&addr(&**a)).map(|t| t.0.ty);
                let a_is_vec = at.is_some_and(|t| self.c.vector_of(t).is_some());
                let (base, idx) = if a_is_vec {
                    (self.expr(a), b)
                } else {
                    let av = self.rvalue(a);
                    if self.c.is_pointer(self.ty(av).ty) {
                        (av, b)
                    } else {
                        (self.rvalue(b), a)
                    }
                };
                let i = self.rvalue(idx);
                let pd = self.ptrdiff();
                let i = self.coerce(i, pd, false);
                self.push(K::Index { base, index: i }, ty, lvalue, span)
            }
            ExprKind::Member { base, arrow, name } => {
                let b = if *arrow {
                    let p = self.rvalue(base);
                    let pt = self.ty(p);
                    let obj = self.c.pointee(pt.ty).unwrap_or(pt);
                    self.push(K::Deref(p), obj, true, base.span)
                } else {
                    self.expr(base)
                };
                if let Some(lanes) = self.c.facts.lanes.get(&addr(name)).cloned() {
                    return self.push(K::Swizzle { base: b, lanes }, ty, lvalue, span);
                }
                // A member of an anonymous member is reached through it
                // (`s.x` with `struct { int x; };` in `s`).
                let path = match *self.c.types.kind(self.ty(b).ty) {
                    TypeKind::Record(r) => self.c.member_path(r, &name.name).unwrap_or_default(),
                    _ => Vec::new(),
                };
                let Some((&last, through)) = path.split_last() else { return self.push(K::Member { base: b, field: 0 }, ty, lvalue, span) };
                let mut b = b;
                for &field in through {
                    let outer = self.ty(b);
                    let TypeKind::Record(r) = *self.c.types.kind(outer.ty) else { break };
                    let inner = self.c.types.records[r as usize].fields.as_ref().map_or(outer, |fs| fs[field as usize].ty);
                    let quals = Quals { is_const: outer.quals.is_const || inner.quals.is_const, is_volatile: outer.quals.is_volatile || inner.quals.is_volatile, is_restrict: false };
                    b = self.push(K::Member { base: b, field }, QualType { ty: inner.ty, quals, space: outer.space }, lvalue, span);
                }
                self.push(K::Member { base: b, field: last }, ty, lvalue, span)
            }
            ExprKind::Call(callee, args) => match self.clang_constant(e, callee) {
                Some(k) => self.push(k, ty, false, span),
                None => self.call(callee, args, ty, span),
            },
            ExprKind::BlockLit(b) => {
                let mut params = Vec::new();
                for p in b.params.iter().flatten() {
                    let Some(n) = p.name() else { continue };
                    if let Some(t) = self.c.facts.decls.get(&addr(n)).copied() {
                        params.push(self.new_local(&n.name, t, n.span, Some(addr(n))));
                    }
                }
                let mut body = Vec::new();
                for s in &b.body.items {
                    self.stmt(s, &mut body);
                }
                self.push(K::BlockLiteral { params, body }, ty, false, span)
            }
            ExprKind::StmtExpr(b) => {
                let (stmts, value) = b.split_value();
                let mut body = Vec::new();
                for s in stmts {
                    self.stmt(s, &mut body);
                }
                let value = value.map(|x| self.rvalue(x));
                self.push(K::StmtExpr { body, value }, ty, false, span)
            }
        }
    }

    /// The type both operands of arithmetic `op` convert to.
    fn op_type(&mut self, l: QualType, r: QualType, op: BinOp) -> QualType {
        if self.c.vector_of(l.ty).is_some() {
            return Self::private(l.ty);
        }
        if self.c.vector_of(r.ty).is_some() {
            return Self::private(r.ty);
        }
        match (self.c.arith(l.ty), self.c.arith(r.ty)) {
            (Some(x), Some(_)) if matches!(op, BinOp::Shl | BinOp::Shr) => self.c.sc(promote(x)),
            (Some(x), Some(y)) => {
                let s = self.c.usual(x, y);
                self.c.sc(s)
            }
            _ => Self::private(l.ty),
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: QualType, span: Span) -> ExprId {
        use hir::ExprKind as K;
        if op == BinOp::Comma {
            let l = self.rvalue(a);
            let r = self.rvalue(b);
            return self.push(K::Comma { lhs: l, rhs: r }, ty, false, span);
        }
        let l = self.rvalue(a);
        let r = self.rvalue(b);
        let (lt, rt) = (self.ty(l), self.ty(r));
        if matches!(op, BinOp::And | BinOp::Or) && self.c.vector_of(lt.ty).is_none() && self.c.vector_of(rt.ty).is_none() {
            return self.push(K::Binary { op, lhs: l, rhs: r, op_ty: ty }, ty, false, span);
        }
        let (lp, rp) = (self.c.is_pointer(lt.ty), self.c.is_pointer(rt.ty));
        if lp || rp {
            let pd = self.ptrdiff();
            match op {
                BinOp::Add | BinOp::Sub if lp && !rp => {
                    let off = self.coerce(r, pd, false);
                    return self.push(K::PtrOffset { ptr: l, offset: off, sub: op == BinOp::Sub }, ty, false, span);
                }
                BinOp::Add if rp && !lp => {
                    let off = self.coerce(l, pd, false);
                    return self.push(K::PtrOffset { ptr: r, offset: off, sub: false }, ty, false, span);
                }
                BinOp::Sub => return self.push(K::PtrDiff { lhs: l, rhs: r }, ty, false, span),
                _ => {
                    // A comparison: both sides to the pointer type (the
                    // `__generic` one when the spaces differ).
                    let target = if !lp {
                        rt
                    } else if !rp {
                        lt
                    } else {
                        let (ps, qs) = (self.c.pointee(lt.ty).map(|p| p.space), self.c.pointee(rt.ty).map(|p| p.space));
                        if ps != qs && qs == Some(AddrSpace::Generic) { rt } else { lt }
                    };
                    let l = self.coerce(l, target, is_null_expr(a));
                    let r = self.coerce(r, target, is_null_expr(b));
                    return self.push(K::Binary { op, lhs: l, rhs: r, op_ty: target }, ty, false, span);
                }
            }
        }
        let op_ty = self.op_type(lt, rt, op);
        let l = self.coerce(l, op_ty, false);
        let r = self.coerce(r, op_ty, false);
        self.push(K::Binary { op, lhs: l, rhs: r, op_ty }, ty, false, span)
    }

    /// A string literal or a predefined identifier (`__func__`): the
    /// builtins take them as they are (printf's `%s`).
    fn is_string_literal(&self, e: &Expr) -> bool {
        match &strip(e).kind {
            ExprKind::StringLit(_) => true,
            ExprKind::Ident(id) => self.c.facts.strings.contains_key(&addr(id)),
            _ => false,
        }
    }

    /// A call `e` of one of clang's builtins that is a constant: an integer
    /// constant expression (`__builtin_clz(8)`, `__builtin_constant_p(x)`),
    /// an infinity or a NaN.
    fn clang_constant(&mut self, e: &Expr, callee: &Expr) -> Option<hir::ExprKind> {
        let ExprKind::Ident(id) = &callee.kind else { return None };
        let o = self.c.facts.builtins.get(&addr(id))?;
        if !matches!(o.lowering, Lowering::Gnu(_)) {
            return None;
        }
        if let Ok(v) = consteval::eval(e, self.c) {
            return Some(hir::ExprKind::Int(v.value));
        }
        self.c.clang_float_constant(e).map(hir::ExprKind::Float)
    }

    fn call(&mut self, callee: &Expr, args: &[Expr], ty: QualType, span: Span) -> ExprId {
        use hir::ExprKind as K;
        if let ExprKind::Ident(id) = &callee.kind {
            if let Some(o) = self.c.facts.builtins.get(&addr(id)).cloned() {
                // An assumption that might change anything is ignored
                // (-Wassume said so): not evaluated, as in clang.
                if o.lowering == Lowering::Gnu(GnuOp::Assume) && args.first().is_some_and(|a| self.c.may_change(a)) {
                    return self.push(K::BuiltinCall { name: id.name.clone(), overload: Box::new(o), args: Vec::new() }, ty, false, span);
                }
                let mut ids = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let v = self.rvalue(a);
                    let v = match o.params.get(i).and_then(|p| self.c.qual_of_builtin(p)) {
                        Some(p) if !self.is_string_literal(a) => self.coerce(v, p, is_null_expr(a)),
                        _ => v,
                    };
                    ids.push(v);
                }
                return self.push(K::BuiltinCall { name: id.name.clone(), overload: Box::new(o), args: ids }, ty, false, span);
            }
            if let Some(fty) = self.c.facts.callee.get(&addr(id)).copied() {
                let params = match self.c.types.kind(fty).clone() {
                    TypeKind::Function { params, .. } => params,
                    _ => Vec::new(),
                };
                let params: Vec<QualType> = params.into_iter().filter(|p| !matches!(self.c.types.kind(p.ty), TypeKind::Void)).collect();
                let mut ids = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let v = self.rvalue(a);
                    let v = match params.get(i) {
                        Some(p) => self.coerce(v, *p, is_null_expr(a)),
                        None => v,
                    };
                    ids.push(v);
                }
                let func = self.func_ids.get(&(id.name.clone(), fty)).copied();
                return self.push(K::Call { name: id.name.clone(), func, args: ids }, ty, false, span);
            }
        }
        let f = self.rvalue(callee);
        let ids = args.iter().map(|a| self.value_conv(a)).collect();
        self.push(K::CallValue { callee: f, args: ids }, ty, false, span)
    }

    /// The value of an integer constant expression the check evaluated
    /// (every one lowering asks for was: the check rejects the program
    /// otherwise).
    /// An item of an aggregate's list for the sub-object of type `target`
    /// where it goes (a record value: the record whole).
    fn item_init(&mut self, init: &Initializer, target: QualType) -> hir::Init {
        match init {
            Initializer::Expr(e) if matches!(self.c.types.kind(target.ty), TypeKind::Record(_)) => hir::Init::Expr(self.rvalue(e)),
            _ => self.init(init, target),
        }
    }

    fn folded(&mut self, e: &Expr) -> i128 {
        match self.c.facts.consts.get(&addr(e)) {
            Some(v) => *v,
            None => consteval::eval(e, self.c).map(|v| v.value).unwrap_or(0),
        }
    }

    /// Lowers an initializer of an object of type `q`.
    pub fn init(&mut self, init: &Initializer, q: QualType) -> hir::Init {
        match init {
            Initializer::Expr(e) => {
                if matches!(self.c.types.kind(q.ty), TypeKind::Array(..)) {
                    return hir::Init::Expr(self.expr(e));
                }
                let v = self.rvalue(e);
                let target = match self.c.types.kind(q.ty) {
                    TypeKind::Atomic(inner) => self.c.sc(inner.unwrap_or(Scalar::Int)),
                    _ => q,
                };
                hir::Init::Expr(self.coerce_expr(e, v, target))
            }
            // `char s[4] = { "abc" }`: the string in braces.
            Initializer::List { items, .. } if let Some(string) = self.c.braced_string(q.ty, items) => self.init(string, q),
            // Arrays and records: each item where the checker placed it,
            // by designators from the list's object (a GNU range: once for
            // each element, the checker having made sure the item has no
            // side effects); excess items have no place and are dropped.
            Initializer::List { items, .. } if self.c.is_aggregate_type(q.ty) => {
                let mut out = Vec::new();
                let mut next = 0u64;
                for item in items {
                    if self.c.facts.excess.contains(&addr(item)) {
                        break;
                    }
                    let Some((path, target)) = self.c.facts.places.get(&addr(item)).cloned() else {
                        // One past the previous item.
                        let target = self.c.sub_type(q, next);
                        next += 1;
                        let init = self.item_init(&item.init, target);
                        out.push((Vec::new(), init));
                        continue;
                    };
                    next = path[0].bounds().1 + 1;
                    let mut each: Vec<Vec<hir::Designator>> = vec![Vec::with_capacity(path.len())];
                    for step in path {
                        match step {
                            Step::Field(f) => each.iter_mut().for_each(|ds| ds.push(hir::Designator::Field(f))),
                            Step::Elements(lo, hi) => {
                                each = each.into_iter().flat_map(|ds| (lo..=hi).map(move |i| [ds.as_slice(), &[hir::Designator::Index(i as i128)]].concat())).collect()
                            }
                        }
                    }
                    let reset = self.c.facts.resets.contains(&addr(item));
                    for ds in each {
                        if reset {
                            // An empty list zeroes a sub-object.
                            out.push((ds.clone(), hir::Init::List(Vec::new())));
                        }
                        let init = self.item_init(&item.init, target);
                        out.push((ds, init));
                    }
                }
                hir::Init::List(out)
            }
            // A vector's list (items without designators, a vector item
            // giving all its components: code generation spreads them),
            // or a scalar's (`int x = { 1 }`: its first item).
            Initializer::List { items, .. } => {
                let elem = match *self.c.types.kind(q.ty) {
                    TypeKind::Vector(s, _) => self.c.sc(s),
                    _ => q,
                };
                let mut out = Vec::new();
                let taken = if self.c.vector_of(q.ty).is_some() { items.len() } else { items.len().min(1) };
                for item in &items[..taken] {
                    let i = match &item.init {
                        Initializer::Expr(e) if self.c.vector_of(q.ty).is_some() => {
                            let v = self.rvalue(e);
                            match self.c.vector_of(self.ty(v).ty) {
                                Some(_) => hir::Init::Expr(v),
                                None => hir::Init::Expr(self.coerce_expr(e, v, elem)),
                            }
                        }
                        _ => self.init(&item.init, elem),
                    };
                    out.push((Vec::new(), i));
                }
                hir::Init::List(out)
            }
        }
    }

    /// Lowers a statement into `out`.
    pub fn stmt(&mut self, s: &Stmt, out: &mut Vec<hir::Stmt>) {
        use hir::Stmt as S;
        match &s.kind {
            StmtKind::Compound(b) => {
                let mut v = Vec::new();
                for s in &b.items {
                    self.stmt(s, &mut v);
                }
                out.push(S::Block(v));
            }
            StmtKind::Decl(d) => self.local_decl(d, out),
            StmtKind::StaticAssert(_) | StmtKind::Null | StmtKind::Error => {}
            StmtKind::Expr(e) => {
                let x = self.expr(e);
                out.push(S::Expr(x));
            }
            StmtKind::If { cond, then, else_ } => {
                let c = self.rvalue(cond);
                let t = self.sub(then);
                let e = else_.as_ref().map(|e| self.sub(e));
                out.push(S::If { cond: c, then: t, else_: e });
            }
            StmtKind::Switch { cond, body } => {
                let c = self.rvalue(cond);
                let ct = self.ty(c);
                let pt = match self.c.arith(ct.ty) {
                    Some(s) => self.c.sc(promote(s)),
                    None => ct,
                };
                let promoted = self.c.arith(pt.ty).map(|s| {
                    let s = canon(s, self.c.types.pointer_size);
                    IntTy { bits: vector_element_bits(s), signed: is_signed(s) }
                });
                let c = self.coerce(c, pt, false);
                self.cases.push((promoted, Vec::new()));
                self.defaults.push(None);
                let b = self.sub(body);
                let cases = self.cases.pop().map(|c| c.1).unwrap_or_default();
                let default = self.defaults.pop().flatten();
                out.push(S::Switch { cond: c, cases, default, body: b });
            }
            StmtKind::Case { value, high, body } => {
                let lo = self.folded(value);
                let hi = high.as_ref().map_or(lo, |h| self.folded(h));
                let id = CaseId(self.next_case);
                self.next_case += 1;
                if let Some((ty, cs)) = self.cases.last_mut() {
                    let (lo, hi) = ty.map_or((lo, hi), |t| (t.wrap(lo), t.wrap(hi)));
                    cs.push((lo, hi, id));
                }
                out.push(S::Case(id));
                self.stmt(body, out);
            }
            StmtKind::Default { body } => {
                let id = CaseId(self.next_case);
                self.next_case += 1;
                if let Some(d) = self.defaults.last_mut() {
                    *d = Some(id);
                }
                out.push(S::Case(id));
                self.stmt(body, out);
            }
            StmtKind::Label { name, body } => {
                out.push(S::Label(name.name.clone()));
                self.stmt(body, out);
            }
            StmtKind::While { cond, body, unroll: u } => {
                let c = self.rvalue(cond);
                let b = self.sub(body);
                out.push(S::While { cond: c, body: b, meta: hir::LoopMeta { unroll: self.unroll(s, u), span: s.span } });
            }
            StmtKind::DoWhile { body, cond, unroll: u } => {
                let b = self.sub(body);
                let c = self.rvalue(cond);
                out.push(S::DoWhile { body: b, cond: c, meta: hir::LoopMeta { unroll: self.unroll(s, u), span: s.span } });
            }
            StmtKind::For { init, cond, step, body, unroll: u } => {
                let mut i = Vec::new();
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => {
                        let x = self.expr(e);
                        i.push(S::Expr(x));
                    }
                    ForInit::Decl(d) => self.local_decl(d, &mut i),
                }
                let c = cond.as_ref().map(|c| self.rvalue(c));
                let st = step.as_ref().map(|s| self.expr(s));
                let b = self.sub(body);
                out.push(S::For { init: i, cond: c, step: st, body: b, meta: hir::LoopMeta { unroll: self.unroll(s, u), span: s.span } });
            }
            StmtKind::Goto(l) => out.push(S::Goto(l.name.clone())),
            StmtKind::Break => out.push(S::Break),
            StmtKind::Continue => out.push(S::Continue),
            StmtKind::Return(None) => out.push(S::Return(None)),
            StmtKind::Return(Some(e)) => {
                let v = self.rvalue(e);
                let v = match self.c.facts.conv.get(&addr(e)).copied() {
                    Some(to) => self.coerce(v, to, is_null_expr(e)),
                    None => v,
                };
                out.push(S::Return(Some(v)));
            }
        }
    }

    /// What loop `s` with pragmas `pragmas` asks of its unrolling (the
    /// check found its hints valid).
    fn unroll(&mut self, s: &Stmt, pragmas: &[ast::Unroll]) -> Option<hir::Unroll> {
        use super::super::loop_hints::{attr_count, is_unroll_hint, unroll_of};
        let mut value = |e: &Expr| consteval::eval(e, self.c).map_or(0, |v| v.value);
        let pragmas: Vec<(bool, Option<i128>)> = pragmas.iter().map(|p| (p.nounroll, p.count.as_deref().map(&mut value))).collect();
        let mut counts = Vec::new();
        for a in s.attrs.iter().filter(|a| is_unroll_hint(a)) {
            counts.push(match a.args.first() {
                Some(AttrArg::Expr(e)) => attr_count(value(e)).max(0) as u32,
                _ => 0,
            });
        }
        unroll_of(&pragmas, &counts)
    }

    fn sub(&mut self, s: &Stmt) -> Vec<hir::Stmt> {
        let mut v = Vec::new();
        self.stmt(s, &mut v);
        v
    }

    /// A local of the function being lowered; `decl`, when it is a
    /// declared name (not a temporary nor an unnamed parameter).
    pub fn new_local(&mut self, name: &str, ty: QualType, span: Span, decl: Option<DeclKey>) -> LocalId {
        self.locals.push(hir::Local { name: name.to_string(), ty, span });
        let id = LocalId(self.locals.len() as u32 - 1);
        if let Some(d) = decl {
            self.local_ids.insert(d, id);
        }
        id
    }

    fn local_decl(&mut self, d: &Decl, out: &mut Vec<hir::Stmt>) {
        if d.is_typedef() {
            return;
        }
        for id in &d.declarators {
            let Some(name) = id.declarator.name() else { continue };
            let Some(ty) = self.c.facts.decls.get(&addr(name)).copied() else { continue };
            let l = self.new_local(&name.name, ty, name.span, Some(addr(name)));
            let init = id.init.as_ref().map(|i| self.init(i, ty));
            out.push(hir::Stmt::Local { local: l, init });
        }
    }
}

fn is_null_expr(e: &Expr) -> bool {
    match &strip(e).kind {
        ExprKind::IntLit { value: 0, .. } | ExprKind::CharLit(0) => true,
        ExprKind::Ident(id) => id.name == "NULL",
        ExprKind::Cast(_, x) => is_null_expr(x),
        _ => false,
    }
}

/// The conversion between two arithmetic scalars.
fn scalar_conv(from: Scalar, to: Scalar) -> Option<ConvKind> {
    let fi = is_int(from);
    let ti = is_int(to);
    Some(match (fi, ti) {
        _ if to == Scalar::Bool => ConvKind::ToBool,
        (true, true) => ConvKind::IntResize { signed: is_signed(from) },
        (true, false) => ConvKind::IntToFloat { signed: is_signed(from) },
        (false, true) => ConvKind::FloatToInt { signed: is_signed(to) },
        (false, false) => ConvKind::FloatResize,
    })
}

/// The parameters of the function declarator that declares the name.
fn fn_params(d: &Declarator) -> Option<&Vec<ParamDecl>> {
    match &d.kind {
        DeclaratorKind::Name(_) => None,
        DeclaratorKind::Pointer { inner, .. } | DeclaratorKind::Array { inner, .. } => fn_params(inner),
        DeclaratorKind::Function { inner, params, .. } => match &inner.kind {
            DeclaratorKind::Name(_) => Some(params),
            _ => fn_params(inner),
        },
    }
}

impl<'d> Checker<'d> {
    /// Builds the typed program's globals and functions (after a check
    /// without errors).
    pub(in crate::sema) fn build_hir(&mut self, tu: &TranslationUnit) -> (Vec<hir::Global>, Vec<hir::Function>) {
        // Folding constants may type expressions again; what that would
        // report was reported by the check.
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let r = self.build_hir_quiet(tu);
        std::mem::swap(self.diags, &mut scratch);
        r
    }

    fn build_hir_quiet(&mut self, tu: &TranslationUnit) -> (Vec<hir::Global>, Vec<hir::Function>) {
        let mut l = Lower {
            c: self,
            global_blocks: HashMap::default(),
            exprs: Vec::new(),
            locals: Vec::new(),
            local_ids: HashMap::default(),
            global_ids: HashMap::default(),
            func_ids: HashMap::default(),
            cases: Vec::new(),
            defaults: Vec::new(),
            next_case: 0,
        };
        // Functions are numbered first, so calls can name later ones.
        let mut defs = Vec::new();
        for item in &tu.items {
            if let ExternalDecl::FunctionDef(f) = item {
                let Some(name) = f.declarator.name() else { continue };
                let ent = l.c.entities.iter().find(|e| e.name == name.name && e.span == name.span).or_else(|| l.c.entities.iter().find(|e| e.name == name.name && matches!(e.kind, EntityKind::Function { defined: true, .. })));
                let Some(ent) = ent.cloned() else { continue };
                l.func_ids.insert((name.name.clone(), ent.ty.ty), hir::FuncId(defs.len() as u32));
                defs.push((f, ent));
            }
        }
        let mut globals: Vec<hir::Global> = Vec::new();
        let mut functions = Vec::new();
        let mut def_iter = defs.into_iter();
        for item in &tu.items {
            match item {
                ExternalDecl::Decl(d) if !d.is_typedef() => {
                    for id in &d.declarators {
                        let Some(name) = id.declarator.name() else { continue };
                        let Some(ty) = l.c.facts.decls.get(&addr(name)).copied() else { continue };
                        if matches!(l.c.types.kind(ty.ty), TypeKind::Block { .. }) {
                            if let Some(Initializer::Expr(e)) = id.init.as_deref() {
                                l.global_blocks.insert(addr(name), e);
                            }
                            continue;
                        }
                        let gid = match globals.iter().position(|g| g.name == name.name) {
                            Some(i) => hir::GlobalId(i as u32),
                            None => {
                                globals.push(hir::Global { name: name.name.clone(), ty, span: name.span, init: None, init_exprs: Vec::new() });
                                hir::GlobalId(globals.len() as u32 - 1)
                            }
                        };
                        l.global_ids.insert(addr(name), gid);
                        if let Some(init) = &id.init {
                            l.exprs.clear();
                            let i = l.init(init, ty);
                            let g = &mut globals[gid.0 as usize];
                            g.init = Some(i);
                            g.ty = ty;
                            g.init_exprs = std::mem::take(&mut l.exprs);
                        }
                    }
                }
                ExternalDecl::FunctionDef(_) => {
                    let Some((f, ent)) = def_iter.next() else { continue };
                    l.exprs.clear();
                    l.locals.clear();
                    l.local_ids.clear();
                    l.next_case = 0;
                    let ptys: Vec<QualType> = match l.c.types.kind(ent.ty.ty).clone() {
                        TypeKind::Function { params, .. } => params.into_iter().filter(|p| !matches!(l.c.types.kind(p.ty), TypeKind::Void)).collect(),
                        _ => Vec::new(),
                    };
                    let pdecls = fn_params(&f.declarator).map_or(&[][..], |v| v.as_slice());
                    let mut params = Vec::new();
                    for (i, pty) in ptys.iter().enumerate() {
                        let local = match pdecls.get(i).and_then(|p| p.name()) {
                            Some(n) => {
                                let ty = l.c.facts.decls.get(&addr(n)).copied().unwrap_or(*pty);
                                l.new_local(&n.name, ty, n.span, Some(addr(n)))
                            }
                            None => l.new_local("", *pty, pdecls.get(i).map_or(f.span, |p| p.span), None),
                        };
                        params.push(local);
                    }
                    let mut body = Vec::new();
                    for s in &f.body.items {
                        l.stmt(s, &mut body);
                    }
                    let (mut reqd, mut hint, mut vth) = (None, None, None);
                    for s in &f.specs.items {
                        let DeclSpec::Attr(a) = s else { continue };
                        let three = |l: &mut Lower| -> Option<[u64; 3]> {
                            let mut v = [0u64; 3];
                            for (k, arg) in a.args.iter().enumerate().take(3) {
                                let AttrArg::Expr(e) = arg else { return None };
                                v[k] = consteval::eval(e, l.c).ok().and_then(|c| u64::try_from(c.value).ok())?;
                            }
                            Some(v)
                        };
                        match a.name.name.as_str() {
                            "reqd_work_group_size" => reqd = three(&mut l),
                            "work_group_size_hint" => hint = three(&mut l),
                            "vec_type_hint" => {
                                if let Some(AttrArg::Type(t)) = a.args.first() {
                                    vth = l.c.type_name(t).map(|q| l.c.types.display(q.ty));
                                }
                            }
                            _ => {}
                        }
                    }
                    functions.push(hir::Function {
                        name: ent.name.clone(),
                        ty: ent.ty,
                        kernel: matches!(ent.kind, EntityKind::Function { kernel: true, .. }),
                        internal: l.c.static_functions.contains(&ent.name),
                        span: ent.span,
                        reqd_work_group_size: reqd,
                        work_group_size_hint: hint,
                        vec_type_hint: vth,
                        params,
                        locals: std::mem::take(&mut l.locals),
                        exprs: std::mem::take(&mut l.exprs),
                        body,
                    });
                }
                _ => {}
            }
        }
        (globals, functions)
    }
}
