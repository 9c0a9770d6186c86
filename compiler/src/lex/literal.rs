//! Decoding literal tokens: pp-numbers into integer or floating values,
//! character and string literals into their values.
//!
//! The lexer accepts any pp-number; whether it is a valid C literal is
//! decided here, after preprocessing. Errors are plain messages: the caller
//! knows the token's span and makes the diagnostic.

/// Integer suffix: `u`, `l`, `ul`, `ll`, … (OpenCL's `long` is 64-bit,
/// so `ll` means the same as `l`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntSuffix {
    pub unsigned: bool,
    pub long: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix: `double`.
    None,
    /// `f` / `F`: `float`.
    F,
    /// `h` / `H`: `half`.
    H,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberLit {
    Int {
        value: u64,
        suffix: IntSuffix,
        /// 10 for decimal; 8 and 16 also allow unsigned types without `u`.
        radix: u32,
    },
    Float {
        /// The value rounded once to `double`.
        value: f64,
        /// The value rounded once to `float` (not via `double`, which could
        /// round twice).
        value_f32: f32,
        suffix: FloatSuffix,
    },
}

/// Parses a pp-number as a C99 integer or floating literal.
pub fn parse_number(text: &str) -> Result<NumberLit, String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if is_float(&lower, is_hex) {
        parse_float(text, &lower, is_hex)
    } else {
        let (digits, radix, suffix) = int_parts(text, &lower, is_hex)?;
        let value = u64::from_str_radix(digits, radix).map_err(|_| "integer constant is too large for any integer type".to_string())?;
        Ok(NumberLit::Int { value, suffix, radix })
    }
}

/// An integer literal of a `#if` line, whose arithmetic is 128-bit
/// (clang's `intmax_t` for OpenCL): [`parse_pp_number`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpInt {
    /// The value modulo 2^128.
    pub value: u128,
    /// The digits do not fit in 128 bits (`value` is what is left).
    pub overflow: bool,
    pub suffix: IntSuffix,
    pub radix: u32,
}

/// Parses a pp-number of a `#if` line: an integer of up to 128 bits
/// (`Ok(Some(..))`), a valid floating literal (`Ok(None)`, which `#if`
/// rejects), or what is wrong with it, in the words of [`parse_number`].
/// The parser's literals stay 64-bit ([`parse_number`]): no C type is wider.
pub fn parse_pp_number(text: &str) -> Result<Option<PpInt>, String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if is_float(&lower, is_hex) {
        return parse_float(text, &lower, is_hex).map(|_| None);
    }
    let (digits, radix, suffix) = int_parts(text, &lower, is_hex)?;
    let mut value: u128 = 0;
    let mut overflow = false;
    for d in digits.chars().filter_map(|c| c.to_digit(radix)) {
        let (v, o1) = value.overflowing_mul(u128::from(radix));
        let (v, o2) = v.overflowing_add(u128::from(d));
        overflow |= o1 || o2;
        value = v;
    }
    Ok(Some(PpInt { value, overflow, suffix, radix }))
}

fn is_float(lower: &str, is_hex: bool) -> bool {
    if is_hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}

/// An integer literal's digits (without `0x` or the octal `0`), radix and
/// suffix.
fn int_parts<'a>(text: &str, lower: &'a str, is_hex: bool) -> Result<(&'a str, u32, IntSuffix), String> {
    let (radix, body) = if is_hex {
        (16, &lower[2..])
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower)
    };
    let digits_end = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    let (digits, suffix_text) = body.split_at(digits_end);
    let suffix = match suffix_text {
        "" => IntSuffix::default(),
        "u" => IntSuffix { unsigned: true, long: false },
        "l" | "ll" => IntSuffix { unsigned: false, long: true },
        "ul" | "lu" | "ull" | "llu" => IntSuffix { unsigned: true, long: true },
        _ => {
            if radix == 8 && suffix_text.starts_with(['8', '9']) {
                return Err(format!("invalid digit '{}' in octal constant", &suffix_text[..1]));
            }
            return Err(format!("invalid suffix '{}' on integer constant", &text[text.len() - suffix_text.len()..]));
        }
    };
    // `ll` vs `LL` must match in case; `lL` is invalid in C.
    let raw_suffix = &text[text.len() - suffix_text.len()..];
    if raw_suffix.contains("lL") || raw_suffix.contains("Ll") {
        return Err(format!("invalid suffix '{raw_suffix}' on integer constant"));
    }
    if digits.is_empty() {
        if radix == 8 {
            // "0" followed by a suffix: the leading zero was the digit.
            return Ok(("0", 10, suffix));
        }
        return Err("hexadecimal constant has no digits".into());
    }
    Ok((digits, radix, suffix))
}

fn parse_float(text: &str, lower: &str, is_hex: bool) -> Result<NumberLit, String> {
    let (body, suffix) = match lower.as_bytes().last() {
        Some(b'f') if !is_hex || lower.contains('p') => (&lower[..lower.len() - 1], FloatSuffix::F),
        Some(b'h') => (&lower[..lower.len() - 1], FloatSuffix::H),
        _ => (lower, FloatSuffix::None),
    };
    if is_hex {
        let (value, value_f32) = parse_hex_float(&body[2..]).ok_or_else(|| format!("invalid hexadecimal floating constant '{text}'"))?;
        return Ok(NumberLit::Float { value, value_f32, suffix });
    }
    let valid = {
        let (mantissa, exp) = match body.find('e') {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let m_ok = !mantissa.is_empty()
            && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.')
            && mantissa.matches('.').count() <= 1
            && mantissa != ".";
        let e_ok = exp.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        });
        m_ok && e_ok
    };
    if !valid {
        return Err(format!("invalid floating constant '{text}'"));
    }
    let value: f64 = body.parse().map_err(|_| format!("invalid floating constant '{text}'"))?;
    let value_f32: f32 = body.parse().map_err(|_| format!("invalid floating constant '{text}'"))?;
    Ok(NumberLit::Float { value, value_f32, suffix })
}

/// clang's -Wliteral-range: the message for a floating constant that is
/// infinite in its type, or zero though its digits are not (`1e40f`,
/// `1e-50f`); `text` is how it is written, the rest what
/// [`parse_number`] made of it.
pub fn float_out_of_range(text: &str, value: f64, value_f32: f32, suffix: FloatSuffix) -> Option<String> {
    let nonzero = || match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => hex.split(['p', 'P']).next().is_some_and(|m| m.chars().any(|c| c.is_ascii_hexdigit() && c != '0')),
        None => text.split(['e', 'E']).next().is_some_and(|m| m.chars().any(|c| matches!(c, '1'..='9'))),
    };
    // clang prints the type's limits in the type's natural precision.
    let (ty, large, small, max, min) = match suffix {
        FloatSuffix::F => ("float", value_f32.is_infinite(), value_f32 == 0.0, "3.40282347E+38", "1.40129846E-45"),
        FloatSuffix::None => ("double", value.is_infinite(), value == 0.0, "1.7976931348623157E+308", "4.9406564584124654E-324"),
        // Round to nearest even: 65520 goes up to infinity, 2^-25 down to 0.
        FloatSuffix::H => ("half", value >= 65520.0, value <= 2f64.powi(-25), "65504", "5.9605E-8"),
    };
    if large {
        Some(format!("magnitude of floating-point constant too large for type '{ty}'; maximum is {max}"))
    } else if small && nonzero() {
        Some(format!("magnitude of floating-point constant too small for type '{ty}'; minimum is {min}"))
    } else {
        None
    }
}

/// `1.8p3` (without the `0x`): hex mantissa, binary exponent (required).
fn parse_hex_float(s: &str) -> Option<(f64, f32)> {
    let p = s.find('p')?;
    let (mant, exp) = (&s[..p], &s[p + 1..]);
    let exp: i32 = exp.parse().ok()?;
    if mant.is_empty() || mant == "." || mant.matches('.').count() > 1 {
        return None;
    }
    let mut bits: u128 = 0;
    let mut shift: i32 = 0;
    let mut sticky = false;
    let mut after_point = false;
    let mut any = false;
    for c in mant.chars() {
        if c == '.' {
            after_point = true;
            continue;
        }
        let d = c.to_digit(16)? as u128;
        any = true;
        if bits >> 120 == 0 {
            bits = bits << 4 | d;
            if after_point {
                shift -= 4;
            }
        } else {
            sticky |= d != 0;
            if !after_point {
                shift += 4;
            }
        }
    }
    if !any {
        return None;
    }
    let e = exp.checked_add(shift)?;
    Some((scale_binary::<53>(bits, sticky, e), scale_binary::<24>(bits, sticky, e) as f32))
}

/// Rounds `bits * 2^e` (plus a sticky bit for nonzero digits dropped
/// below `bits`) to a binary float with `P` bits of precision, to
/// nearest-even, honouring subnormals. The result is exact in f64 for
/// `P <= 53`, so `as f32` after `P = 24` does not round a second time.
fn scale_binary<const P: u32>(mut bits: u128, sticky: bool, mut e: i32) -> f64 {
    if bits == 0 {
        return 0.0;
    }
    let (min_exp, max) = if P == 24 { (-126, f32::MAX as f64) } else { (-1022, f64::MAX) };
    let width = 128 - bits.leading_zeros() as i32;
    let lead = width - 1 + e;
    // Below the smallest normal exponent fewer bits fit.
    let keep = if lead < min_exp { P as i32 - (min_exp - lead) } else { P as i32 };
    let drop = width - keep;
    if drop > 0 {
        if drop > 127 {
            bits = 0;
        } else {
            let half = 1u128 << (drop - 1);
            let rem = bits & ((1u128 << drop) - 1);
            bits >>= drop;
            if rem > half || (rem == half && (sticky || bits & 1 == 1)) {
                bits += 1;
            }
        }
        e += drop;
    }
    let v = ldexp(bits as f64, e);
    if v > max { f64::INFINITY } else { v }
}

/// `x * 2^e` in steps that stay exact while the result is representable.
fn ldexp(mut x: f64, mut e: i32) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e)
}

/// Decodes a character literal (`'a'`, `'\n'`, `'\x41'`, `L'x'`).
pub fn parse_char(text: &str) -> Result<i64, String> {
    let body = text.trim_start_matches(['L', 'u', 'U', '8']);
    let inner = &body[1..body.len() - 1];
    let values: Vec<u32> = decode_escapes(inner)?.into_iter().map(|u| u.value).collect();
    match values.as_slice() {
        [] => Err("empty character constant".into()),
        [v] => Ok(*v as u8 as i8 as i64),
        // Multi-character constants: implementation-defined; clang packs
        // bytes big-endian into an int.
        many => Ok(many.iter().fold(0i64, |acc, &v| (acc << 8) | (v as u8 as i64)) as i32 as i64),
    }
}

/// Decodes a string literal's bytes (without the terminating NUL).
pub fn parse_string(text: &str) -> Result<Vec<u8>, String> {
    let body = text.trim_start_matches(['L', 'u', 'U', '8']);
    let inner = &body[1..body.len() - 1];
    let values = decode_escapes(inner)?;
    let mut out = Vec::with_capacity(values.len());
    for Unit { value: v, universal } in values {
        if !universal {
            out.push(v as u8);
        } else {
            let mut buf = [0u8; 4];
            let c = char::from_u32(v).ok_or_else(|| format!("invalid universal character \\u{v:x}"))?;
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Ok(out)
}

/// The unknown escape sequences of a character or string literal's text
/// (`"a\ b"`): each one's byte offset in `text` and its character. Each
/// stands for the character itself, with clang's warning.
pub fn unknown_escapes(text: &str) -> Vec<(usize, char)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let c = b[i + 1];
        if !matches!(c, b'n' | b't' | b'r' | b'a' | b'b' | b'f' | b'v' | b'\\' | b'\'' | b'"' | b'?' | b'\n' | b'0'..=b'7' | b'x' | b'u' | b'U') {
            out.push((i, text[i + 1..].chars().next().unwrap_or(' ')));
        }
        i += 2;
    }
    out
}

/// One decoded element of a literal.
struct Unit {
    value: u32,
    /// From `\u`/`\U`: a code point to encode as UTF-8, not a byte.
    universal: bool,
}

/// Escape sequences to code units; plain characters become their UTF-8
/// bytes.
fn decode_escapes(s: &str) -> Result<Vec<Unit>, String> {
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(Unit { value: b[i] as u32, universal: false });
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else { return Err("unterminated escape sequence".into()) };
        i += 1;
        let v = match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c as u32,
            b'\n' => continue,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                if v > 0xff {
                    return Err("octal escape sequence out of range".into());
                }
                v
            }
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                if start == i {
                    return Err("\\x used with no following hex digits".into());
                }
                let v = u64::from_str_radix(&s[start..i], 16).unwrap_or(u64::MAX);
                if v > 0xff {
                    return Err("hex escape sequence out of range".into());
                }
                v as u32
            }
            b'u' | b'U' => {
                let n = if c == b'u' { 4 } else { 8 };
                let hex = s.get(i..i + n).filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
                let Some(hex) = hex else { return Err(format!("incomplete universal character name; expected {n} hex digits")) };
                i += n;
                u32::from_str_radix(hex, 16).map_err(|_| "invalid universal character name".to_string())?
            }
            // An unknown escape is the character itself (clang warns:
            // see `unknown_escapes`).
            other => other as u32,
        };
        out.push(Unit { value: v, universal: c == b'u' || c == b'U' });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> (u64, bool, bool) {
        match parse_number(s).unwrap() {
            NumberLit::Int { value, suffix, .. } => (value, suffix.unsigned, suffix.long),
            f => panic!("{s} parsed as {f:?}"),
        }
    }

    fn float(s: &str) -> (f64, f32, FloatSuffix) {
        match parse_number(s).unwrap() {
            NumberLit::Float { value, value_f32, suffix } => (value, value_f32, suffix),
            i => panic!("{s} parsed as {i:?}"),
        }
    }

    #[test]
    fn integers_in_every_radix_and_suffix() {
        assert_eq!(int("0"), (0, false, false));
        assert_eq!(int("42"), (42, false, false));
        assert_eq!(int("0x1F"), (31, false, false));
        assert_eq!(int("017"), (15, false, false));
        assert_eq!(int("10u"), (10, true, false));
        assert_eq!(int("10UL"), (10, true, true));
        assert_eq!(int("10llu"), (10, true, true));
        assert_eq!(int("0u"), (0, true, false));
        assert_eq!(int("18446744073709551615"), (u64::MAX, false, false));
    }

    #[test]
    fn bad_integers_say_why() {
        assert_eq!(parse_number("08").unwrap_err(), "invalid digit '8' in octal constant");
        assert_eq!(parse_number("1abc").unwrap_err(), "invalid suffix 'abc' on integer constant");
        assert_eq!(parse_number("1lL").unwrap_err(), "invalid suffix 'lL' on integer constant");
        assert!(parse_number("18446744073709551616").unwrap_err().contains("too large"));
        assert!(parse_number("0x").is_err());
    }

    #[test]
    fn pp_integers_are_128_bit() {
        let pp = |s: &str| parse_pp_number(s).unwrap().unwrap();
        assert_eq!(pp("18446744073709551616").value, 1 << 64);
        assert!(!pp("18446744073709551616").overflow);
        let max = pp("340282366920938463463374607431768211455");
        assert_eq!((max.value, max.overflow, max.radix), (u128::MAX, false, 10));
        let over = pp("340282366920938463463374607431768211457");
        assert_eq!((over.value, over.overflow), (1, true));
        assert!(pp("0x1_0000_0000_0000_0000_0000_0000_0000_0000".replace('_', "").as_str()).overflow);
        assert_eq!(pp("0u").value, 0);
        assert!(pp("077ULL").suffix.unsigned);
        assert_eq!(parse_pp_number("1.5f"), Ok(None));
        assert_eq!(parse_pp_number("08").unwrap_err(), "invalid digit '8' in octal constant");
        assert_eq!(parse_pp_number("1e").unwrap_err(), "invalid floating constant '1e'");
        // The parser's literals keep their 64-bit limit.
        assert!(parse_number("18446744073709551616").is_err());
    }

    #[test]
    fn floats_out_of_their_types_range() {
        let check = |t: &str| match parse_number(t).unwrap() {
            NumberLit::Float { value, value_f32, suffix } => float_out_of_range(t, value, value_f32, suffix),
            i => panic!("{t} parsed as {i:?}"),
        };
        assert_eq!(check("1e40f").unwrap(), "magnitude of floating-point constant too large for type 'float'; maximum is 3.40282347E+38");
        assert_eq!(check("1e-50F").unwrap(), "magnitude of floating-point constant too small for type 'float'; minimum is 1.40129846E-45");
        assert!(check("1e400").unwrap().contains("'double'; maximum is 1.7976931348623157E+308"));
        assert!(check("1e-400").unwrap().contains("too small for type 'double'"));
        assert!(check("0x1p200f").unwrap().contains("too large for type 'float'"));
        assert!(check("65520.0h").unwrap().contains("'half'; maximum is 65504"));
        assert!(check("1e-9h").unwrap().contains("'half'; minimum is 5.9605E-8"));
        for fine in ["0.0e-999f", "0x0p-500", "1e-45f", "3.4028235e38f", "65504.0h", "1e38f", "1e308", "0.0"] {
            assert_eq!(check(fine), None, "{fine}");
        }
    }

    #[test]
    fn floats_decimal_and_hex() {
        assert_eq!(float("1.5"), (1.5, 1.5, FloatSuffix::None));
        assert_eq!(float("1.5f"), (1.5, 1.5, FloatSuffix::F));
        assert_eq!(float("2.0h").2, FloatSuffix::H);
        assert_eq!(float("1e3").0, 1000.0);
        assert_eq!(float(".5e-1").0, 0.05);
        assert_eq!(float("1.").0, 1.0);
        assert_eq!(float("0x1p-3").0, 0.125);
        assert_eq!(float("0x1.8p1f"), (3.0, 3.0, FloatSuffix::F));
        assert_eq!(float("0xA.8p0").0, 10.5);
        assert_eq!(float("0x1.fffffffffffffp1023").0, f64::MAX);
        assert_eq!(float("0x1p-1074").0, f64::from_bits(1));
        assert_eq!(float("0x1.fffffep127f").1, f32::MAX);
        // 0.1 as float, rounded once from the decimal text.
        assert_eq!(float("0.1f").1, 0.1f32);
    }

    #[test]
    fn bad_floats() {
        assert!(parse_number("1.5q").is_err());
        assert!(parse_number("1e").is_err());
        assert!(parse_number("1.2.3").is_err());
        assert!(parse_number("0x1.8").is_err(), "hex floats need an exponent");
    }

    #[test]
    fn chars_and_strings() {
        assert_eq!(parse_char("'a'").unwrap(), 97);
        assert_eq!(parse_char("'\\n'").unwrap(), 10);
        assert_eq!(parse_char("'\\x41'").unwrap(), 65);
        assert_eq!(parse_char("'\\377'").unwrap(), -1);
        assert_eq!(parse_char("'ab'").unwrap(), 0x6162);
        assert!(parse_char("''").is_err());
        // An unknown escape is the character itself, with a warning.
        assert_eq!(parse_char("'\\q'").unwrap(), 113);
        assert_eq!(unknown_escapes("\"a\\ b\\n\\q\""), vec![(2, ' '), (7, 'q')]);
        assert_eq!(parse_string("\"a\\tb\\0\"").unwrap(), b"a\tb\0");
        assert_eq!(parse_string("\"\\u00e9\"").unwrap(), "é".as_bytes());
    }
}
