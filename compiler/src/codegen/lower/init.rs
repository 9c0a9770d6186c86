//! Initializers: of locals (stores), and of program-scope and `__constant`
//! variables (LLVM constants).
//!
//! Sema gives brace lists with their designators but leaves brace elision
//! (`int a[2][2] = {1, 2, 3, 4}`) to be resolved here, as C's "current
//! object" walk: an expression meeting an aggregate sub-object that it
//! does not itself initialize starts filling that sub-object.

use super::{FnState, Gen, R, ice};
use crate::sema::hir::{self, Designator, ExprKind, Init};
use crate::sema::types::{QualType, TypeId, TypeKind};
use clc_builtins::types::Scalar;
use inkwell::types::AnyType;
use inkwell::values::{BasicValueEnum, GlobalValue, PointerValue};
use std::collections::BTreeMap;

/// Zeros in a row, in an array constant, from which they are one
/// `zeroinitializer` array (the constant a packed struct of the runs
/// between, as clang makes it), not an element each.
const ZERO_RUN: usize = 64;

/// A sub-object being initialized.
#[derive(Clone, Copy)]
enum Obj<'ctx> {
    /// An object in memory (locals).
    Mem(PointerValue<'ctx>),
    /// A path into the constant under construction (globals).
    Const,
}

/// A constant under construction.
#[derive(Clone, Debug)]
enum Tree<'ctx> {
    Zero,
    Leaf(BasicValueEnum<'ctx>),
    /// Elements of an array or vector, fields of a struct, by position:
    /// only those an initializer names (an array of 2^31 elements with
    /// two initialized is two entries, not 2^31).
    Parts(BTreeMap<usize, Tree<'ctx>>),
    /// A union with its initialized member.
    Union(u32, Box<Tree<'ctx>>),
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// How many sub-objects a brace list of type `t` walks.
    fn sub_count(&self, t: TypeId) -> usize {
        match self.kind(t) {
            TypeKind::Array(_, n) => n.unwrap_or(0) as usize,
            TypeKind::Vector(_, n) => *n as usize,
            TypeKind::Record(i) => {
                let r = &self.types.records[*i as usize];
                if r.is_union { 1.min(r.fields.as_ref().map_or(0, |f| f.len())) } else { r.fields.as_ref().map_or(0, |f| f.len()) }
            }
            _ => 1,
        }
    }

    fn sub_type(&self, t: TypeId, i: usize) -> TypeId {
        match self.kind(t) {
            TypeKind::Array(e, _) => e.ty,
            TypeKind::Vector(s, _) => self.types_scalar(*s),
            TypeKind::Record(r) => self.types.records[*r as usize].fields.as_ref().and_then(|f| f.get(i)).map_or(t, |f| f.ty.ty),
            _ => t,
        }
    }

    fn types_scalar(&self, s: Scalar) -> TypeId {
        // Every scalar type a vector can have was interned by sema when it
        // interned the vector.
        self.program.types.find(&TypeKind::Scalar(s)).unwrap_or_else(|| self.program.types.find(&TypeKind::Void).expect("void is interned"))
    }

    fn is_aggregate(&self, t: TypeId) -> bool {
        matches!(self.kind(t), TypeKind::Array(..) | TypeKind::Record(_))
    }

    /// Does an expression item meeting sub-object `t` start filling it
    /// (brace elision) rather than initialize it whole?
    fn elides_into(&self, t: TypeId, init: &Init) -> bool {
        let Init::Expr(e) = init else { return false };
        if !self.is_aggregate(t) {
            return false;
        }
        let ex = self.expr_info(*e);
        if ex.ty.ty == t {
            return false;
        }
        // A string literal initializes a char array whole.
        let string = matches!(ex.kind, ExprKind::Str(_)) || matches!(self.kind(ex.ty.ty), TypeKind::Array(..));
        !(string && matches!(self.kind(t), TypeKind::Array(..)))
    }

    // -----------------------------------------------------------------
    // Locals
    // -----------------------------------------------------------------

    /// Initializes the object of type `q` at `ptr`.
    pub(super) fn init_local(&mut self, ptr: PointerValue<'ctx>, q: QualType, init: &Init) -> R<()> {
        if matches!(init, Init::List(_)) && (self.is_aggregate(q.ty) || self.lanes_of(q.ty).is_some()) {
            // Members not named by the list are zero (C99 6.7.8p21).
            let size = self.types.size_align(q.ty).map_or(0, |s| s.0);
            let n = self.ctx.i64_type().const_int(size, false);
            let zero = self.ctx.i8_type().const_zero();
            self.b.build_memset(ptr, self.align_of(q.ty), zero, n).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
        }
        self.init_obj(Obj::Mem(ptr), q.ty, init, &mut Tree::Zero)
    }

    /// Initializes sub-object `t` (at `obj`, or in `tree` for constants)
    /// from one initializer.
    fn init_obj(&mut self, obj: Obj<'ctx>, t: TypeId, init: &Init, tree: &mut Tree<'ctx>) -> R<()> {
        match init {
            Init::List(items) => {
                if !self.is_aggregate(t) && self.lanes_of(t).is_none() {
                    // `int x = { 1 };`
                    return match items.first() {
                        Some((_, i)) => self.init_obj(obj, t, i, tree),
                        None => Ok(()),
                    };
                }
                // An empty list zeroes the sub-object: a later braced list
                // replaces what earlier items put there (sema puts one
                // before it).
                if items.is_empty() {
                    return match obj {
                        Obj::Mem(ptr) => {
                            let size = self.types.size_align(t).map_or(0, |s| s.0);
                            let n = self.ctx.i64_type().const_int(size, false);
                            let zero = self.ctx.i8_type().const_zero();
                            self.b.build_memset(ptr, self.align_of(t), zero, n).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
                            Ok(())
                        }
                        Obj::Const => {
                            *tree = Tree::Zero;
                            Ok(())
                        }
                    };
                }
                let mut pos = 0usize;
                let mut i = 0usize;
                while i < items.len() {
                    let (ds, item) = &items[i];
                    if !ds.is_empty() {
                        pos = self.designated(obj, t, ds, item, tree)? + 1;
                        i += 1;
                        continue;
                    }
                    if pos >= self.sub_count(t) {
                        break;
                    }
                    // `int4 v = { (int2)(1, 2), 3, 4 }`: a vector in a
                    // vector's list gives as many components as it has.
                    if let (Init::Expr(e), Some(_)) = (item, self.lanes_of(t)) {
                        if let Some(m) = self.lanes_of(self.expr_info(*e).ty.ty) {
                            self.spread_lanes(obj, t, pos, *e, m as usize, tree)?;
                            pos += m as usize;
                            i += 1;
                            continue;
                        }
                    }
                    i = self.fill_next(obj, t, pos, items, i, tree)?;
                    pos += 1;
                }
                Ok(())
            }
            Init::Expr(e) => {
                let ex = self.expr_info(*e);
                if self.is_aggregate(t) {
                    if let ExprKind::Str(bytes) = &ex.kind {
                        return self.init_string(obj, t, bytes, tree);
                    }
                    if ex.ty.ty != t {
                        // A lone scalar for an aggregate: its first scalar.
                        let items = vec![(Vec::new(), init.clone())];
                        self.fill_elided(obj, t, &items, 0, tree)?;
                        return Ok(());
                    }
                    return match obj {
                        Obj::Mem(ptr) => {
                            let src = self.aggregate_ptr(*e)?;
                            self.copy_object(ptr, src, t)
                        }
                        Obj::Const => {
                            let v = self.value(*e)?;
                            *tree = Tree::Leaf(v);
                            Ok(())
                        }
                    };
                }
                let v = self.value(*e)?;
                let v = self.convert_types(v, ex.ty.ty, t)?;
                match obj {
                    Obj::Mem(ptr) => self.store_value(ptr, t, v, false),
                    Obj::Const => {
                        *tree = Tree::Leaf(v);
                        Ok(())
                    }
                }
            }
        }
    }

    /// Components `pos..pos + m` of vector `t` from the `m` lanes of
    /// vector expression `e` (of `t`'s element type, as sema checked).
    fn spread_lanes(&mut self, obj: Obj<'ctx>, t: TypeId, pos: usize, e: hir::ExprId, m: usize, tree: &mut Tree<'ctx>) -> R<()> {
        let v = self.value(e)?;
        let BasicValueEnum::VectorValue(v) = v else { return ice("a vector initializer item without a vector value") };
        if matches!(obj, Obj::Const) && !(v.is_constant_vector() || v.is_constant_data_vector() || v.is_null()) {
            return ice("a vector item of a constant initializer that is not a constant vector");
        }
        for k in 0..m.min(self.sub_count(t).saturating_sub(pos)) {
            let st = self.sub_type(t, pos + k);
            let (sobj, stree) = self.sub_obj_at(obj, t, pos + k, tree)?;
            match sobj {
                Obj::Mem(ptr) => {
                    let lane = self.b.build_extract_element(v, self.ctx.i32_type().const_int(k as u64, false), "")?;
                    self.store_value(ptr, st, lane, false)?;
                }
                Obj::Const => *stree = Tree::Leaf(v.get_element_as_constant(k as u32)),
            }
        }
        Ok(())
    }

    /// Initializes sub-object `pos` of `t` from `items[i]` (and, when the
    /// braces were elided, the items after it); returns the next item.
    fn fill_next(&mut self, obj: Obj<'ctx>, t: TypeId, pos: usize, items: &[(Vec<Designator>, Init)], i: usize, tree: &mut Tree<'ctx>) -> R<usize> {
        let st = self.sub_type(t, pos);
        let (sobj, stree) = self.sub_obj_at(obj, t, pos, tree)?;
        let item = &items[i].1;
        if self.elides_into(st, item) {
            self.fill_elided(sobj, st, items, i, stree)
        } else {
            self.init_obj(sobj, st, item, stree)?;
            Ok(i + 1)
        }
    }

    /// Fills aggregate `t` from consecutive undesignated items starting at
    /// `start`; returns the index of the first item not used.
    fn fill_elided(&mut self, obj: Obj<'ctx>, t: TypeId, items: &[(Vec<Designator>, Init)], start: usize, tree: &mut Tree<'ctx>) -> R<usize> {
        let mut i = start;
        let mut pos = 0;
        while i < items.len() && pos < self.sub_count(t) {
            if !items[i].0.is_empty() {
                break;
            }
            i = self.fill_next(obj, t, pos, items, i, tree)?;
            pos += 1;
        }
        Ok(i.max(start + 1))
    }

    /// Applies a designated item; returns the top-level position it named.
    fn designated(&mut self, obj: Obj<'ctx>, t: TypeId, ds: &[Designator], item: &Init, tree: &mut Tree<'ctx>) -> R<usize> {
        let pos = match ds[0] {
            Designator::Field(f) => f as usize,
            Designator::Index(i) => i as usize,
        };
        if pos >= self.sub_count(t) && !matches!(self.kind(t), TypeKind::Record(_)) {
            return Ok(pos);
        }
        let st = self.sub_type(t, pos);
        let (sobj, stree) = self.sub_obj_at(obj, t, pos, tree)?;
        if ds.len() > 1 {
            self.designated(sobj, st, &ds[1..], item, stree)?;
        } else {
            self.init_obj(sobj, st, item, stree)?;
        }
        Ok(pos)
    }

    /// Sub-object `pos` of `t`: its address, or its node in the tree.
    fn sub_obj_at<'t>(&mut self, obj: Obj<'ctx>, t: TypeId, pos: usize, tree: &'t mut Tree<'ctx>) -> R<(Obj<'ctx>, &'t mut Tree<'ctx>)> {
        let sobj = match obj {
            Obj::Mem(ptr) => Obj::Mem(match self.kind(t) {
                TypeKind::Record(_) => self.member_ptr(ptr, t, pos as u32)?,
                TypeKind::Array(e, _) => {
                    let i = self.ctx.i64_type().const_int(pos as u64, false);
                    self.gep(e.ty, ptr, i)?
                }
                TypeKind::Vector(s, _) => {
                    let st = self.types_scalar(*s);
                    let i = self.ctx.i64_type().const_int(pos as u64, false);
                    self.gep(st, ptr, i)?
                }
                _ => ptr,
            }),
            Obj::Const => Obj::Const,
        };
        let is_union = matches!(self.kind(t), TypeKind::Record(r) if self.types.records[*r as usize].is_union);
        if is_union {
            if !matches!(tree, Tree::Union(p, _) if *p as usize == pos) {
                *tree = Tree::Union(pos as u32, Box::new(Tree::Zero));
            }
            let Tree::Union(_, inner) = tree else { unreachable!("just made a union node") };
            return Ok((sobj, inner));
        }
        if !matches!(tree, Tree::Parts(_)) {
            *tree = Tree::Parts(BTreeMap::new());
        }
        let Tree::Parts(parts) = tree else { unreachable!("just made a parts node") };
        Ok((sobj, parts.entry(pos).or_insert(Tree::Zero)))
    }

    fn init_string(&mut self, obj: Obj<'ctx>, t: TypeId, bytes: &[u8], tree: &mut Tree<'ctx>) -> R<()> {
        let TypeKind::Array(e, n) = self.kind(t).clone() else { return ice("a string for a non-array") };
        let len = n.map_or(bytes.len(), |n| (n as usize).min(bytes.len()));
        match obj {
            Obj::Mem(ptr) => {
                // The characters, then zeros to the end of the array.
                let size = self.types.size_align(t).map_or(len as u64, |s| s.0);
                let total = self.ctx.i64_type().const_int(size, false);
                self.b.build_memset(ptr, 1, self.ctx.i8_type().const_zero(), total).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
                let src = self.string(bytes, clc_builtins::functions::AddrSpace::Private);
                let size = self.ctx.i64_type().const_int(len as u64, false);
                self.b.build_memcpy(ptr, 1, src, 1, size).map_err(|e| super::InternalError { function: None, message: e.to_string() })?;
                Ok(())
            }
            Obj::Const => {
                let et = self.mem_ty(e.ty)?.into_int_type();
                *tree = Tree::Parts(bytes[..len].iter().enumerate().map(|(i, &b)| (i, Tree::Leaf(et.const_int(b as u64, false).into()))).collect());
                Ok(())
            }
        }
    }

    // -----------------------------------------------------------------
    // Constants
    // -----------------------------------------------------------------

    /// The constant initializer of an object of type `q`, evaluated in the
    /// current function's expression arena.
    pub(super) fn const_value(&mut self, init: &Init, q: QualType) -> R<BasicValueEnum<'ctx>> {
        let mut tree = Tree::Zero;
        let was = std::mem::replace(&mut self.const_eval, true);
        let r = self.init_obj(Obj::Const, q.ty, init, &mut tree);
        self.const_eval = was;
        r?;
        self.materialize(&tree, q.ty)
    }

    /// The initializer of a program-scope variable: evaluated in a scratch
    /// function (LLVM folds operations on constants as they are built).
    pub(super) fn const_init(&mut self, exprs: &'a [hir::Expr], init: &Init, q: QualType) -> R<BasicValueEnum<'ctx>> {
        let scratch = self.module.add_function("__clc.const_eval", self.ctx.void_type().fn_type(&[], false), None);
        let entry = self.ctx.append_basic_block(scratch, "entry");
        let saved = self.fs.take();
        // The scratch function has no subprogram: no locations in it.
        self.b.unset_current_debug_location();
        self.fs = Some(FnState::new("", exprs, &[], scratch, entry));
        self.b.position_at_end(entry);
        let r = self.const_value(init, q);
        self.fs = saved;
        // SAFETY: the scratch function is used by nothing (constants do not
        // refer to instructions).
        unsafe { scratch.delete() };
        r
    }

    fn materialize(&mut self, tree: &Tree<'ctx>, t: TypeId) -> R<BasicValueEnum<'ctx>> {
        let v = match tree {
            Tree::Zero => self.mem_ty(t)?.const_zero(),
            Tree::Leaf(v) => {
                if matches!(self.kind(t), TypeKind::Scalar(Scalar::Bool)) && v.get_type() == self.ctx.bool_type().into() {
                    let c = v.into_int_value();
                    let bit = c.get_zero_extended_constant().unwrap_or(0);
                    self.ctx.i8_type().const_int(bit, false).into()
                } else {
                    *v
                }
            }
            Tree::Union(field, inner) => {
                let ft = self.sub_type(t, *field as usize);
                let v = self.materialize(inner, ft)?;
                let size = self.types.size_align(t).map_or(0, |s| s.0);
                let fsize = self.types.size_align(ft).map_or(0, |s| s.0);
                // No `[0 x i8]` where the member fills the union: LLVM's
                // SPIR-V back end gives such a struct two different types
                // and the module fails validation.
                match size.saturating_sub(fsize) {
                    0 => self.ctx.const_struct(&[v], true).into(),
                    pad => self.ctx.const_struct(&[v, array_type(self.ctx.i8_type().into(), pad).const_zero()], true).into(),
                }
            }
            Tree::Parts(parts) => match self.kind(t).clone() {
                TypeKind::Vector(..) => {
                    let lanes: Vec<BasicValueEnum> = (0..self.sub_count(t))
                        .map(|i| {
                            let st = self.sub_type(t, i);
                            self.materialize(parts.get(&i).unwrap_or(&Tree::Zero), st)
                        })
                        .collect::<R<_>>()?;
                    super::const_vector(&lanes)
                }
                TypeKind::Array(e, _) => self.materialize_array(parts, e.ty, self.sub_count(t))?,
                TypeKind::Record(idx) => {
                    let layout = self.types.record_layout(idx).ok_or_else(|| super::InternalError { function: None, message: "an incomplete record initialized".into() })?;
                    let fields = self.types.records[idx as usize].fields.clone().unwrap_or_default();
                    let mut vals: Vec<BasicValueEnum> = Vec::new();
                    let mut at = 0u64;
                    let i8t = self.ctx.i8_type();
                    for (i, (f, off)) in fields.iter().zip(&layout.offsets).enumerate() {
                        if *off > at {
                            vals.push(i8t.array_type((*off - at) as u32).const_zero().into());
                        }
                        vals.push(self.materialize(parts.get(&i).unwrap_or(&Tree::Zero), f.ty.ty)?);
                        at = off + self.types.size_align(f.ty.ty).map_or(0, |s| s.0);
                    }
                    if layout.size > at {
                        vals.push(i8t.array_type((layout.size - at) as u32).const_zero().into());
                    }
                    let st = self.record_ty(idx)?;
                    if vals.iter().map(|v| v.get_type()).eq(st.get_field_types()) {
                        st.const_named_struct(&vals).into()
                    } else {
                        self.ctx.const_struct(&vals, true).into()
                    }
                }
                _ => match parts.get(&0) {
                    Some(p) => self.materialize(p, t)?,
                    None => self.mem_ty(t)?.const_zero(),
                },
            },
        };
        if !is_constant(v) {
            return ice("an initializer of a program-scope or __constant variable is not a constant");
        }
        Ok(v)
    }

    /// An array of `n` elements of type `et` from the elements `parts`
    /// names: `[n x T]`, or where it has runs of [`ZERO_RUN`] zeros or
    /// more, a packed struct of the initialized runs (`[k x T]`) and the
    /// zero runs (`[z x T] zeroinitializer`), whose layout is the same.
    /// Elements whose constant has another type than `T` (a union
    /// initialized by another member) make their run a packed struct.
    fn materialize_array(&mut self, parts: &BTreeMap<usize, Tree<'ctx>>, et: TypeId, n: usize) -> R<BasicValueEnum<'ctx>> {
        let elem = self.mem_ty(et)?;
        let mut runs: Vec<BasicValueEnum<'ctx>> = Vec::new();
        let mut run: Vec<BasicValueEnum<'ctx>> = Vec::new();
        let flush = |run: &mut Vec<BasicValueEnum<'ctx>>, runs: &mut Vec<BasicValueEnum<'ctx>>| {
            if run.iter().all(|v| v.get_type() == elem) {
                runs.push(const_array(elem, run));
            } else {
                runs.push(self.ctx.const_struct(run, true).into());
            }
            run.clear();
        };
        let mut at = 0;
        let zeros = |count: usize, run: &mut Vec<BasicValueEnum<'ctx>>, runs: &mut Vec<BasicValueEnum<'ctx>>| {
            if count >= ZERO_RUN {
                if !run.is_empty() {
                    flush(run, runs);
                }
                runs.push(array_type(elem, count as u64).const_zero());
            } else {
                run.extend(std::iter::repeat_n(elem.const_zero(), count));
            }
        };
        for (&i, sub) in parts.range(..n) {
            zeros(i - at, &mut run, &mut runs);
            run.push(self.materialize(sub, et)?);
            at = i + 1;
        }
        zeros(n - at, &mut run, &mut runs);
        if runs.is_empty() || !run.is_empty() {
            flush(&mut run, &mut runs);
        }
        Ok(match runs.as_slice() {
            [one] => *one,
            _ => self.ctx.const_struct(&runs, true).into(),
        })
    }

    /// Sets a global's initializer; when the constant's type differs (a
    /// union initialized by a member other than its byte array), the
    /// global is replaced by one of the constant's type.
    pub(super) fn set_global_init(&mut self, g: GlobalValue<'ctx>, v: BasicValueEnum<'ctx>) -> GlobalValue<'ctx> {
        if g.get_value_type() == v.get_type().as_any_type_enum() {
            g.set_initializer(&v);
            return g;
        }
        let name = g.get_name().to_string_lossy().into_owned();
        let space = g.as_pointer_value().get_type().get_address_space();
        let ng = self.module.add_global(v.get_type(), Some(space), &format!("{name}.init"));
        ng.set_initializer(&v);
        ng.set_alignment(g.get_alignment());
        ng.set_constant(g.is_constant());
        ng.set_linkage(g.get_linkage());
        g.as_pointer_value().replace_all_uses_with(ng.as_pointer_value());
        // SAFETY: every use now refers to the replacement.
        unsafe { g.delete() };
        ng.as_pointer_value().set_name(&name);
        ng
    }
}

fn is_constant(v: BasicValueEnum<'_>) -> bool {
    // SAFETY: `v` is a live value.
    unsafe { !inkwell::llvm_sys::core::LLVMIsAConstant(v.as_value_ref()).is_null() }
}

fn const_array<'ctx>(et: inkwell::types::BasicTypeEnum<'ctx>, vals: &[BasicValueEnum<'ctx>]) -> BasicValueEnum<'ctx> {
    let mut raw: Vec<_> = vals.iter().map(|v| v.as_value_ref()).collect();
    // SAFETY: every element has type `et`.
    unsafe { BasicValueEnum::new(inkwell::llvm_sys::core::LLVMConstArray2(et.as_type_ref(), raw.as_mut_ptr(), raw.len() as u64)) }
}

/// `[n x elem]`, for any `n` (inkwell's `array_type` takes a `u32`).
pub(super) fn array_type(elem: inkwell::types::BasicTypeEnum<'_>, n: u64) -> inkwell::types::BasicTypeEnum<'_> {
    // SAFETY: an array type of a sized element type.
    unsafe { inkwell::types::BasicTypeEnum::new(inkwell::llvm_sys::core::LLVMArrayType2(elem.as_type_ref(), n)) }
}

use inkwell::values::AsValueRef;
use inkwell::types::AsTypeRef;
