//! Calls between programs: how a function declared here and defined in
//! another program (or defined here and called from another) takes its
//! arguments and returns its result.
//!
//! Within a program clc chooses its own convention (records by `byval`
//! pointer and through `sret`, and on the CPU a trailing work-item
//! pointer), since only the program's own code calls its functions.
//! Between programs both sides must follow the convention clang-22 uses
//! for the same declaration, so that clc's objects and modules link with
//! clang's and with each other's:
//! - x86-64: the System V C ABI, as clang classifies it (records and
//!   vectors split into eightbytes of class INTEGER or SSE and passed in
//!   registers as the scalar or vector types clang chooses, `{i64,
//!   double}` or `<2 x float>`; larger or misaligned ones, or ones that no
//!   longer fit in the registers left, by `byval` pointer, and returned
//!   through `sret`; small integers sign- or zero-extended);
//! - SPIR-V: records by `byval` pointer and returned through `sret`
//!   (`spir_func`), small integers extended.
//!
//! The classification below ([`sysv`], [`spir`]) is pure, over sema's
//! types; the [`Gen`] half declares and calls foreign functions with it
//! and exports the program's own functions through wrappers that follow
//! it.

use super::{Gen, R, ice};
use crate::sema::hir::ExprId;
use crate::sema::types::{TypeId, TypeKind, Types};
use clc_builtins::functions::AddrSpace;
use clc_builtins::types::{Opaque, Scalar};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Linkage;
use inkwell::types::{AnyType, BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, PointerValue};

/// How a small integer is widened to a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    Sign,
    Zero,
}

/// The type one register of a record or vector is passed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reg {
    /// An integer of this many bits (`i24` for a record of 3 bytes).
    Int(u32),
    /// A 64-bit pointer.
    Ptr,
    Float,
    Double,
    /// `<2 x float>`.
    Float2,
    /// `<2 x double>`: a 16-byte register whose record holds no vector.
    Double2,
    /// The 16-byte vector type itself.
    Vector(TypeId),
}

/// How one argument or the result crosses the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Pass {
    /// As its value (the widening for small integers).
    Direct(Option<Ext>),
    /// Not at all: an empty record.
    Ignore,
    /// The object's bytes as these registers at these byte offsets (one
    /// argument each; a result is one value, a literal struct for two).
    Coerce(Vec<(u64, Reg)>),
    /// A pointer to a copy with this alignment: `byval` for an argument,
    /// `sret` (the first argument) for the result.
    Memory { align: u64 },
}

/// A function's convention towards other programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Signature {
    pub ret: Pass,
    pub params: Vec<Pass>,
}

/// Records and `ndrange_t`: what C passes as an aggregate.
fn is_aggregate(types: &Types, t: TypeId) -> bool {
    matches!(types.kind(t), TypeKind::Record(_) | TypeKind::Opaque(Opaque::NdRange))
}

fn is_void(types: &Types, t: TypeId) -> bool {
    matches!(types.kind(t), TypeKind::Void)
}

/// `signext`/`zeroext` for the integers narrower than `int`.
fn ext(types: &Types, t: TypeId) -> Option<Ext> {
    match types.kind(t) {
        TypeKind::Scalar(Scalar::Char | Scalar::Short) => Some(Ext::Sign),
        TypeKind::Scalar(Scalar::Bool | Scalar::UChar | Scalar::UShort) => Some(Ext::Zero),
        _ => None,
    }
}

fn size_of(types: &Types, t: TypeId) -> u64 {
    types.size_align(t).map_or(0, |s| s.0)
}

fn align_of(types: &Types, t: TypeId) -> u64 {
    types.size_align(t).map_or(1, |s| s.1.max(1))
}

/// clang's convention for SPIR-V (`spir_func`): aggregates by `byval`
/// pointer and through `sret`, with their natural alignment.
pub(super) fn spir(types: &Types, ret: TypeId, params: &[TypeId]) -> Signature {
    let pass = |t: TypeId| if is_aggregate(types, t) { Pass::Memory { align: align_of(types, t) } } else { Pass::Direct(ext(types, t)) };
    Signature { ret: if is_void(types, ret) { Pass::Direct(None) } else { pass(ret) }, params: params.iter().map(|&p| pass(p)).collect() }
}

/// The x86-64 System V convention as clang-22 computes it
/// (`X86_64ABIInfo::computeInfo`, without AVX: vectors wider than 16
/// bytes are in memory): six integer and eight SSE registers for the
/// arguments, one integer register taken by an `sret` pointer; an
/// argument that needs more registers than are left goes in memory whole.
pub(super) fn sysv(types: &Types, ret: TypeId, params: &[TypeId]) -> Signature {
    let ret = if is_void(types, ret) {
        Pass::Direct(None)
    } else {
        let (lo, hi) = classify(types, ret, 0);
        match lo {
            Class::Memory if !is_aggregate(types, ret) => Pass::Direct(ext(types, ret)),
            Class::Memory => Pass::Memory { align: align_of(types, ret) },
            _ => registers(types, ret, lo, hi),
        }
    };
    let mut free_int = if matches!(ret, Pass::Memory { .. }) { 5 } else { 6 };
    let mut free_sse = 8;
    let mut out = Vec::with_capacity(params.len());
    for &p in params {
        let (lo, hi) = classify(types, p, 0);
        let needs = |c: Class, k: Class| u32::from(c == k);
        let (int, sse) = (needs(lo, Class::Integer) + needs(hi, Class::Integer), needs(lo, Class::Sse) + needs(hi, Class::Sse));
        let pass = if lo == Class::Memory || int > free_int || sse > free_sse {
            in_memory(types, p, free_int)
        } else {
            free_int -= int;
            free_sse -= sse;
            registers(types, p, lo, hi)
        };
        out.push(pass);
    }
    Signature { ret, params: out }
}

/// The classes of an eightbyte (AMD64 ABI 3.2.3; no x87 types in OpenCL C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    NoClass,
    Integer,
    Sse,
    SseUp,
    Memory,
}

/// Two classes of one eightbyte combined (3.2.3, rule 4).
fn merge(a: Class, b: Class) -> Class {
    use Class::*;
    match (a, b) {
        _ if a == b => a,
        (NoClass, x) | (x, NoClass) => x,
        (Memory, _) | (_, Memory) => Memory,
        (Integer, _) | (_, Integer) => Integer,
        _ => Sse,
    }
}

/// The classes of the two eightbytes of an object of `t` at byte `off` of
/// the argument (clang's `X86_64ABIInfo::classify`).
fn classify(types: &Types, t: TypeId, off: u64) -> (Class, Class) {
    let at = |c: Class| if off < 8 { (c, Class::NoClass) } else { (Class::NoClass, c) };
    match types.kind(t) {
        // clang classifies OpenCL's `half` as no register class: memory.
        TypeKind::Scalar(Scalar::Half) => at(Class::Memory),
        TypeKind::Scalar(Scalar::Float | Scalar::Double) => at(Class::Sse),
        TypeKind::Vector(..) => {
            let size = size_of(types, t);
            match size {
                1 | 2 | 4 => {
                    let c = at(Class::Integer);
                    // Split across two eightbytes: both are INTEGER.
                    if off / 8 != (off + size - 1) / 8 { (Class::Integer, Class::Integer) } else { c }
                }
                8 if off != 0 && off != 8 => (Class::Sse, Class::Sse),
                8 => at(Class::Sse),
                16 => (Class::Sse, Class::SseUp),
                _ => at(Class::Memory),
            }
        }
        TypeKind::Record(idx) => {
            let r = &types.records[*idx as usize];
            let (Some(fields), Some(layout)) = (r.fields.as_ref(), types.record_layout(*idx)) else { return at(Class::Memory) };
            // Over two eightbytes (no AVX): memory.
            if layout.size > 16 {
                return at(Class::Memory);
            }
            let (mut lo, mut hi) = (Class::NoClass, Class::NoClass);
            for (f, fo) in fields.iter().zip(&layout.offsets) {
                let o = off + fo;
                // A field misaligned for its type (`packed`): memory.
                if o % align_of(types, f.ty.ty) != 0 {
                    return post_merge(layout.size, Class::Memory, hi);
                }
                let (fl, fh) = classify(types, f.ty.ty, o);
                lo = merge(lo, fl);
                hi = merge(hi, fh);
                if lo == Class::Memory || hi == Class::Memory {
                    break;
                }
            }
            post_merge(layout.size, lo, hi)
        }
        TypeKind::Array(e, Some(n)) => {
            let (esize, ealign) = types.size_align(e.ty).unwrap_or((0, 1));
            let size = esize.saturating_mul(*n);
            if off % ealign.max(1) != 0 || size > 16 {
                return at(Class::Memory);
            }
            let (mut lo, mut hi) = (Class::NoClass, Class::NoClass);
            for i in 0..*n {
                let (fl, fh) = classify(types, e.ty, off + i * esize);
                lo = merge(lo, fl);
                hi = merge(hi, fh);
                if lo == Class::Memory || hi == Class::Memory {
                    break;
                }
            }
            post_merge(size, lo, hi)
        }
        TypeKind::Opaque(Opaque::NdRange) => at(Class::Memory),
        TypeKind::Void | TypeKind::Function { .. } | TypeKind::Array(_, None) => at(Class::Memory),
        // Integers, enums, pointers and the handles (pointers or
        // integers on the CPU).
        _ => at(Class::Integer),
    }
}

/// clang's `postMerge` (3.2.3, rule 5, without x87).
fn post_merge(size: u64, mut lo: Class, mut hi: Class) -> (Class, Class) {
    if hi == Class::Memory {
        lo = Class::Memory;
    }
    if size > 16 && (lo != Class::Sse || hi != Class::SseUp) {
        lo = Class::Memory;
    }
    if hi == Class::SseUp && lo != Class::Sse {
        hi = Class::Sse;
    }
    (lo, hi)
}

/// A value of `t` that goes in memory (clang's `getIndirectResult`):
/// scalars and vectors the back end places itself stay values; an
/// aggregate of one eightbyte once no integer register is left is an
/// integer on the stack; others a `byval` copy aligned to 8 at least.
fn in_memory(types: &Types, t: TypeId, free_int: u32) -> Pass {
    let size = size_of(types, t);
    let illegal_vector = matches!(types.kind(t), TypeKind::Vector(..)) && (size <= 8 || size > 16);
    if !is_aggregate(types, t) && !illegal_vector {
        return Pass::Direct(ext(types, t));
    }
    let align = align_of(types, t).max(8);
    if free_int == 0 && align == 8 && size <= 8 {
        return Pass::Coerce(vec![(0, Reg::Int(size as u32 * 8))]);
    }
    Pass::Memory { align }
}

/// A value of `t` in registers of classes `lo` and `hi` (the second half
/// of clang's `classifyArgumentType`/`classifyReturnType`).
fn registers(types: &Types, t: TypeId, lo: Class, hi: Class) -> Pass {
    // Scalars and pointers are passed as themselves.
    if !is_aggregate(types, t) && !matches!(types.kind(t), TypeKind::Vector(..)) {
        return Pass::Direct(ext(types, t));
    }
    let mut low = match lo {
        Class::NoClass if hi == Class::NoClass => return Pass::Ignore,
        Class::Integer => Some(int_at(types, t, 0, t, 0)),
        Class::Sse => Some(sse_at(types, t, 0)),
        _ => None,
    };
    let high = match hi {
        Class::Integer => Some(int_at(types, t, 8, t, 8)),
        Class::Sse => Some(sse_at(types, t, 8)),
        Class::SseUp => {
            low = Some(byte_vector(types, t));
            None
        }
        _ => None,
    };
    match (low, high) {
        // A 16-byte vector passed as its own type.
        (Some(Reg::Vector(v)), None) if v == t => Pass::Direct(None),
        (Some(l), None) => Pass::Coerce(vec![(0, l)]),
        (None, Some(h)) => Pass::Coerce(vec![(8, h)]),
        // The high part must start at byte 8: a low part of 4 bytes or
        // less is widened (`GetX86_64ByValArgumentPair`).
        (Some(l), Some(h)) => {
            let l = if reg_size(l).next_multiple_of(reg_align(h)) == 8 {
                l
            } else if matches!(l, Reg::Float) {
                Reg::Double
            } else {
                Reg::Int(64)
            };
            Pass::Coerce(vec![(0, l), (8, h)])
        }
        (None, None) => Pass::Ignore,
    }
}

/// The bytes a register's type takes in memory (LLVM's allocation size).
fn reg_size(r: Reg) -> u64 {
    match r {
        Reg::Int(bits) => u64::from(bits.div_ceil(8)).next_power_of_two(),
        Reg::Float => 4,
        Reg::Ptr | Reg::Double | Reg::Float2 => 8,
        Reg::Double2 | Reg::Vector(_) => 16,
    }
}

fn reg_align(r: Reg) -> u64 {
    reg_size(r).min(16)
}

/// The integer register type for the eightbyte at byte `ir_off` of `ir`,
/// which is at byte `src_off` of the argument `src` (clang's
/// `GetINTEGERTypeAtOffset`): a field's own integer type where it fills
/// the eightbyte or only padding follows it, else an integer as wide as
/// what is left of the argument (at most 64 bits).
fn int_at(types: &Types, ir: TypeId, ir_off: u64, src: TypeId, src_off: u64) -> Reg {
    if ir_off == 0 {
        match types.kind(ir) {
            TypeKind::Pointer(_) if types.pointer_size == 8 => return Reg::Ptr,
            TypeKind::Scalar(s) | TypeKind::Atomic(Some(s)) if matches!(s, Scalar::Half | Scalar::Float | Scalar::Double) => {}
            TypeKind::Scalar(_) | TypeKind::Enum(_) | TypeKind::Pointer(_) | TypeKind::Atomic(_) => {
                let bits = size_of(types, ir) as u32 * 8;
                if bits == 64 || (matches!(bits, 8 | 16 | 32) && no_user_data(types, src, src_off * 8 + u64::from(bits), src_off * 8 + 64)) {
                    return Reg::Int(bits);
                }
            }
            _ => {}
        }
    }
    match types.kind(ir) {
        TypeKind::Record(idx) => {
            let r = &types.records[*idx as usize];
            if let (Some(fields), Some(layout)) = (r.fields.as_ref(), types.record_layout(*idx))
                && ir_off < layout.size
            {
                let member = if r.is_union { union_storage(types, fields.iter().map(|f| f.ty.ty)).map(|t| (t, 0)) } else { fields.iter().zip(&layout.offsets).rev().find(|(_, o)| **o <= ir_off).map(|(f, o)| (f.ty.ty, *o)) };
                if let Some((ft, fo)) = member {
                    return int_at(types, ft, ir_off - fo, src, src_off);
                }
            }
        }
        TypeKind::Array(e, _) => {
            let esize = size_of(types, e.ty).max(1);
            return int_at(types, e.ty, ir_off % esize, src, src_off);
        }
        _ => {}
    }
    Reg::Int((size_of(types, src).saturating_sub(src_off).min(8) * 8) as u32)
}

/// The SSE register type for the eightbyte at byte `off` of `t` (clang's
/// `GetSSETypeAtOffset`): `float` where only padding follows a float,
/// `<2 x float>` for two floats, else `double`.
fn sse_at(types: &Types, t: TypeId, off: u64) -> Reg {
    let left = size_of(types, t).saturating_sub(off);
    let first = fp_at(types, t, off);
    if first != Some(Scalar::Float) {
        return Reg::Double;
    }
    match if left > 4 { fp_at(types, t, off + 4) } else { None } {
        None => Reg::Float,
        Some(Scalar::Float) => Reg::Float2,
        Some(_) => Reg::Double,
    }
}

/// The floating-point scalar that starts at byte `off` of `t`, looking
/// into records and arrays but not vectors (clang's `getFPTypeAtOffset`
/// over its IR type, where a union is its storage member).
fn fp_at(types: &Types, t: TypeId, off: u64) -> Option<Scalar> {
    match types.kind(t) {
        TypeKind::Scalar(s @ (Scalar::Float | Scalar::Double | Scalar::Half)) if off == 0 => Some(*s),
        TypeKind::Record(idx) => {
            let r = &types.records[*idx as usize];
            let fields = r.fields.as_ref()?;
            let layout = types.record_layout(*idx)?;
            if r.is_union {
                let s = union_storage(types, fields.iter().map(|f| f.ty.ty))?;
                return if off < size_of(types, s) { fp_at(types, s, off) } else { None };
            }
            let (f, fo) = fields.iter().zip(&layout.offsets).rev().find(|(_, o)| **o <= off)?;
            fp_at(types, f.ty.ty, off - fo)
        }
        TypeKind::Array(e, _) => fp_at(types, e.ty, off % size_of(types, e.ty).max(1)),
        _ => None,
    }
}

/// The member clang lays a union out as: the most aligned, then the
/// largest, the first of equals.
fn union_storage(types: &Types, members: impl Iterator<Item = TypeId>) -> Option<TypeId> {
    let mut best: Option<TypeId> = None;
    for m in members {
        let better = best.is_none_or(|b| {
            let (ma, ba) = (align_of(types, m), align_of(types, b));
            ma > ba || (ma == ba && size_of(types, m) > size_of(types, b))
        });
        if better {
            best = Some(m);
        }
    }
    best
}

/// Is nothing of `t` in bits `[start, end)` (clang's
/// `BitsContainNoUserData`)?
fn no_user_data(types: &Types, t: TypeId, start: u64, end: u64) -> bool {
    if size_of(types, t) * 8 <= start {
        return true;
    }
    match types.kind(t) {
        TypeKind::Array(e, Some(n)) => {
            let esize = size_of(types, e.ty) * 8;
            (0..*n).map(|i| i * esize).take_while(|&eo| eo < end).all(|eo| no_user_data(types, e.ty, start.saturating_sub(eo), end - eo))
        }
        TypeKind::Record(idx) => {
            let (Some(fields), Some(layout)) = (types.records[*idx as usize].fields.as_ref(), types.record_layout(*idx)) else { return false };
            fields.iter().zip(&layout.offsets).map(|(f, o)| (f.ty.ty, o * 8)).take_while(|&(_, fo)| fo < end).all(|(ft, fo)| no_user_data(types, ft, start.saturating_sub(fo), end - fo))
        }
        _ => false,
    }
}

/// The type of a 16-byte SSE register (clang's `GetByteVectorType`): the
/// vector a record wraps, else `<2 x double>`.
fn byte_vector(types: &Types, t: TypeId) -> Reg {
    let inner = single_element(types, t).unwrap_or(t);
    if matches!(types.kind(inner), TypeKind::Vector(..)) { Reg::Vector(inner) } else { Reg::Double2 }
}

/// The one non-aggregate a record wraps (through records and arrays of
/// one element), when the record is no larger (clang's
/// `isSingleElementStruct`).
fn single_element(types: &Types, t: TypeId) -> Option<TypeId> {
    let TypeKind::Record(idx) = types.kind(t) else { return None };
    let fields = types.records[*idx as usize].fields.as_ref()?;
    let mut found = None;
    for f in fields {
        if size_of(types, f.ty.ty) == 0 {
            continue;
        }
        if found.is_some() {
            return None;
        }
        let mut ft = f.ty.ty;
        while let TypeKind::Array(e, Some(1)) = types.kind(ft) {
            ft = e.ty;
        }
        found = Some(if is_aggregate(types, ft) { single_element(types, ft)? } else { ft });
    }
    found.filter(|&f| size_of(types, f) == size_of(types, t))
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The convention of a function returning `ret` and taking `params`
    /// towards other programs, on this target.
    pub(super) fn foreign_signature(&self, ret: TypeId, params: &[TypeId]) -> Signature {
        if self.spirv() { spir(self.types, ret, params) } else { sysv(self.types, ret, params) }
    }

    fn reg_ty(&mut self, r: Reg) -> R<BasicTypeEnum<'ctx>> {
        Ok(match r {
            Reg::Int(bits) => match std::num::NonZeroU32::new(bits).and_then(|b| self.ctx.custom_width_int_type(b).ok()) {
                Some(t) => t.into(),
                None => return ice(format!("a register of {bits} bits")),
            },
            Reg::Ptr => self.ptr_ty(AddrSpace::Private).into(),
            Reg::Float => self.ctx.f32_type().into(),
            Reg::Double => self.ctx.f64_type().into(),
            Reg::Float2 => self.ctx.f32_type().vec_type(2).into(),
            Reg::Double2 => self.ctx.f64_type().vec_type(2).into(),
            Reg::Vector(t) => self.mem_ty(t)?,
        })
    }

    /// The LLVM function type of `sig` for `ret` and `params`.
    fn foreign_fn_ty(&mut self, sig: &Signature, ret: TypeId, params: &[TypeId]) -> R<inkwell::types::FunctionType<'ctx>> {
        let mut ps: Vec<BasicMetadataTypeEnum> = Vec::new();
        if matches!(sig.ret, Pass::Memory { .. }) {
            ps.push(self.ptr_ty(AddrSpace::Private).into());
        }
        for (pass, &t) in sig.params.iter().zip(params) {
            match pass {
                Pass::Direct(_) => ps.push(self.vty(t)?.into()),
                Pass::Ignore => {}
                Pass::Coerce(regs) => {
                    for &(_, r) in regs {
                        ps.push(self.reg_ty(r)?.into());
                    }
                }
                Pass::Memory { .. } => ps.push(self.ptr_ty(AddrSpace::Private).into()),
            }
        }
        let rt: Option<BasicTypeEnum> = match &sig.ret {
            Pass::Direct(_) => self.value_ty(ret)?,
            Pass::Ignore | Pass::Memory { .. } => None,
            Pass::Coerce(regs) if regs.len() == 1 => Some(self.reg_ty(regs[0].1)?),
            Pass::Coerce(regs) => {
                let fields = regs.iter().map(|&(_, r)| self.reg_ty(r)).collect::<R<Vec<_>>>()?;
                Some(self.ctx.struct_type(&fields, false).into())
            }
        };
        Ok(match rt {
            Some(r) => r.fn_type(&ps, false),
            None => self.ctx.void_type().fn_type(&ps, false),
        })
    }

    /// The attributes `sig` puts on a function or call: `sret`, `byval`
    /// and their alignment, `signext`/`zeroext`.
    fn foreign_attrs(&mut self, sig: &Signature, ret: TypeId, params: &[TypeId]) -> R<Vec<(AttributeLoc, Attribute)>> {
        let kind = Attribute::get_named_enum_kind_id;
        let mut out = Vec::new();
        let ctx = self.ctx;
        let ext_attr = |e: Ext| ctx.create_enum_attribute(kind(if e == Ext::Sign { "signext" } else { "zeroext" }), 0);
        let mut i = 0;
        match sig.ret {
            Pass::Direct(Some(e)) => out.push((AttributeLoc::Return, ext_attr(e))),
            Pass::Memory { align } => {
                let st = self.mem_ty(ret)?;
                out.push((AttributeLoc::Param(0), self.ctx.create_type_attribute(kind("sret"), st.as_any_type_enum())));
                out.push((AttributeLoc::Param(0), self.ctx.create_enum_attribute(kind("align"), align)));
                i = 1;
            }
            _ => {}
        }
        for (pass, &t) in sig.params.iter().zip(params) {
            match pass {
                Pass::Direct(e) => {
                    if let Some(e) = e {
                        out.push((AttributeLoc::Param(i), ext_attr(*e)));
                    }
                    i += 1;
                }
                Pass::Ignore => {}
                Pass::Coerce(regs) => i += regs.len() as u32,
                Pass::Memory { align } => {
                    let st = self.mem_ty(t)?;
                    out.push((AttributeLoc::Param(i), self.ctx.create_type_attribute(kind("byval"), st.as_any_type_enum())));
                    out.push((AttributeLoc::Param(i), self.ctx.create_enum_attribute(kind("align"), *align)));
                    i += 1;
                }
            }
        }
        Ok(out)
    }

    /// Declares (once) the foreign function `symbol` of `sig`.
    pub(super) fn declare_foreign(&mut self, symbol: &str, sig: &Signature, ret: TypeId, params: &[TypeId]) -> R<FunctionValue<'ctx>> {
        if let Some(f) = self.module.get_function(symbol) {
            return Ok(f);
        }
        let fty = self.foreign_fn_ty(sig, ret, params)?;
        let f = self.module.add_function(symbol, fty, None);
        if self.spirv() {
            f.set_call_conventions(super::CC_SPIR_FUNC);
        }
        for (loc, a) in self.foreign_attrs(sig, ret, params)? {
            f.add_attribute(loc, a);
        }
        Ok(f)
    }

    /// A temporary of at least 16 bytes for the registers of a value of
    /// `t`: loading or storing them never reaches past it.
    fn register_slot(&mut self, t: TypeId) -> R<PointerValue<'ctx>> {
        let size = self.types.size_align(t).map_or(0, |s| s.0).max(16);
        let ty = self.ctx.i8_type().array_type(size as u32);
        self.at_entry(|g| {
            let p = g.b.build_alloca(ty, "coerce")?;
            if let Some(inst) = p.as_instruction() {
                let _ = inst.set_alignment(16);
            }
            Ok(p)
        })
    }

    /// A value of `t` (for a record, the object at `src`) as the
    /// arguments `pass` makes of it.
    fn foreign_arg(&mut self, pass: &Pass, t: TypeId, src: ArgSource<'ctx>, out: &mut Vec<BasicMetadataValueEnum<'ctx>>) -> R<()> {
        match pass {
            Pass::Ignore => {}
            Pass::Direct(_) => match src {
                ArgSource::Value(v) => out.push(v.into()),
                ArgSource::Object(p) => out.push(self.load_value(p, t, false)?.into()),
            },
            Pass::Coerce(regs) => {
                let slot = self.register_slot(t)?;
                self.put_object(slot, t, src)?;
                for &(off, r) in regs {
                    let rt = self.reg_ty(r)?;
                    let at = self.byte_offset(slot, off)?;
                    out.push(self.b.build_load(rt, at, "")?.into());
                }
            }
            Pass::Memory { align } => {
                let copy = self.alloca(t, "byval")?;
                if let Some(inst) = copy.as_instruction() {
                    let _ = inst.set_alignment((*align as u32).max(self.align_of(t)));
                }
                self.put_object(copy, t, src)?;
                out.push(copy.into());
            }
        }
        Ok(())
    }

    /// Writes the value or copies the object `src` of `t` to `dst`.
    fn put_object(&mut self, dst: PointerValue<'ctx>, t: TypeId, src: ArgSource<'ctx>) -> R<()> {
        match src {
            ArgSource::Object(p) => self.copy_object(dst, p, t),
            ArgSource::Value(v) => self.store_value(dst, t, v, false),
        }
    }

    /// Calls the foreign function `symbol` (defined by another program)
    /// with the arguments `args` of types `params`, returning `ret`, by
    /// [`foreign_signature`](Gen::foreign_signature).
    pub(super) fn call_foreign(&mut self, symbol: &str, args: &[ExprId], ret: TypeId, params: &[TypeId]) -> R<Option<BasicValueEnum<'ctx>>> {
        let sig = self.foreign_signature(ret, params);
        let f = self.declare_foreign(symbol, &sig, ret, params)?;
        let mut vals = Vec::new();
        let sret = match sig.ret {
            Pass::Memory { align } => {
                let slot = self.alloca(ret, "ret")?;
                if let Some(inst) = slot.as_instruction() {
                    let _ = inst.set_alignment((align as u32).max(self.align_of(ret)));
                }
                vals.push(slot.into());
                Some(slot)
            }
            _ => None,
        };
        for ((&a, pass), &t) in args.iter().zip(&sig.params).zip(params) {
            let src = if self.is_record(t) { ArgSource::Object(self.aggregate_ptr(a)?) } else { ArgSource::Value(self.value(a)?) };
            self.foreign_arg(pass, t, src, &mut vals)?;
        }
        let call = self.b.build_call(f, &vals, "")?;
        call.set_call_convention(f.get_call_conventions());
        for (loc, a) in self.foreign_attrs(&sig, ret, params)? {
            call.add_attribute(loc, a);
        }
        let result = call.try_as_basic_value().basic();
        match (&sig.ret, sret) {
            (_, Some(slot)) => Ok(Some(self.load_aggregate(slot, ret)?)),
            (Pass::Coerce(regs), _) => {
                let Some(v) = result else { return ice("a coerced result without a value") };
                let slot = self.register_slot(ret)?;
                self.store_registers(slot, regs, v)?;
                Ok(Some(if self.is_record(ret) { self.load_aggregate(slot, ret)? } else { self.load_value(slot, ret, false)? }))
            }
            (Pass::Ignore, _) => Ok(self.value_ty(ret)?.map(|t| t.const_zero())),
            _ => Ok(result),
        }
    }

    /// Stores the registers `v` (one value, or a literal struct of two)
    /// at their offsets of `slot`.
    fn store_registers(&mut self, slot: PointerValue<'ctx>, regs: &[(u64, Reg)], v: BasicValueEnum<'ctx>) -> R<()> {
        for (k, &(off, _)) in regs.iter().enumerate() {
            let part = if regs.len() == 1 { v } else { self.b.build_extract_value(v.into_struct_value(), k as u32, "")? };
            let at = self.byte_offset(slot, off)?;
            self.b.build_store(at, part)?;
        }
        Ok(())
    }

    /// Exports the program's functions other programs may call: each
    /// function that is not a kernel, not `static` and passes only values
    /// C has gets an external wrapper under the name clang gives it
    /// ([`Gen::external_symbol`]), taking and returning its values as
    /// [`foreign_signature`](Gen::foreign_signature) says and calling
    /// the function with clc's own convention. On the CPU a function
    /// needs the work-item parameter when anything it runs asks the
    /// work-item or its group (ids, barriers, local memory): such a
    /// function is not exported (a caller in another program has no
    /// work-item to give; a clang object's `get_global_id` call would not
    /// link either).
    pub(super) fn export_functions(&mut self) -> R<()> {
        let needs_wi = if self.cpu_abi() { self.needs_work_item() } else { vec![false; self.funcs.len()] };
        for (i, f) in self.program.functions.iter().enumerate() {
            if f.kernel || f.internal || needs_wi[i] {
                continue;
            }
            let TypeKind::Function { ret, params, variadic: false } = self.kind(f.ty.ty) else { continue };
            let plain = |t: TypeId| matches!(self.kind(t), TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Pointer(_) | TypeKind::Enum(_) | TypeKind::Record(_));
            if !(plain(ret.ty) || matches!(self.kind(ret.ty), TypeKind::Void)) || !params.iter().all(|p| plain(p.ty)) {
                continue;
            }
            let params: Vec<TypeId> = params.iter().map(|p| p.ty).collect();
            self.export(i, ret.ty, &params)?;
        }
        Ok(())
    }

    fn export(&mut self, index: usize, ret: TypeId, params: &[TypeId]) -> R<()> {
        let internal = self.funcs[index];
        let name = &self.program.functions[index].name;
        let btys: Option<Vec<_>> = params.iter().map(|&p| self.builtin_ty(p)).collect();
        // An overload taking an unnamed record (which clang mangles by a
        // number clc does not reproduce): left unexported rather than
        // under a name two overloads would share.
        if btys.is_none() && self.is_overloaded(name) {
            return Ok(());
        }
        let symbol = self.external_symbol(name, btys);
        match self.module.get_function(&symbol) {
            Some(f) if f == internal => internal.as_global_value().set_name(&format!("{symbol}.clc")),
            // Another function has the name (another overload that the
            // mangler gives the same symbol): no export.
            Some(_) => return Ok(()),
            None => {}
        }
        let sig = self.foreign_signature(ret, params);
        let wrapper = self.declare_foreign(&symbol, &sig, ret, params)?;
        wrapper.set_linkage(Linkage::External);
        self.add_fn_attr(wrapper, "convergent");
        self.add_fn_attr(wrapper, "nounwind");
        self.fp_attrs(wrapper);
        let name: &'a str = &self.program.functions[index].name;
        let span = self.program.functions[index].span;
        self.build_body(wrapper, &symbol, span, false, |g| {
            let Some(entry) = g.b.get_insert_block() else { return ice("an export's body without its entry block") };
            g.fs = Some(super::FnState::new(name, &[], &[], wrapper, entry));
            g.export_body(&sig, wrapper, internal, ret, params)
        })
    }

    fn export_body(&mut self, sig: &Signature, wrapper: FunctionValue<'ctx>, internal: FunctionValue<'ctx>, ret: TypeId, params: &[TypeId]) -> R<()> {
        let mut next = 0u32;
        let mut param = |g: &Self| {
            let p = wrapper.get_nth_param(next);
            next += 1;
            match p {
                Some(p) => Ok(p),
                None => ice(format!("the export of {} has too few parameters", g.fs().name)),
            }
        };
        let sret = if matches!(sig.ret, Pass::Memory { .. }) { Some(param(self)?.into_pointer_value()) } else { None };
        let mut vals: Vec<BasicMetadataValueEnum> = Vec::new();
        // clc's convention: a record result through `sret`.
        let ret_slot = match (sret, self.is_record(ret)) {
            (Some(p), _) => Some(p),
            (None, true) => Some(self.alloca(ret, "ret")?),
            (None, false) => None,
        };
        if let Some(p) = ret_slot {
            vals.push(p.into());
        }
        for (pass, &t) in sig.params.iter().zip(params) {
            // The object or value the argument carries.
            let v: BasicValueEnum = match pass {
                Pass::Direct(_) => param(self)?,
                Pass::Ignore => {
                    let slot = self.alloca(t, "empty")?;
                    if self.is_record(t) { slot.into() } else { self.load_value(slot, t, false)? }
                }
                Pass::Coerce(regs) => {
                    let slot = self.register_slot(t)?;
                    for &(off, _) in regs {
                        let v = param(self)?;
                        let at = self.byte_offset(slot, off)?;
                        self.b.build_store(at, v)?;
                    }
                    if self.is_record(t) { slot.into() } else { self.load_value(slot, t, false)? }
                }
                Pass::Memory { .. } => {
                    let p = param(self)?.into_pointer_value();
                    if self.is_record(t) { p.into() } else { self.load_value(p, t, false)? }
                }
            };
            vals.push(v.into());
        }
        if self.cpu_abi() {
            // No function that is exported reads its work-item.
            vals.push(self.ptr_ty(AddrSpace::Private).const_null().into());
        }
        let call = self.b.build_call(internal, &vals, "")?;
        call.set_call_convention(internal.get_call_conventions());
        let result = call.try_as_basic_value().basic();
        match (&sig.ret, ret_slot) {
            (Pass::Memory { .. } | Pass::Ignore, _) => self.b.build_return(None)?,
            (Pass::Coerce(regs), slot) => {
                let slot = match slot {
                    // The record is in `ret`: its registers are read from
                    // a slot they cannot reach past.
                    Some(p) => {
                        let s = self.register_slot(ret)?;
                        self.copy_object(s, p, ret)?;
                        s
                    }
                    None => {
                        let Some(v) = result else { return ice("an exported function's result without a value") };
                        let s = self.register_slot(ret)?;
                        self.store_value(s, ret, v, false)?;
                        s
                    }
                };
                let mut parts = Vec::new();
                for &(off, r) in regs {
                    let rt = self.reg_ty(r)?;
                    let at = self.byte_offset(slot, off)?;
                    parts.push(self.b.build_load(rt, at, "")?);
                }
                let v = if parts.len() == 1 {
                    parts[0]
                } else {
                    let st = wrapper.get_type().get_return_type().map(|t| t.into_struct_type());
                    let Some(st) = st else { return ice("an exported function's pair without a struct type") };
                    let mut agg = st.get_undef().as_basic_value_enum();
                    for (k, p) in parts.into_iter().enumerate() {
                        agg = self.b.build_insert_value(agg.into_struct_value(), p, k as u32, "")?.as_basic_value_enum();
                    }
                    agg
                };
                self.b.build_return(Some(&v))?
            }
            (Pass::Direct(_), _) => match result {
                Some(v) => self.b.build_return(Some(&v))?,
                None => self.b.build_return(None)?,
            },
        };
        Ok(())
    }

    /// Which of the program's functions need the work-item parameter on
    /// the CPU: those that use it other than by passing it on to a
    /// function that does not, found by iterating to a fixed point over
    /// the lowered module.
    fn needs_work_item(&self) -> Vec<bool> {
        use inkwell::llvm_sys::core::*;
        use inkwell::values::AsValueRef;
        let index: rustc_hash::FxHashMap<_, usize> = self.funcs.iter().enumerate().map(|(i, f)| (f.as_value_ref(), i)).collect();
        let n = self.funcs.len();
        // For each function, the callees its work-item only flows to, or
        // `None` when it is used otherwise.
        let mut flows: Vec<Option<Vec<usize>>> = Vec::with_capacity(n);
        for f in &self.funcs {
            let Some(wi) = f.count_params().checked_sub(1).and_then(|k| f.get_nth_param(k)) else {
                flows.push(None);
                continue;
            };
            let mut callees = Some(Vec::new());
            // SAFETY: walking the use list of a value of this module.
            unsafe {
                let wi = wi.as_value_ref();
                let mut u = LLVMGetFirstUse(wi);
                while !u.is_null() {
                    let user = LLVMGetUser(u);
                    let args = if LLVMIsACallInst(user).is_null() { 0 } else { LLVMGetNumArgOperands(user) };
                    let callee = if args == 0 { None } else { index.get(&LLVMGetCalledValue(user)) };
                    // Only as the last argument of a call of one of the
                    // program's functions, whose work-item it is.
                    let passed_on = callee.filter(|_| LLVMGetOperand(user, args - 1) == wi && (0..args - 1).all(|k| LLVMGetOperand(user, k) != wi));
                    match (passed_on, callees.as_mut()) {
                        (Some(&c), Some(cs)) => cs.push(c),
                        _ => callees = None,
                    }
                    u = LLVMGetNextUse(u);
                }
            }
            flows.push(callees);
        }
        let mut needs: Vec<bool> = flows.iter().map(Option::is_none).collect();
        loop {
            let mut changed = false;
            for i in 0..n {
                if !needs[i] && flows[i].as_ref().is_some_and(|cs| cs.iter().any(|&c| needs[c])) {
                    needs[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return needs;
            }
        }
    }
}

/// Where an argument's value is: an SSA value, or (a record) an object.
#[derive(Clone, Copy)]
enum ArgSource<'ctx> {
    Value(BasicValueEnum<'ctx>),
    Object(PointerValue<'ctx>),
}
