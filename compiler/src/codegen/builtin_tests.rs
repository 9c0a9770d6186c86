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
    if t.bits == 64 && !t.signed {
        t.wrap(((x as u128 * y as u128) >> 64) as i128)
    } else {
        t.wrap((x * y) >> t.bits)
    }
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
/// `(a[i], b[i], c[i])`, against the references.
fn check_int_fns(t: IntTy, a: &[i128], b: &[i128], c: &[i128]) {
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
    let p = program(&src);
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
        run(&p, &format!("f{w}"), groups, &bufs);
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
            check_int_fns(t, &a, &b, &c);
        }
    }
}

/// Every 16-bit value as the first argument, random others, and every
/// pair of edge values.
#[test]
fn integer_functions_on_every_16_bit_value_and_random_pairs() {
    for t in [SHORT, USHORT] {
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
            check_int_fns(t, &a, &b, &c);
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
        check_int_fns(t, &a, &b, &c);
    }
}
