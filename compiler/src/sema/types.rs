//! The semantic checker's types: OpenCL C's type system, interned.
//!
//! A [`TypeId`] names a type without qualifiers; a [`QualType`] adds
//! `const`/`volatile`/`restrict` and the address space of the object. Types
//! are interned in a [`Types`] table, so equality is `==` on ids and the
//! checker never compares trees. Layout ([`Types::size_align`]) follows
//! OpenCL C: 3-element vectors take the size and alignment of 4, vectors
//! are aligned to their size, `size_t` follows the target's pointer width.
//!
//! This module knows nothing of the AST or of diagnostics.

use crate::source::Span;
use clc_builtins::types::{Image, Opaque, Scalar};
use rustc_hash::FxHashMap as HashMap;

/// Objects are smaller than 2^61 bytes: their size in bits fits in 64
/// bits, as LLVM's types need (clang's limit too: "array is too large").
pub const MAX_OBJECT_SIZE: u64 = 1 << 61;

/// An interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);

pub use clc_builtins::functions::{Access, AddrSpace};

/// What a type is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(QualType),
    /// `len == None`: an incomplete array (`int a[]`).
    Array(QualType, Option<u64>),
    Function { ret: QualType, params: Vec<QualType>, variadic: bool },
    /// A struct or union, by declaration index in [`Types::records`].
    Record(u32),
    /// An enum, by declaration index in [`Types::enums`]; its values are
    /// `int`.
    Enum(u32),
    Image(Image, Access),
    Opaque(Opaque),
    Pipe(QualType, Access),
    /// `atomic_int` etc.; `None` is `atomic_flag`.
    Atomic(Option<Scalar>),
    /// A Clang block: `ret (^)(params)`.
    Block { ret: QualType, params: Vec<QualType> },
}

/// Qualifiers of an object or pointee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

/// A type with qualifiers and the address space of the object it types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QualType {
    pub ty: TypeId,
    pub quals: Quals,
    pub space: AddrSpace,
}

impl QualType {
    pub fn new(ty: TypeId, space: AddrSpace) -> QualType {
        QualType { ty, quals: Quals::default(), space }
    }

    pub fn with_const(mut self) -> QualType {
        self.quals.is_const = true;
        self
    }
}

/// A struct or union member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: QualType,
    /// From `__attribute__((aligned(N)))` on the member.
    pub align: Option<u64>,
}

/// A struct or union declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub name: Option<String>,
    pub is_union: bool,
    /// `None` until the body is seen (an incomplete type).
    pub fields: Option<Vec<Field>>,
    pub packed: bool,
    /// `#pragma pack(N)` at the definition: the largest alignment a member
    /// gets, over its `aligned` attribute too (clang's rule); 0: none.
    pub pack: u64,
    pub align: Option<u64>,
    /// The name where the record was first declared (for clang's
    /// "forward declaration of" note while it is incomplete).
    pub decl: Option<Span>,
}

/// An enum declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDecl {
    pub name: Option<String>,
    pub values: Vec<(String, i64)>,
}

/// The type table of one compilation.
#[derive(Debug)]
pub struct Types {
    kinds: Vec<TypeKind>,
    ids: HashMap<TypeKind, TypeId>,
    pub records: Vec<Record>,
    pub enums: Vec<EnumDecl>,
    /// Pointer width in bytes: 8, or 4 for `spirv32`.
    pub pointer_size: u64,
    /// The name the first typedef of an anonymous struct, union or enum
    /// gives it (`typedef struct { … } S;`): its name for linkage, which
    /// clang mangles.
    pub typedef_names: HashMap<TypeId, String>,
}

impl Types {
    pub fn new(pointer_bits: u32) -> Types {
        Types { kinds: Vec::new(), ids: HashMap::default(), records: Vec::new(), enums: Vec::new(), pointer_size: pointer_bits as u64 / 8, typedef_names: HashMap::default() }
    }

    /// The name of a struct, union or enum type (its tag, else its
    /// typedef name), as clang mangles it; `None` for other types and
    /// unnamed ones.
    pub fn linkage_name(&self, t: TypeId) -> Option<&str> {
        let tag = match self.kind(t) {
            TypeKind::Record(i) => self.records[*i as usize].name.as_deref(),
            TypeKind::Enum(i) => self.enums[*i as usize].name.as_deref(),
            _ => return None,
        };
        tag.or_else(|| self.typedef_names.get(&t).map(String::as_str))
    }

    /// Interns a type.
    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        if let Some(&id) = self.ids.get(&kind) {
            return id;
        }
        let id = TypeId(self.kinds.len() as u32);
        self.kinds.push(kind.clone());
        self.ids.insert(kind, id);
        id
    }

    /// The id of a type already interned, without interning it.
    pub fn find(&self, kind: &TypeKind) -> Option<TypeId> {
        self.ids.get(kind).copied()
    }

    pub fn kind(&self, id: TypeId) -> &TypeKind {
        &self.kinds[id.0 as usize]
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(TypeKind::Void)
    }

    pub fn scalar(&mut self, s: Scalar) -> TypeId {
        self.intern(TypeKind::Scalar(s))
    }

    pub fn vector(&mut self, s: Scalar, n: u8) -> TypeId {
        self.intern(TypeKind::Vector(s, n))
    }

    pub fn pointer(&mut self, pointee: QualType) -> TypeId {
        self.intern(TypeKind::Pointer(pointee))
    }

    /// Adds a struct/union declaration and returns its type.
    pub fn add_record(&mut self, r: Record) -> TypeId {
        self.records.push(r);
        let idx = (self.records.len() - 1) as u32;
        self.intern(TypeKind::Record(idx))
    }

    pub fn add_enum(&mut self, e: EnumDecl) -> TypeId {
        self.enums.push(e);
        let idx = (self.enums.len() - 1) as u32;
        self.intern(TypeKind::Enum(idx))
    }

    /// Size of a scalar in bytes.
    pub fn scalar_size(&self, s: Scalar) -> u64 {
        match s {
            Scalar::Bool | Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
            Scalar::Size | Scalar::PtrDiff => self.pointer_size,
        }
    }

    /// Size and alignment in bytes, or `None` for incomplete and function
    /// types (which have no size) and for objects of [`MAX_OBJECT_SIZE`]
    /// bytes or more.
    pub fn size_align(&self, id: TypeId) -> Option<(u64, u64)> {
        Some(match self.kind(id) {
            TypeKind::Void | TypeKind::Function { .. } => return None,
            TypeKind::Scalar(s) | TypeKind::Atomic(Some(s)) => {
                let n = self.scalar_size(*s);
                (n, n)
            }
            TypeKind::Atomic(None) => (4, 4),
            TypeKind::Vector(s, n) => {
                // OpenCL C 6.1.5: a 3-component vector has the size and
                // alignment of a 4-component one; vectors are aligned to
                // their size.
                let lanes = if *n == 3 { 4 } else { *n as u64 };
                let size = self.scalar_size(*s) * lanes;
                (size, size)
            }
            TypeKind::Pointer(_)
            | TypeKind::Image(..)
            | TypeKind::Pipe(..)
            | TypeKind::Block { .. }
            | TypeKind::Opaque(Opaque::Queue | Opaque::ClkEvent | Opaque::Event | Opaque::ReserveId) => {
                (self.pointer_size, self.pointer_size)
            }
            TypeKind::Opaque(Opaque::Sampler | Opaque::MemFenceFlags | Opaque::MemoryOrder | Opaque::MemoryScope) => (4, 4),
            TypeKind::Opaque(Opaque::NdRange) => {
                // struct { size_t workDimension; size_t offset[3], global[3], local[3]; }
                (self.pointer_size * 10, self.pointer_size)
            }
            TypeKind::Enum(_) => (4, 4),
            TypeKind::Array(elem, len) => {
                let (size, align) = self.size_align(elem.ty)?;
                // An absurd array (`int a[1ul << 62]`) has no size rather
                // than an overflowing one.
                (size.checked_mul((*len)?).filter(|&s| s < MAX_OBJECT_SIZE)?, align)
            }
            TypeKind::Record(idx) => return self.record_layout(*idx).map(|l| (l.size, l.align)),
        })
    }

    /// Field offsets, size and alignment of a struct or union: C layout,
    /// with `packed` (alignment 1 for every member unless the member says
    /// otherwise), `aligned(N)` on the record and on members, and
    /// `#pragma pack`'s cap on members' alignment.
    pub fn record_layout(&self, idx: u32) -> Option<RecordLayout> {
        let r = &self.records[idx as usize];
        let fields = r.fields.as_ref()?;
        let mut offsets = Vec::with_capacity(fields.len());
        let mut size = 0u64;
        let mut align = 1u64;
        for (k, f) in fields.iter().enumerate() {
            // A flexible array member, last: no size, its element's
            // alignment.
            let (fsize, natural) = match self.kind(f.ty.ty) {
                TypeKind::Array(e, None) if k + 1 == fields.len() => (0, self.size_align(e.ty)?.1),
                _ => self.size_align(f.ty.ty)?,
            };
            let mut falign = match (f.align, r.packed) {
                (Some(a), _) => a,
                (None, true) => 1,
                (None, false) => natural,
            };
            if r.pack != 0 {
                falign = falign.min(r.pack);
            }
            align = align.max(falign);
            if r.is_union {
                offsets.push(0);
                size = size.max(fsize);
            } else {
                let off = size.checked_next_multiple_of(falign)?;
                offsets.push(off);
                size = off.checked_add(fsize)?;
            }
        }
        if let Some(a) = r.align {
            align = align.max(a);
        }
        Some(RecordLayout { offsets, size: size.checked_next_multiple_of(align).filter(|&s| s < MAX_OBJECT_SIZE)?, align })
    }

    /// Does a struct end in a flexible array member (itself, or through
    /// its last member)?
    pub fn ends_flexible(&self, t: TypeId) -> bool {
        let TypeKind::Record(r) = self.kind(t) else { return false };
        let rec = &self.records[*r as usize];
        match rec.fields.as_ref().and_then(|fs| fs.last()) {
            Some(f) if !rec.is_union => matches!(self.kind(f.ty.ty), TypeKind::Array(_, None)) || self.ends_flexible(f.ty.ty),
            _ => false,
        }
    }

    /// How the type is written in C, for messages: `__global float4 *`.
    pub fn display(&self, id: TypeId) -> String {
        match self.kind(id) {
            TypeKind::Void => "void".into(),
            TypeKind::Scalar(s) => s.name().into(),
            TypeKind::Vector(s, n) => format!("{}{n}", s.name()),
            TypeKind::Pointer(p) => {
                let inner = self.display_qual(*p);
                format!("{inner} *")
            }
            // The elements' space is the array's own; it is said once,
            // in front of the array type.
            TypeKind::Array(..) => {
                // `int[2][4]`: dimensions outermost first, as declared.
                let mut dims = String::new();
                let mut t = id;
                let mut elem = None;
                while let TypeKind::Array(e, n) = self.kind(t) {
                    dims.push_str(&n.map_or("[]".to_string(), |n| format!("[{n}]")));
                    elem = Some(*e);
                    t = e.ty;
                }
                let e = elem.expect("an array has an element type");
                format!("{}{dims}", self.display_qual(QualType { space: AddrSpace::Private, ..e }))
            }
            TypeKind::Function { ret, params, variadic } => {
                let mut ps: Vec<String> = params.iter().map(|p| self.display_qual(*p)).collect();
                if *variadic {
                    ps.push("...".into());
                }
                if ps.is_empty() {
                    ps.push("void".into());
                }
                format!("{} ({})", self.display_qual(*ret), ps.join(", "))
            }
            TypeKind::Record(i) => {
                let r = &self.records[*i as usize];
                let kw = if r.is_union { "union" } else { "struct" };
                match &r.name {
                    Some(n) => format!("{kw} {n}"),
                    None => format!("{kw} (anonymous)"),
                }
            }
            TypeKind::Enum(i) => match &self.enums[*i as usize].name {
                Some(n) => format!("enum {n}"),
                None => "enum (anonymous)".into(),
            },
            TypeKind::Image(img, access) => {
                format!("{} {}", access.keyword(), img.name())
            }
            TypeKind::Opaque(o) => opaque_name(*o).into(),
            TypeKind::Pipe(e, _) => format!("pipe {}", self.display_qual(*e)),
            TypeKind::Atomic(None) => "atomic_flag".into(),
            TypeKind::Atomic(Some(s)) => format!("atomic_{}", s.name()),
            TypeKind::Block { ret, params } => self.display_block(*ret, params, "^"),
        }
    }

    /// `int (^)(float)`; `caret` is `^` with the qualifiers of the block
    /// itself (`^const`).
    fn display_block(&self, ret: QualType, params: &[QualType], caret: &str) -> String {
        let ps: Vec<String> = params.iter().map(|p| self.display_qual(*p)).collect();
        format!("{} ({caret})({})", self.display_qual(ret), if ps.is_empty() { "void".into() } else { ps.join(", ") })
    }

    /// A qualified type as written: `const __global float`. The private
    /// space is left unsaid, as programmers write it.
    pub fn display_qual(&self, q: QualType) -> String {
        if let TypeKind::Block { ret, params } = self.kind(q.ty) {
            let caret = if q.quals.is_const { "^const" } else { "^" };
            return self.display_block(*ret, params, caret);
        }
        let mut s = String::new();
        if q.quals.is_const {
            s.push_str("const ");
        }
        if q.quals.is_volatile {
            s.push_str("volatile ");
        }
        if q.space != AddrSpace::Private {
            s.push_str(q.space.keyword());
            s.push(' ');
        }
        s.push_str(&self.display(q.ty));
        if q.quals.is_restrict {
            s.push_str(" restrict");
        }
        s
    }
}

impl Types {
    /// A function's signature as clang-22 writes it for
    /// `__PRETTY_FUNCTION__`: `int g(__private float, __global S *__private)`
    /// (every object's address space said, an image's access qualifier
    /// as `__read_only`, a struct or enum by its typedef name where it has
    /// no tag).
    pub fn pretty_signature(&self, name: &str, function: TypeId) -> String {
        let TypeKind::Function { ret, params, variadic } = self.kind(function) else { return name.to_string() };
        let mut ps: Vec<String> = params.iter().map(|p| self.pretty_object(*p)).collect();
        if *variadic {
            ps.push("...".into());
        }
        if ps.is_empty() {
            ps.push("void".into());
        }
        format!("{} {name}({})", self.pretty_type(ret.ty), ps.join(", "))
    }

    /// An object's type with its qualifiers and address space, as clang
    /// writes it: `const __private int`, `__global int *__private`.
    fn pretty_object(&self, q: QualType) -> String {
        let quals = format!("{}{}", if q.quals.is_const { "const " } else { "" }, if q.quals.is_volatile { "volatile " } else { "" });
        match self.kind(q.ty) {
            TypeKind::Pointer(p) => format!("{} *{quals}{}", self.pretty_object(*p), q.space.keyword()),
            _ => format!("{quals}{} {}", q.space.keyword(), self.pretty_type(q.ty)),
        }
    }

    fn pretty_type(&self, t: TypeId) -> String {
        match self.kind(t) {
            TypeKind::Image(img, access) => format!("__{} {}", access.keyword(), img.name()),
            TypeKind::Record(_) | TypeKind::Enum(_) if self.typedef_names.contains_key(&t) => self.typedef_names[&t].clone(),
            _ => self.display(t),
        }
    }
}

/// The result of [`Types::record_layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    pub offsets: Vec<u64>,
    pub size: u64,
    pub align: u64,
}

fn opaque_name(o: Opaque) -> &'static str {
    match o {
        Opaque::Sampler => "sampler_t",
        Opaque::Event => "event_t",
        Opaque::Queue => "queue_t",
        Opaque::NdRange => "ndrange_t",
        Opaque::ClkEvent => "clk_event_t",
        Opaque::ReserveId => "reserve_id_t",
        Opaque::MemFenceFlags => "cl_mem_fence_flags",
        Opaque::MemoryOrder => "memory_order",
        Opaque::MemoryScope => "memory_scope",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_makes_equal_types_equal_ids() {
        let mut t = Types::new(64);
        let f = t.scalar(Scalar::Float);
        let p1 = t.pointer(QualType::new(f, AddrSpace::Global));
        let p2 = t.pointer(QualType::new(f, AddrSpace::Global));
        let p3 = t.pointer(QualType::new(f, AddrSpace::Local));
        assert_eq!(p1, p2);
        assert_ne!(p1, p3);
        assert_eq!(t.display(p1), "__global float *");
        let cq = QualType::new(f, AddrSpace::Constant).with_const();
        assert_eq!(t.display_qual(cq), "const __constant float");
    }

    #[test]
    fn three_element_vectors_are_laid_out_as_four() {
        let mut t = Types::new(64);
        let f3 = t.vector(Scalar::Float, 3);
        let c3 = t.vector(Scalar::Char, 3);
        let d16 = t.vector(Scalar::Double, 16);
        assert_eq!(t.size_align(f3), Some((16, 16)));
        assert_eq!(t.size_align(c3), Some((4, 4)));
        assert_eq!(t.size_align(d16), Some((128, 128)));
    }

    #[test]
    fn size_t_follows_the_target() {
        let mut t64 = Types::new(64);
        let mut t32 = Types::new(32);
        let a = t64.scalar(Scalar::Size);
        let b = t32.scalar(Scalar::Size);
        assert_eq!(t64.size_align(a), Some((8, 8)));
        assert_eq!(t32.size_align(b), Some((4, 4)));
    }

    #[test]
    fn struct_layout_with_packed_and_aligned() {
        let mut t = Types::new(64);
        let c = t.scalar(Scalar::Char);
        let f4 = t.vector(Scalar::Float, 4);
        let i = t.scalar(Scalar::Int);
        let field = |name: &str, ty| Field { name: name.into(), ty: QualType::new(ty, AddrSpace::Private), align: None };
        let plain = t.add_record(Record { name: Some("S".into()), is_union: false, fields: Some(vec![field("a", c), field("v", f4), field("i", i)]), packed: false, pack: 0, align: None, decl: None });
        assert_eq!(t.size_align(plain), Some((48, 16)));
        let TypeKind::Record(idx) = *t.kind(plain) else { unreachable!() };
        assert_eq!(t.record_layout(idx).unwrap().offsets, vec![0, 16, 32]);
        let packed = t.add_record(Record { name: Some("P".into()), is_union: false, fields: Some(vec![field("a", c), field("i", i)]), packed: true, pack: 0, align: None, decl: None });
        assert_eq!(t.size_align(packed), Some((5, 1)));
        let aligned = t.add_record(Record { name: None, is_union: false, fields: Some(vec![field("a", c)]), packed: false, pack: 0, align: Some(32), decl: None });
        assert_eq!(t.size_align(aligned), Some((32, 32)));
        let u = t.add_record(Record { name: Some("U".into()), is_union: true, fields: Some(vec![field("a", c), field("v", f4)]), packed: false, pack: 0, align: None, decl: None });
        assert_eq!(t.size_align(u), Some((16, 16)));
        let incomplete = t.add_record(Record { name: Some("I".into()), is_union: false, fields: None, packed: false, pack: 0, align: None, decl: None });
        assert_eq!(t.size_align(incomplete), None);
    }

    #[test]
    fn address_space_conversions_follow_6_5_5() {
        use AddrSpace::*;
        assert!(Global.converts_implicitly_to(Generic));
        assert!(Local.converts_implicitly_to(Generic));
        assert!(Private.converts_implicitly_to(Generic));
        assert!(!Constant.converts_implicitly_to(Generic));
        assert!(!Generic.converts_implicitly_to(Global));
        assert!(Generic.casts_explicitly_to(Global));
        assert!(!Generic.casts_explicitly_to(Constant));
        assert!(!Global.casts_explicitly_to(Local));
    }
}
