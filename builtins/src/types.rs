//! Builtin type names that are single words: `uint`, `float4`,
//! `image2d_t`, `atomic_int`, `size_t`, …
//!
//! The lexer recognises these words; [`lookup`] says what each one means.
//! Multi-word C types (`unsigned int`) are built by the parser from
//! keywords and are not here.

/// A scalar element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
    /// `size_t`, `uintptr_t`: unsigned, pointer-sized.
    Size,
    /// `ptrdiff_t`, `intptr_t`: signed, pointer-sized.
    PtrDiff,
}

impl Scalar {
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
            Scalar::Size => "size_t",
            Scalar::PtrDiff => "ptrdiff_t",
        }
    }

    /// The scalar named by a C type word (`char`, `uint`, `float`, …);
    /// not `bool`, `size_t` or `ptrdiff_t`.
    pub fn from_name(s: &str) -> Option<Scalar> {
        Some(match s {
            "char" => Scalar::Char,
            "uchar" => Scalar::UChar,
            "short" => Scalar::Short,
            "ushort" => Scalar::UShort,
            "int" => Scalar::Int,
            "uint" => Scalar::UInt,
            "long" => Scalar::Long,
            "ulong" => Scalar::ULong,
            "half" => Scalar::Half,
            "float" => Scalar::Float,
            "double" => Scalar::Double,
            _ => return None,
        })
    }
}

/// The image types of OpenCL C 2.0 (and `cl_khr_gl_msaa_sharing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Image {
    I1d,
    I1dArray,
    I1dBuffer,
    I2d,
    I2dArray,
    I3d,
    I2dDepth,
    I2dArrayDepth,
    I2dMsaa,
    I2dArrayMsaa,
    I2dMsaaDepth,
    I2dArrayMsaaDepth,
}

impl Image {
    /// The type word, e.g. `image2d_array_depth_t`.
    pub fn name(self) -> &'static str {
        match self {
            Image::I1d => "image1d_t",
            Image::I1dArray => "image1d_array_t",
            Image::I1dBuffer => "image1d_buffer_t",
            Image::I2d => "image2d_t",
            Image::I2dArray => "image2d_array_t",
            Image::I3d => "image3d_t",
            Image::I2dDepth => "image2d_depth_t",
            Image::I2dArrayDepth => "image2d_array_depth_t",
            Image::I2dMsaa => "image2d_msaa_t",
            Image::I2dArrayMsaa => "image2d_array_msaa_t",
            Image::I2dMsaaDepth => "image2d_msaa_depth_t",
            Image::I2dArrayMsaaDepth => "image2d_array_msaa_depth_t",
        }
    }

    /// Every image type.
    pub const ALL: [Image; 12] = [
        Image::I1d,
        Image::I1dArray,
        Image::I1dBuffer,
        Image::I2d,
        Image::I2dArray,
        Image::I3d,
        Image::I2dDepth,
        Image::I2dArrayDepth,
        Image::I2dMsaa,
        Image::I2dArrayMsaa,
        Image::I2dMsaaDepth,
        Image::I2dArrayMsaaDepth,
    ];
}

/// Opaque types other than images.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opaque {
    Sampler,
    Event,
    Queue,
    NdRange,
    ClkEvent,
    ReserveId,
    /// `cl_mem_fence_flags` is a typedef of `uint` in clang's headers; it is
    /// listed here so it is known without a header.
    MemFenceFlags,
    /// `memory_order` and `memory_scope`: enums in clang's headers, so they
    /// convert to and from `int` like any enum.
    MemoryOrder,
    MemoryScope,
}

/// What a builtin type word names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinType {
    Scalar(Scalar),
    /// Element type and width (2, 3, 4, 8 or 16).
    Vector(Scalar, u8),
    Image(Image),
    Opaque(Opaque),
    /// `atomic_int` etc.: the atomic form of a scalar; `None` is
    /// `atomic_flag`.
    Atomic(Option<Scalar>),
}

/// The valid vector widths.
pub const VECTOR_WIDTHS: [u8; 5] = [2, 3, 4, 8, 16];

/// Looks up a builtin type word. Returns `None` for words that are not
/// builtin types (including C keywords like `int`, which the parser handles).
pub fn lookup(word: &str) -> Option<BuiltinType> {
    if let Some(rest) = word.strip_prefix("atomic_") {
        return Some(BuiltinType::Atomic(match rest {
            "flag" => None,
            "intptr_t" | "ptrdiff_t" => Some(Scalar::PtrDiff),
            "uintptr_t" | "size_t" => Some(Scalar::Size),
            other => Some(Scalar::from_name(other)?),
        }));
    }
    if let Some(kind) = word.strip_prefix("image").and_then(|r| r.strip_suffix("_t")) {
        return Some(BuiltinType::Image(match kind {
            "1d" => Image::I1d,
            "1d_array" => Image::I1dArray,
            "1d_buffer" => Image::I1dBuffer,
            "2d" => Image::I2d,
            "2d_array" => Image::I2dArray,
            "3d" => Image::I3d,
            "2d_depth" => Image::I2dDepth,
            "2d_array_depth" => Image::I2dArrayDepth,
            "2d_msaa" => Image::I2dMsaa,
            "2d_array_msaa" => Image::I2dArrayMsaa,
            "2d_msaa_depth" => Image::I2dMsaaDepth,
            "2d_array_msaa_depth" => Image::I2dArrayMsaaDepth,
            _ => return None,
        }));
    }
    let opaque = match word {
        "sampler_t" => Some(Opaque::Sampler),
        "event_t" => Some(Opaque::Event),
        "queue_t" => Some(Opaque::Queue),
        "ndrange_t" => Some(Opaque::NdRange),
        "clk_event_t" => Some(Opaque::ClkEvent),
        "reserve_id_t" => Some(Opaque::ReserveId),
        "cl_mem_fence_flags" => Some(Opaque::MemFenceFlags),
        "memory_order" => Some(Opaque::MemoryOrder),
        "memory_scope" => Some(Opaque::MemoryScope),
        _ => None,
    };
    if let Some(o) = opaque {
        return Some(BuiltinType::Opaque(o));
    }
    match word {
        "size_t" | "uintptr_t" => return Some(BuiltinType::Scalar(Scalar::Size)),
        "ptrdiff_t" | "intptr_t" => return Some(BuiltinType::Scalar(Scalar::PtrDiff)),
        "uchar" | "ushort" | "uint" | "ulong" => return Scalar::from_name(word).map(BuiltinType::Scalar),
        _ => {}
    }
    let split = word.find(|c: char| c.is_ascii_digit())?;
    let (elem, width) = word.split_at(split);
    let width: u8 = width.parse().ok()?;
    if !VECTOR_WIDTHS.contains(&width) {
        return None;
    }
    Some(BuiltinType::Vector(Scalar::from_name(elem)?, width))
}

/// Every word that names a type by itself: the C keywords (`int`,
/// `float`, `bool`, …) and the words [`lookup`] knows. For "did you mean"
/// on an unknown type name.
pub fn type_words() -> Vec<String> {
    const ELEMS: [&str; 11] = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"];
    let mut v: Vec<String> = ["void", "bool", "signed", "unsigned", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"]
        .into_iter()
        .chain(ELEMS)
        .chain(["sampler_t", "event_t", "queue_t", "ndrange_t", "clk_event_t", "reserve_id_t", "cl_mem_fence_flags", "memory_order", "memory_scope"])
        .map(str::to_string)
        .collect();
    v.extend(ELEMS.iter().flat_map(|e| VECTOR_WIDTHS.iter().map(move |n| format!("{e}{n}"))));
    v.extend(Image::ALL.iter().map(|i| i.name().to_string()));
    let atomics = ["int", "uint", "long", "ulong", "float", "double", "half", "intptr_t", "uintptr_t", "size_t", "ptrdiff_t", "flag"];
    v.extend(atomics.iter().map(|a| format!("atomic_{a}")));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_word_is_a_keyword_or_known() {
        let keywords = ["void", "bool", "signed", "unsigned", "char", "short", "int", "long", "half", "float", "double"];
        for w in type_words() {
            assert!(keywords.contains(&w.as_str()) || lookup(&w).is_some(), "{w}");
        }
        assert!(type_words().iter().any(|w| w == "float4"));
    }

    #[test]
    fn every_vector_type_is_known() {
        for s in ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"] {
            for n in VECTOR_WIDTHS {
                let word = format!("{s}{n}");
                assert_eq!(lookup(&word), Some(BuiltinType::Vector(Scalar::from_name(s).unwrap(), n)), "{word}");
            }
        }
        assert_eq!(lookup("float5"), None);
        assert_eq!(lookup("bool2"), None);
    }

    #[test]
    fn opaque_atomic_and_size_types() {
        assert_eq!(lookup("image2d_array_depth_t"), Some(BuiltinType::Image(Image::I2dArrayDepth)));
        assert_eq!(lookup("atomic_flag"), Some(BuiltinType::Atomic(None)));
        assert_eq!(lookup("atomic_uint"), Some(BuiltinType::Atomic(Some(Scalar::UInt))));
        assert_eq!(lookup("atomic_size_t"), Some(BuiltinType::Atomic(Some(Scalar::Size))));
        assert_eq!(lookup("size_t"), Some(BuiltinType::Scalar(Scalar::Size)));
        assert_eq!(lookup("ndrange_t"), Some(BuiltinType::Opaque(Opaque::NdRange)));
        assert_eq!(lookup("int"), None);
        assert_eq!(lookup("image4d_t"), None);
    }
}
