//! The declarations: one compact block per family of §6.13, each looping
//! over its gentypes to emit concrete overloads.
//!
//! Requirements that follow from the types are derived, not written: an
//! overload mentioning `double` needs `cl_khr_fp64`, `half` values need
//! `cl_khr_fp16` (pointers to `half` do not: `vload_half` is core), a
//! `__generic` pointer, pipe, queue, `atomic_*` type or `read_write` image
//! needs OpenCL C 2.0, 64-bit atomic types need the int64 atomics
//! extensions, and so on ([`type_requirement`]). A family states only what
//! the types do not say (e.g. `ctz` is 2.0+).

use std::borrow::Cow;
use rustc_hash::FxHashMap as HashMap;

use super::AddrSpace::{Constant, Generic, Global, Local, Private};
use super::*;
use crate::types::Image;
use crate::types::Scalar::{self, *};

/// Scalar (1) and vector widths of gentypes.
const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];
const VECTOR_WIDTHS: [u8; 5] = [2, 3, 4, 8, 16];
const FLOATS: [Scalar; 3] = [Float, Double, Half];
const INTS: [Scalar; 8] = [Char, UChar, Short, UShort, Int, UInt, Long, ULong];
const ELEMS: [Scalar; 11] = [Char, UChar, Short, UShort, Int, UInt, Long, ULong, Float, Double, Half];
/// Where pointer arguments of math and async functions may point: the
/// named spaces in every version, `__generic` (2.0, derived) too.
const SPACES: [AddrSpace; 4] = [Private, Global, Local, Generic];
/// Where a vload may read from.
const LOAD_SPACES: [AddrSpace; 5] = [Private, Global, Local, Constant, Generic];

const CONST: Attrs = Attrs { convergent: false, purity: Purity::Const, special: Special::None };
const PURE: Attrs = Attrs { convergent: false, purity: Purity::Pure, special: Special::None };
const EFFECTS: Attrs = Attrs { convergent: false, purity: Purity::Effects, special: Special::None };
const CONVERGENT: Attrs = Attrs { convergent: true, purity: Purity::Effects, special: Special::None };

fn special(attrs: Attrs, special: Special) -> Attrs {
    Attrs { special, ..attrs }
}

pub(crate) fn is_signed(s: Scalar) -> bool {
    matches!(s, Char | Short | Int | Long | PtrDiff)
}

pub(crate) fn is_integer(s: Scalar) -> bool {
    matches!(s, Char | UChar | Short | UShort | Int | UInt | Long | ULong | Size | PtrDiff)
}

/// Size in bytes.
pub(crate) fn size_of(s: Scalar) -> u32 {
    match s {
        Bool | Char | UChar => 1,
        Short | UShort | Half => 2,
        Int | UInt | Float => 4,
        Long | ULong | Double | Size | PtrDiff => 8,
    }
}

/// The signed integer of the same size (the relational result element).
pub(crate) fn signed_of_size(s: Scalar) -> Scalar {
    match size_of(s) {
        1 => Char,
        2 => Short,
        4 => Int,
        _ => Long,
    }
}

pub(crate) fn unsigned_of_size(s: Scalar) -> Scalar {
    match size_of(s) {
        1 => UChar,
        2 => UShort,
        4 => UInt,
        _ => ULong,
    }
}

/// What using a type in a signature requires.
pub(crate) fn type_requirement(t: &Ty) -> Requirement {
    use Requirement as R;
    match t {
        Ty::Scalar(Double) | Ty::Vector(Double, _) => R::ext(Extension::Fp64),
        Ty::Scalar(Half) | Ty::Vector(Half, _) => R::ext(Extension::Fp16),
        Ty::Pointer(p) => {
            let space = if p.space == Generic { R::since(Version::Cl20) } else { R::NONE };
            match &p.pointee {
                // Pointers to half are core: vload_half and vstore_half.
                Ty::Scalar(Half) => space,
                other => space.and(type_requirement(other)),
            }
        }
        Ty::Image(image, access) => {
            let msaa = R::ext(Extension::GlMsaaSharing).and(R::since(Version::Cl12));
            let depth = R::ext(Extension::DepthImages).and(R::since(Version::Cl12));
            let r = match image {
                Image::I2d | Image::I3d => R::NONE,
                Image::I1d | Image::I1dArray | Image::I1dBuffer | Image::I2dArray => R::since(Version::Cl12),
                Image::I2dDepth | Image::I2dArrayDepth => depth,
                Image::I2dMsaa | Image::I2dArrayMsaa => msaa,
                Image::I2dMsaaDepth | Image::I2dArrayMsaaDepth => msaa.and(depth),
            };
            if *access == Access::ReadWrite { r.and(R::since(Version::Cl20)) } else { r }
        }
        Ty::Atomic(s) => {
            let r = R::since(Version::Cl20);
            let int64 = R::ext(Extension::Int64BaseAtomics).and(R::ext(Extension::Int64ExtendedAtomics));
            match s {
                Some(Long | ULong | Size | PtrDiff) => r.and(int64),
                Some(Double) => r.and(int64).and(R::ext(Extension::Fp64)),
                _ => r,
            }
        }
        Ty::Pipe(_)
        | Ty::Queue
        | Ty::ClkEvent
        | Ty::ReserveId
        | Ty::NdRange
        | Ty::Block
        | Ty::MemoryOrder
        | Ty::MemoryScope => R::since(Version::Cl20),
        Ty::Void | Ty::Scalar(_) | Ty::Vector(..) | Ty::Sampler | Ty::Event | Ty::Named(_) => R::NONE,
    }
}

struct B {
    map: HashMap<&'static str, Vec<Overload>>,
    req: Requirement,
    attrs: Attrs,
}

impl B {
    fn add(&mut self, name: &str, ret: Ty, params: Vec<Ty>, lowering: Lowering) {
        self.push(name, ret, params, false, lowering);
    }

    fn add_variadic(&mut self, name: &str, ret: Ty, params: Vec<Ty>, lowering: Lowering) {
        self.push(name, ret, params, true, lowering);
    }

    /// An overload stored under `key` that is the function `name` (an
    /// OpenCL builtin that clang also has as `__builtin_<name>`).
    fn alias(&mut self, key: &str, name: &'static str, ret: Ty, params: Vec<Ty>, lowering: Lowering) {
        self.push(key, ret, params, false, lowering);
        if let Some(o) = self.map.get_mut(key).and_then(|v| v.last_mut()) {
            o.name = Cow::Borrowed(name);
        }
    }

    fn push(&mut self, name: &str, ret: Ty, params: Vec<Ty>, variadic: bool, lowering: Lowering) {
        let requirement =
            params.iter().chain([&ret]).fold(self.req, |r, t| r.and(type_requirement(t)));
        // One copy of each name, shared by its overloads and the map: the
        // table lives as long as the process (`functions::table`'s
        // `OnceLock`), so the copy is leaked rather than owned twice over
        // (the allocations were most of the table's build time, which every
        // compile that calls a builtin pays).
        let name: &'static str = match self.map.get_key_value(name) {
            Some((&k, _)) => k,
            None => Box::leak(name.into()),
        };
        let overload = Overload {
            name: Cow::Borrowed(name),
            params,
            ret,
            variadic,
            requirement,
            lowering,
            attrs: self.attrs,
        };
        self.map.entry(name).or_default().push(overload);
    }

    /// Runs `f` with `req` added to every overload's requirement and with
    /// `attrs` as the attributes.
    fn scoped(&mut self, req: Requirement, attrs: Attrs, f: impl FnOnce(&mut B)) {
        let saved = (self.req, self.attrs);
        self.req = self.req.and(req);
        self.attrs = attrs;
        f(self);
        (self.req, self.attrs) = saved;
    }
}

/// The groups of the table: the families of §6.13 one by one, but
/// integer and common functions together (both define `min`, `max` and
/// `clamp`), so that every name is in exactly one group. A compile builds
/// the groups of the names it looks up, not the whole table (the math and
/// vector-data families alone are half a millisecond each).
const FAMILIES: [&[fn(&mut B)]; 18] = [
    &[work_item],
    &[math],
    &[integer, common],
    &[geometric],
    &[relational],
    &[vector_data],
    &[synchronization],
    &[address_space],
    &[async_copies],
    &[legacy_atomics],
    &[c11_atomics],
    &[misc_vector],
    &[images],
    &[work_group],
    &[pipes],
    &[enqueue],
    &[sub_groups],
    &[clang],
];

/// The group of clang's `__builtin_*` functions.
pub(super) const CLANG_GROUP: usize = FAMILIES.len() - 1;

/// How many groups [`build_group`] builds.
pub(super) const GROUPS: usize = FAMILIES.len();

/// Group `group` (< [`GROUPS`]) of the table (see [`FAMILIES`]).
pub(super) fn build_group(group: usize) -> Table {
    let mut b = B { map: HashMap::default(), req: Requirement::NONE, attrs: EFFECTS };
    for family in FAMILIES[group] {
        family(&mut b);
    }
    Table { by_name: b.map }
}

fn since(v: Version) -> Requirement {
    Requirement::since(v)
}

/// §6.13.1
fn work_item(b: &mut B) {
    use WorkItemFn as W;
    b.scoped(Requirement::NONE, CONST, |b| {
        b.add("get_work_dim", Ty::UINT, vec![], Lowering::WorkItem(W::WorkDim));
        let dims = [
            ("get_global_size", W::GlobalSize, Version::Cl10),
            ("get_global_id", W::GlobalId, Version::Cl10),
            ("get_local_size", W::LocalSize, Version::Cl10),
            ("get_enqueued_local_size", W::EnqueuedLocalSize, Version::Cl20),
            ("get_local_id", W::LocalId, Version::Cl10),
            ("get_num_groups", W::NumGroups, Version::Cl10),
            ("get_group_id", W::GroupId, Version::Cl10),
            ("get_global_offset", W::GlobalOffset, Version::Cl11),
        ];
        for (name, f, v) in dims {
            b.scoped(since(v), CONST, |b| b.add(name, Ty::SIZE, vec![Ty::UINT], Lowering::WorkItem(f)));
        }
        b.scoped(since(Version::Cl20), CONST, |b| {
            b.add("get_global_linear_id", Ty::SIZE, vec![], Lowering::WorkItem(W::GlobalLinearId));
            b.add("get_local_linear_id", Ty::SIZE, vec![], Lowering::WorkItem(W::LocalLinearId));
        });
    });
}

/// §6.13.2
fn math(b: &mut B) {
    use OpenClStd as E;
    let unary = [
        E::Acos, E::Acosh, E::Acospi, E::Asin, E::Asinh, E::Asinpi, E::Atan, E::Atanh, E::Atanpi, E::Cbrt,
        E::Ceil, E::Cos, E::Cosh, E::Cospi, E::Erfc, E::Erf, E::Exp, E::Exp2, E::Exp10, E::Expm1, E::Fabs,
        E::Floor, E::Lgamma, E::Log, E::Log2, E::Log10, E::Log1p, E::Logb, E::Rint, E::Round, E::Rsqrt,
        E::Sin, E::Sinh, E::Sinpi, E::Sqrt, E::Tan, E::Tanh, E::Tanpi, E::Tgamma, E::Trunc,
    ];
    let binary = [
        E::Atan2, E::Atan2pi, E::Copysign, E::Fdim, E::Fmax, E::Fmin, E::Fmod, E::Hypot, E::Maxmag, E::Minmag,
        E::Nextafter, E::Pow, E::Powr, E::Remainder,
    ];
    for s in FLOATS {
        for n in WIDTHS {
            let g = Ty::vec(s, n);
            let intn = Ty::vec(Int, n);
            b.scoped(Requirement::NONE, CONST, |b| {
                for f in unary {
                    b.add(f.name(), g.clone(), vec![g.clone()], Lowering::Ext(f));
                }
                for f in binary {
                    b.add(f.name(), g.clone(), vec![g.clone(), g.clone()], Lowering::Ext(f));
                }
                if n > 1 {
                    for f in [E::Fmax, E::Fmin] {
                        b.add(f.name(), g.clone(), vec![g.clone(), Ty::Scalar(s)], Lowering::Ext(f));
                    }
                    b.add("ldexp", g.clone(), vec![g.clone(), Ty::INT], Lowering::Ext(E::Ldexp));
                }
                for f in [E::Fma, E::Mad] {
                    b.add(f.name(), g.clone(), vec![g.clone(), g.clone(), g.clone()], Lowering::Ext(f));
                }
                b.add("ilogb", intn.clone(), vec![g.clone()], Lowering::Ext(E::Ilogb));
                for f in [E::Ldexp, E::Pown, E::Rootn] {
                    b.add(f.name(), g.clone(), vec![g.clone(), intn.clone()], Lowering::Ext(f));
                }
                let nan_arg = Ty::vec(unsigned_of_size(s), n);
                b.add("nan", g.clone(), vec![nan_arg], Lowering::Ext(E::Nan));
            });
            // The functions that also return a value through a pointer.
            b.scoped(Requirement::NONE, EFFECTS, |b| {
                for sp in SPACES {
                    for f in [E::Fract, E::Modf, E::Sincos] {
                        b.add(f.name(), g.clone(), vec![g.clone(), Ty::ptr(g.clone(), sp)], Lowering::Ext(f));
                    }
                    for f in [E::Frexp, E::LgammaR] {
                        b.add(f.name(), g.clone(), vec![g.clone(), Ty::ptr(intn.clone(), sp)], Lowering::Ext(f));
                    }
                    let params = vec![g.clone(), g.clone(), Ty::ptr(intn.clone(), sp)];
                    b.add("remquo", g.clone(), params, Lowering::Ext(E::Remquo));
                }
            });
        }
    }
    // half_* and native_*: float only.
    let reduced_unary = [
        (E::HalfCos, E::NativeCos),
        (E::HalfExp, E::NativeExp),
        (E::HalfExp2, E::NativeExp2),
        (E::HalfExp10, E::NativeExp10),
        (E::HalfLog, E::NativeLog),
        (E::HalfLog2, E::NativeLog2),
        (E::HalfLog10, E::NativeLog10),
        (E::HalfRecip, E::NativeRecip),
        (E::HalfRsqrt, E::NativeRsqrt),
        (E::HalfSin, E::NativeSin),
        (E::HalfSqrt, E::NativeSqrt),
        (E::HalfTan, E::NativeTan),
    ];
    let reduced_binary = [(E::HalfDivide, E::NativeDivide), (E::HalfPowr, E::NativePowr)];
    b.scoped(Requirement::NONE, CONST, |b| {
        for n in WIDTHS {
            let g = Ty::vec(Float, n);
            for (h, nat) in reduced_unary {
                for f in [h, nat] {
                    b.add(f.name(), g.clone(), vec![g.clone()], Lowering::Ext(f));
                }
            }
            for (h, nat) in reduced_binary {
                for f in [h, nat] {
                    b.add(f.name(), g.clone(), vec![g.clone(), g.clone()], Lowering::Ext(f));
                }
            }
        }
    });
}

/// §6.13.3
fn integer(b: &mut B) {
    use OpenClStd as E;
    let pick = |s: Scalar, signed: E, unsigned: E| if is_signed(s) { signed } else { unsigned };
    b.scoped(Requirement::NONE, CONST, |b| {
        for s in INTS {
            for n in WIDTHS {
                let g = Ty::vec(s, n);
                let u = Ty::vec(unsigned_of_size(s), n);
                let sg = Ty::Scalar(s);
                b.add("abs", u.clone(), vec![g.clone()], Lowering::Ext(pick(s, E::SAbs, E::UAbs)));
                let diff = Lowering::Ext(pick(s, E::SAbsDiff, E::UAbsDiff));
                b.add("abs_diff", u.clone(), vec![g.clone(), g.clone()], diff);
                let binary = [
                    ("add_sat", pick(s, E::SAddSat, E::UAddSat)),
                    ("hadd", pick(s, E::SHadd, E::UHadd)),
                    ("rhadd", pick(s, E::SRhadd, E::URhadd)),
                    ("max", pick(s, E::SMax, E::UMax)),
                    ("min", pick(s, E::SMin, E::UMin)),
                    ("mul_hi", pick(s, E::SMulHi, E::UMulHi)),
                    ("rotate", E::Rotate),
                    ("sub_sat", pick(s, E::SSubSat, E::USubSat)),
                ];
                for (name, f) in binary {
                    b.add(name, g.clone(), vec![g.clone(), g.clone()], Lowering::Ext(f));
                }
                let ternary = [
                    ("clamp", pick(s, E::SClamp, E::UClamp)),
                    ("mad_hi", pick(s, E::SMadHi, E::UMadHi)),
                    ("mad_sat", pick(s, E::SMadSat, E::UMadSat)),
                ];
                for (name, f) in ternary {
                    b.add(name, g.clone(), vec![g.clone(), g.clone(), g.clone()], Lowering::Ext(f));
                }
                if n > 1 {
                    let clamp = Lowering::Ext(pick(s, E::SClamp, E::UClamp));
                    b.add("clamp", g.clone(), vec![g.clone(), sg.clone(), sg.clone()], clamp);
                    for (name, f) in [("max", pick(s, E::SMax, E::UMax)), ("min", pick(s, E::SMin, E::UMin))] {
                        b.add(name, g.clone(), vec![g.clone(), sg.clone()], Lowering::Ext(f));
                    }
                }
                b.add("clz", g.clone(), vec![g.clone()], Lowering::Ext(E::Clz));
                b.scoped(since(Version::Cl12), CONST, |b| {
                    b.add("popcount", g.clone(), vec![g.clone()], Lowering::Ext(E::Popcount));
                });
                b.scoped(since(Version::Cl20), CONST, |b| {
                    b.add("ctz", g.clone(), vec![g.clone()], Lowering::Ext(E::Ctz));
                });
                if matches!(s, Int | UInt) {
                    let mad24 = Lowering::Ext(pick(s, E::SMad24, E::UMad24));
                    b.add("mad24", g.clone(), vec![g.clone(), g.clone(), g.clone()], mad24);
                    let mul24 = Lowering::Ext(pick(s, E::SMul24, E::UMul24));
                    b.add("mul24", g.clone(), vec![g.clone(), g.clone()], mul24);
                }
            }
        }
        let upsample = [(Char, Short), (UChar, UShort), (Short, Int), (UShort, UInt), (Int, Long), (UInt, ULong)];
        for (narrow, wide) in upsample {
            for n in WIDTHS {
                let f = if is_signed(narrow) { E::SUpsample } else { E::UUpsample };
                let params = vec![Ty::vec(narrow, n), Ty::vec(unsigned_of_size(narrow), n)];
                b.add("upsample", Ty::vec(wide, n), params, Lowering::Ext(f));
            }
        }
    });
}

/// §6.13.4
fn common(b: &mut B) {
    use OpenClStd as E;
    b.scoped(Requirement::NONE, CONST, |b| {
        for s in FLOATS {
            for n in WIDTHS {
                let g = Ty::vec(s, n);
                let sg = Ty::Scalar(s);
                let g3 = vec![g.clone(), g.clone(), g.clone()];
                b.add("clamp", g.clone(), g3.clone(), Lowering::Ext(E::Fclamp));
                b.add("mix", g.clone(), g3.clone(), Lowering::Ext(E::Mix));
                b.add("smoothstep", g.clone(), g3, Lowering::Ext(E::Smoothstep));
                for (name, f) in [("degrees", E::Degrees), ("radians", E::Radians), ("sign", E::Sign)] {
                    b.add(name, g.clone(), vec![g.clone()], Lowering::Ext(f));
                }
                for (name, f) in [("max", E::FmaxCommon), ("min", E::FminCommon), ("step", E::Step)] {
                    b.add(name, g.clone(), vec![g.clone(), g.clone()], Lowering::Ext(f));
                }
                if n > 1 {
                    b.add("clamp", g.clone(), vec![g.clone(), sg.clone(), sg.clone()], Lowering::Ext(E::Fclamp));
                    b.add("mix", g.clone(), vec![g.clone(), g.clone(), sg.clone()], Lowering::Ext(E::Mix));
                    b.add("max", g.clone(), vec![g.clone(), sg.clone()], Lowering::Ext(E::FmaxCommon));
                    b.add("min", g.clone(), vec![g.clone(), sg.clone()], Lowering::Ext(E::FminCommon));
                    b.add("step", g.clone(), vec![sg.clone(), g.clone()], Lowering::Ext(E::Step));
                    let params = vec![sg.clone(), sg.clone(), g.clone()];
                    b.add("smoothstep", g.clone(), params, Lowering::Ext(E::Smoothstep));
                }
            }
        }
    });
}

/// §6.13.5: widths 1 to 4 only.
fn geometric(b: &mut B) {
    use OpenClStd as E;
    b.scoped(Requirement::NONE, CONST, |b| {
        for s in FLOATS {
            for n in [1, 2, 3, 4] {
                let g = Ty::vec(s, n);
                let sg = Ty::Scalar(s);
                b.add("dot", sg.clone(), vec![g.clone(), g.clone()], Lowering::Dot);
                b.add("distance", sg.clone(), vec![g.clone(), g.clone()], Lowering::Ext(E::Distance));
                b.add("length", sg.clone(), vec![g.clone()], Lowering::Ext(E::Length));
                b.add("normalize", g.clone(), vec![g.clone()], Lowering::Ext(E::Normalize));
                if s == Float {
                    let fd = Lowering::Ext(E::FastDistance);
                    b.add("fast_distance", sg.clone(), vec![g.clone(), g.clone()], fd);
                    b.add("fast_length", sg.clone(), vec![g.clone()], Lowering::Ext(E::FastLength));
                    b.add("fast_normalize", g.clone(), vec![g.clone()], Lowering::Ext(E::FastNormalize));
                }
                if n >= 3 {
                    b.add("cross", g.clone(), vec![g.clone(), g.clone()], Lowering::Ext(E::Cross));
                }
            }
        }
    });
}

/// §6.13.6's comparisons of two floating-point values.
const RELATIONAL_BINARY: [(&str, RelOp); 9] = [
    ("isequal", RelOp::IsEqual),
    ("isnotequal", RelOp::IsNotEqual),
    ("isgreater", RelOp::IsGreater),
    ("isgreaterequal", RelOp::IsGreaterEqual),
    ("isless", RelOp::IsLess),
    ("islessequal", RelOp::IsLessEqual),
    ("islessgreater", RelOp::IsLessGreater),
    ("isordered", RelOp::IsOrdered),
    ("isunordered", RelOp::IsUnordered),
];

/// §6.13.6's classifications of one floating-point value.
const RELATIONAL_UNARY: [(&str, RelOp); 5] = [
    ("isfinite", RelOp::IsFinite),
    ("isinf", RelOp::IsInf),
    ("isnan", RelOp::IsNan),
    ("isnormal", RelOp::IsNormal),
    ("signbit", RelOp::SignBit),
];

/// §6.13.6: scalar results are `int`, vector results the signed integer
/// vector with the argument's width and element size.
fn relational(b: &mut B) {
    use RelOp as R;
    let (binary, unary) = (RELATIONAL_BINARY, RELATIONAL_UNARY);
    b.scoped(Requirement::NONE, CONST, |b| {
        for s in FLOATS {
            for n in WIDTHS {
                let g = Ty::vec(s, n);
                let r = if n == 1 { Ty::INT } else { Ty::Vector(signed_of_size(s), n) };
                for (name, op) in binary {
                    b.add(name, r.clone(), vec![g.clone(), g.clone()], Lowering::Relational(op));
                }
                for (name, op) in unary {
                    b.add(name, r.clone(), vec![g.clone()], Lowering::Relational(op));
                }
            }
        }
        for s in [Char, Short, Int, Long] {
            for n in WIDTHS {
                b.add("any", Ty::INT, vec![Ty::vec(s, n)], Lowering::Relational(R::Any));
                b.add("all", Ty::INT, vec![Ty::vec(s, n)], Lowering::Relational(R::All));
            }
        }
        for s in ELEMS {
            for n in WIDTHS {
                let g = Ty::vec(s, n);
                let g3 = vec![g.clone(), g.clone(), g.clone()];
                b.add("bitselect", g.clone(), g3, Lowering::Ext(OpenClStd::Bitselect));
                for c in [signed_of_size(s), unsigned_of_size(s)] {
                    let params = vec![g.clone(), g.clone(), Ty::vec(c, n)];
                    b.add("select", g.clone(), params, Lowering::Ext(OpenClStd::Select));
                }
            }
        }
    });
}

/// §6.13.7
fn vector_data(b: &mut B) {
    for s in ELEMS {
        for n in VECTOR_WIDTHS {
            let load = Lowering::VLoad { n, half: false, aligned: false };
            b.scoped(Requirement::NONE, PURE, |b| {
                for sp in LOAD_SPACES {
                    b.add(&format!("vload{n}"), Ty::vec(s, n), vec![Ty::SIZE, Ty::const_ptr(Ty::Scalar(s), sp)], load);
                }
            });
            let store = Lowering::VStore { n, half: false, aligned: false, rounding: None };
            b.scoped(Requirement::NONE, EFFECTS, |b| {
                for sp in SPACES {
                    let params = vec![Ty::vec(s, n), Ty::SIZE, Ty::ptr(Ty::Scalar(s), sp)];
                    b.add(&format!("vstore{n}"), Ty::VOID, params, store);
                }
            });
        }
    }
    let half = Ty::Scalar(Half);
    // vload_half, vload_half<n>, vloada_half<n>.
    b.scoped(Requirement::NONE, PURE, |b| {
        for n in WIDTHS {
            let suffix = if n == 1 { String::new() } else { n.to_string() };
            for sp in LOAD_SPACES {
                let params = vec![Ty::SIZE, Ty::const_ptr(half.clone(), sp)];
                let lowering = Lowering::VLoad { n, half: true, aligned: false };
                b.add(&format!("vload_half{suffix}"), Ty::vec(Float, n), params.clone(), lowering);
                if n > 1 {
                    let lowering = Lowering::VLoad { n, half: true, aligned: true };
                    b.add(&format!("vloada_half{suffix}"), Ty::vec(Float, n), params, lowering);
                }
            }
        }
    });
    // vstore_half[<n>][_<rounding>], vstorea_half<n>[_<rounding>], from
    // float and (with cl_khr_fp64) double.
    let roundings = [None, Some(Rounding::Rte), Some(Rounding::Rtz), Some(Rounding::Rtp), Some(Rounding::Rtn)];
    b.scoped(Requirement::NONE, EFFECTS, |b| {
        for data in [Float, Double] {
            for n in WIDTHS {
                let suffix = if n == 1 { String::new() } else { n.to_string() };
                for rounding in roundings {
                    let r = rounding.map_or(String::new(), |r| format!("_{}", r.suffix()));
                    for sp in SPACES {
                        let params = vec![Ty::vec(data, n), Ty::SIZE, Ty::ptr(half.clone(), sp)];
                        let lowering = Lowering::VStore { n, half: true, aligned: false, rounding };
                        b.add(&format!("vstore_half{suffix}{r}"), Ty::VOID, params.clone(), lowering);
                        if n > 1 {
                            let lowering = Lowering::VStore { n, half: true, aligned: true, rounding };
                            b.add(&format!("vstorea_half{suffix}{r}"), Ty::VOID, params, lowering);
                        }
                    }
                }
            }
        }
    });
}

/// §6.13.8: `cl_mem_fence_flags` is `uint`.
fn synchronization(b: &mut B) {
    let flags = Ty::UINT;
    b.scoped(Requirement::NONE, CONVERGENT, |b| {
        b.add("barrier", Ty::VOID, vec![flags.clone()], Lowering::Barrier(Group::WorkGroup));
        b.scoped(since(Version::Cl20), CONVERGENT, |b| {
            b.add("work_group_barrier", Ty::VOID, vec![flags.clone()], Lowering::Barrier(Group::WorkGroup));
            let params = vec![flags.clone(), Ty::MemoryScope];
            b.add("work_group_barrier", Ty::VOID, params, Lowering::Barrier(Group::WorkGroup));
        });
    });
    b.scoped(Requirement::NONE, EFFECTS, |b| {
        b.add("mem_fence", Ty::VOID, vec![flags.clone()], Lowering::Fence(FenceKind::ReadWrite));
        b.add("read_mem_fence", Ty::VOID, vec![flags.clone()], Lowering::Fence(FenceKind::Read));
        b.add("write_mem_fence", Ty::VOID, vec![flags.clone()], Lowering::Fence(FenceKind::Write));
        let params = vec![flags.clone(), Ty::MemoryOrder, Ty::MemoryScope];
        b.add("atomic_work_item_fence", Ty::VOID, params, Lowering::Fence(FenceKind::AtomicWorkItem));
    });
}

/// §6.13.9: `to_global` and friends take any generic pointer and return a
/// pointer to the same type ([`Special::KeepPointee`]).
fn address_space(b: &mut B) {
    b.scoped(since(Version::Cl20), special(CONST, Special::KeepPointee), |b| {
        for (name, sp) in [("to_global", Global), ("to_local", Local), ("to_private", Private)] {
            b.add(name, Ty::ptr(Ty::Void, sp), vec![Ty::ptr(Ty::Void, Generic)], Lowering::AddrSpaceCast(sp));
            let params = vec![Ty::const_ptr(Ty::Void, Generic)];
            b.add(name, Ty::const_ptr(Ty::Void, sp), params, Lowering::AddrSpaceCast(sp));
        }
    });
    b.scoped(since(Version::Cl20), CONST, |b| {
        b.add("get_fence", Ty::UINT, vec![Ty::const_ptr(Ty::Void, Generic)], Lowering::GetFence);
    });
}

/// §6.13.10
fn async_copies(b: &mut B) {
    b.scoped(Requirement::NONE, CONVERGENT, |b| {
        for s in ELEMS {
            for n in WIDTHS {
                let g = Ty::vec(s, n);
                for (dst, src) in [(Local, Global), (Global, Local)] {
                    let params = vec![Ty::ptr(g.clone(), dst), Ty::const_ptr(g.clone(), src), Ty::SIZE, Ty::Event];
                    b.add("async_work_group_copy", Ty::Event, params, Lowering::AsyncCopy { strided: false });
                    let params =
                        vec![Ty::ptr(g.clone(), dst), Ty::const_ptr(g.clone(), src), Ty::SIZE, Ty::SIZE, Ty::Event];
                    b.add("async_work_group_strided_copy", Ty::Event, params, Lowering::AsyncCopy { strided: true });
                }
            }
        }
        for sp in [Private, Generic] {
            let params = vec![Ty::INT, Ty::ptr(Ty::Event, sp)];
            b.add("wait_group_events", Ty::VOID, params, Lowering::WaitGroupEvents);
        }
    });
    b.scoped(Requirement::NONE, EFFECTS, |b| {
        for s in ELEMS {
            for n in WIDTHS {
                let params = vec![Ty::const_ptr(Ty::vec(s, n), Global), Ty::SIZE];
                b.add("prefetch", Ty::VOID, params, Lowering::Prefetch);
            }
        }
    });
}

/// §6.13.11 of OpenCL C 1.x (kept in 2.0): `atomic_*` on 32-bit values
/// (core since 1.1) and `atom_*` (extensions, 64-bit too).
fn legacy_atomics(b: &mut B) {
    use AtomicOp as A;
    use Extension as X;
    // (name, op, arity counting the pointer, is a base (not extended) op)
    let ops = [
        ("add", Some(A::Add), 2, true),
        ("sub", Some(A::Sub), 2, true),
        ("xchg", Some(A::Xchg), 2, true),
        ("inc", Some(A::Inc), 1, true),
        ("dec", Some(A::Dec), 1, true),
        ("cmpxchg", None, 3, true),
        ("min", Some(A::Min), 2, false),
        ("max", Some(A::Max), 2, false),
        ("and", Some(A::And), 2, false),
        ("or", Some(A::Or), 2, false),
        ("xor", Some(A::Xor), 2, false),
    ];
    let one = |b: &mut B, name: &str, s: Scalar, sp: AddrSpace, op: Option<AtomicOp>, arity: usize| {
        let v = Ty::Scalar(s);
        let mut params = vec![Ty::volatile_ptr(v.clone(), sp)];
        params.extend(std::iter::repeat_n(v.clone(), arity - 1));
        let lowering = op.map_or(Lowering::AtomicCmpxchgOld, Lowering::AtomicRmw);
        b.add(name, v, params, lowering);
    };
    for (op_name, op, arity, base) in ops {
        for sp in [Global, Local] {
            b.scoped(since(Version::Cl11), EFFECTS, |b| {
                for s in [Int, UInt] {
                    one(b, &format!("atomic_{op_name}"), s, sp, op, arity);
                }
                if op_name == "xchg" {
                    one(b, "atomic_xchg", Float, sp, op, arity);
                }
            });
            let ext = match (sp, base) {
                (Global, true) => X::GlobalInt32BaseAtomics,
                (Global, false) => X::GlobalInt32ExtendedAtomics,
                (_, true) => X::LocalInt32BaseAtomics,
                (_, false) => X::LocalInt32ExtendedAtomics,
            };
            b.scoped(Requirement::ext(ext), EFFECTS, |b| {
                for s in [Int, UInt] {
                    one(b, &format!("atom_{op_name}"), s, sp, op, arity);
                }
            });
            let ext64 = if base { X::Int64BaseAtomics } else { X::Int64ExtendedAtomics };
            b.scoped(Requirement::ext(ext64), EFFECTS, |b| {
                for s in [Long, ULong] {
                    one(b, &format!("atom_{op_name}"), s, sp, op, arity);
                }
            });
        }
    }
}

/// §6.13.11 of OpenCL C 2.0: the C11-style atomics on `volatile __generic`
/// pointers to atomic types.
///
/// `atomic_size_t`, `atomic_intptr_t` etc. are the 64-bit atomic types on
/// our target, so their overloads would duplicate the `atomic_long`/
/// `atomic_ulong` ones and are not listed; clang's extra
/// `atomic_fetch_add(atomic_uintptr_t*, ptrdiff_t)` is left out because it
/// makes `atomic_fetch_add(&ulong_atomic, 1)` ambiguous.
fn c11_atomics(b: &mut B) {
    use AtomicOp as A;
    let obj = |s: Option<Scalar>| Ty::volatile_ptr(Ty::Atomic(s), Generic);
    // Each function in three forms: implicit, `_explicit` with order,
    // `_explicit` with order and scope.
    let explicit = |b: &mut B, name: &str, ret: Ty, params: Vec<Ty>, orders: usize, lowering: Lowering| {
        b.add(name, ret.clone(), params.clone(), lowering);
        let mut with_order = params;
        with_order.extend(std::iter::repeat_n(Ty::MemoryOrder, orders));
        let name = format!("{name}_explicit");
        b.add(&name, ret.clone(), with_order.clone(), lowering);
        with_order.push(Ty::MemoryScope);
        b.add(&name, ret, with_order, lowering);
    };
    b.scoped(since(Version::Cl20), EFFECTS, |b| {
        for s in [Int, UInt, Long, ULong, Float, Double] {
            let c = Ty::Scalar(s);
            b.add("atomic_init", Ty::VOID, vec![obj(Some(s)), c.clone()], Lowering::AtomicInit);
            explicit(b, "atomic_store", Ty::VOID, vec![obj(Some(s)), c.clone()], 1, Lowering::AtomicStore);
            explicit(b, "atomic_load", c.clone(), vec![obj(Some(s))], 1, Lowering::AtomicLoad);
            let xchg = Lowering::AtomicRmw(A::Xchg);
            explicit(b, "atomic_exchange", c.clone(), vec![obj(Some(s)), c.clone()], 1, xchg);
            for (name, weak) in [("atomic_compare_exchange_strong", false), ("atomic_compare_exchange_weak", true)] {
                let params = vec![obj(Some(s)), Ty::ptr(c.clone(), Generic), c.clone()];
                explicit(b, name, Ty::BOOL, params, 2, Lowering::AtomicCompareExchange { weak });
            }
        }
        let fetch = [
            ("add", A::Add),
            ("sub", A::Sub),
            ("or", A::Or),
            ("xor", A::Xor),
            ("and", A::And),
            ("min", A::Min),
            ("max", A::Max),
        ];
        for s in [Int, UInt, Long, ULong] {
            let c = Ty::Scalar(s);
            for (op_name, op) in fetch {
                let name = format!("atomic_fetch_{op_name}");
                explicit(b, &name, c.clone(), vec![obj(Some(s)), c.clone()], 1, Lowering::AtomicRmw(op));
            }
        }
        explicit(b, "atomic_flag_test_and_set", Ty::BOOL, vec![obj(None)], 1, Lowering::AtomicFlagTestAndSet);
        explicit(b, "atomic_flag_clear", Ty::VOID, vec![obj(None)], 1, Lowering::AtomicFlagClear);
    });
}

/// §6.13.12 `shuffle`, §6.13.13 `printf`, and the `vec_step` operator.
fn misc_vector(b: &mut B) {
    b.scoped(Requirement::NONE, CONST, |b| {
        for s in ELEMS {
            for m in [2, 4, 8, 16] {
                for n in [2, 4, 8, 16] {
                    let mask = Ty::Vector(unsigned_of_size(s), n);
                    let x = Ty::Vector(s, m);
                    b.add("shuffle", Ty::Vector(s, n), vec![x.clone(), mask.clone()], Lowering::Shuffle);
                    b.add("shuffle2", Ty::Vector(s, n), vec![x.clone(), x, mask], Lowering::Shuffle2);
                }
            }
        }
    });
    b.scoped(since(Version::Cl12), special(EFFECTS, Special::FormatLiteral), |b| {
        b.add_variadic("printf", Ty::INT, vec![Ty::const_ptr(Ty::Scalar(Char), Constant)], Lowering::Printf);
    });
    b.scoped(Requirement::NONE, special(CONST, Special::Operator), |b| {
        for s in ELEMS {
            for n in WIDTHS {
                b.add("vec_step", Ty::INT, vec![Ty::vec(s, n)], Lowering::VecStep);
            }
        }
    });
}

/// How an image type is addressed.
struct ImageShape {
    /// Width of the integer/float coordinate.
    coord: u8,
    depth: bool,
    msaa: bool,
}

fn image_shape(image: Image) -> ImageShape {
    use Image as I;
    let (coord, depth, msaa) = match image {
        I::I1d | I::I1dBuffer => (1, false, false),
        I::I1dArray | I::I2d => (2, false, false),
        I::I2dArray | I::I3d => (4, false, false),
        I::I2dDepth => (2, true, false),
        I::I2dArrayDepth => (4, true, false),
        I::I2dMsaa => (2, false, true),
        I::I2dArrayMsaa => (4, false, true),
        I::I2dMsaaDepth => (2, true, true),
        I::I2dArrayMsaaDepth => (4, true, true),
    };
    ImageShape { coord, depth, msaa }
}

/// §6.13.14
fn images(b: &mut B) {
    use Image as I;
    let reads = [("read_imagef", Float), ("read_imagei", Int), ("read_imageui", UInt), ("read_imageh", Half)];
    let writes = [("write_imagef", Float), ("write_imagei", Int), ("write_imageui", UInt), ("write_imageh", Half)];
    for image in Image::ALL {
        let sh = image_shape(image);
        let icoord = Ty::vec(Int, sh.coord);
        let fcoord = Ty::vec(Float, sh.coord);
        for (name, elem) in reads {
            if sh.depth && elem != Float {
                continue;
            }
            let ret = if sh.depth { Ty::Scalar(elem) } else { Ty::Vector(elem, 4) };
            // With a sampler: not for buffers and multi-sample images.
            if image != I::I1dBuffer && !sh.msaa {
                b.scoped(Requirement::NONE, PURE, |b| {
                    let img = Ty::Image(image, Access::ReadOnly);
                    for coord in [&icoord, &fcoord] {
                        let params = vec![img.clone(), Ty::Sampler, coord.clone()];
                        b.add(name, ret.clone(), params, Lowering::Image(ImageOp::Read { sampled: true }));
                    }
                });
            }
            // Without a sampler (1.2+), also from read_write images (2.0).
            b.scoped(since(Version::Cl12), PURE, |b| {
                for access in [Access::ReadOnly, Access::ReadWrite] {
                    let mut params = vec![Ty::Image(image, access), icoord.clone()];
                    if sh.msaa {
                        params.push(Ty::INT);
                    }
                    b.add(name, ret.clone(), params, Lowering::Image(ImageOp::Read { sampled: false }));
                }
            });
        }
        if !sh.msaa {
            let extra = if image == I::I3d { Requirement::ext(Extension::ImageWrites3d) } else { Requirement::NONE };
            b.scoped(extra, EFFECTS, |b| {
                for (name, elem) in writes {
                    if sh.depth && elem != Float {
                        continue;
                    }
                    let color = if sh.depth { Ty::Scalar(elem) } else { Ty::Vector(elem, 4) };
                    for access in [Access::WriteOnly, Access::ReadWrite] {
                        let params = vec![Ty::Image(image, access), icoord.clone(), color.clone()];
                        b.add(name, Ty::VOID, params, Lowering::Image(ImageOp::Write));
                    }
                }
            });
        }
        b.scoped(Requirement::NONE, CONST, |b| {
            for access in [Access::ReadOnly, Access::WriteOnly, Access::ReadWrite] {
                let img = vec![Ty::Image(image, access)];
                let query = |b: &mut B, name: &str, ret: Ty, op: ImageOp| b.add(name, ret, img.clone(), Lowering::Image(op));
                query(b, "get_image_width", Ty::INT, ImageOp::Width);
                if sh.coord > 1 && image != I::I1dArray {
                    query(b, "get_image_height", Ty::INT, ImageOp::Height);
                    let dim = if image == I::I3d { Ty::Vector(Int, 4) } else { Ty::Vector(Int, 2) };
                    query(b, "get_image_dim", dim, ImageOp::Dim);
                }
                if image == I::I3d {
                    query(b, "get_image_depth", Ty::INT, ImageOp::Depth);
                }
                b.scoped(since(Version::Cl11), CONST, |b| {
                    query(b, "get_image_channel_data_type", Ty::INT, ImageOp::ChannelDataType);
                    query(b, "get_image_channel_order", Ty::INT, ImageOp::ChannelOrder);
                });
                if matches!(image, I::I1dArray | I::I2dArray | I::I2dArrayDepth | I::I2dArrayMsaa | I::I2dArrayMsaaDepth) {
                    query(b, "get_image_array_size", Ty::SIZE, ImageOp::ArraySize);
                }
                if sh.msaa {
                    query(b, "get_image_num_samples", Ty::INT, ImageOp::NumSamples);
                }
            }
        });
    }
}

/// The element types of work-group and sub-group collectives.
const GROUP_ELEMS: [Scalar; 7] = [Int, UInt, Long, ULong, Float, Double, Half];

fn collectives(b: &mut B, prefix: &str, index: Ty, dims: &[usize], wrap: fn(GroupOp) -> Lowering) {
    b.add(&format!("{prefix}_all"), Ty::INT, vec![Ty::INT], wrap(GroupOp::All));
    b.add(&format!("{prefix}_any"), Ty::INT, vec![Ty::INT], wrap(GroupOp::Any));
    for s in GROUP_ELEMS {
        let v = Ty::Scalar(s);
        for &d in dims {
            let mut params = vec![v.clone()];
            params.extend(std::iter::repeat_n(index.clone(), d));
            b.add(&format!("{prefix}_broadcast"), v.clone(), params, wrap(GroupOp::Broadcast));
        }
        for (op_name, op) in [("add", ArithOp::Add), ("min", ArithOp::Min), ("max", ArithOp::Max)] {
            let forms = [
                ("reduce", GroupOp::Reduce(op)),
                ("scan_inclusive", GroupOp::ScanInclusive(op)),
                ("scan_exclusive", GroupOp::ScanExclusive(op)),
            ];
            for (form, gop) in forms {
                b.add(&format!("{prefix}_{form}_{op_name}"), v.clone(), vec![v.clone()], wrap(gop));
            }
        }
    }
}

/// §6.13.15
fn work_group(b: &mut B) {
    b.scoped(since(Version::Cl20), CONVERGENT, |b| {
        collectives(b, "work_group", Ty::SIZE, &[1, 2, 3], Lowering::WorkGroup);
    });
}

/// §6.13.16: the packet type is checked by sema ([`Special::PipePacket`]).
fn pipes(b: &mut B) {
    let ro = Ty::Pipe(Access::ReadOnly);
    let wo = Ty::Pipe(Access::WriteOnly);
    let packet = Ty::ptr(Ty::Void, Generic);
    let const_packet = Ty::const_ptr(Ty::Void, Generic);
    b.scoped(since(Version::Cl20), special(EFFECTS, Special::PipePacket), |b| {
        let read = |reserved| Lowering::Pipe(PipeOp::Read { reserved });
        let write = |reserved| Lowering::Pipe(PipeOp::Write { reserved });
        b.add("read_pipe", Ty::INT, vec![ro.clone(), packet.clone()], read(false));
        b.add("read_pipe", Ty::INT, vec![ro.clone(), Ty::ReserveId, Ty::UINT, packet.clone()], read(true));
        b.add("write_pipe", Ty::INT, vec![wo.clone(), const_packet.clone()], write(false));
        b.add("write_pipe", Ty::INT, vec![wo.clone(), Ty::ReserveId, Ty::UINT, const_packet.clone()], write(true));
    });
    b.scoped(since(Version::Cl20), EFFECTS, |b| {
        b.add("reserve_read_pipe", Ty::ReserveId, vec![ro.clone(), Ty::UINT], Lowering::Pipe(PipeOp::ReserveRead));
        b.add("reserve_write_pipe", Ty::ReserveId, vec![wo.clone(), Ty::UINT], Lowering::Pipe(PipeOp::ReserveWrite));
        b.add("commit_read_pipe", Ty::VOID, vec![ro.clone(), Ty::ReserveId], Lowering::Pipe(PipeOp::CommitRead));
        b.add("commit_write_pipe", Ty::VOID, vec![wo.clone(), Ty::ReserveId], Lowering::Pipe(PipeOp::CommitWrite));
    });
    b.scoped(since(Version::Cl20), CONST, |b| {
        b.add("is_valid_reserve_id", Ty::BOOL, vec![Ty::ReserveId], Lowering::Pipe(PipeOp::IsValidReserveId));
        for p in [&ro, &wo] {
            b.add("get_pipe_num_packets", Ty::UINT, vec![p.clone()], Lowering::Pipe(PipeOp::NumPackets));
            b.add("get_pipe_max_packets", Ty::UINT, vec![p.clone()], Lowering::Pipe(PipeOp::MaxPackets));
        }
    });
    b.scoped(since(Version::Cl20), CONVERGENT, |b| group_pipes(b, "work_group", Lowering::WorkGroup));
}

fn group_pipes(b: &mut B, prefix: &str, wrap: fn(GroupOp) -> Lowering) {
    let ro = Ty::Pipe(Access::ReadOnly);
    let wo = Ty::Pipe(Access::WriteOnly);
    b.add(&format!("{prefix}_reserve_read_pipe"), Ty::ReserveId, vec![ro.clone(), Ty::UINT], wrap(GroupOp::ReserveReadPipe));
    b.add(&format!("{prefix}_reserve_write_pipe"), Ty::ReserveId, vec![wo.clone(), Ty::UINT], wrap(GroupOp::ReserveWritePipe));
    b.add(&format!("{prefix}_commit_read_pipe"), Ty::VOID, vec![ro, Ty::ReserveId], wrap(GroupOp::CommitReadPipe));
    b.add(&format!("{prefix}_commit_write_pipe"), Ty::VOID, vec![wo, Ty::ReserveId], wrap(GroupOp::CommitWritePipe));
}

/// §6.13.17: `kernel_enqueue_flags_t` and `clk_profiling_info` are `int`.
fn enqueue(b: &mut B) {
    use EnqueueOp as Q;
    let wait_list = Ty::const_ptr(Ty::ClkEvent, Generic);
    let ret_event = Ty::ptr(Ty::ClkEvent, Generic);
    b.scoped(since(Version::Cl20), special(EFFECTS, Special::Block), |b| {
        let head = vec![Ty::Queue, Ty::INT, Ty::NdRange];
        let mut events = head.clone();
        events.extend([Ty::UINT, wait_list.clone(), ret_event.clone()]);
        let kernel = |events, local_sizes| Lowering::Enqueue(Q::Kernel { events, local_sizes });
        let with = |mut v: Vec<Ty>, more: &[Ty]| {
            v.extend_from_slice(more);
            v
        };
        b.add("enqueue_kernel", Ty::INT, with(head.clone(), &[Ty::Block]), kernel(false, false));
        b.add("enqueue_kernel", Ty::INT, with(events.clone(), &[Ty::Block]), kernel(true, false));
        b.add_variadic("enqueue_kernel", Ty::INT, with(head, &[Ty::Block, Ty::UINT]), kernel(false, true));
        b.add_variadic("enqueue_kernel", Ty::INT, with(events, &[Ty::Block, Ty::UINT]), kernel(true, true));
        let wgs = Lowering::Enqueue(Q::WorkGroupSize);
        b.add("get_kernel_work_group_size", Ty::UINT, vec![Ty::Block], wgs);
        let multiple = Lowering::Enqueue(Q::PreferredWorkGroupSizeMultiple);
        b.add("get_kernel_preferred_work_group_size_multiple", Ty::UINT, vec![Ty::Block], multiple);
    });
    b.scoped(since(Version::Cl20).and(Requirement::ext(Extension::Subgroups)), special(EFFECTS, Special::Block), |b| {
        let count = Lowering::Enqueue(Q::SubGroupCountForNdRange);
        b.add("get_kernel_sub_group_count_for_ndrange", Ty::UINT, vec![Ty::NdRange, Ty::Block], count);
        let max = Lowering::Enqueue(Q::MaxSubGroupSizeForNdRange);
        b.add("get_kernel_max_sub_group_size_for_ndrange", Ty::UINT, vec![Ty::NdRange, Ty::Block], max);
    });
    b.scoped(since(Version::Cl20), EFFECTS, |b| {
        let params = vec![Ty::Queue, Ty::UINT, wait_list.clone(), ret_event.clone()];
        b.add("enqueue_marker", Ty::INT, params, Lowering::Enqueue(Q::Marker));
        b.add("retain_event", Ty::VOID, vec![Ty::ClkEvent], Lowering::Enqueue(Q::RetainEvent));
        b.add("release_event", Ty::VOID, vec![Ty::ClkEvent], Lowering::Enqueue(Q::ReleaseEvent));
        b.add("create_user_event", Ty::ClkEvent, vec![], Lowering::Enqueue(Q::CreateUserEvent));
        b.add("is_valid_event", Ty::BOOL, vec![Ty::ClkEvent], Lowering::Enqueue(Q::IsValidEvent));
        let status = Lowering::Enqueue(Q::SetUserEventStatus);
        b.add("set_user_event_status", Ty::VOID, vec![Ty::ClkEvent, Ty::INT], status);
        let params = vec![Ty::ClkEvent, Ty::INT, Ty::ptr(Ty::Void, Global)];
        b.add("capture_event_profiling_info", Ty::VOID, params, Lowering::Enqueue(Q::CaptureEventProfilingInfo));
        b.add("get_default_queue", Ty::Queue, vec![], Lowering::Enqueue(Q::GetDefaultQueue));
    });
    b.scoped(since(Version::Cl20), CONST, |b| {
        for k in 1..=3 {
            b.add("ndrange_1D", Ty::NdRange, vec![Ty::SIZE; k], Lowering::Enqueue(Q::NdRange { dims: 1 }));
            for dims in [2, 3] {
                let arr = Ty::const_ptr(Ty::SIZE, Generic);
                let lowering = Lowering::Enqueue(Q::NdRange { dims });
                b.add(&format!("ndrange_{dims}D"), Ty::NdRange, vec![arr; k], lowering);
            }
        }
    });
}

/// `cl_khr_subgroups`.
fn sub_groups(b: &mut B) {
    use WorkItemFn as W;
    let req = since(Version::Cl20).and(Requirement::ext(Extension::Subgroups));
    b.scoped(req, CONST, |b| {
        let queries = [
            ("get_sub_group_size", W::SubGroupSize),
            ("get_max_sub_group_size", W::MaxSubGroupSize),
            ("get_num_sub_groups", W::NumSubGroups),
            ("get_enqueued_num_sub_groups", W::EnqueuedNumSubGroups),
            ("get_sub_group_id", W::SubGroupId),
            ("get_sub_group_local_id", W::SubGroupLocalId),
        ];
        for (name, f) in queries {
            b.add(name, Ty::UINT, vec![], Lowering::WorkItem(f));
        }
    });
    b.scoped(req, CONVERGENT, |b| {
        b.add("sub_group_barrier", Ty::VOID, vec![Ty::UINT], Lowering::Barrier(Group::SubGroup));
        b.add("sub_group_barrier", Ty::VOID, vec![Ty::UINT, Ty::MemoryScope], Lowering::Barrier(Group::SubGroup));
        collectives(b, "sub_group", Ty::UINT, &[1], Lowering::SubGroup);
        group_pipes(b, "sub_group", Lowering::SubGroup);
    });
}

/// clang's own `__builtin_*` functions (not in §6.13), with clang-22's
/// prototypes: `long long` is `long` (64 bits) here. Those that are OpenCL
/// builtins under another name (`__builtin_sqrtf`, `__builtin_isnan`) are
/// stored under the clang name with the OpenCL overload's name and
/// lowering, so code generation treats them as the OpenCL function.
fn clang(b: &mut B) {
    use GnuOp as G;
    use OpenClStd as E;
    b.scoped(Requirement::NONE, CONST, |b| {
        let long = Ty::Scalar(Long);
        b.add_variadic("__builtin_constant_p", Ty::INT, vec![], Lowering::Gnu(G::ConstantP));
        b.add("__builtin_expect", long.clone(), vec![long.clone(), long.clone()], Lowering::Gnu(G::Expect));
        // The probability is a constant read at compile time: it needs no
        // `double` on the device.
        b.add("__builtin_expect_with_probability", long.clone(), vec![long.clone(), long.clone(), Ty::Scalar(Double)], Lowering::Gnu(G::ExpectWithProbability));
        if let Some(o) = b.map.get_mut("__builtin_expect_with_probability").and_then(|v| v.last_mut()) {
            o.requirement = b.req;
        }
        let widths = [("", UInt, Int), ("l", ULong, Long), ("ll", ULong, Long)];
        for (suffix, unsigned, signed) in widths {
            for (name, op) in [("clz", G::Clz), ("ctz", G::Ctz), ("popcount", G::Popcount), ("parity", G::Parity)] {
                b.add(&format!("__builtin_{name}{suffix}"), Ty::INT, vec![Ty::Scalar(unsigned)], Lowering::Gnu(op));
            }
            for (name, op) in [("ffs", G::Ffs), ("clrsb", G::Clrsb)] {
                b.add(&format!("__builtin_{name}{suffix}"), Ty::INT, vec![Ty::Scalar(signed)], Lowering::Gnu(op));
            }
            let abs = Ty::Scalar(signed);
            b.alias(&format!("__builtin_{suffix}abs"), "abs", abs.clone(), vec![abs], Lowering::Ext(E::SAbs));
        }
        for (name, op) in [("clzs", G::Clz), ("ctzs", G::Ctz)] {
            b.add(&format!("__builtin_{name}"), Ty::INT, vec![Ty::Scalar(UShort)], Lowering::Gnu(op));
        }
        for (bits, s) in [(8, UChar), (16, UShort), (32, UInt), (64, ULong)] {
            let t = Ty::Scalar(s);
            if bits > 8 {
                b.add(&format!("__builtin_bswap{bits}"), t.clone(), vec![t.clone()], Lowering::Gnu(G::ByteSwap));
            }
            b.add(&format!("__builtin_bitreverse{bits}"), t.clone(), vec![t.clone()], Lowering::Gnu(G::BitReverse));
            b.add(&format!("__builtin_rotateleft{bits}"), t.clone(), vec![t.clone(), t.clone()], Lowering::Gnu(G::RotateLeft));
            b.add(&format!("__builtin_rotateright{bits}"), t.clone(), vec![t.clone(), t.clone()], Lowering::Gnu(G::RotateRight));
        }
        for (suffix, s) in [("", Double), ("f", Float)] {
            let t = Ty::Scalar(s);
            b.add(&format!("__builtin_inf{suffix}"), t.clone(), vec![], Lowering::Gnu(G::Inf));
            b.add(&format!("__builtin_huge_val{suffix}"), t.clone(), vec![], Lowering::Gnu(G::Inf));
            let string = Ty::const_ptr(Ty::Scalar(Char), Constant);
            b.add(&format!("__builtin_nan{suffix}"), t.clone(), vec![string], Lowering::Gnu(G::Nan));
            // The C library's functions that OpenCL C has under the same
            // name.
            let unary = [
                E::Acos, E::Acosh, E::Asin, E::Asinh, E::Atan, E::Atanh, E::Cbrt, E::Ceil, E::Cos, E::Cosh, E::Erf,
                E::Erfc, E::Exp, E::Exp2, E::Expm1, E::Fabs, E::Floor, E::Lgamma, E::Log, E::Log10, E::Log1p, E::Log2,
                E::Logb, E::Rint, E::Round, E::Sin, E::Sinh, E::Sqrt, E::Tan, E::Tanh, E::Tgamma, E::Trunc,
            ];
            let binary = [
                E::Atan2, E::Copysign, E::Fdim, E::Fmax, E::Fmin, E::Fmod, E::Hypot, E::Nextafter, E::Pow, E::Remainder,
            ];
            for f in unary {
                b.alias(&format!("__builtin_{}{suffix}", f.name()), f.name(), t.clone(), vec![t.clone()], Lowering::Ext(f));
            }
            for f in binary {
                b.alias(&format!("__builtin_{}{suffix}", f.name()), f.name(), t.clone(), vec![t.clone(), t.clone()], Lowering::Ext(f));
            }
            b.alias(&format!("__builtin_fma{suffix}"), "fma", t.clone(), vec![t.clone(), t.clone(), t.clone()], Lowering::Ext(E::Fma));
            b.alias(&format!("__builtin_ldexp{suffix}"), "ldexp", t.clone(), vec![t.clone(), Ty::INT], Lowering::Ext(E::Ldexp));
            b.alias(&format!("__builtin_ilogb{suffix}"), "ilogb", Ty::INT, vec![t.clone()], Lowering::Ext(E::Ilogb));
        }
        // Type-generic: any floating-point scalar (C has no isequal,
        // isnotequal nor isordered).
        let binary = RELATIONAL_BINARY.into_iter().filter(|(_, op)| !matches!(op, RelOp::IsEqual | RelOp::IsNotEqual | RelOp::IsOrdered));
        for s in FLOATS {
            let t = Ty::Scalar(s);
            for (name, op) in RELATIONAL_UNARY {
                b.alias(&format!("__builtin_{name}"), name, Ty::INT, vec![t.clone()], Lowering::Relational(op));
            }
            for (name, op) in binary.clone() {
                b.alias(&format!("__builtin_{name}"), name, Ty::INT, vec![t.clone(), t.clone()], Lowering::Relational(op));
            }
        }
    });
    b.scoped(Requirement::NONE, EFFECTS, |b| {
        b.add("__builtin_assume", Ty::VOID, vec![Ty::Scalar(Bool)], Lowering::Gnu(GnuOp::Assume));
        b.add("__builtin_unreachable", Ty::VOID, vec![], Lowering::Gnu(GnuOp::Unreachable));
        b.add("__builtin_trap", Ty::VOID, vec![], Lowering::Gnu(GnuOp::Trap));
        b.add("__builtin_debugtrap", Ty::VOID, vec![], Lowering::Gnu(GnuOp::DebugTrap));
        // Between any two spaces (clang ignores them): one overload for
        // each pair, the result a pointer to the destination's space.
        for dst in SPACES {
            let to = Ty::ptr(Ty::Void, dst);
            for src in LOAD_SPACES {
                let from = Ty::const_ptr(Ty::Void, src);
                for (name, overlap) in [("__builtin_memcpy", false), ("__builtin_memmove", true)] {
                    b.add(name, to.clone(), vec![to.clone(), from.clone(), Ty::SIZE], Lowering::Gnu(GnuOp::MemCopy { overlap }));
                }
            }
            b.add("__builtin_memset", to.clone(), vec![to.clone(), Ty::INT, Ty::SIZE], Lowering::Gnu(GnuOp::MemSet));
        }
        // A pointer to any space (one overload each, so no conversion
        // between spaces), then the constant read/write and locality flags.
        for sp in LOAD_SPACES {
            b.add_variadic("__builtin_prefetch", Ty::VOID, vec![Ty::const_ptr(Ty::Void, sp)], Lowering::Gnu(GnuOp::Prefetch));
        }
    });
}
