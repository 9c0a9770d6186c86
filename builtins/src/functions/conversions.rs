//! `convert_<T>[_sat][_<rounding>]` and `as_<T>`, decoded from the name.
//!
//! There are 570 `convert_*` names with 11 source types each and 66 `as_*`
//! names; rather than storing ~6,500 overloads, [`decode`] parses a name
//! and builds its overloads on demand (a few dozen allocations, only for
//! names that are called).
//!
//! Rules (§6.2.3, §6.2.4): conversions go between any two of `char` …
//! `ulong`, `half`, `float`, `double` (never `bool`, `size_t`) of equal
//! width; `_sat` only for integer destinations; any rounding mode for any
//! pair (clang declares them all). `as_T(x)` needs `sizeof(T) ==
//! sizeof(x)`, where a 3-element vector has the size of a 4-element one, so
//! `as_int3(float4)` and `as_int3(float3)` are valid and `as_int2(float4)`
//! is not.

use std::borrow::Cow;

use super::table::{is_integer, size_of, type_requirement};
use super::{Attrs, Lowering, Overload, Purity, Special, Ty};
use crate::types::Scalar::{self, *};

/// A floating-point rounding mode suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// To nearest even.
    Rte,
    /// Toward zero.
    Rtz,
    /// Toward positive infinity.
    Rtp,
    /// Toward negative infinity.
    Rtn,
}

impl Rounding {
    pub const ALL: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

    pub fn suffix(self) -> &'static str {
        match self {
            Rounding::Rte => "rte",
            Rounding::Rtz => "rtz",
            Rounding::Rtp => "rtp",
            Rounding::Rtn => "rtn",
        }
    }
}

const ELEMS: [Scalar; 11] = [Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double];
const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];
const CONST: Attrs = Attrs { convergent: false, purity: Purity::Const, special: Special::None };

/// Parses a type word of a conversion name: `uchar4`, `float`, …
fn parse_type(word: &str) -> Option<Ty> {
    let split = word.find(|c: char| c.is_ascii_digit()).unwrap_or(word.len());
    let (elem, width) = word.split_at(split);
    let s = Scalar::from_name(elem)?;
    if width.is_empty() {
        return Some(Ty::Scalar(s));
    }
    let n: u8 = width.parse().ok()?;
    if n == 1 || !WIDTHS.contains(&n) || width.starts_with('0') {
        return None;
    }
    Some(Ty::Vector(s, n))
}

fn byte_size(t: &Ty) -> u32 {
    match t {
        Ty::Scalar(s) => size_of(*s),
        Ty::Vector(s, 3) => size_of(*s) * 4,
        Ty::Vector(s, n) => size_of(*s) * u32::from(*n),
        _ => 0,
    }
}

fn overload(name: &str, ret: Ty, param: Ty, lowering: Lowering) -> Overload {
    let requirement = type_requirement(&ret).and(type_requirement(&param));
    Overload {
        name: Cow::Owned(name.to_owned()),
        params: vec![param],
        ret,
        variadic: false,
        requirement,
        lowering,
        attrs: CONST,
    }
}

/// The overloads of a `convert_*` or `as_*` name, or `None` if the name is
/// not one.
pub(super) fn decode(name: &str) -> Option<Vec<Overload>> {
    if let Some(rest) = name.strip_prefix("convert_") {
        let mut parts = rest.split('_');
        let dst = parse_type(parts.next()?)?;
        let mut sat = false;
        let mut rounding = None;
        let mut next = parts.next();
        if next == Some("sat") {
            sat = true;
            next = parts.next();
        }
        if let Some(word) = next {
            rounding = Some(Rounding::ALL.into_iter().find(|r| r.suffix() == word)?);
        }
        if parts.next().is_some() {
            return None;
        }
        let elem = dst.element()?;
        if sat && !is_integer(elem) {
            return None;
        }
        let n = dst.width()?;
        let lowering = Lowering::Convert { sat, rounding };
        return Some(ELEMS.iter().map(|&s| overload(name, dst.clone(), Ty::vec(s, n), lowering)).collect());
    }
    if let Some(rest) = name.strip_prefix("as_") {
        let dst = parse_type(rest)?;
        let size = byte_size(&dst);
        let sources = ELEMS.iter().flat_map(|&s| WIDTHS.map(|n| Ty::vec(s, n)));
        return Some(
            sources
                .filter(|src| byte_size(src) == size)
                .map(|src| overload(name, dst.clone(), src, Lowering::AsType))
                .collect(),
        );
    }
    None
}

/// Every `convert_*` and `as_*` name [`decode`] accepts.
pub fn conversion_names() -> Vec<String> {
    let mut names = Vec::new();
    for s in ELEMS {
        for n in WIDTHS {
            let t = Ty::vec(s, n).to_string();
            names.push(format!("as_{t}"));
            let sats: &[bool] = if is_integer(s) { &[false, true] } else { &[false] };
            for &sat in sats {
                let sat = if sat { "_sat" } else { "" };
                names.push(format!("convert_{t}{sat}"));
                for r in Rounding::ALL {
                    names.push(format!("convert_{t}{sat}_{}", r.suffix()));
                }
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_and_others_do_not() {
        for name in conversion_names() {
            assert!(decode(&name).is_some_and(|o| !o.is_empty()), "{name}");
        }
        for bad in [
            "convert_float_sat",
            "convert_int5",
            "convert_int_rte_sat",
            "convert_bool",
            "convert_int4_",
            "convert_int01",
            "as_size_t",
            "as_int4_sat",
            "convert_",
            "as_",
        ] {
            assert!(decode(bad).is_none(), "{bad}");
        }
        assert_eq!(decode("convert_int").map(|o| o.len()), Some(11));
    }
}
