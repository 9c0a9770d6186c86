//! The object-like macros and enumerators of clang's OpenCL headers
//! (`opencl-c-base.h`) that kernels use without including anything:
//! `CLK_LOCAL_MEM_FENCE`, `memory_order_seq_cst`, `FLT_MAX`, `M_PI_F`, …
//!
//! Each has a type and a value; the preprocessor or sema answers the name
//! from [`constant`] instead of reading a header. Function-like macros
//! (`ATOMIC_VAR_INIT`) and the version macros (`__OPENCL_C_VERSION__`,
//! which the preprocessor predefines) are not here.

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use crate::functions::{AddrSpace, Extension, Requirement, Ty, Version};
use crate::types::Scalar;

/// The value of a constant, in the precision of its type (a `float`
/// constant holds the `f32` value, widened).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstValue {
    Int(i128),
    Float(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Constant {
    pub name: &'static str,
    pub ty: Ty,
    pub value: ConstValue,
    pub requirement: Requirement,
}

/// Looks up a constant by name.
pub fn constant(name: &str) -> Option<&'static Constant> {
    table().get(name)
}

/// Every constant, in no particular order.
pub fn all_constants() -> impl Iterator<Item = &'static Constant> {
    table().values()
}

fn table() -> &'static HashMap<&'static str, Constant> {
    static TABLE: OnceLock<HashMap<&'static str, Constant>> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> HashMap<&'static str, Constant> {
    use ConstValue::{Float as F, Int as I};
    use std::f64::consts as c;
    let int = Ty::INT;
    let uint = Ty::UINT;
    let float = Ty::FLOAT;
    let double = Ty::Scalar(Scalar::Double);
    let half = Ty::Scalar(Scalar::Half);
    let none = Requirement::NONE;
    let cl20 = Requirement::since(Version::Cl20);
    let fp16 = Requirement::ext(Extension::Fp16);
    let f32v = |x: f64| F(f64::from(x as f32));

    let mut list: Vec<(&'static str, Ty, ConstValue, Requirement)> = vec![
        // Synchronisation (cl_mem_fence_flags values are int literals).
        ("CLK_LOCAL_MEM_FENCE", int.clone(), I(1), none),
        ("CLK_GLOBAL_MEM_FENCE", int.clone(), I(2), none),
        ("CLK_IMAGE_MEM_FENCE", int.clone(), I(4), cl20),
        ("ATOMIC_FLAG_INIT", int.clone(), I(0), cl20),
        // Floating-point limits.
        ("MAXFLOAT", float.clone(), F(f64::from(f32::MAX)), none),
        ("HUGE_VALF", float.clone(), F(f64::INFINITY), none),
        ("HUGE_VAL", double.clone(), F(f64::INFINITY), none),
        ("INFINITY", float.clone(), F(f64::INFINITY), none),
        // clang: as_float(INT_MAX), the quiet NaN with bits 0x7fffffff.
        ("NAN", float.clone(), F(f64::from(f32::from_bits(0x7fff_ffff))), none),
        ("FP_ILOGB0", int.clone(), I(i128::from(i32::MIN)), none),
        ("FP_ILOGBNAN", int.clone(), I(i128::from(i32::MAX)), none),
        ("FLT_DIG", int.clone(), I(6), none),
        ("FLT_MANT_DIG", int.clone(), I(24), none),
        ("FLT_MAX_10_EXP", int.clone(), I(38), none),
        ("FLT_MAX_EXP", int.clone(), I(128), none),
        ("FLT_MIN_10_EXP", int.clone(), I(-37), none),
        ("FLT_MIN_EXP", int.clone(), I(-125), none),
        ("FLT_RADIX", int.clone(), I(2), none),
        ("FLT_MAX", float.clone(), F(f64::from(f32::MAX)), none),
        ("FLT_MIN", float.clone(), F(f64::from(f32::MIN_POSITIVE)), none),
        ("FLT_EPSILON", float.clone(), F(f64::from(f32::EPSILON)), none),
        ("DBL_DIG", int.clone(), I(15), none),
        ("DBL_MANT_DIG", int.clone(), I(53), none),
        ("DBL_MAX_10_EXP", int.clone(), I(308), none),
        ("DBL_MAX_EXP", int.clone(), I(1024), none),
        ("DBL_MIN_10_EXP", int.clone(), I(-307), none),
        ("DBL_MIN_EXP", int.clone(), I(-1021), none),
        ("DBL_RADIX", int.clone(), I(2), none),
        ("DBL_MAX", double.clone(), F(f64::MAX), none),
        ("DBL_MIN", double.clone(), F(f64::MIN_POSITIVE), none),
        ("DBL_EPSILON", double.clone(), F(f64::EPSILON), none),
        ("HALF_DIG", int.clone(), I(3), fp16),
        ("HALF_MANT_DIG", int.clone(), I(11), fp16),
        ("HALF_MAX_10_EXP", int.clone(), I(4), fp16),
        ("HALF_MAX_EXP", int.clone(), I(16), fp16),
        ("HALF_MIN_10_EXP", int.clone(), I(-4), fp16),
        ("HALF_MIN_EXP", int.clone(), I(-13), fp16),
        ("HALF_RADIX", int.clone(), I(2), fp16),
        ("HALF_MAX", half.clone(), F(65504.0), fp16),
        ("HALF_MIN", half.clone(), F(1.0 / 16384.0), fp16),
        ("HALF_EPSILON", half.clone(), F(1.0 / 1024.0), fp16),
        // Integer limits.
        ("CHAR_BIT", int.clone(), I(8), none),
        ("SCHAR_MAX", int.clone(), I(127), none),
        ("SCHAR_MIN", int.clone(), I(-128), none),
        ("UCHAR_MAX", int.clone(), I(255), none),
        ("CHAR_MAX", int.clone(), I(127), none),
        ("CHAR_MIN", int.clone(), I(-128), none),
        ("USHRT_MAX", int.clone(), I(65535), none),
        ("SHRT_MAX", int.clone(), I(32767), none),
        ("SHRT_MIN", int.clone(), I(-32768), none),
        ("UINT_MAX", uint.clone(), I(i128::from(u32::MAX)), none),
        ("INT_MAX", int.clone(), I(i128::from(i32::MAX)), none),
        ("INT_MIN", int.clone(), I(i128::from(i32::MIN)), none),
        ("ULONG_MAX", Ty::ULONG, I(i128::from(u64::MAX)), none),
        ("LONG_MAX", Ty::LONG, I(i128::from(i64::MAX)), none),
        ("LONG_MIN", Ty::LONG, I(i128::from(i64::MIN)), none),
        // Samplers.
        ("CLK_ADDRESS_NONE", int.clone(), I(0), none),
        ("CLK_ADDRESS_CLAMP_TO_EDGE", int.clone(), I(2), none),
        ("CLK_ADDRESS_CLAMP", int.clone(), I(4), none),
        ("CLK_ADDRESS_REPEAT", int.clone(), I(6), none),
        ("CLK_ADDRESS_MIRRORED_REPEAT", int.clone(), I(8), none),
        ("CLK_NORMALIZED_COORDS_FALSE", int.clone(), I(0), none),
        ("CLK_NORMALIZED_COORDS_TRUE", int.clone(), I(1), none),
        ("CLK_FILTER_NEAREST", int.clone(), I(0x10), none),
        ("CLK_FILTER_LINEAR", int.clone(), I(0x20), none),
        // Device-side enqueue (2.0).
        ("CL_COMPLETE", int.clone(), I(0), cl20),
        ("CL_RUNNING", int.clone(), I(1), cl20),
        ("CL_SUBMITTED", int.clone(), I(2), cl20),
        ("CL_QUEUED", int.clone(), I(3), cl20),
        ("CLK_SUCCESS", int.clone(), I(0), cl20),
        ("CLK_ENQUEUE_FAILURE", int.clone(), I(-101), cl20),
        ("CLK_INVALID_QUEUE", int.clone(), I(-102), cl20),
        ("CLK_INVALID_NDRANGE", int.clone(), I(-160), cl20),
        ("CLK_INVALID_EVENT_WAIT_LIST", int.clone(), I(-57), cl20),
        ("CLK_DEVICE_QUEUE_FULL", int.clone(), I(-161), cl20),
        ("CLK_INVALID_ARG_SIZE", int.clone(), I(-51), cl20),
        ("CLK_EVENT_ALLOCATION_FAILURE", int.clone(), I(-100), cl20),
        ("CLK_OUT_OF_RESOURCES", int.clone(), I(-5), cl20),
        ("CLK_NULL_QUEUE", int.clone(), I(0), cl20),
        // clang: __builtin_astype((void*)SIZE_MAX, clk_event_t / reserve_id_t).
        ("CLK_NULL_EVENT", Ty::ClkEvent, I(i128::from(u64::MAX)), cl20),
        ("CLK_NULL_RESERVE_ID", Ty::ReserveId, I(i128::from(u64::MAX)), cl20),
        ("CLK_ENQUEUE_FLAGS_NO_WAIT", int.clone(), I(0), cl20),
        ("CLK_ENQUEUE_FLAGS_WAIT_KERNEL", int.clone(), I(1), cl20),
        ("CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP", int.clone(), I(2), cl20),
        ("CLK_PROFILING_COMMAND_EXEC_TIME", int.clone(), I(1), cl20),
        ("MAX_WORK_DIM", int.clone(), I(3), cl20),
        ("NULL", Ty::ptr(Ty::Void, AddrSpace::Generic), I(0), cl20),
        // memory_order and memory_scope (clang's __ATOMIC_* and
        // __OPENCL_MEMORY_SCOPE_* values).
        ("memory_order_relaxed", Ty::MemoryOrder, I(0), cl20),
        ("memory_order_acquire", Ty::MemoryOrder, I(2), cl20),
        ("memory_order_release", Ty::MemoryOrder, I(3), cl20),
        ("memory_order_acq_rel", Ty::MemoryOrder, I(4), cl20),
        ("memory_order_seq_cst", Ty::MemoryOrder, I(5), cl20),
        ("memory_scope_work_item", Ty::MemoryScope, I(0), cl20),
        ("memory_scope_work_group", Ty::MemoryScope, I(1), cl20),
        ("memory_scope_device", Ty::MemoryScope, I(2), cl20),
        ("memory_scope_all_svm_devices", Ty::MemoryScope, I(3), cl20),
        ("memory_scope_sub_group", Ty::MemoryScope, I(4), cl20.and(Requirement::ext(Extension::Subgroups))),
    ];
    let channel_types = [
        "CLK_SNORM_INT8",
        "CLK_SNORM_INT16",
        "CLK_UNORM_INT8",
        "CLK_UNORM_INT16",
        "CLK_UNORM_SHORT_565",
        "CLK_UNORM_SHORT_555",
        "CLK_UNORM_INT_101010",
        "CLK_SIGNED_INT8",
        "CLK_SIGNED_INT16",
        "CLK_SIGNED_INT32",
        "CLK_UNSIGNED_INT8",
        "CLK_UNSIGNED_INT16",
        "CLK_UNSIGNED_INT32",
        "CLK_HALF_FLOAT",
        "CLK_FLOAT",
        "CLK_UNORM_INT24",
    ];
    for (i, name) in channel_types.into_iter().enumerate() {
        list.push((name, int.clone(), I(0x10D0 + i as i128), none));
    }
    let channel_orders = [
        "CLK_R",
        "CLK_A",
        "CLK_RG",
        "CLK_RA",
        "CLK_RGB",
        "CLK_RGBA",
        "CLK_BGRA",
        "CLK_ARGB",
        "CLK_INTENSITY",
        "CLK_LUMINANCE",
        "CLK_Rx",
        "CLK_RGx",
        "CLK_RGBx",
        "CLK_DEPTH",
        "CLK_DEPTH_STENCIL",
        "CLK_sRGB",
        "CLK_sRGBx",
        "CLK_sRGBA",
        "CLK_sBGRA",
        "CLK_ABGR",
    ];
    for (i, name) in channel_orders.into_iter().enumerate() {
        let req = if i >= 15 { cl20 } else { none };
        list.push((name, int.clone(), I(0x10B0 + i as i128), req));
    }
    let math = [
        ("E", c::E),
        ("LOG2E", c::LOG2_E),
        ("LOG10E", c::LOG10_E),
        ("LN2", c::LN_2),
        ("LN10", c::LN_10),
        ("PI", c::PI),
        ("PI_2", c::FRAC_PI_2),
        ("PI_4", c::FRAC_PI_4),
        ("1_PI", c::FRAC_1_PI),
        ("2_PI", c::FRAC_2_PI),
        ("2_SQRTPI", c::FRAC_2_SQRT_PI),
        ("SQRT2", c::SQRT_2),
        ("SQRT1_2", c::FRAC_1_SQRT_2),
    ];
    for (suffix, v) in math {
        // Names are leaked once per process: the table lives forever anyway.
        let d: &'static str = Box::leak(format!("M_{suffix}").into_boxed_str());
        let f: &'static str = Box::leak(format!("M_{suffix}_F").into_boxed_str());
        list.push((d, double.clone(), F(v), none));
        list.push((f, float.clone(), f32v(v), none));
    }
    list.into_iter()
        .map(|(name, ty, value, requirement)| (name, Constant { name, ty, value, requirement }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn representative_constants() {
        let v = |n: &str| constant(n).unwrap_or_else(|| panic!("{n}")).value;
        assert_eq!(v("CLK_LOCAL_MEM_FENCE"), ConstValue::Int(1));
        assert_eq!(v("CLK_GLOBAL_MEM_FENCE"), ConstValue::Int(2));
        assert_eq!(v("CLK_IMAGE_MEM_FENCE"), ConstValue::Int(4));
        assert_eq!(v("memory_order_relaxed"), ConstValue::Int(0));
        assert_eq!(v("memory_order_seq_cst"), ConstValue::Int(5));
        assert_eq!(v("memory_scope_sub_group"), ConstValue::Int(4));
        assert_eq!(v("CLK_FLOAT"), ConstValue::Int(0x10DE));
        assert_eq!(v("CLK_UNORM_INT24"), ConstValue::Int(0x10DF));
        assert_eq!(v("CLK_RGBA"), ConstValue::Int(0x10B5));
        assert_eq!(v("CLK_sRGBA"), ConstValue::Int(0x10C1));
        assert_eq!(v("CLK_ABGR"), ConstValue::Int(0x10C3));
        assert_eq!(v("CLK_FILTER_LINEAR"), ConstValue::Int(0x20));
        assert_eq!(v("UINT_MAX"), ConstValue::Int(0xffff_ffff));
        assert_eq!(v("M_PI_F"), ConstValue::Float(f64::from(std::f32::consts::PI)));
        assert_eq!(v("M_PI"), ConstValue::Float(std::f64::consts::PI));
        assert_eq!(v("FLT_EPSILON"), ConstValue::Float(f64::from(f32::EPSILON)));
        assert!(matches!(v("NAN"), ConstValue::Float(x) if x.is_nan()));
        assert_eq!(constant("memory_order_acquire").map(|c| c.ty.clone()), Some(Ty::MemoryOrder));
        assert_eq!(constant("ULONG_MAX").map(|c| c.ty.clone()), Some(Ty::ULONG));
        assert_eq!(constant("CLK_sRGB").map(|c| c.requirement.min_version), Some(Version::Cl20));
        assert!(constant("CLK_NOT_A_THING").is_none());
        assert!(all_constants().count() > 130, "{}", all_constants().count());
    }
}
