//! OpenCL C's `printf` format (§6.13.13.2): text and conversions
//! `%[flags][width][.precision][vector][length]conversion`, where the
//! vector specifier is `v2`, `v3`, `v4`, `v8` or `v16` and the length
//! modifiers are C's plus `hl` (32-bit vector elements). The checker warns
//! about formats that disagree with their arguments; the native code
//! generator rewrites formats for the C library.

/// One conversion of an OpenCL format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// Flags, width and precision, as written (`-08.3`).
    pub head: String,
    /// `*` for the width or the precision, each taking an `int` argument.
    pub stars: usize,
    /// The vector specifier's lane count.
    pub lanes: Option<u8>,
    /// The conversion character.
    pub conv: u8,
    /// The length modifier as written (`""`, `hh`, `h`, `hl`, `l`, `ll`).
    pub length: &'static str,
    /// Where the conversion starts in the format (the `%`), and its length.
    pub at: usize,
    pub len: usize,
}

/// A format: literal text and conversions in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    Text(Vec<u8>),
    Conv(Conversion),
}

/// Splits an OpenCL format into text and conversions. A `%` that does not
/// start a valid conversion is kept as text (printed as written).
pub fn parse(fmt: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut text = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            text.push(fmt[i]);
            i += 1;
            continue;
        }
        if fmt.get(i + 1) == Some(&b'%') {
            text.push(b'%');
            i += 2;
            continue;
        }
        match conversion(&fmt[i + 1..]) {
            Some((mut c, len)) => {
                c.at = i;
                c.len = 1 + len;
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Conv(c));
                i += 1 + len;
            }
            None => {
                text.push(b'%');
                i += 1;
            }
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    pieces
}

/// Where a `%` starts no valid conversion (offsets of the `%`).
pub fn invalid_percents(fmt: &[u8]) -> Vec<usize> {
    let mut bad = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
        } else if fmt.get(i + 1) == Some(&b'%') {
            i += 2;
        } else {
            match conversion(&fmt[i + 1..]) {
                Some((_, len)) => i += 1 + len,
                None => {
                    bad.push(i);
                    i += 1;
                }
            }
        }
    }
    bad
}

/// The conversion after a `%`, and how many bytes it spans.
fn conversion(s: &[u8]) -> Option<(Conversion, usize)> {
    let mut i = 0;
    let mut head = String::new();
    let mut stars = 0;
    while let Some(&c) = s.get(i) {
        if b"-+ #0".contains(&c) {
            head.push(c as char);
            i += 1;
        } else {
            break;
        }
    }
    let digits = |i: &mut usize, head: &mut String, stars: &mut usize| {
        if s.get(*i) == Some(&b'*') {
            head.push('*');
            *stars += 1;
            *i += 1;
            return;
        }
        while let Some(&c) = s.get(*i).filter(|c| c.is_ascii_digit()) {
            head.push(c as char);
            *i += 1;
        }
    };
    digits(&mut i, &mut head, &mut stars);
    if s.get(i) == Some(&b'.') {
        head.push('.');
        i += 1;
        digits(&mut i, &mut head, &mut stars);
    }
    let mut lanes = None;
    if s.get(i) == Some(&b'v') {
        let n = match (s.get(i + 1), s.get(i + 2)) {
            (Some(b'1'), Some(b'6')) => 16,
            (Some(b'2'), _) => 2,
            (Some(b'3'), _) => 3,
            (Some(b'4'), _) => 4,
            (Some(b'8'), _) => 8,
            _ => return None,
        };
        i += if n == 16 { 3 } else { 2 };
        lanes = Some(n);
    }
    let mut length = "";
    for m in ["hh", "hl", "ll", "h", "l"] {
        if s[i..].starts_with(m.as_bytes()) {
            i += m.len();
            length = m;
            break;
        }
    }
    let conv = *s.get(i)?;
    if !b"diouxXcsfFeEgGaAp".contains(&conv) {
        return None;
    }
    Some((Conversion { head, stars, lanes, conv, length, at: 0, len: 0 }, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A conversion, compared without its position.
    fn conv(head: &str, lanes: Option<u8>, conv: u8) -> Piece {
        Piece::Conv(Conversion { head: head.into(), stars: head.matches('*').count(), lanes, conv, length: "", at: 0, len: 0 })
    }

    fn unplaced(pieces: Vec<Piece>) -> Vec<Piece> {
        pieces
            .into_iter()
            .map(|p| match p {
                Piece::Conv(c) => Piece::Conv(Conversion { at: 0, len: 0, length: "", ..c }),
                t => t,
            })
            .collect()
    }

    #[test]
    fn formats_split_into_text_and_conversions() {
        assert_eq!(unplaced(parse(b"x=%d\n")), vec![Piece::Text(b"x=".to_vec()), conv("", None, b'd'), Piece::Text(b"\n".to_vec())]);
        assert_eq!(unplaced(parse(b"%v4hlf|%-8.3v2f|%#v16hhx")), vec![conv("", Some(4), b'f'), Piece::Text(b"|".to_vec()), conv("-8.3", Some(2), b'f'), Piece::Text(b"|".to_vec()), conv("#", Some(16), b'x')]);
        assert_eq!(unplaced(parse(b"100%% %ld %*.*f")), vec![Piece::Text(b"100% ".to_vec()), conv("", None, b'd'), Piece::Text(b" ".to_vec()), conv("*.*", None, b'f')]);
        // Not a conversion: kept as text.
        assert_eq!(unplaced(parse(b"50%! %v5d %q")), vec![Piece::Text(b"50%! %v5d %q".to_vec())]);
        assert_eq!(unplaced(parse(b"% o")), vec![conv(" ", None, b'o')]);
    }

    #[test]
    fn invalid_conversions_are_found() {
        assert_eq!(invalid_percents(b"%d %% %q %v5d %5.2f %"), vec![6, 9, 20]);
    }

    #[test]
    fn conversions_know_their_place_and_length() {
        let p = parse(b"ab%-4v4hlf%ld");
        let Piece::Conv(c) = &p[1] else { panic!("{p:?}") };
        assert_eq!((c.at, c.len, c.length, c.lanes), (2, 8, "hl", Some(4)));
        let Piece::Conv(c) = &p[2] else { panic!("{p:?}") };
        assert_eq!((c.at, c.len, c.length), (10, 3, "l"));
    }
}
