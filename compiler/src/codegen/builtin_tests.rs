//! Execution tests of the builtin library on the CPU: the integer
//! (§6.13.3), common (§6.13.4), geometric (§6.13.5) and relational
//! (§6.13.6) functions and the conversions (§6.2.3), built with
//! [`crate::jit::build`] and run over buffers, at every vector width,
//! against references written here from the spec's definitions.
//!
//! The 8-bit integer functions see every pair of arguments, the 16-bit
//! unary ones every argument, the conversions from 8- and 16-bit types
//! every source value; wider types see edge values and a seeded random
//! sample. `CLC_SLOW_TESTS=1` widens the samples (every 8-bit triple,
//! 2^24 random 16-bit pairs, larger random samples).

use crate::jit::{BuildOptions, build};
use clc_runtime::{Arg, Buffer, NdRange, Program};

fn slow() -> bool {
    std::env::var("CLC_SLOW_TESTS").is_ok_and(|v| v == "1")
}

/// SplitMix64: a small seeded generator for reproducible samples.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn program(src: &str) -> Program {
    let src = format!("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n{src}");
    build(&src, "lib.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Runs kernel `name` over `n` work-items with `bufs` as its arguments.
fn run(p: &Program, name: &str, n: usize, bufs: &[&Buffer]) {
    let mut k = p.kernel(name).unwrap();
    for (i, b) in bufs.iter().enumerate() {
        k.set_arg(i, Arg::Buffer(b)).unwrap();
    }
    if n > 0 {
        k.launch(&NdRange::linear(n)).unwrap();
    }
}

const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];

/// `T` or `T<n>`.
fn vec_name(t: &str, n: usize) -> String {
    if n == 1 { t.to_string() } else { format!("{t}{n}") }
}

/// Source that loads element group `i` of `p` as a `t<w>`.
fn load(w: usize, p: &str) -> String {
    if w == 1 { format!("{p}[i]") } else { format!("vload{w}(i, {p})") }
}

/// Source that stores `e` as element group `i` of `p + off`.
fn store(w: usize, e: &str, p: &str, off: usize) -> String {
    if w == 1 { format!("{p}[{off} + i] = {e};") } else { format!("vstore{w}({e}, i, {p} + {off});") }
}

// ---------------------------------------------------------------------
// Integers
// ---------------------------------------------------------------------

/// An OpenCL integer type, values held exactly as `i128`.
#[derive(Clone, Copy, Debug)]
struct IntTy {
    name: &'static str,
    bits: u32,
    signed: bool,
}

const CHAR: IntTy = IntTy { name: "char", bits: 8, signed: true };
const UCHAR: IntTy = IntTy { name: "uchar", bits: 8, signed: false };
const SHORT: IntTy = IntTy { name: "short", bits: 16, signed: true };
const USHORT: IntTy = IntTy { name: "ushort", bits: 16, signed: false };
const INT: IntTy = IntTy { name: "int", bits: 32, signed: true };
const UINT: IntTy = IntTy { name: "uint", bits: 32, signed: false };
const LONG: IntTy = IntTy { name: "long", bits: 64, signed: true };
const ULONG: IntTy = IntTy { name: "ulong", bits: 64, signed: false };
const INTS: [IntTy; 8] = [CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG];

impl IntTy {
    fn min(self) -> i128 {
        if self.signed { -(1i128 << (self.bits - 1)) } else { 0 }
    }
    fn max(self) -> i128 {
        if self.signed { (1i128 << (self.bits - 1)) - 1 } else { (1i128 << self.bits) - 1 }
    }
    /// `v` modulo 2^bits, in the type's range.
    fn wrap(self, v: i128) -> i128 {
        let m = v.rem_euclid(1i128 << self.bits);
        if self.signed && m > self.max() { m - (1i128 << self.bits) } else { m }
    }
    fn sat(self, v: i128) -> i128 {
        v.clamp(self.min(), self.max())
    }
    fn bytes(self) -> usize {
        self.bits as usize / 8
    }
    fn unsigned(self) -> IntTy {
        INTS.into_iter().find(|t| t.bits == self.bits && !t.signed).unwrap()
    }
    fn encode(self, vals: &[i128]) -> Buffer {
        let mut out = Vec::with_capacity(vals.len() * self.bytes());
        for v in vals {
            out.extend_from_slice(&(*v as u64).to_le_bytes()[..self.bytes()]);
        }
        Buffer::from_slice(&out)
    }
    /// Element `i` of `bytes` as this type's unsigned bits.
    fn decode_one(self, bytes: &[u8], i: usize) -> u128 {
        let mut w = [0u8; 8];
        w[..self.bytes()].copy_from_slice(&bytes[i * self.bytes()..(i + 1) * self.bytes()]);
        u64::from_le_bytes(w) as u128
    }
    fn decode(self, b: &Buffer) -> Vec<i128> {
        b.read::<u8>()
            .chunks(self.bytes())
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                self.wrap(u64::from_le_bytes(w) as i128)
            })
            .collect()
    }
    /// The two's complement bits as an unsigned value.
    fn ubits(self, v: i128) -> u128 {
        (v as u128) & ((1u128 << self.bits) - 1)
    }
    /// Edge values: the extremes, around zero and around powers of two.
    fn edges(self) -> Vec<i128> {
        let mut v = vec![self.min(), self.min() + 1, self.max(), self.max() - 1, 0, 1, 2, 3];
        if self.signed {
            v.extend([-1, -2, -3]);
        }
        for k in [self.bits / 2, self.bits - 2, self.bits - 1] {
            let p = 1i128 << k;
            v.extend([p - 1, p, p + 1].map(|x| self.wrap(x)));
        }
        v.sort();
        v.dedup();
        v
    }
}

/// The integer functions under test: source (in `x`, `y`, `z` and the
/// scalars `ys`, `zs`) and the reference on one element.
struct IntFn {
    src: &'static str,
    only_32: bool,
    reference: fn(IntTy, i128, i128, i128) -> i128,
}

fn mul_hi(t: IntTy, x: i128, y: i128) -> i128 {
    if t.bits == 64 && !t.signed { t.wrap(((x as u128 * y as u128) >> 64) as i128) } else { t.wrap((x * y) >> t.bits) }
}

fn mad_sat(t: IntTy, x: i128, y: i128, z: i128) -> i128 {
    if t.bits == 64 && !t.signed {
        let p = x as u128 * y as u128 + z as u128;
        p.min(u64::MAX as u128) as i128
    } else {
        t.sat(x * y + z)
    }
}

/// The low 24 bits, sign-extended for signed types (the operands
/// `mul24`/`mad24` define).
fn low24(t: IntTy, x: i128) -> i128 {
    let m = x & 0xff_ffff;
    if t.signed && m >= 1 << 23 { m - (1 << 24) } else { m }
}

const INT_FNS: &[IntFn] = &[
    IntFn { src: "abs(x)", only_32: false, reference: |t, x, _, _| t.wrap(x.abs()) },
    IntFn { src: "abs_diff(x, y)", only_32: false, reference: |t, x, y, _| t.wrap((x - y).abs()) },
    IntFn { src: "add_sat(x, y)", only_32: false, reference: |t, x, y, _| t.sat(x + y) },
    IntFn { src: "sub_sat(x, y)", only_32: false, reference: |t, x, y, _| t.sat(x - y) },
    IntFn { src: "hadd(x, y)", only_32: false, reference: |_, x, y, _| (x + y).div_euclid(2) },
    IntFn { src: "rhadd(x, y)", only_32: false, reference: |_, x, y, _| (x + y + 1).div_euclid(2) },
    IntFn { src: "max(x, y)", only_32: false, reference: |_, x, y, _| x.max(y) },
    IntFn { src: "min(x, y)", only_32: false, reference: |_, x, y, _| x.min(y) },
    IntFn { src: "mul_hi(x, y)", only_32: false, reference: |t, x, y, _| mul_hi(t, x, y) },
    IntFn {
        src: "rotate(x, y)",
        only_32: false,
        reference: |t, x, y, _| {
            let (n, u) = (t.bits as u128, t.ubits(x));
            let k = t.ubits(y) % n;
            let r = if k == 0 { u } else { ((u << k) | (u >> (n - k))) & ((1u128 << n) - 1) };
            t.wrap(r as i128)
        },
    },
    IntFn { src: "clz(x)", only_32: false, reference: |t, x, _, _| (t.bits - (128 - t.ubits(x).leading_zeros())) as i128 },
    IntFn { src: "ctz(x)", only_32: false, reference: |t, x, _, _| if x == 0 { t.bits as i128 } else { t.ubits(x).trailing_zeros() as i128 } },
    IntFn { src: "popcount(x)", only_32: false, reference: |t, x, _, _| t.ubits(x).count_ones() as i128 },
    IntFn { src: "clamp(x, min(y, z), max(y, z))", only_32: false, reference: |_, x, y, z| x.max(y.min(z)).min(y.max(z)) },
    IntFn { src: "mad_hi(x, y, z)", only_32: false, reference: |t, x, y, z| t.wrap(mul_hi(t, x, y) + z) },
    IntFn { src: "mad_sat(x, y, z)", only_32: false, reference: mad_sat },
    // The forms with scalar second (and third) arguments; `ys`/`zs` are
    // `y`/`z` of the group's first element.
    IntFn { src: "max(x, ys)", only_32: false, reference: |_, x, y, _| x.max(y) },
    IntFn { src: "min(x, ys)", only_32: false, reference: |_, x, y, _| x.min(y) },
    IntFn { src: "clamp(x, min(ys, zs), max(ys, zs))", only_32: false, reference: |_, x, y, z| x.max(y.min(z)).min(y.max(z)) },
    IntFn { src: "mul24(x24, y24)", only_32: true, reference: |t, x, y, _| t.wrap(low24(t, x) * low24(t, y)) },
    IntFn { src: "mad24(x24, y24, z)", only_32: true, reference: |t, x, y, z| t.wrap(low24(t, x) * low24(t, y) + z) },
];

/// Which functions of [`INT_FNS`] apply to `t`.
fn int_fns(t: IntTy) -> Vec<&'static IntFn> {
    INT_FNS.iter().filter(|f| !f.only_32 || t.bits == 32).collect()
}

/// The wider type `upsample` returns for `t`, if any.
fn upsampled(t: IntTy) -> Option<IntTy> {
    (t.bits < 64).then(|| INTS.into_iter().find(|w| w.bits == 2 * t.bits && w.signed == t.signed).unwrap())
}

/// Every function of `t` at every width over the argument triples
/// `(a[i], b[i], c[i])`, against the references. `cache` keeps the
/// program for further calls with as many triples.
fn check_int_fns(t: IntTy, a: &[i128], b: &[i128], c: &[i128], cache: &mut Option<Program>) {
    let n = a.len();
    let fns = int_fns(t);
    let u = t.unsigned();
    let mut src = String::new();
    for w in WIDTHS {
        let tw = vec_name(t.name, w);
        src.push_str(&format!("kernel void f{w}(global const {0} *a, global const {0} *b, global const {0} *c, global {0} *o", t.name));
        if let Some(wide) = upsampled(t) {
            src.push_str(&format!(", global {} *ow", wide.name));
        }
        src.push_str(") {\n size_t i = get_global_id(0);\n");
        src.push_str(&format!(" {tw} x = {}, y = {}, z = {};\n", load(w, "a"), load(w, "b"), load(w, "c")));
        let s0 = if w == 1 { "" } else { ".s0" };
        src.push_str(&format!(" {0} ys = y{s0}, zs = z{s0};\n", t.name));
        if t.bits == 32 {
            let (x24, y24) = if t.signed { ("(x << 8) >> 8", "(y << 8) >> 8") } else { ("x & 0xffffff", "y & 0xffffff") };
            src.push_str(&format!(" {tw} x24 = {x24}, y24 = {y24};\n"));
        }
        for (k, f) in fns.iter().enumerate() {
            src.push_str(&format!(" {}\n", store(w, &format!("as_{tw}({})", f.src), "o", k * n)));
        }
        if let Some(wide) = upsampled(t) {
            let e = format!("as_{}(upsample(x, as_{}(y)))", vec_name(wide.name, w), vec_name(u.name, w));
            src.push_str(&format!(" {}\n", store(w, &e, "ow", 0)));
        }
        src.push_str("}\n");
    }
    let p = cache.get_or_insert_with(|| program(&src));
    let (ba, bb, bc) = (t.encode(a), t.encode(b), t.encode(c));
    let wide = upsampled(t);
    // The references of the element-wise forms, the same at every width.
    let wants: Vec<Option<Vec<i128>>> =
        fns.iter().map(|f| (!f.src.contains("ys")).then(|| (0..n).map(|e| t.wrap((f.reference)(t, a[e], b[e], c[e]))).collect())).collect();
    for w in WIDTHS {
        let o = Buffer::new(fns.len() * n * t.bytes());
        let ow = Buffer::new(n * 2 * t.bytes());
        let mut bufs = vec![&ba, &bb, &bc, &o];
        if wide.is_some() {
            bufs.push(&ow);
        }
        let groups = n / w;
        run(p, &format!("f{w}"), groups, &bufs);
        let got = t.decode(&o);
        for (k, f) in fns.iter().enumerate() {
            for e in 0..groups * w {
                let want = match &wants[k] {
                    Some(v) => v[e],
                    None => {
                        // `ys`/`zs` are the arguments of the group's first element.
                        let first = e / w * w;
                        t.wrap((f.reference)(t, a[e], b[first], c[first]))
                    }
                };
                let have = got[k * n + e];
                if have != want {
                    panic!("{} {}{w}: x={} y={} z={}: got {have}, want {want}", f.src, t.name, a[e], b[e], c[e]);
                }
            }
        }
        if let Some(wide) = wide {
            let got = wide.decode(&ow);
            for e in 0..groups * w {
                let want = wide.wrap((a[e] << t.bits) | u.wrap(b[e]));
                assert_eq!(got[e], want, "upsample {}{w}: hi={} lo={}", t.name, a[e], b[e]);
            }
        }
    }
}

/// Every pair of 8-bit arguments (every triple with `CLC_SLOW_TESTS=1`).
#[test]
fn integer_functions_on_every_8_bit_pair() {
    for t in [CHAR, UCHAR] {
        let mut cache = None;
        let mut rng = Rng(8);
        let thirds: Vec<i128> = if slow() { (0..256).collect() } else { vec![rng.next() as i128 & 0xff] };
        for third in thirds {
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            for e in 0..65536i128 {
                a.push(t.wrap(e & 0xff));
                b.push(t.wrap(e >> 8));
                // Without the slow sweep, the third argument varies too.
                c.push(t.wrap(if slow() { third } else { rng.next() as i128 }));
            }
            check_int_fns(t, &a, &b, &c, &mut cache);
        }
    }
}

/// Every 16-bit value as the first argument, random others, and every
/// pair of edge values.
#[test]
fn integer_functions_on_every_16_bit_value_and_random_pairs() {
    for t in [SHORT, USHORT] {
        let mut cache = None;
        let mut rng = Rng(16);
        let rounds = if slow() { 256 } else { 1 };
        for _ in 0..rounds {
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            for e in 0..65536i128 {
                a.push(t.wrap(e));
                b.push(t.wrap(rng.next() as i128));
                c.push(t.wrap(rng.next() as i128));
            }
            let edges = t.edges();
            for &x in &edges {
                for &y in &edges {
                    a.push(x);
                    b.push(y);
                    c.push(edges[rng.next() as usize % edges.len()]);
                }
            }
            check_int_fns(t, &a, &b, &c, &mut cache);
        }
    }
}

/// Edge values against each other and a random sample.
#[test]
fn integer_functions_on_32_and_64_bit_edges_and_random_values() {
    for t in [INT, UINT, LONG, ULONG] {
        let mut rng = Rng(t.bits as u64);
        let edges = t.edges();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for &x in &edges {
            for &y in &edges {
                a.push(x);
                b.push(y);
                c.push(edges[rng.next() as usize % edges.len()]);
            }
        }
        let random = if slow() { 1 << 20 } else { 4096 };
        for _ in 0..random {
            // Full-range values and small ones (where sums and products
            // stay in range).
            let small = rng.next() % 4 == 0;
            let r = |rng: &mut Rng| if small { t.wrap((rng.next() % 2001) as i128 - 1000) } else { t.wrap(rng.next() as i128) };
            a.push(r(&mut rng));
            b.push(r(&mut rng));
            c.push(r(&mut rng));
        }
        check_int_fns(t, &a, &b, &c, &mut None);
    }
}

// ---------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------

/// A rounding mode suffix.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

const MODES: [Option<Mode>; 5] = [None, Some(Mode::Rte), Some(Mode::Rtz), Some(Mode::Rtp), Some(Mode::Rtn)];

fn suffix(m: Mode) -> &'static str {
    match m {
        Mode::Rte => "rte",
        Mode::Rtz => "rtz",
        Mode::Rtp => "rtp",
        Mode::Rtn => "rtn",
    }
}

/// A conversion's source or destination type.
#[derive(Clone, Copy, Debug)]
enum CTy {
    I(IntTy),
    /// `half`, `float` or `double`, by width in bits.
    F(u32),
}

const CTYS: [CTy; 11] =
    [CTy::I(CHAR), CTy::I(UCHAR), CTy::I(SHORT), CTy::I(USHORT), CTy::I(INT), CTy::I(UINT), CTy::I(LONG), CTy::I(ULONG), CTy::F(16), CTy::F(32), CTy::F(64)];

impl CTy {
    fn name(self) -> &'static str {
        match self {
            CTy::I(t) => t.name,
            CTy::F(16) => "half",
            CTy::F(32) => "float",
            CTy::F(_) => "double",
        }
    }
    fn bits(self) -> u32 {
        match self {
            CTy::I(t) => t.bits,
            CTy::F(b) => b,
        }
    }
    /// The unsigned integer type of the same size.
    fn bits_ty(self) -> IntTy {
        INTS.into_iter().find(|t| t.bits == self.bits() && !t.signed).unwrap()
    }
}

/// A source value, exactly.
#[derive(Clone, Copy, Debug)]
enum Val {
    I(i128),
    F(f64),
}

/// `half` bits to their value.
fn half_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// `x` rounded to `half` as `mode` rounds, as bits: the value scaled to
/// the quantum of its binade (at least the subnormals'), split into its
/// integral part and the exact remainder, rounded by the remainder.
fn to_half(x: f64, mode: Mode) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a == 0.0 || a == f64::INFINITY {
        return sign | if a == 0.0 { 0 } else { 0x7c00 };
    }
    let binade = if a >= 2f64.powi(-14) { ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023 } else { -14 };
    let q = binade - 10;
    let scaled = a * 2f64.powi(-q);
    let n = scaled.floor();
    let frac = scaled - n;
    let neg = sign != 0;
    let up = match mode {
        Mode::Rte => frac > 0.5 || (frac == 0.5 && n % 2.0 == 1.0),
        Mode::Rtz => false,
        Mode::Rtp => frac > 0.0 && !neg,
        Mode::Rtn => frac > 0.0 && neg,
    };
    let v = (n + up as u8 as f64) * 2f64.powi(q);
    if v > 65504.0 {
        // Past the largest finite value: infinity, unless rounding goes
        // towards zero for this sign.
        let to_inf = match mode {
            Mode::Rte => true,
            Mode::Rtz => false,
            Mode::Rtp => !neg,
            Mode::Rtn => neg,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if v < 2f64.powi(-14) {
        return sign | (v * 2f64.powi(24)) as u16;
    }
    let e = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let m = (v * 2f64.powi(10 - e)) as u16 - 1024;
    sign | ((e + 15) as u16) << 10 | m
}

/// Directed rounding from the nearest result `r` and where it lies
/// against the exact value (`r_vs_exact`), given the exact value's sign.
fn adjust<F: Copy>(r: F, r_vs_exact: std::cmp::Ordering, exact_negative: bool, mode: Mode, up: fn(F) -> F, down: fn(F) -> F) -> F {
    use std::cmp::Ordering::*;
    match (mode, r_vs_exact) {
        (Mode::Rtp, Less) => up(r),
        (Mode::Rtn, Greater) => down(r),
        (Mode::Rtz, Greater) if !exact_negative => down(r),
        (Mode::Rtz, Less) if exact_negative => up(r),
        _ => r,
    }
}

/// The bits of integer `x` converted to the float type of `bits` bits.
fn int_to_float(x: i128, bits: u32, mode: Mode) -> u64 {
    match bits {
        16 => to_half(x as f64, mode) as u64,
        32 => {
            let r = x as f32;
            adjust(r, (r as i128).cmp(&x), x < 0, mode, f32::next_up, f32::next_down).to_bits() as u64
        }
        _ => {
            let r = x as f64;
            adjust(r, (r as i128).cmp(&x), x < 0, mode, f64::next_up, f64::next_down).to_bits()
        }
    }
}

/// The bits of `v` converted to the float type of `bits` bits.
fn float_to_float(v: f64, bits: u32, mode: Mode) -> u64 {
    match bits {
        16 => to_half(v, mode) as u64,
        32 => {
            let r = v as f32;
            if v.is_nan() {
                return r.to_bits() as u64;
            }
            let ord = (r as f64).partial_cmp(&v).unwrap();
            adjust(r, ord, v < 0.0, mode, f32::next_up, f32::next_down).to_bits() as u64
        }
        _ => v.to_bits(),
    }
}

/// The expected bits of a conversion, or `None` where the spec leaves the
/// result undefined (out-of-range float to integer without `_sat`).
fn conversion(src: Val, dst: CTy, sat: bool, mode: Option<Mode>) -> Option<u64> {
    match (src, dst) {
        (Val::I(x), CTy::I(t)) => Some(t.ubits(if sat { t.sat(x) } else { t.wrap(x) }) as u64),
        (Val::F(v), CTy::I(t)) => {
            if v.is_nan() {
                return sat.then_some(0);
            }
            let r = match mode.unwrap_or(Mode::Rtz) {
                Mode::Rte => v.round_ties_even(),
                Mode::Rtz => v.trunc(),
                Mode::Rtp => v.ceil(),
                Mode::Rtn => v.floor(),
            };
            // max + 1 is a power of two: exact as a float, unlike max.
            let above = (t.max() + 1) as f64;
            let in_range = r >= t.min() as f64 && r < above;
            if !in_range && !sat {
                return None;
            }
            let i = if r < t.min() as f64 {
                t.min()
            } else if r >= above {
                t.max()
            } else {
                r as i128
            };
            Some(t.ubits(i) as u64)
        }
        (Val::I(x), CTy::F(b)) => Some(int_to_float(x, b, mode.unwrap_or(Mode::Rte))),
        (Val::F(v), CTy::F(b)) => Some(float_to_float(v, b, mode.unwrap_or(Mode::Rte))),
    }
}

fn is_nan_bits(bits: u64, fbits: u32) -> bool {
    match fbits {
        16 => half_value(bits as u16).is_nan(),
        32 => f32::from_bits(bits as u32).is_nan(),
        _ => f64::from_bits(bits).is_nan(),
    }
}

/// Every conversion from `src` (every destination, `_sat`, rounding)
/// of `vals` at width 1, and of the first `vector_count` values at every
/// vector width.
fn check_conversions(src: CTy, vals: &[Val], vector_count: usize) {
    let n = vals.len();
    let mut convs = Vec::new();
    for dst in CTYS {
        let sats: &[bool] = if matches!(dst, CTy::I(_)) { &[false, true] } else { &[false] };
        for &sat in sats {
            for mode in MODES {
                convs.push((dst, sat, mode));
            }
        }
    }
    // One kernel per width and destination type: LLVM's back end takes
    // superlinear time on one function with hundreds of wide conversions.
    let mut source = String::new();
    for w in WIDTHS {
        for (d, dst) in CTYS.iter().enumerate() {
            source.push_str(&format!("kernel void c{w}_{d}(global const {} *a, global uchar *o) {{\n size_t i = get_global_id(0);\n", src.name()));
            source.push_str(&format!(" {} x = {};\n", vec_name(src.name(), w), load(w, "a")));
            for (k, (_, sat, mode)) in convs.iter().enumerate().filter(|(_, c)| c.0.name() == dst.name()) {
                let f = format!(
                    "convert_{}{}{}",
                    vec_name(dst.name(), w),
                    if *sat { "_sat" } else { "" },
                    mode.map_or(String::new(), |m| format!("_{}", suffix(m)))
                );
                // The result's bits, in an 8-byte slot per element.
                let bt = dst.bits_ty().name;
                let e = format!("as_{}({f}(x))", vec_name(bt, w));
                source.push_str(&format!(" {}\n", store(w, &e, &format!("((global {bt} *)(o + {}))", k * n * 8), 0)));
            }
            source.push_str("}\n");
        }
    }
    let p = program(&source);
    let input = match src {
        CTy::I(t) => t.encode(&vals.iter().map(|v| if let Val::I(x) = v { *x } else { 0 }).collect::<Vec<_>>()),
        CTy::F(16) => Buffer::from_slice(&vals.iter().map(|v| if let Val::F(x) = v { to_half(*x, Mode::Rte) } else { 0 }).collect::<Vec<u16>>()),
        CTy::F(32) => Buffer::from_slice(&vals.iter().map(|v| if let Val::F(x) = v { *x as f32 } else { 0.0 }).collect::<Vec<f32>>()),
        CTy::F(_) => Buffer::from_slice(&vals.iter().map(|v| if let Val::F(x) = v { *x } else { 0.0 }).collect::<Vec<f64>>()),
    };
    let wants: Vec<Vec<Option<u64>>> = convs.iter().map(|&(dst, sat, mode)| vals.iter().map(|&v| conversion(v, dst, sat, mode)).collect()).collect();
    for w in WIDTHS {
        let count = if w == 1 { n } else { vector_count.min(n) };
        let groups = count / w;
        let o = Buffer::new(convs.len() * n * 8);
        for d in 0..CTYS.len() {
            run(&p, &format!("c{w}_{d}"), groups, &[&input, &o]);
        }
        let got = o.read::<u8>();
        for (k, (dst, sat, mode)) in convs.iter().enumerate() {
            let region = &got[k * n * 8..];
            for e in 0..groups * w {
                let Some(want) = wants[k][e] else { continue };
                let have = dst.bits_ty().decode_one(region, e) as u64;
                let ok = match dst {
                    CTy::F(b) if is_nan_bits(want, *b) => is_nan_bits(have, *b),
                    _ => have == want,
                };
                if !ok {
                    let m = mode.map_or("", suffix);
                    panic!(
                        "convert_{}{}_{m} from {} {:?} (width {w}): got {have:#x}, want {want:#x}",
                        dst.name(),
                        if *sat { "_sat" } else { "" },
                        src.name(),
                        vals[e]
                    );
                }
            }
        }
    }
}

/// Every value of the 8- and 16-bit integer types to every type, with
/// and without `_sat`, in every rounding mode.
#[test]
fn conversions_of_every_8_and_16_bit_integer() {
    for t in [CHAR, UCHAR, SHORT, USHORT] {
        // Edge values first: the vector forms see the first 4096.
        let mut vals: Vec<i128> = t.edges();
        let mut rest: Vec<i128> = (t.min()..=t.max()).filter(|v| !vals.contains(v)).collect();
        let mut rng = Rng(t.bits as u64 + 100);
        for i in (1..rest.len()).rev() {
            rest.swap(i, rng.next() as usize % (i + 1));
        }
        vals.extend(rest);
        check_conversions(CTy::I(t), &vals.into_iter().map(Val::I).collect::<Vec<_>>(), 4096);
    }
}

/// Every `half` (every bit pattern) to every type.
#[test]
fn conversions_of_every_half() {
    let vals: Vec<Val> = (0..=u16::MAX).map(|h| Val::F(half_value(h))).collect();
    check_conversions(CTy::F(16), &vals, 4096);
}

/// 32- and 64-bit integers near the rounding boundaries of each float
/// type and of each narrower integer type, and a random sample.
#[test]
fn conversions_of_32_and_64_bit_integers() {
    for t in [INT, UINT, LONG, ULONG] {
        let mut vals = t.edges();
        for k in [11, 15, 16, 24, 25, 31, 32, 53, 54, 62, 63] {
            if k < t.bits {
                let p = 1i128 << k;
                for d in [-3, -2, -1, 0, 1, 2, 3] {
                    vals.push(t.wrap(p + d));
                    vals.push(t.wrap(-p + d));
                }
            }
        }
        // Halfway between floats (and just off), around the tops of the
        // float and half ranges.
        for v in [
            65504,
            65519,
            65520,
            65521,
            65535,
            (1 << 24) + 1,
            (1 << 25) + 2,
            (1 << 25) + 6,
            (1 << 53) + 1,
            (1i128 << 63) - (1 << 39),
            (1i128 << 64) - (1 << 40),
            (1i128 << 64) - (1 << 39),
        ] {
            for d in [-1, 0, 1] {
                vals.push(t.wrap(v + d));
                vals.push(t.wrap(-v + d));
            }
        }
        let mut rng = Rng(t.bits as u64 + 200);
        let random = if slow() { 1 << 18 } else { 2048 };
        for _ in 0..random {
            // Random magnitudes: every rounding position gets exercised.
            let shift = rng.next() % t.bits as u64;
            vals.push(t.wrap((rng.next() >> shift) as i128 * if t.signed && rng.next() % 2 == 0 { -1 } else { 1 }));
        }
        check_conversions(CTy::I(t), &vals.into_iter().map(Val::I).collect::<Vec<_>>(), 4096);
    }
}

/// Special and boundary `float` and `double` values (±0, ±inf, NaN,
/// extremes, subnormals, halfway cases, values just past each integer
/// type's range) and a random sample.
#[test]
fn conversions_of_float_and_double_edge_values() {
    for bits in [32, 64] {
        let mut vals: Vec<f64> =
            vec![0.0, f64::INFINITY, f64::NAN, 0.5, 1.5, 2.5, 0.49999997, 1.0, 127.5, 128.0, 128.5, 255.5, 256.0, 32767.5, 32768.0, 65535.5, 65536.0];
        vals.extend([
            65504.0,
            65519.0,
            65520.0,
            65519.996,
            65520.004,
            1.0 + 2f64.powi(-11),
            1.0 + 3.0 * 2f64.powi(-11),
            2f64.powi(-14),
            2f64.powi(-24),
            2f64.powi(-25),
            3.0 * 2f64.powi(-26),
            1e-8,
            1e30,
        ]);
        for k in [7, 8, 15, 16, 31, 32, 63, 64] {
            let p = 2f64.powi(k);
            vals.extend([p, p - 1.0, p + 1.0, p - 0.5, p + 0.5]);
            // The floats next to the power of two.
            vals.extend([(p as f32).next_down() as f64, (p as f32).next_up() as f64, p.next_down(), p.next_up()]);
        }
        vals.extend([f32::MAX as f64, f32::MIN_POSITIVE as f64, 2f64.powi(-149), 2f64.powi(-148) + 2f64.powi(-149), 0.1f32 as f64]);
        if bits == 64 {
            // Past float's range and precision: halfway and near-halfway
            // points, the float subnormal boundaries, double's own extremes.
            let fm = f32::MAX as f64;
            vals.extend([
                fm + 2f64.powi(103),
                fm + 2f64.powi(102),
                fm.next_up(),
                (fm + 2f64.powi(103)).next_down(),
                1e39,
                f64::MAX,
                f64::MIN_POSITIVE,
                2f64.powi(-1074),
            ]);
            vals.extend([
                1.0 + 2f64.powi(-24),
                1.0 + 2f64.powi(-24) + 2f64.powi(-52),
                (1.0 + 2f64.powi(-24)).next_down(),
                2f64.powi(-150),
                3.0 * 2f64.powi(-151),
                2f64.powi(-150).next_up(),
                0.1,
            ]);
        }
        let mut rng = Rng(bits as u64 + 300);
        let random = if slow() { 1 << 18 } else { 2048 };
        for i in 0..random {
            vals.push(if i % 2 == 0 {
                // Any bit pattern.
                if bits == 32 { f32::from_bits(rng.next() as u32) as f64 } else { f64::from_bits(rng.next()) }
            } else {
                // Moderate magnitudes, where integer and half results live.
                let m = (rng.next() >> 11) as f64 * 2f64.powi(-53);
                m * 2f64.powi((rng.next() % 90) as i32 - 20)
            });
        }
        let mut all: Vec<f64> = vals.iter().flat_map(|&v| [v, -v]).collect();
        if bits == 32 {
            // Only values the source type holds.
            all = all.into_iter().map(|v| v as f32 as f64).collect();
        }
        let src = CTy::F(bits);
        check_conversions(src, &all.into_iter().map(Val::F).collect::<Vec<_>>(), 4096);
    }
}

// ---------------------------------------------------------------------
// Relational, common and geometric functions
// ---------------------------------------------------------------------

/// A floating-point type under test, by width in bits.
#[derive(Clone, Copy, Debug)]
struct FTy(u32);

impl FTy {
    fn name(self) -> &'static str {
        CTy::F(self.0).name()
    }
    fn int_name(self) -> &'static str {
        INTS.into_iter().find(|t| t.bits == self.0 && t.signed).unwrap().name
    }
    fn uint_name(self) -> &'static str {
        INTS.into_iter().find(|t| t.bits == self.0 && !t.signed).unwrap().name
    }
    /// `v` rounded to the type (to nearest even).
    fn round(self, v: f64) -> f64 {
        match self.0 {
            16 => half_value(to_half(v, Mode::Rte)),
            32 => v as f32 as f64,
            _ => v,
        }
    }
    fn bits_of(self, v: f64) -> u64 {
        match self.0 {
            16 => to_half(v, Mode::Rte) as u64,
            32 => (v as f32).to_bits() as u64,
            _ => v.to_bits(),
        }
    }
    fn value_of(self, bits: u64) -> f64 {
        match self.0 {
            16 => half_value(bits as u16),
            32 => f32::from_bits(bits as u32) as f64,
            _ => f64::from_bits(bits),
        }
    }
    fn encode(self, vals: &[f64]) -> Buffer {
        match self.0 {
            16 => Buffer::from_slice(&vals.iter().map(|&v| to_half(v, Mode::Rte)).collect::<Vec<u16>>()),
            32 => Buffer::from_slice(&vals.iter().map(|&v| v as f32).collect::<Vec<f32>>()),
            _ => Buffer::from_slice(vals),
        }
    }
    fn max(self) -> f64 {
        match self.0 {
            16 => 65504.0,
            32 => f32::MAX as f64,
            _ => f64::MAX,
        }
    }
    fn min_normal(self) -> f64 {
        match self.0 {
            16 => 2f64.powi(-14),
            32 => f32::MIN_POSITIVE as f64,
            _ => f64::MIN_POSITIVE,
        }
    }
    /// The unit in the last place at 1.
    fn eps(self) -> f64 {
        match self.0 {
            16 => 2f64.powi(-10),
            32 => 2f64.powi(-23),
            _ => 2f64.powi(-52),
        }
    }
    /// Special and boundary values of the type.
    fn specials(self) -> Vec<f64> {
        let m = self.min_normal();
        let mut v = vec![0.0, 1.0, 0.5, 1.5, 2.0, 3.0, f64::INFINITY, f64::NAN, self.max(), m, m / 2.0, m * self.eps(), 100.0, 1e-3];
        v.extend(v.clone().into_iter().map(|x| -x));
        v.into_iter().map(|x| self.round(x)).collect()
    }
}

/// Scalar results of a relational function (1/0) and vector ones (-1/0).
fn truth(b: bool, w: usize) -> i64 {
    match (b, w) {
        (false, _) => 0,
        (true, 1) => 1,
        (true, _) => -1,
    }
}

type Rel = (&'static str, fn(f64, f64) -> bool);

const RELATIONAL: &[Rel] = &[
    ("isequal(x, y)", |x, y| x == y),
    ("isnotequal(x, y)", |x, y| x != y),
    ("isgreater(x, y)", |x, y| x > y),
    ("isgreaterequal(x, y)", |x, y| x >= y),
    ("isless(x, y)", |x, y| x < y),
    ("islessequal(x, y)", |x, y| x <= y),
    ("islessgreater(x, y)", |x, y| !x.is_nan() && !y.is_nan() && x != y),
    ("isordered(x, y)", |x, y| !x.is_nan() && !y.is_nan()),
    ("isunordered(x, y)", |x, y| x.is_nan() || y.is_nan()),
    ("isfinite(x)", |x, _| x.is_finite()),
    ("isinf(x)", |x, _| x.is_infinite()),
    ("isnan(x)", |x, _| x.is_nan()),
];

/// Float-valued functions checked exactly (on the bits) or within a
/// tolerance: source, reference on (x, y, z, bits of x, y, z), and the
/// tolerance in units of the type's epsilon relative to the given scale
/// (0: exact; the same bits where `bits`, else ±0 count as equal, the
/// spec leaving their order to `min`/`max`).
struct FloatFn {
    src: &'static str,
    reference: fn(FTy, [f64; 3], [u64; 3], bool) -> Option<f64>,
    ulps: f64,
    bits: bool,
}

fn no_nan(v: &[f64; 3]) -> bool {
    v.iter().all(|x| !x.is_nan())
}

const FLOAT_FNS: &[FloatFn] = &[
    FloatFn {
        src: "clamp(x, fmin(y, z), fmax(y, z))",
        reference: |_, v, _, _| no_nan(&v).then(|| v[0].max(v[1].min(v[2])).min(v[1].max(v[2]))),
        ulps: 0.0,
        bits: false,
    },
    FloatFn { src: "max(x, y)", reference: |_, v, _, _| no_nan(&v).then(|| v[0].max(v[1])), ulps: 0.0, bits: false },
    FloatFn { src: "min(x, y)", reference: |_, v, _, _| no_nan(&v).then(|| v[0].min(v[1])), ulps: 0.0, bits: false },
    FloatFn { src: "step(y, x)", reference: |_, v, _, _| no_nan(&v).then(|| if v[0] < v[1] { 0.0 } else { 1.0 }), ulps: 0.0, bits: false },
    FloatFn {
        src: "sign(x)",
        reference: |_, v, _, _| {
            Some(if v[0].is_nan() {
                0.0
            } else if v[0] > 0.0 {
                1.0
            } else if v[0] < 0.0 {
                -1.0
            } else {
                v[0]
            })
        },
        ulps: 0.0,
        bits: true,
    },
    // Vector `select` picks by the most significant bit, scalar `select`
    // by any bit.
    FloatFn {
        src: "select(x, y, as_INTW(z))",
        reference: |t, v, b, vector| Some(if select_bit(t, b[2], vector) { v[1] } else { v[0] }),
        ulps: 0.0,
        bits: true,
    },
    FloatFn {
        src: "select(x, y, as_UINTW(z))",
        reference: |t, v, b, vector| Some(if select_bit(t, b[2], vector) { v[1] } else { v[0] }),
        ulps: 0.0,
        bits: true,
    },
    FloatFn { src: "bitselect(x, y, z)", reference: |t, _, b, _| Some(t.value_of((b[0] & !b[2]) | (b[1] & b[2]))), ulps: 0.0, bits: true },
    FloatFn { src: "degrees(x)", reference: |_, v, _, _| Some(v[0].to_degrees()), ulps: 2.0, bits: false },
    FloatFn { src: "radians(x)", reference: |_, v, _, _| Some(v[0].to_radians()), ulps: 2.0, bits: false },
    FloatFn {
        src: "mix(x, y, fabs(z) / (1 + fabs(z)))",
        reference: |t, v, _, _| {
            (v.iter().all(|x| x.is_finite()) && (v[1] - v[0]).abs() <= t.max()).then(|| {
                // As the spec defines it: y - x must not overflow.
                let a = v[2].abs() / (1.0 + v[2].abs());
                v[0] + (v[1] - v[0]) * a
            })
        },
        ulps: 8.0,
        bits: false,
    },
    FloatFn {
        src: "smoothstep(fmin(x, y), fmax(x, y), z)",
        reference: |t, v, _, _| {
            let (e0, e1) = (v[0].min(v[1]), v[0].max(v[1]));
            // Defined for e0 < e1; kept to differences the type holds.
            (v.iter().all(|x| x.is_finite()) && e1 - e0 > 1e-3 && (e1 - e0) < t.max() / 4.0 && v[2].abs() < t.max() / 4.0).then(|| {
                let q = ((v[2] - e0) / (e1 - e0)).clamp(0.0, 1.0);
                q * q * (3.0 - 2.0 * q)
            })
        },
        ulps: 16.0,
        bits: false,
    },
];

fn select_bit(t: FTy, bits: u64, vector: bool) -> bool {
    if vector { bits >> (t.0 - 1) & 1 == 1 } else { bits != 0 }
}

/// Whether `have` is `want` (both NaN counts) within `ulps` epsilons of
/// `scale`.
fn close(t: FTy, have: f64, want: f64, ulps: f64, scale: f64) -> bool {
    if want.is_nan() {
        return have.is_nan();
    }
    if want.is_infinite() || have.is_infinite() {
        return have == want;
    }
    let tol = ulps * t.eps() * scale.abs().max(t.min_normal());
    (have - want).abs() <= tol
}

/// The relational and common functions of `t` at every width over the
/// triples `(a[i], b[i], c[i])`.
fn check_relational_and_common(t: FTy, a: &[f64], b: &[f64], c: &[f64]) {
    let n = a.len();
    let mut src = String::new();
    for w in WIDTHS {
        let tw = vec_name(t.name(), w);
        src.push_str(&format!(
            "kernel void r{w}(global const {0} *a, global const {0} *b, global const {0} *c, global long *oi, global ulong *of) {{\n",
            t.name()
        ));
        src.push_str(&format!(" size_t i = get_global_id(0);\n {tw} x = {}, y = {}, z = {};\n", load(w, "a"), load(w, "b"), load(w, "c")));
        for (k, (f, _)) in RELATIONAL.iter().chain([("signbit(x)", (|_, _| false) as fn(f64, f64) -> bool)].iter()).enumerate() {
            let e = if w == 1 { f.to_string() } else { format!("convert_long{w}({f})") };
            src.push_str(&format!(" {}\n", store(w, &e, "oi", k * n)));
        }
        for (k, f) in FLOAT_FNS.iter().enumerate() {
            let call = f.src.replace("UINTW", &vec_name(t.uint_name(), w)).replace("INTW", &vec_name(t.int_name(), w));
            let e = format!("convert_{}(as_{}({call}))", vec_name("ulong", w), vec_name(t.uint_name(), w));
            src.push_str(&format!(" {}\n", store(w, &e, "of", k * n)));
        }
        src.push_str("}\n");
    }
    let p = program(&src);
    let (ba, bb, bc) = (t.encode(a), t.encode(b), t.encode(c));
    for w in WIDTHS {
        let groups = n / w;
        let (oi, of) = (Buffer::new((RELATIONAL.len() + 1) * n * 8), Buffer::new(FLOAT_FNS.len() * n * 8));
        run(&p, &format!("r{w}"), groups, &[&ba, &bb, &bc, &oi, &of]);
        let (gi, gf) = (oi.read::<i64>(), of.read::<u64>());
        for e in 0..groups * w {
            let (x, y, z) = (a[e], b[e], c[e]);
            for (k, (f, r)) in RELATIONAL.iter().enumerate() {
                assert_eq!(gi[k * n + e], truth(r(x, y), w), "{f} on {}{w}: x={x} y={y}", t.name());
            }
            let sb = t.bits_of(x) >> (t.0 - 1) == 1;
            assert_eq!(gi[RELATIONAL.len() * n + e], truth(sb, w), "signbit on {}{w}: x={x}", t.name());
            let bits = [t.bits_of(x), t.bits_of(y), t.bits_of(z)];
            for (k, f) in FLOAT_FNS.iter().enumerate() {
                let Some(want) = (f.reference)(t, [x, y, z], bits, w > 1) else { continue };
                let have_bits = gf[k * n + e];
                let have = t.value_of(have_bits);
                let ok = if f.bits {
                    have_bits == t.bits_of(want) || (want.is_nan() && have.is_nan())
                } else if f.ulps == 0.0 {
                    have == want
                } else {
                    close(t, have, t.round(want), f.ulps, want.abs().max(x.abs()).max(y.abs()))
                };
                assert!(ok, "{} on {}{w}: x={x} y={y} z={z}: got {have}, want {want}", f.src, t.name());
            }
        }
    }
}

#[test]
fn relational_and_common_functions_on_special_values_at_every_width() {
    for t in [FTy(16), FTy(32), FTy(64)] {
        let s = t.specials();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let mut rng = Rng(t.0 as u64 + 400);
        for &x in &s {
            for &y in &s {
                a.push(x);
                b.push(y);
                c.push(s[rng.next() as usize % s.len()]);
            }
        }
        for _ in 0..if slow() { 1 << 16 } else { 2048 } {
            let mut r = || t.round(((rng.next() >> 11) as f64 * 2f64.powi(-53) - 0.5) * 2f64.powi((rng.next() % 40) as i32 - 20));
            a.push(r());
            b.push(r());
            c.push(r());
        }
        check_relational_and_common(t, &a, &b, &c);
    }
}

/// `length` of exact lanes: scaled by the largest magnitude, so the
/// reference itself neither overflows nor underflows.
fn ref_length(p: &[f64]) -> f64 {
    if p.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    if p.iter().any(|x| x.is_infinite()) {
        return f64::INFINITY;
    }
    let m = p.iter().fold(0f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return 0.0;
    }
    m * p.iter().map(|x| (x / m) * (x / m)).sum::<f64>().sqrt()
}

/// `normalize` as OpenCL C 2.0 §6.13.5 defines it on special values.
fn ref_normalize(p: &[f64]) -> Vec<f64> {
    if p.iter().all(|&x| x == 0.0) {
        return p.to_vec();
    }
    if p.iter().any(|x| x.is_nan()) {
        return vec![f64::NAN; p.len()];
    }
    let q: Vec<f64> =
        if p.iter().any(|x| x.is_infinite()) { p.iter().map(|&x| if x.is_infinite() { x.signum() } else { 0.0 * x }).collect() } else { p.to_vec() };
    let l = ref_length(&q);
    q.iter().map(|x| x / l).collect()
}

/// Whether the plain sum of squares of `p` stays in the type's normal
/// range (where the `fast_` forms, which do not rescale, are defined).
fn squares_in_range(t: FTy, p: &[f64]) -> bool {
    let l2: f64 = p.iter().map(|x| x * x).sum();
    p.iter().all(|x| x.is_finite()) && l2 > t.min_normal() && l2 < t.max() / 2.0
}

fn check_geometric(t: FTy, a: &[f64], b: &[f64]) {
    let n = a.len();
    let fast = t.0 == 32;
    let mut src = String::new();
    for w in 1..=4 {
        let (tw, uw) = (vec_name(t.name(), w), vec_name(t.uint_name(), w));
        src.push_str(&format!("kernel void g{w}(global const {0} *a, global const {0} *b, global ulong *os, global ulong *ov) {{\n", t.name()));
        src.push_str(&format!(" size_t i = get_global_id(0);\n {tw} x = {}, y = {};\n", load(w, "a"), load(w, "b")));
        let mut scalars = vec!["dot(x, y)", "length(x)", "distance(x, y)"];
        if fast {
            scalars.extend(["fast_length(x)", "fast_distance(x, y)"]);
        }
        for (k, f) in scalars.iter().enumerate() {
            src.push_str(&format!(" os[{} + i] = convert_ulong(as_{}({f}));\n", k * n, t.uint_name()));
        }
        let mut vectors = vec!["normalize(x)"];
        if fast {
            vectors.push("fast_normalize(x)");
        }
        if w >= 3 {
            vectors.push("cross(x, y)");
        }
        for (k, f) in vectors.iter().enumerate() {
            src.push_str(&format!(" {}\n", store(w, &format!("convert_{}(as_{uw}({f}))", vec_name("ulong", w)), "ov", (k + 2) * n)));
            if *f == "cross(x, y)" {
                // Written where the checks below look for it.
                src.push_str(&format!(" {}\n", store(w, &format!("convert_{}(as_{uw}({f}))", vec_name("ulong", w)), "ov", 4 * n)));
            }
        }
        src.push_str("}\n");
    }
    let p = program(&src);
    let (ba, bb) = (t.encode(a), t.encode(b));
    let err = |what: &str, w: usize, p: &[f64], q: &[f64], have: f64, want: f64| format!("{what} on {}{w}: p={p:?} q={q:?}: got {have}, want {want}", t.name());
    for w in 1..=4 {
        let groups = n / w;
        let (os, ov) = (Buffer::new(5 * n * 8), Buffer::new(5 * n * 8));
        run(&p, &format!("g{w}"), groups, &[&ba, &bb, &os, &ov]);
        let (gs, gv) = (os.read::<u64>(), ov.read::<u64>());
        for g in 0..groups {
            let (pp, qq) = (&a[g * w..g * w + w], &b[g * w..g * w + w]);
            let finite = pp.iter().chain(qq).all(|x| x.is_finite());
            let val = |k: usize| t.value_of(gs[k * n + g]);
            // dot: the exact sum, within a few rounding errors of the
            // magnitudes summed.
            let want: f64 = pp.iter().zip(qq).map(|(x, y)| x * y).sum();
            let scale: f64 = pp.iter().zip(qq).map(|(x, y)| (x * y).abs()).sum();
            if finite && scale < t.max() {
                assert!(close(t, val(0), t.round(want), 2.0 * w as f64, scale), "{}", err("dot", w, pp, qq, val(0), want));
            }
            let want = ref_length(pp);
            assert!(close(t, val(1), t.round(want), 3.0, want), "{}", err("length", w, pp, qq, val(1), want));
            let d: Vec<f64> = pp.iter().zip(qq).map(|(x, y)| t.round(x - y)).collect();
            let want = ref_length(&d);
            assert!(close(t, val(2), t.round(want), 3.0, want), "{}", err("distance", w, pp, qq, val(2), want));
            if fast && squares_in_range(t, pp) {
                let want = ref_length(pp);
                assert!(close(t, val(3), want, 8192.0, want), "{}", err("fast_length", w, pp, qq, val(3), want));
            }
            if fast && squares_in_range(t, &d) {
                let want = ref_length(&d);
                assert!(close(t, val(4), want, 8192.0, want), "{}", err("fast_distance", w, pp, qq, val(4), want));
            }
            let lanes = |k: usize| -> Vec<f64> { (0..w).map(|l| t.value_of(gv[k * n + g * w + l])).collect() };
            let want = ref_normalize(pp);
            let have = lanes(2);
            for l in 0..w {
                assert!(close(t, have[l], want[l], 3.0, 1.0), "{}", err("normalize", w, pp, qq, have[l], want[l]));
            }
            if fast && (pp.iter().all(|&x| x == 0.0) || squares_in_range(t, pp)) {
                let have = lanes(3);
                for l in 0..w {
                    assert!(close(t, have[l], want[l], 8192.0, 1.0), "{}", err("fast_normalize", w, pp, qq, have[l], want[l]));
                }
            }
            if w >= 3 && finite {
                let (p, q) = (pp, qq);
                let want = [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0], 0.0];
                let scale = [p[1] * q[2], p[2] * q[1], p[2] * q[0], p[0] * q[2], p[0] * q[1], p[1] * q[0]].map(f64::abs);
                if scale.iter().all(|&s| s < t.max()) {
                    let have = lanes(4);
                    for l in 0..w {
                        let s = if l < 3 { scale[2 * l] + scale[2 * l + 1] } else { 0.0 };
                        assert!(close(t, have[l], t.round(want[l]), 2.0, s), "{}", err("cross", w, pp, qq, have[l], want[l]));
                    }
                }
            }
        }
    }
}

/// Geometric functions at widths 1 to 4 on blocks of moderate values,
/// values whose squares overflow or underflow the type, zeros,
/// infinities and NaNs.
#[test]
fn geometric_functions_on_large_tiny_and_special_vectors() {
    for t in [FTy(16), FTy(32), FTy(64)] {
        let (big, tiny) = match t.0 {
            16 => (3e4, 1e-6),
            32 => (1e30, 1e-30),
            _ => (1e300, 1e-300),
        };
        let mut rng = Rng(t.0 as u64 + 500);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let blocks = if slow() { 1 << 14 } else { 256 };
        for k in 0..blocks {
            for _ in 0..12 {
                let r = |rng: &mut Rng| {
                    let u = (rng.next() >> 11) as f64 * 2f64.powi(-53) * 2.0 - 1.0;
                    let v = match k % 8 {
                        0..=2 => u * 100.0,
                        3 => u * big,
                        4 => u * tiny,
                        5 => [0.0, -0.0, u][rng.next() as usize % 3],
                        6 => [f64::INFINITY, -f64::INFINITY, u, u * big][rng.next() as usize % 4],
                        _ => [f64::NAN, u, u * tiny, u * big][rng.next() as usize % 4],
                    };
                    t.round(v)
                };
                a.push(r(&mut rng));
                b.push(r(&mut rng));
            }
        }
        check_geometric(t, &a, &b);
    }
}

/// `as_<type>` with 3-element vectors (OpenCL C 2.0 §6.2.4.2): a
/// 3-element vector has the size of a 4-element one; from a 4-element
/// vector to a 3-element one the bits are kept, and the padding lane of a
/// 3-element source reads as zero.
#[test]
fn as_type_with_three_element_vectors() {
    let p = program(
        "kernel void k(global const uint *a, global uint *o) {
             uint4 x = vload4(0, a);
             vstore3(as_uint3(as_float4(x)), 0, o);
             vstore4(as_uint4(as_float3(x.xyz)), 1, o);
             o[8] = as_uint(as_uchar3(a[0]).zyx);
             vstore4(as_uint4(as_long2(x.xyz)), 0, o + 9);
             vstore3(as_uint3(as_ushort8(x)), 0, o + 13);
         }",
    );
    let a: [u32; 4] = [0x0403_0201, 0x8765_4321, 0xdead_beef, 0x7f80_0001];
    let (ba, o) = (Buffer::from_slice(&a), Buffer::new(4 * 16));
    run(&p, "k", 1, &[&ba, &o]);
    let got = o.read::<u32>();
    assert_eq!(&got[0..3], &a[0..3], "as_uint3(float4) keeps the first three lanes' bits");
    assert_eq!(&got[4..8], &[a[0], a[1], a[2], 0], "as_uint4(float3): the padding lane is zero");
    assert_eq!(got[8], 0x0001_0203, "as_uint(uchar3): three bytes reversed, the fourth zero");
    assert_eq!(&got[9..13], &[a[0], a[1], a[2], 0], "as_long2(uint3): the high long's upper half is the zero padding");
    assert_eq!(&got[13..16], &a[0..3], "as_uint3(ushort8)");
}

/// `any`/`all`: whether the most significant bit of any/every lane is
/// set, for every signed integer type and width, on every pattern of
/// negative lanes (up to 2^16 patterns for 16 lanes: a sample).
#[test]
fn any_and_all_look_at_the_sign_bits() {
    for t in [CHAR, SHORT, INT, LONG] {
        let mut src = String::new();
        for w in WIDTHS {
            src.push_str(&format!(
                "kernel void k{w}(global const {0} *a, global int *o) {{ size_t i = get_global_id(0); {1} x = {2}; o[2 * i] = any(x); o[2 * i + 1] = all(x); }}\n",
                t.name,
                vec_name(t.name, w),
                load(w, "a")
            ));
        }
        let p = program(&src);
        let mut rng = Rng(t.bits as u64 + 600);
        for w in WIDTHS {
            let patterns: Vec<u32> = if w <= 8 { (0..1u32 << w).collect() } else { (0..512).map(|_| rng.next() as u32 & 0xffff).chain([0, 0xffff]).collect() };
            let mut vals = Vec::new();
            for &m in &patterns {
                for l in 0..w {
                    // Negative lanes where the pattern has a one; other
                    // bits random.
                    let r = t.wrap(rng.next() as i128);
                    vals.push(if m >> l & 1 == 1 { r.abs().max(1).wrapping_neg().max(t.min()) } else { r.abs().min(t.max()) });
                }
            }
            let (ba, o) = (t.encode(&vals), Buffer::new(patterns.len() * 8));
            run(&p, &format!("k{w}"), patterns.len(), &[&ba, &o]);
            let got = o.read::<i32>();
            let full = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
            for (i, &m) in patterns.iter().enumerate() {
                assert_eq!(got[2 * i], (m != 0) as i32, "any on {}{w}, negative lanes {m:#b}", t.name);
                assert_eq!(got[2 * i + 1], (m == full) as i32, "all on {}{w}, negative lanes {m:#b}", t.name);
            }
        }
    }
}
