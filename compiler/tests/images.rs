//! Images on the CPU target, run through the JIT: reads through every
//! addressing mode and filter with normalized and unnormalized
//! coordinates, compared with a reference sampler written here from the
//! OpenCL 2.0 specification's formulas (section 8.2, "Image Addressing and
//! Filtering") independently of the runtime's; writes per channel type
//! against the conversion rules of section 8.3; the query functions; the
//! argument checks.
//!
//! `CLC_SLOW_TESTS=1` samples every channel order × type combination the
//! runtime supports instead of a representative set, and more coordinates.

use clc::jit::{self, BuildOptions};
use clc_runtime::{AddressingMode, Arg, Buffer, ChannelOrder as O, ChannelType as T, FilterMode, Image, ImageAccess, ImageFormat, ImageType, NdRange, Program, Sampler};

const KERNELS: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
constant sampler_t program_sampler = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void sample1d(read_only image1d_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i].x);
}
kernel void sample1d_array(read_only image1d_array_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i].xy);
}
kernel void sample2d(read_only image2d_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i].xy);
}
kernel void sample2d_array(read_only image2d_array_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample3d(read_only image3d_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample2d_int(read_only image2d_t img, sampler_t s, global const int4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i].xy);
}
kernel void sample2d_h(read_only image2d_t img, sampler_t s, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0); out[i] = convert_float4(read_imageh(img, s, c[i].xy));
}
kernel void sample_depth(read_only image2d_depth_t img, sampler_t s, global const float4 *c, global float *out) {
    size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i].xy);
}
kernel void sample2d_ui(read_only image2d_t img, sampler_t s, global const float4 *c, global uint4 *out) {
    size_t i = get_global_id(0); out[i] = read_imageui(img, s, c[i].xy);
}
kernel void sample2d_i(read_only image2d_t img, sampler_t s, global const float4 *c, global int4 *out) {
    size_t i = get_global_id(0); out[i] = read_imagei(img, s, c[i].xy);
}
/* Sampler-less reads, and the program-scope and literal samplers. */
kernel void load_and_constant_samplers(read_only image2d_t img, global const float4 *c, global float4 *out) {
    size_t i = get_global_id(0);
    const sampler_t local_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    out[3 * i] = read_imagef(img, convert_int2(c[i].xy));
    out[3 * i + 1] = read_imagef(img, program_sampler, c[i].xy);
    out[3 * i + 2] = read_imagef(img, local_sampler, c[i].xy);
}
kernel void write_f(write_only image2d_t img, global const float4 *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
kernel void write_h(write_only image2d_t img, global const float4 *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageh(img, (int2)(x, y), convert_half4(c[y * get_image_width(img) + x]));
}
kernel void write_i(write_only image2d_t img, global const int4 *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagei(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
kernel void write_ui(write_only image2d_t img, global const uint4 *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
/* Every texel of a 3D image and a 2D array written and read back through read_write images. */
kernel void copy3d(read_only image3d_t src, write_only image3d_t dst, read_write image2d_array_t arr) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    uint4 v = read_imageui(src, p);
    write_imageui(dst, p, v + 1);
    write_imageui(arr, p, v * 2);
    /* (atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, …) belongs here, but the CPU target does not provide it yet; the runtime's images are plain memory.) */
    write_imageui(arr, p, read_imageui(arr, p) + 3);
}
kernel void copy2d_f(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p));
}
/* A scalar colour widens to the vector parameter, converted to its element type first. */
kernel void write_scalar_f(write_only image2d_t img, global const float *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
kernel void write_scalar_ui(write_only image2d_t img, global const float *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
kernel void write_depth(write_only image2d_depth_t img, global const float *c) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), c[y * get_image_width(img) + x]);
}
/* Reads in a kernel with barriers (lowered in regions). */
kernel void reverse_groups(read_only image1d_t src, global float *out, local float *tmp) {
    int l = get_local_id(0), g = get_global_id(0);
    tmp[l] = read_imagef(src, g).x;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = tmp[get_local_size(0) - 1 - l] + get_image_width(src);
}
/* The inline paths: three reads per coordinate (float coordinates through
   the sampler, integer ones through it, integer ones without one) and a
   write, as the texels' bits, for every image type they serve. */
#define READS(NAME, IMG, SEL, KIND) \
kernel void NAME(read_only IMG img, sampler_t s, global const float4 *c, global const int4 *ic, global uint4 *out) { \
    size_t i = get_global_id(0); \
    out[3 * i] = as_uint4(read_image##KIND(img, s, c[i] SEL)); \
    out[3 * i + 1] = as_uint4(read_image##KIND(img, s, ic[i] SEL)); \
    out[3 * i + 2] = as_uint4(read_image##KIND(img, ic[i] SEL)); \
}
#define WRITES(NAME, IMG, SEL, T, KIND) \
kernel void NAME(write_only IMG img, global const int4 *ic, global const T *v) { \
    size_t i = get_global_id(0); write_image##KIND(img, ic[i] SEL, v[i]); \
}
#define SHAPE(NAME, IMG, SEL) \
    READS(reads_##NAME##_f, IMG, SEL, f) READS(reads_##NAME##_i, IMG, SEL, i) READS(reads_##NAME##_ui, IMG, SEL, ui) \
    WRITES(writes_##NAME##_f, IMG, SEL, float4, f) WRITES(writes_##NAME##_i, IMG, SEL, int4, i) WRITES(writes_##NAME##_ui, IMG, SEL, uint4, ui)
SHAPE(1d, image1d_t, .x)
SHAPE(1d_array, image1d_array_t, .xy)
SHAPE(2d, image2d_t, .xy)
SHAPE(2d_array, image2d_array_t, )
SHAPE(3d, image3d_t, )
#define BUFFER(KIND, T) \
kernel void reads_1d_buffer_##KIND(read_only image1d_buffer_t img, global const int4 *ic, global uint4 *out) { \
    size_t i = get_global_id(0); out[i] = as_uint4(read_image##KIND(img, ic[i].x)); \
} \
WRITES(writes_1d_buffer_##KIND, image1d_buffer_t, .x, T, KIND)
BUFFER(f, float4)
BUFFER(i, int4)
BUFFER(ui, uint4)
/* Constant samplers of every mode the inline path serves (its tests fold). */
kernel void constant_samplers(read_only image2d_t img, global const float4 *c, global uint4 *out) {
    size_t i = get_global_id(0);
    const sampler_t a = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
    const sampler_t b = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    const sampler_t d = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    const sampler_t e = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
    const sampler_t f = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    const sampler_t g = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    out[6 * i] = as_uint4(read_imagef(img, a, c[i].xy));
    out[6 * i + 1] = as_uint4(read_imagef(img, b, c[i].xy));
    out[6 * i + 2] = as_uint4(read_imagef(img, d, c[i].xy));
    out[6 * i + 3] = as_uint4(read_imagef(img, e, c[i].zw));
    out[6 * i + 4] = as_uint4(read_imagef(img, f, c[i].zw));
    out[6 * i + 5] = as_uint4(read_imagef(img, g, c[i].zw));
}
kernel void queries(read_only image1d_t a, read_only image1d_array_t b, write_only image2d_t c, read_only image2d_array_t d,
                    read_only image3d_t e, read_only image2d_depth_t f, read_only image1d_buffer_t g, global int *out) {
    out[0] = get_image_width(a); out[1] = get_image_channel_order(a); out[2] = get_image_channel_data_type(a);
    out[3] = get_image_width(b); out[4] = (int)get_image_array_size(b);
    out[5] = get_image_width(c); out[6] = get_image_height(c); out[7] = get_image_dim(c).x; out[8] = get_image_dim(c).y;
    out[9] = get_image_channel_order(c); out[10] = get_image_channel_data_type(c);
    out[11] = get_image_width(d); out[12] = get_image_height(d); out[13] = (int)get_image_array_size(d);
    int4 dim = get_image_dim(e);
    out[14] = get_image_width(e); out[15] = get_image_height(e); out[16] = get_image_depth(e);
    out[17] = dim.x; out[18] = dim.y; out[19] = dim.z; out[20] = dim.w;
    out[21] = get_image_channel_order(f); out[22] = get_image_channel_data_type(f); out[23] = get_image_width(g);
}
"#;

fn program() -> Program {
    jit::build(KERNELS, "images.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The test kernels built for this machine's CPU and for baseline x86-64,
/// what `clc -c` targets: baseline code's inline writes narrow their lanes
/// with SSE2's packs and round with `cvtps2dq`, not a `trunc` and 2^23.
fn programs() -> [(&'static str, Program); 2] {
    let baseline = BuildOptions { host_cpu: false, ..BuildOptions::default() };
    [("this CPU", program()), ("x86-64", jit::build(KERNELS, "images.cl", &baseline).unwrap_or_else(|e| panic!("{e}")))]
}

fn slow() -> bool {
    std::env::var_os("CLC_SLOW_TESTS").is_some()
}

/// A deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

// ---------------------------------------------------------------------
// The reference: decoding and sampling from the specification
// ---------------------------------------------------------------------

/// `half` bits as a value: (-1)^s × 2^(e-15) × 1.m, or 2^-14 × 0.m.
fn half_value(h: u16) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0f64 } else { 1.0 };
    let e = ((h >> 10) & 31) as i32;
    let m = (h & 1023) as f64;
    let v = match e {
        0 => s * m / 1024.0 * 2f64.powi(-14),
        31 if m == 0.0 => s * f64::INFINITY,
        31 => f64::NAN,
        e => s * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    v as f32
}

/// The nearest `half` to `x` (ties to the even bit pattern): a binary
/// search over every finite half's value.
fn nearest_half(x: f32) -> u16 {
    static TABLE: std::sync::OnceLock<Vec<(f64, u16)>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t: Vec<(f64, u16)> = (0..=0xFFFFu16).filter(|&h| h != 0x8000).map(|h| (half_value(h) as f64, h)).filter(|(v, _)| v.is_finite()).collect();
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        t
    });
    if x.is_nan() {
        return 0x7E00;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    // Halfway between 65504 and the next step (65536) goes to infinity.
    if x.abs() >= 65520.0 {
        return sign | 0x7C00;
    }
    let x = x as f64;
    let i = table.partition_point(|&(v, _)| v < x);
    let mut best = table[i.min(table.len() - 1)];
    if i > 0 {
        let lo = table[i - 1];
        let (dl, dh) = (x - lo.0, best.0 - x);
        if dl < dh || (dl == dh && lo.1 & 1 == 0) {
            best = lo;
        }
    }
    // Zero keeps the sign of x.
    if best.0 == 0.0 { sign } else { best.1 }
}

/// One stored channel as the float `read_imagef` returns (section 8.3.1).
fn channel_value(ty: T, b: &[u8]) -> f32 {
    match ty {
        T::UnormInt8 => b[0] as f32 / 255.0,
        T::UnormInt16 => u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0,
        T::SnormInt8 => f32::max(-1.0, b[0] as i8 as f32 / 127.0),
        T::SnormInt16 => f32::max(-1.0, i16::from_le_bytes([b[0], b[1]]) as f32 / 32767.0),
        T::HalfFloat => half_value(u16::from_le_bytes([b[0], b[1]])),
        T::Float => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        T::SignedInt8 => b[0] as i8 as f32,
        T::SignedInt16 => i16::from_le_bytes([b[0], b[1]]) as f32,
        T::SignedInt32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        T::UnsignedInt8 => b[0] as f32,
        T::UnsignedInt16 => u16::from_le_bytes([b[0], b[1]]) as f32,
        T::UnsignedInt32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        T::UnormShort565 | T::UnormShort555 | T::UnormInt101010 => unreachable!("packed texels are decoded whole (texel_values)"),
    }
}

/// An sRGB-encoded value in [0, 1] as linear (section 8.3.1.3), exactly
/// (in double precision).
fn srgb_decode(c: f64) -> f64 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// A linear value as sRGB-encoded, exactly: NaN is 0, clamped to [0, 1].
fn srgb_encode(x: f64) -> f64 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    if c < 0.0031308 { 12.92 * c } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// A packed type's fields from the top: (bits, shift) of r, g, b
/// (section 5.3.1.1: 5-6-5 in 16 bits, x-5-5-5 in 16 bits, x-10-10-10
/// in 32 bits).
fn packed_fields(ty: T) -> [(u32, u32); 3] {
    match ty {
        T::UnormShort565 => [(5, 11), (6, 5), (5, 0)],
        T::UnormShort555 => [(5, 10), (5, 5), (5, 0)],
        _ => [(10, 20), (10, 10), (10, 0)],
    }
}

/// The channel values a read returns for one stored texel, in stored
/// order (without the unused `x` of `sRGBx`): each channel decoded, r, g,
/// b of sRGB orders converted to linear, the fields of a packed texel.
fn texel_values(fmt: ImageFormat, t: &[u8]) -> Vec<f32> {
    if is_packed(fmt.ty) {
        let bits = t.iter().rev().fold(0u32, |acc, &b| acc << 8 | b as u32);
        return packed_fields(fmt.ty).iter().map(|&(n, shift)| (bits >> shift & ((1 << n) - 1)) as f32 / ((1 << n) - 1) as f32).collect();
    }
    let cs = channel_size(fmt.ty);
    let lanes = write_lanes(fmt.order);
    t.chunks_exact(cs).zip(lanes).map(|(c, &lane)| if is_srgb(fmt.order) && lane < 3 { srgb_decode(c[0] as f64 / 255.0) as f32 } else { channel_value(fmt.ty, c) }).collect()
}

fn is_packed(ty: T) -> bool {
    matches!(ty, T::UnormShort565 | T::UnormShort555 | T::UnormInt101010)
}

fn is_srgb(order: O) -> bool {
    matches!(order, O::Srgb | O::Srgbx | O::Srgba | O::Sbgra)
}

/// One stored channel as the bits `read_image{f,i,ui}` returns for its
/// type: the float of [`channel_value`] for normalized and float types,
/// the integer (sign- or zero-extended) for integer types.
fn channel_bits(ty: T, b: &[u8]) -> u32 {
    match ty {
        T::SignedInt8 => b[0] as i8 as u32,
        T::SignedInt16 => i16::from_le_bytes([b[0], b[1]]) as u32,
        T::SignedInt32 | T::UnsignedInt32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        T::UnsignedInt8 => b[0] as u32,
        T::UnsignedInt16 => u16::from_le_bytes([b[0], b[1]]) as u32,
        _ => channel_value(ty, b).to_bits(),
    }
}

/// The value 1 (a missing alpha) as the bits a read of `ty` returns.
fn one_bits(ty: T) -> u32 {
    if is_integer(ty) { 1 } else { 1f32.to_bits() }
}

fn is_integer(ty: T) -> bool {
    matches!(ty, T::SignedInt8 | T::SignedInt16 | T::SignedInt32 | T::UnsignedInt8 | T::UnsignedInt16 | T::UnsignedInt32)
}

/// The stored channels as (r, g, b, a) (section 5.3.1.1's table of
/// channel orders; missing colour channels are 0, missing alpha is 1).
fn rgba<V: Copy>(order: O, ch: &[V], zero: V, one: V) -> [V; 4] {
    match order {
        O::R | O::Depth => [ch[0], zero, zero, one],
        O::A => [zero, zero, zero, ch[0]],
        O::Rg => [ch[0], ch[1], zero, one],
        O::Ra => [ch[0], zero, zero, ch[1]],
        O::Rgba | O::Srgba => [ch[0], ch[1], ch[2], ch[3]],
        O::Bgra | O::Sbgra => [ch[2], ch[1], ch[0], ch[3]],
        O::Argb => [ch[1], ch[2], ch[3], ch[0]],
        O::Intensity => [ch[0]; 4],
        O::Luminance => [ch[0], ch[0], ch[0], one],
        O::Rgb | O::Rgbx | O::Srgb | O::Srgbx => [ch[0], ch[1], ch[2], one],
    }
}

fn channels(order: O) -> usize {
    match order {
        O::Rg | O::Ra => 2,
        O::Rgb | O::Srgb => 3,
        O::Rgba | O::Bgra | O::Argb | O::Rgbx | O::Srgbx | O::Srgba | O::Sbgra => 4,
        _ => 1,
    }
}

/// Bytes of one texel.
fn texel_size(fmt: ImageFormat) -> usize {
    if is_packed(fmt.ty) { channel_size(fmt.ty) } else { channels(fmt.order) * channel_size(fmt.ty) }
}

fn channel_size(ty: T) -> usize {
    match ty {
        T::UnormInt8 | T::SnormInt8 | T::SignedInt8 | T::UnsignedInt8 => 1,
        T::UnormInt16 | T::SnormInt16 | T::SignedInt16 | T::UnsignedInt16 | T::HalfFloat | T::UnormShort565 | T::UnormShort555 => 2,
        _ => 4,
    }
}

/// An image's texels decoded, indexed [layer or z][y][x].
struct Reference {
    size: [usize; 3],
    layers: usize,
    texels: Vec<[f32; 4]>,
    border: [f32; 4],
    /// The texels as the bits a read of the channel type's kind returns
    /// (exact for 32-bit integers, which `texels` rounds).
    bits: Vec<[u32; 4]>,
    border_bits: [u32; 4],
}

impl Reference {
    fn new(fmt: ImageFormat, size: [usize; 3], layers: usize, bytes: &[u8]) -> Reference {
        let cs = channel_size(fmt.ty);
        let ts = texel_size(fmt);
        let texels = bytes.chunks_exact(ts).map(|t| rgba(fmt.order, &texel_values(fmt, t), 0.0, 1.0)).collect();
        let one = one_bits(fmt.ty);
        let bits = bytes
            .chunks_exact(ts)
            .map(|t| if is_integer(fmt.ty) { rgba(fmt.order, &t.chunks_exact(cs).map(|c| channel_bits(fmt.ty, c)).collect::<Vec<_>>(), 0, one) } else { rgba(fmt.order, &texel_values(fmt, t), 0.0, 1.0).map(f32::to_bits) })
            .collect();
        let alpha = matches!(fmt.order, O::A | O::Ra | O::Rgba | O::Bgra | O::Argb | O::Intensity | O::Srgba | O::Sbgra);
        Reference { size, layers, texels, border: [0.0, 0.0, 0.0, if alpha { 0.0 } else { 1.0 }], bits, border_bits: [0, 0, 0, if alpha { 0 } else { one }] }
    }

    /// The index of texel (i, j, k) of `layer` in `texels`, `None` outside
    /// (the border colour).
    fn index(&self, i: i64, j: i64, k: i64, layer: usize) -> Option<usize> {
        let [w, h, d] = self.size.map(|s| s as i64);
        if i < 0 || j < 0 || k < 0 || i >= w || j >= h || k >= d {
            return None;
        }
        Some(((layer * self.size[2] + k as usize) * self.size[1] + j as usize) * self.size[0] + i as usize)
    }

    /// T(i, j, k) with the border colour for indices outside.
    fn t(&self, i: i64, j: i64, k: i64, layer: usize) -> [f32; 4] {
        self.index(i, j, k, layer).map_or(self.border, |x| self.texels[x])
    }

    /// The bits a nearest-filtered read through `sm` returns at `c`.
    fn nearest_bits(&self, sm: Sampler, dims: usize, c: [f32; 4]) -> [u32; 4] {
        let layer = ref_layer(self, dims, c);
        let i = ref_nearest(c[0], self.size[0], sm);
        let j = if dims > 1 { ref_nearest(c[1], self.size[1], sm) } else { 0 };
        let k = if dims > 2 { ref_nearest(c[2], self.size[2], sm) } else { 0 };
        self.index(i, j, k, layer).map_or(self.border_bits, |x| self.bits[x])
    }
}

/// The layer of an array image at `c` (its lane after the `dims` spatial
/// ones): clamp(rint(layer), 0, array_size - 1); 0 for images without
/// layers.
fn ref_layer(r: &Reference, dims: usize, c: [f32; 4]) -> usize {
    (c[dims.min(3)].round_ties_even().max(0.0) as usize).min(r.layers - 1)
}

/// Section 8.2.1/8.2.3: the texel index for nearest filtering; an index
/// outside [0, size) is the border (`CLK_ADDRESS_CLAMP`).
fn ref_nearest(s: f32, size: usize, sm: Sampler) -> i64 {
    let w = size as f32;
    let last = size as i64 - 1;
    match (sm.addressing, sm.normalized_coords) {
        (AddressingMode::Repeat, true) => {
            let u = (s - s.floor()) * w;
            let i = u.floor() as i64;
            if i > last { i - size as i64 } else { i }
        }
        (AddressingMode::MirroredRepeat, true) => {
            let s2 = 2.0f32 * (0.5f32 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * w;
            (u.floor() as i64).min(last)
        }
        (mode, normalized) => {
            let u = if normalized { s * w } else { s };
            let i = u.floor() as i64;
            match mode {
                // clamp(floor(u), -1, width): -1 and width are the border.
                AddressingMode::Clamp => i.clamp(-1, size as i64),
                // CLK_ADDRESS_NONE is undefined outside: clc clamps to the edge.
                _ => i.clamp(0, last),
            }
        }
    }
}

/// Section 8.2.2/8.2.4: i0, i1 and the fraction a for linear filtering.
fn ref_linear(s: f32, size: usize, sm: Sampler) -> (i64, i64, f32) {
    let w = size as f32;
    let last = size as i64 - 1;
    let frac = |x: f32| x - x.floor();
    match (sm.addressing, sm.normalized_coords) {
        (AddressingMode::Repeat, true) => {
            let u = (s - s.floor()) * w;
            let mut i0 = (u - 0.5).floor() as i64;
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += size as i64;
            }
            if i1 > last {
                i1 -= size as i64;
            }
            (i0, i1, frac(u - 0.5))
        }
        (AddressingMode::MirroredRepeat, true) => {
            let s2 = 2.0f32 * (0.5f32 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * w;
            let i0 = (u - 0.5).floor() as i64;
            ((i0).max(0), i0.saturating_add(1).min(last), frac(u - 0.5))
        }
        (mode, normalized) => {
            let u = if normalized { s * w } else { s };
            let i0 = (u - 0.5).floor() as i64;
            let a = frac(u - 0.5);
            match mode {
                AddressingMode::Clamp => (i0.clamp(-1, size as i64), i0.saturating_add(1).clamp(-1, size as i64), a),
                _ => (i0.clamp(0, last), i0.saturating_add(1).clamp(0, last), a),
            }
        }
    }
}

/// `read_imagef(image, sampler, coord)` by the specification. `dims`
/// spatial coordinates; an array's layer follows them.
fn ref_sample(r: &Reference, sm: Sampler, dims: usize, c: [f32; 4]) -> [f32; 4] {
    let layer = ref_layer(r, dims, c);
    let size = r.size;
    if sm.filter == FilterMode::Nearest {
        let i = ref_nearest(c[0], size[0], sm);
        let j = if dims > 1 { ref_nearest(c[1], size[1], sm) } else { 0 };
        let k = if dims > 2 { ref_nearest(c[2], size[2], sm) } else { 0 };
        return r.t(i, j, k, layer);
    }
    let mix = |x: [f32; 4], y: [f32; 4], a: f32| -> [f32; 4] { std::array::from_fn(|l| (1.0 - a) * x[l] + a * y[l]) };
    let (i0, i1, a) = ref_linear(c[0], size[0], sm);
    let row = |j: i64, k: i64| mix(r.t(i0, j, k, layer), r.t(i1, j, k, layer), a);
    match dims {
        1 => row(0, 0),
        2 => {
            let (j0, j1, b) = ref_linear(c[1], size[1], sm);
            mix(row(j0, 0), row(j1, 0), b)
        }
        _ => {
            let (j0, j1, b) = ref_linear(c[1], size[1], sm);
            let (k0, k1, g) = ref_linear(c[2], size[2], sm);
            mix(mix(row(j0, k0), row(j1, k0), b), mix(row(j0, k1), row(j1, k1), b), g)
        }
    }
}

fn close(got: [f32; 4], want: [f32; 4], exact: bool) -> bool {
    got.iter().zip(want).all(|(&g, w)| if exact { g == w || (g.is_nan() && w.is_nan()) } else { (g - w).abs() <= 1e-5 * w.abs().max(1.0) })
}

fn every_sampler() -> Vec<Sampler> {
    let mut v = Vec::new();
    for normalized in [false, true] {
        for a in [AddressingMode::None, AddressingMode::ClampToEdge, AddressingMode::Clamp, AddressingMode::Repeat, AddressingMode::MirroredRepeat] {
            // Repeat modes need normalized coordinates (section 6.13.14.1).
            if !normalized && matches!(a, AddressingMode::Repeat | AddressingMode::MirroredRepeat) {
                continue;
            }
            for f in [FilterMode::Nearest, FilterMode::Linear] {
                v.push(Sampler::new(normalized, a, f));
            }
        }
    }
    v
}

/// Random bytes that decode to finite values (half and float images get
/// values in [-2, 2)).
fn random_texels(fmt: ImageFormat, count: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    // One value per channel; one per texel for the packed types.
    for _ in 0..count * if is_packed(fmt.ty) { 1 } else { channels(fmt.order) } {
        match fmt.ty {
            T::HalfFloat => out.extend(nearest_half_fast(rng.unit() * 4.0 - 2.0).to_le_bytes()),
            T::Float => out.extend((rng.unit() * 4.0 - 2.0).to_le_bytes()),
            ty => out.extend(&rng.next().to_le_bytes()[..channel_size(ty)]),
        }
    }
    out
}

/// A `half` near `x` (truncating: only used to make test data).
fn nearest_half_fast(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    if e <= 0 {
        return sign;
    }
    sign | ((e as u16) << 10) | ((b >> 13) & 0x3FF) as u16
}

/// Coordinates around and outside the image: unnormalized in
/// [-1.5 size, 2.5 size), plus texel edges and centres; normalized ones
/// are these over the size.
fn coords(size: [usize; 3], layers: usize, n: usize, normalized: bool, rng: &mut Rng) -> Vec<[f32; 4]> {
    let mut v = Vec::new();
    for k in 0..n {
        let mut c = [0.0f32; 4];
        for d in 0..3 {
            let s = size[d] as f32;
            let x = match k % 4 {
                0 => rng.unit() * 4.0 * s - 1.5 * s,
                1 => (rng.next() % (3 * size[d] as u64 + 2)) as f32 - s,
                2 => (rng.next() % (3 * size[d] as u64 + 2)) as f32 - s + 0.5,
                _ => rng.unit() * s,
            };
            c[d] = if normalized { x / s } else { x };
        }
        // The layer coordinate (when there is one) is never normalized.
        c[3] = rng.unit() * (layers as f32 + 2.0) - 1.0;
        v.push(c);
    }
    v
}

// ---------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------

/// Runs `kernel(img, sampler, coords, out)` and returns the float4s.
fn sample(p: &Program, kernel: &str, img: &Image, s: Sampler, cs: &[[f32; 4]]) -> Vec<[f32; 4]> {
    let cb = Buffer::from_slice(cs);
    let out = Buffer::new(cs.len() * 16);
    let mut k = p.kernel(kernel).unwrap();
    k.set_arg(0, Arg::Image(img)).unwrap();
    k.set_arg(1, Arg::Sampler(s)).unwrap();
    k.set_arg(2, Arg::Buffer(&cb)).unwrap();
    k.set_arg(3, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(cs.len())).unwrap();
    out.read::<[f32; 4]>()
}

#[test]
fn reads_through_every_addressing_mode_and_filter_match_the_reference_sampler() {
    let p = program();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut formats = vec![
        ImageFormat::new(O::Rgba, T::UnormInt8),
        ImageFormat::new(O::R, T::Float),
        ImageFormat::new(O::Rg, T::SnormInt16),
        ImageFormat::new(O::Bgra, T::UnormInt8),
        ImageFormat::new(O::Luminance, T::HalfFloat),
        ImageFormat::new(O::Intensity, T::UnormInt16),
        ImageFormat::new(O::A, T::Float),
        ImageFormat::new(O::Ra, T::SnormInt8),
        ImageFormat::new(O::Argb, T::SnormInt8),
        ImageFormat::new(O::Srgba, T::UnormInt8),
        ImageFormat::new(O::Sbgra, T::UnormInt8),
        ImageFormat::new(O::Srgb, T::UnormInt8),
        ImageFormat::new(O::Srgbx, T::UnormInt8),
        ImageFormat::new(O::Rgb, T::UnormShort565),
        ImageFormat::new(O::Rgbx, T::UnormShort555),
        ImageFormat::new(O::Rgb, T::UnormInt101010),
    ];
    if slow() {
        formats.clear();
        for o in [O::R, O::A, O::Rg, O::Ra, O::Rgba, O::Bgra, O::Argb, O::Intensity, O::Luminance] {
            for t in [T::UnormInt8, T::UnormInt16, T::SnormInt8, T::SnormInt16, T::HalfFloat, T::Float] {
                if !matches!(o, O::Bgra | O::Argb) || matches!(t, T::UnormInt8 | T::SnormInt8) {
                    formats.push(ImageFormat::new(o, t));
                }
            }
        }
        for o in [O::Srgb, O::Srgbx, O::Srgba, O::Sbgra] {
            formats.push(ImageFormat::new(o, T::UnormInt8));
        }
        for o in [O::Rgb, O::Rgbx] {
            for t in [T::UnormShort565, T::UnormShort555, T::UnormInt101010] {
                formats.push(ImageFormat::new(o, t));
            }
        }
    }
    let n = if slow() { 2000 } else { 96 };
    let shapes: [(ImageType, &str, &[usize], usize); 5] = [
        (ImageType::Image1d, "sample1d", &[7], 1),
        (ImageType::Image1dArray, "sample1d_array", &[5, 3], 1),
        (ImageType::Image2d, "sample2d", &[5, 4], 2),
        (ImageType::Image2dArray, "sample2d_array", &[3, 4, 2], 2),
        (ImageType::Image3d, "sample3d", &[3, 2, 4], 3),
    ];
    let mut checked = 0;
    for (fi, &fmt) in formats.iter().enumerate() {
        for &(ty, kernel, sizes, dims) in &shapes {
            // Every format through 2D; the other shapes with a few formats.
            if ty != ImageType::Image2d && fi % 3 != 0 && !slow() {
                continue;
            }
            let mut size = [1usize; 3];
            size[..dims].copy_from_slice(&sizes[..dims]);
            let layers = if sizes.len() > dims { sizes[dims] } else { 1 };
            let count = size.iter().product::<usize>() * layers;
            let bytes = random_texels(fmt, count, &mut rng);
            let img = Image::from_bytes(ty, fmt, sizes, &bytes).unwrap();
            let r = Reference::new(fmt, size, layers, &bytes);
            for s in every_sampler() {
                let mut cs = coords(size, layers, n, s.normalized_coords, &mut rng);
                for c in &mut cs {
                    // The layer follows the spatial coordinates.
                    if ty.is_array() {
                        c[dims] = c[3];
                    }
                }
                let got = sample(&p, kernel, &img, s, &cs);
                for (c, g) in cs.iter().zip(&got) {
                    let c = *c;
                    let want = ref_sample(&r, s, dims, c);
                    assert!(close(*g, want, s.filter == FilterMode::Nearest), "{ty:?} {fmt:?} {s:?} at {c:?}: got {g:?}, want {want:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn integer_half_depth_and_sampler_less_reads() {
    let p = program();
    let mut rng = Rng(77);
    // read_imageui / read_imagei of integer images: the stored integers.
    let (w, h) = (6usize, 5usize);
    for (fmt, kernel) in [
        (ImageFormat::new(O::Rgba, T::UnsignedInt8), "sample2d_ui"),
        (ImageFormat::new(O::Rg, T::UnsignedInt32), "sample2d_ui"),
        (ImageFormat::new(O::Rgba, T::SignedInt16), "sample2d_i"),
        (ImageFormat::new(O::R, T::SignedInt8), "sample2d_i"),
        (ImageFormat::new(O::Bgra, T::SignedInt8), "sample2d_i"),
    ] {
        let bytes = random_texels(fmt, w * h, &mut rng);
        let img = Image::from_bytes(ImageType::Image2d, fmt, &[w, h], &bytes).unwrap();
        let r = Reference::new(fmt, [w, h, 1], 1, &bytes);
        for s in every_sampler().into_iter().filter(|s| s.filter == FilterMode::Nearest) {
            let cs = coords([w, h, 1], 1, 64, s.normalized_coords, &mut rng);
            let got = sample(&p, kernel, &img, s, &cs);
            for (c, g) in cs.iter().zip(&got) {
                let want = ref_sample(&r, s, 2, *c);
                // The integers, exactly (every value here is exact in f32).
                let got: [f32; 4] = if kernel == "sample2d_ui" { g.map(|x| x.to_bits() as f32) } else { g.map(|x| x.to_bits() as i32 as f32) };
                assert_eq!(got, want, "{fmt:?} {s:?} at {c:?}");
            }
        }
    }
    // read_imageh: the float result rounded to half.
    let fmt = ImageFormat::new(O::Rgba, T::Float);
    let bytes = random_texels(fmt, w * h, &mut rng);
    let img = Image::from_bytes(ImageType::Image2d, fmt, &[w, h], &bytes).unwrap();
    let r = Reference::new(fmt, [w, h, 1], 1, &bytes);
    let s = Sampler::new(true, AddressingMode::Repeat, FilterMode::Linear);
    let cs = coords([w, h, 1], 1, 64, true, &mut rng);
    for (c, g) in cs.iter().zip(sample(&p, "sample2d_h", &img, s, &cs)) {
        let want = ref_sample(&r, s, 2, *c).map(|x| half_value(nearest_half(x)));
        // The linear sum may differ from the reference's in the last
        // float bit, which can move a half rounding by one step.
        assert!(g.iter().zip(want).all(|(&g, w)| (g - w).abs() <= 1e-3 * w.abs().max(1.0)), "{c:?}: {g:?} vs {want:?}");
    }
    // Depth images: one float.
    for fmt in [ImageFormat::new(O::Depth, T::Float), ImageFormat::new(O::Depth, T::UnormInt16)] {
        let bytes = random_texels(fmt, w * h, &mut rng);
        let img = Image::from_bytes(ImageType::Image2dDepth, fmt, &[w, h], &bytes).unwrap();
        let r = Reference::new(fmt, [w, h, 1], 1, &bytes);
        for s in every_sampler() {
            let cs = coords([w, h, 1], 1, 32, s.normalized_coords, &mut rng);
            let cb = Buffer::from_slice(&cs);
            let out = Buffer::new(cs.len() * 4);
            let mut k = p.kernel("sample_depth").unwrap();
            k.set_arg(0, Arg::Image(&img)).unwrap();
            k.set_arg(1, Arg::Sampler(s)).unwrap();
            k.set_arg(2, Arg::Buffer(&cb)).unwrap();
            k.set_arg(3, Arg::Buffer(&out)).unwrap();
            k.launch(&NdRange::linear(cs.len())).unwrap();
            for (c, g) in cs.iter().zip(out.read::<f32>()) {
                let want = ref_sample(&r, s, 2, *c)[0];
                assert!(close([g; 4], [want; 4], s.filter == FilterMode::Nearest), "{fmt:?} {s:?} {c:?}: {g} vs {want}");
            }
        }
    }
    // Integer coordinates with a sampler, sampler-less reads, and the
    // program-scope (normalized, repeat, linear) and literal (clamp,
    // nearest) samplers.
    let fmt = ImageFormat::new(O::Rgba, T::UnormInt8);
    let bytes = random_texels(fmt, w * h, &mut rng);
    let img = Image::from_bytes(ImageType::Image2d, fmt, &[w, h], &bytes).unwrap();
    let r = Reference::new(fmt, [w, h, 1], 1, &bytes);
    let mut cs = coords([w, h, 1], 1, 64, false, &mut rng);
    for c in &mut cs {
        *c = c.map(f32::floor);
    }
    let ic: Vec<[i32; 4]> = cs.iter().map(|c| c.map(|x| x as i32)).collect();
    for s in [Sampler::new(false, AddressingMode::Clamp, FilterMode::Nearest), Sampler::new(false, AddressingMode::ClampToEdge, FilterMode::Nearest)] {
        let cb = Buffer::from_slice(&ic);
        let out = Buffer::new(ic.len() * 16);
        let mut k = p.kernel("sample2d_int").unwrap();
        k.set_arg(0, Arg::Image(&img)).unwrap();
        k.set_arg(1, Arg::Sampler(s)).unwrap();
        k.set_arg(2, Arg::Buffer(&cb)).unwrap();
        k.set_arg(3, Arg::Buffer(&out)).unwrap();
        k.launch(&NdRange::linear(ic.len())).unwrap();
        for (c, g) in cs.iter().zip(out.read::<[f32; 4]>()) {
            assert_eq!(g, ref_sample(&r, s, 2, *c), "{s:?} {c:?}");
        }
    }
    let mut cs = coords([w, h, 1], 1, 64, false, &mut rng);
    for c in cs.iter_mut().step_by(2) {
        // Inside the image: sampler-less reads outside are undefined.
        c[0] = c[0].rem_euclid(w as f32);
        c[1] = c[1].rem_euclid(h as f32);
    }
    let cb = Buffer::from_slice(&cs);
    let out = Buffer::new(cs.len() * 48);
    let mut k = p.kernel("load_and_constant_samplers").unwrap();
    k.set_arg(0, Arg::Image(&img)).unwrap();
    k.set_arg(1, Arg::Buffer(&cb)).unwrap();
    k.set_arg(2, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(cs.len())).unwrap();
    let got = out.read::<[f32; 4]>();
    let program_sampler = Sampler::new(true, AddressingMode::Repeat, FilterMode::Linear);
    let local_sampler = Sampler::new(false, AddressingMode::Clamp, FilterMode::Nearest);
    for (i, c) in cs.iter().enumerate() {
        if i % 2 == 0 {
            let (x, y) = (c[0] as i32 as i64, c[1] as i32 as i64);
            assert_eq!(got[3 * i], r.t(x, y, 0, 0), "sampler-less at {c:?}");
        }
        assert!(close(got[3 * i + 1], ref_sample(&r, program_sampler, 2, *c), false), "program-scope sampler at {c:?}");
        assert_eq!(got[3 * i + 2], ref_sample(&r, local_sampler, 2, *c), "literal sampler at {c:?}");
    }
}

/// The bytes `write_imagef` stores for one channel (section 8.3.1.1:
/// round to nearest even and saturate; NaN is 0).
fn expected_channel(ty: T, x: f32) -> Vec<u8> {
    let sat = |v: f32, lo: f32, hi: f32| if v.is_nan() { 0.0 } else { v.round_ties_even().clamp(lo, hi) };
    match ty {
        T::UnormInt8 => vec![sat(x * 255.0, 0.0, 255.0) as u8],
        T::UnormInt16 => (sat(x * 65535.0, 0.0, 65535.0) as u16).to_le_bytes().to_vec(),
        T::SnormInt8 => vec![sat(x * 127.0, -128.0, 127.0) as i8 as u8],
        T::SnormInt16 => (sat(x * 32767.0, -32768.0, 32767.0) as i16).to_le_bytes().to_vec(),
        T::HalfFloat => nearest_half(x).to_le_bytes().to_vec(),
        T::Float => x.to_le_bytes().to_vec(),
        _ => unreachable!("float formats only"),
    }
}

/// The stored channels' lanes of (r, g, b, a) (for writes).
fn write_lanes(order: O) -> &'static [usize] {
    match order {
        O::R | O::Intensity | O::Luminance | O::Depth => &[0],
        O::A => &[3],
        O::Rg => &[0, 1],
        O::Ra => &[0, 3],
        O::Rgba | O::Srgba => &[0, 1, 2, 3],
        O::Bgra | O::Sbgra => &[2, 1, 0, 3],
        O::Argb => &[3, 0, 1, 2],
        O::Rgb | O::Rgbx | O::Srgb | O::Srgbx => &[0, 1, 2],
    }
}

fn write_image<V: clc_runtime::Pod>(p: &Program, kernel: &str, img: &Image, colors: &[V]) {
    let cb = Buffer::from_slice(colors);
    let mut k = p.kernel(kernel).unwrap();
    k.set_arg(0, Arg::Image(img)).unwrap();
    k.set_arg(1, Arg::Buffer(&cb)).unwrap();
    k.launch(&NdRange { dims: 2, global: [img.width(), img.height(), 1], offset: [0; 3], local: None }).unwrap();
}

#[test]
fn writes_convert_per_channel_type() {
    for (cpu, p) in programs() {
        writes_convert_per_channel_type_on(&p, cpu);
    }
}

fn writes_convert_per_channel_type_on(p: &Program, cpu: &str) {
    let (w, h) = (8usize, 6usize);
    // Values in and out of range, halfway cases, signed zero, NaN.
    let specials = [0.0f32, -0.0, 1.0, -1.0, 0.5, 1.5, -2.0, 1e9, -1e9, f32::NAN, 0.5 / 255.0, 1.5 / 255.0, 2.5 / 255.0, 0.5 / 127.0, 1.0 / 65535.0 * 0.5, 65504.0, 65520.0, 1e-7];
    let mut rng = Rng(99);
    let colors: Vec<[f32; 4]> = (0..w * h)
        .map(|i| std::array::from_fn(|l| if (i * 4 + l) < specials.len() * 2 && i % 2 == 0 { specials[(i * 4 + l) / 2 % specials.len()] } else { rng.unit() * 2.4 - 1.2 }))
        .collect();
    for ty in [T::UnormInt8, T::UnormInt16, T::SnormInt8, T::SnormInt16, T::HalfFloat, T::Float] {
        for order in [O::Rgba, O::Bgra, O::R, O::Ra, O::Luminance] {
            if order == O::Bgra && !matches!(ty, T::UnormInt8 | T::SnormInt8) {
                continue;
            }
            let fmt = ImageFormat::new(order, ty);
            let img = Image::new(ImageType::Image2d, fmt, &[w, h]).unwrap();
            write_image(p, "write_f", &img, &colors);
            let want: Vec<u8> = colors.iter().flat_map(|c| write_lanes(order).iter().flat_map(|&l| expected_channel(ty, c[l])).collect::<Vec<_>>()).collect();
            assert_eq!(img.read_bytes(), want, "{cpu}: write_imagef to {fmt:?}");
        }
    }
    // write_imageh: the half4 argument, then as for write_imagef.
    let img = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, T::Float), &[w, h]).unwrap();
    write_image(p, "write_h", &img, &colors);
    let want: Vec<f32> = colors.iter().flat_map(|c| c.map(|x| half_value(nearest_half(x)))).collect();
    let got = img.read::<f32>();
    assert!(got.iter().zip(&want).all(|(g, w)| g == w || (g.is_nan() && w.is_nan())), "{cpu}: write_imageh: {got:?} vs {want:?}");
    // Integer writes saturate (convert_<T>_sat).
    let ints: Vec<[i32; 4]> = (0..w * h).map(|i| std::array::from_fn(|l| [0, -1, 127, 128, -128, -129, 32767, 32768, -32769, i32::MAX, i32::MIN, 255, 256, 65535, 65536][(i * 4 + l) % 15])).collect();
    for (ty, lo, hi, size) in [(T::SignedInt8, -128i64, 127i64, 1usize), (T::SignedInt16, -32768, 32767, 2), (T::SignedInt32, i32::MIN as i64, i32::MAX as i64, 4)] {
        let img = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, ty), &[w, h]).unwrap();
        write_image(p, "write_i", &img, &ints);
        let want: Vec<u8> = ints.iter().flatten().flat_map(|&v| (v as i64).clamp(lo, hi).to_le_bytes()[..size].to_vec()).collect();
        assert_eq!(img.read_bytes(), want, "{cpu}: write_imagei to {ty:?}");
    }
    let uints: Vec<[u32; 4]> = ints.iter().map(|c| c.map(|x| x as u32)).collect();
    for (ty, hi, size) in [(T::UnsignedInt8, 255u64, 1usize), (T::UnsignedInt16, 65535, 2), (T::UnsignedInt32, u32::MAX as u64, 4)] {
        let img = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, ty), &[w, h]).unwrap();
        write_image(p, "write_ui", &img, &uints);
        let want: Vec<u8> = uints.iter().flatten().flat_map(|&v| (v as u64).min(hi).to_le_bytes()[..size].to_vec()).collect();
        assert_eq!(img.read_bytes(), want, "{cpu}: write_imageui to {ty:?}");
    }
    // Depth images take one float.
    let depth = Image::new(ImageType::Image2dDepth, ImageFormat::new(O::Depth, T::UnormInt16), &[w, h]).unwrap();
    let d: Vec<f32> = colors.iter().map(|c| c[0]).collect();
    write_image(p, "write_depth", &depth, &d);
    assert_eq!(depth.read_bytes(), d.iter().flat_map(|&x| expected_channel(T::UnormInt16, x)).collect::<Vec<_>>(), "{cpu}: depth");
    // A scalar colour is every channel's (float), converted to uint first
    // (uint).
    let img = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, T::Float), &[w, h]).unwrap();
    write_image(p, "write_scalar_f", &img, &d);
    let bits = |v: Vec<f32>| v.into_iter().map(|x| if x.is_nan() { f32::NAN.to_bits() } else { x.to_bits() }).collect::<Vec<_>>();
    assert_eq!(bits(img.read::<f32>()), bits(d.iter().flat_map(|&x| [x; 4]).collect()), "{cpu}: write_imagef of a float");
    let counts: Vec<f32> = (0..w * h).map(|i| i as f32 * 1.75).collect();
    let img = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, T::UnsignedInt32), &[w, h]).unwrap();
    write_image(p, "write_scalar_ui", &img, &counts);
    assert_eq!(img.read::<u32>(), counts.iter().flat_map(|&x| [x as u32; 4]).collect::<Vec<_>>(), "{cpu}: write_imageui of a float");
    // 3D and array images through read_write images.
    let fmt = ImageFormat::new(O::Rg, T::UnsignedInt16);
    let data: Vec<u16> = (0..3 * 4 * 5 * 2).map(|i| (i * 7 % 1000) as u16).collect();
    let mut src = Image::new(ImageType::Image3d, fmt, &[3, 4, 5]).unwrap();
    src.write_items(&data).unwrap();
    let dst = Image::new(ImageType::Image3d, fmt, &[3, 4, 5]).unwrap();
    let arr = Image::new(ImageType::Image2dArray, fmt, &[3, 4, 5]).unwrap();
    let mut k = p.kernel("copy3d").unwrap();
    k.set_arg(0, Arg::Image(&src)).unwrap();
    k.set_arg(1, Arg::Image(&dst)).unwrap();
    k.set_arg(2, Arg::Image(&arr)).unwrap();
    k.launch(&NdRange { dims: 3, global: [3, 4, 5], offset: [0; 3], local: None }).unwrap();
    assert_eq!(dst.read::<u16>(), data.iter().map(|&x| x + 1).collect::<Vec<_>>());
    assert_eq!(arr.read::<u16>(), data.iter().map(|&x| x * 2 + 3).collect::<Vec<_>>());
}

#[test]
fn queries_and_argument_checks() {
    let p = program();
    let f = |o, t| ImageFormat::new(o, t);
    let a = Image::new(ImageType::Image1d, f(O::Luminance, T::HalfFloat), &[17]).unwrap();
    let b = Image::new(ImageType::Image1dArray, f(O::R, T::Float), &[9, 4]).unwrap();
    let c = Image::new(ImageType::Image2d, f(O::Bgra, T::UnormInt8), &[11, 3]).unwrap();
    let d = Image::new(ImageType::Image2dArray, f(O::Rgba, T::SignedInt32), &[2, 5, 7]).unwrap();
    let e = Image::new(ImageType::Image3d, f(O::Ra, T::SnormInt16), &[4, 6, 8]).unwrap();
    let dep = Image::new(ImageType::Image2dDepth, f(O::Depth, T::Float), &[3, 3]).unwrap();
    let g = Image::new(ImageType::Image1dBuffer, f(O::A, T::UnormInt16), &[100]).unwrap();
    let out = Buffer::new(24 * 4);
    let mut k = p.kernel("queries").unwrap();
    for (i, img) in [&a, &b, &c, &d, &e, &dep, &g].into_iter().enumerate() {
        k.set_arg(i, Arg::Image(img)).unwrap();
    }
    k.set_arg(7, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(1)).unwrap();
    // CL_LUMINANCE 0x10B9, CL_HALF_FLOAT 0x10DD, CL_BGRA 0x10B6,
    // CL_UNORM_INT8 0x10D2, CL_DEPTH 0x10BD, CL_FLOAT 0x10DE.
    let want = [17, 0x10B9, 0x10DD, 9, 4, 11, 3, 11, 3, 0x10B6, 0x10D2, 2, 5, 7, 4, 6, 8, 4, 6, 8, 0, 0x10BD, 0x10DE, 100];
    assert_eq!(out.read::<i32>(), want);

    // Reads around a barrier.
    let mut src = Image::new(ImageType::Image1d, f(O::R, T::Float), &[16]).unwrap();
    src.write_items(&(0..16).map(|i| i as f32).collect::<Vec<_>>()).unwrap();
    let out = Buffer::new(16 * 4);
    let mut k = p.kernel("reverse_groups").unwrap();
    k.set_arg(0, Arg::Image(&src)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Local(4 * 4)).unwrap();
    k.launch(&NdRange { dims: 1, global: [16, 1, 1], offset: [0; 3], local: Some([4, 1, 1]) }).unwrap();
    let want: Vec<f32> = (0..16).map(|g| ((g / 4) * 4 + 3 - g % 4) as f32 + 16.0).collect();
    assert_eq!(out.read::<f32>(), want);

    // The argument checks: the image type, the access, images vs samplers.
    let info = &p.kernels().iter().find(|k| k.name == "copy3d").unwrap().args;
    assert_eq!(info[0].image, Some((ImageType::Image3d, ImageAccess::ReadOnly)));
    assert_eq!(info[1].image, Some((ImageType::Image3d, ImageAccess::WriteOnly)));
    assert_eq!(info[2].image, Some((ImageType::Image2dArray, ImageAccess::ReadWrite)));
    let mut k = p.kernel("copy3d").unwrap();
    let err = k.set_arg(0, Arg::Image(&d)).unwrap_err().to_string();
    assert!(err.contains("image3d_t") && err.contains("got an image2d_array_t"), "{err}");
    let ro = Image::new(ImageType::Image3d, f(O::R, T::Float), &[1, 1, 1]).unwrap().with_access(ImageAccess::ReadOnly);
    let err = k.set_arg(1, Arg::Image(&ro)).unwrap_err().to_string();
    assert!(err.contains("ReadOnly"), "{err}");
    k.set_arg(0, Arg::Image(&ro)).unwrap();
    let wo = Image::new(ImageType::Image3d, f(O::R, T::Float), &[1, 1, 1]).unwrap().with_access(ImageAccess::WriteOnly);
    assert!(k.set_arg(0, Arg::Image(&wo)).is_err());
    let err = k.set_arg(0, Arg::Sampler(Sampler::new(false, AddressingMode::None, FilterMode::Nearest))).unwrap_err().to_string();
    assert!(err.contains("expected an image"), "{err}");
    let mut k = p.kernel("sample2d").unwrap();
    let err = k.set_arg(1, Arg::Image(&c)).unwrap_err().to_string();
    assert!(err.contains("expected a sampler"), "{err}");
    let err = k.set_arg(0, Arg::Buffer(&out)).unwrap_err().to_string();
    assert!(err.contains("expected an image"), "{err}");
}

#[test]
fn multi_sample_images_are_refused_by_the_checker() {
    let err = jit::build(
        "#pragma OPENCL EXTENSION cl_khr_gl_msaa_sharing : enable\nkernel void k(read_only image2d_msaa_t m, global float4 *o) { o[0] = read_imagef(m, (int2)(0, 0), 1); }",
        "msaa.cl",
        &BuildOptions::default(),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(err.contains("use of type 'image2d_msaa_t' requires cl_khr_gl_msaa_sharing support"), "{err}");
}

#[test]
fn the_spirv_exec_image_kernel_runs_natively() {
    // tests/spirv_exec/images.cl, checked as run.py checks it on the other
    // implementation: dst = 2 src(x + 1, y) (clamped to the edge) + src(x, y)
    // + (width, height, 0, 0).
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/spirv_exec/images.cl")).unwrap();
    let p = jit::build(&src, "images.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let (w, h) = (8usize, 5usize);
    let mut rng = Rng(3);
    let pix: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.unit())).collect();
    let fmt = ImageFormat::new(O::Rgba, T::Float);
    let mut src_img = Image::new(ImageType::Image2d, fmt, &[w, h]).unwrap().with_access(ImageAccess::ReadOnly);
    src_img.write_items(&pix).unwrap();
    let dst = Image::new(ImageType::Image2d, fmt, &[w, h]).unwrap().with_access(ImageAccess::WriteOnly);
    let mut k = p.kernel("img_shift").unwrap();
    k.set_arg(0, Arg::Image(&src_img)).unwrap();
    k.set_arg(1, Arg::Image(&dst)).unwrap();
    k.set_arg(2, Arg::Sampler(Sampler::new(false, AddressingMode::ClampToEdge, FilterMode::Nearest))).unwrap();
    k.launch(&NdRange { dims: 2, global: [w, h, 1], offset: [0; 3], local: None }).unwrap();
    let got = dst.read::<[f32; 4]>();
    for y in 0..h {
        for x in 0..w {
            let a = pix[y * w + (x + 1).min(w - 1)];
            let b = pix[y * w + x];
            let extra = [w as f32, h as f32, 0.0, 0.0];
            let want: [f32; 4] = std::array::from_fn(|l| a[l] * 2.0 + b[l] + extra[l]);
            assert!(close(got[y * w + x], want, false), "({x}, {y}): {:?} vs {want:?}", got[y * w + x]);
        }
    }
}

// ---------------------------------------------------------------------
// The inline paths (the formats of `INLINE_FORMATS`, and a few others
// that must take the runtime's functions from the same call sites)
// ---------------------------------------------------------------------

/// Every inline format, then formats that are not inline.
fn inline_and_other_formats() -> Vec<ImageFormat> {
    let mut v = clc_runtime::image::INLINE_FORMATS.to_vec();
    v.extend([ImageFormat::new(O::Rgba, T::HalfFloat), ImageFormat::new(O::Rg, T::UnsignedInt16), ImageFormat::new(O::Luminance, T::UnormInt8), ImageFormat::new(O::Argb, T::SignedInt8)]);
    v
}

/// The shapes the inline path serves: type, kernel name part, sizes,
/// spatial dimensions.
const INLINE_SHAPES: [(ImageType, &str, &[usize], usize); 6] = [
    (ImageType::Image1d, "1d", &[5], 1),
    (ImageType::Image1dBuffer, "1d_buffer", &[6], 1),
    (ImageType::Image1dArray, "1d_array", &[5, 3], 1),
    (ImageType::Image2d, "2d", &[5, 4], 2),
    (ImageType::Image2dArray, "2d_array", &[3, 4, 3], 2),
    (ImageType::Image3d, "3d", &[3, 2, 4], 3),
];

/// `f`, `i` or `ui`: the kernel name suffix that reads and writes texels
/// of channel type `ty`'s kind.
fn kind_suffix(ty: T) -> &'static str {
    match ty {
        T::SignedInt8 | T::SignedInt16 | T::SignedInt32 => "i",
        T::UnsignedInt8 | T::UnsignedInt16 | T::UnsignedInt32 => "ui",
        _ => "f",
    }
}

/// Float coordinates of one axis of `size` texels at and around the
/// edges and far outside (with infinities and NaN when `non_finite`);
/// normalized ones are these over the size, plus 1 and just below it.
fn edge_coords(size: usize, normalized: bool, non_finite: bool) -> Vec<f32> {
    let s = size as f32;
    let below = |x: f32| f32::from_bits(x.to_bits() - 1);
    let mut v = vec![-(s + 0.5), -1.0, -0.5, -1e-7, -0.0, 0.0, 0.5, 1.0, s - 1.0, s - 0.5, below(s), s, s + 0.5, 2.0 * s, 1e30, -1e30];
    if normalized {
        v = v.into_iter().map(|x| x / s).collect();
        v.extend([1.0, below(1.0), -1e-9, 0.5 / s]);
    }
    if non_finite {
        v.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
    }
    v
}

/// Integer coordinates of one axis of `size` texels at and around the
/// edges and at the ends of `int`.
fn edge_ints(size: usize) -> Vec<i32> {
    let s = size as i32;
    vec![i32::MIN, -s - 1, -1, 0, 1, s - 1, s, s + 1, i32::MAX]
}

fn pick<V: Copy>(v: &[V], rng: &mut Rng) -> V {
    v[(rng.next() % v.len() as u64) as usize]
}

#[test]
fn inline_reads_match_the_reference_at_edges_and_outside_for_every_sampler() {
    let p = program();
    let mut rng = Rng(0x1A_11E5);
    let n = if slow() { 1500 } else { 160 };
    let mut checked = 0;
    for fmt in inline_and_other_formats() {
        for &(ty, name, sizes, dims) in &INLINE_SHAPES {
            let mut size = [1usize; 3];
            size[..dims].copy_from_slice(&sizes[..dims]);
            let layers = if sizes.len() > dims { sizes[dims] } else { 1 };
            let bytes = random_texels(fmt, size.iter().product::<usize>() * layers, &mut rng);
            let img = Image::from_bytes(ty, fmt, sizes, &bytes).unwrap();
            let r = Reference::new(fmt, size, layers, &bytes);
            let kernel = format!("reads_{name}_{}", kind_suffix(fmt.ty));
            let lf = [-1.0, -0.5, -0.4, 0.0, 0.5, 1.5, layers as f32 - 1.0, layers as f32 - 0.5, layers as f32, 1e30, f32::NAN];
            let li = [i32::MIN, -1, 0, layers as i32 - 1, layers as i32, i32::MAX];
            // Integer coordinates, the same for every sampler: the
            // texel, clamped to the edge outside but under
            // CLK_ADDRESS_CLAMP (the border colour), whatever the filter
            // and normalization; sampler-less reads clamp to the edge
            // (undefined outside by the specification: clc's choice).
            let ics: Vec<[i32; 4]> = (0..n)
                .map(|_| {
                    let mut c = [0i32; 4];
                    for (d, slot) in c.iter_mut().enumerate().take(dims) {
                        *slot = pick(&edge_ints(size[d]), &mut rng);
                    }
                    if ty.is_array() {
                        c[dims] = pick(&li, &mut rng);
                    }
                    c
                })
                .collect();
            let as_float = |c: &[i32; 4]| c.map(|x| x as f32);
            if ty == ImageType::Image1dBuffer {
                let icb = Buffer::from_slice(&ics);
                let out = Buffer::new(n * 16);
                let mut k = p.kernel(&kernel).unwrap();
                k.set_arg(0, Arg::Image(&img)).unwrap();
                k.set_arg(1, Arg::Buffer(&icb)).unwrap();
                k.set_arg(2, Arg::Buffer(&out)).unwrap();
                k.launch(&NdRange::linear(n)).unwrap();
                let none = Sampler::new(false, AddressingMode::None, FilterMode::Nearest);
                for (c, g) in ics.iter().zip(out.read::<[u32; 4]>()) {
                    assert_eq!(g, r.nearest_bits(none, dims, as_float(c)), "{ty:?} {fmt:?} sampler-less at {c:?}");
                    checked += 1;
                }
                continue;
            }
            for s in every_sampler() {
                // Non-finite coordinates only where the inline path may
                // serve them (the reference's linear and repeat formulas
                // do not follow the runtime's for them).
                let inline_mode = matches!(s.addressing, AddressingMode::None | AddressingMode::ClampToEdge | AddressingMode::Clamp);
                let nearest = s.filter == FilterMode::Nearest || is_integer(fmt.ty);
                let cs: Vec<[f32; 4]> = (0..n)
                    .map(|_| {
                        let mut c = [0f32; 4];
                        for (d, slot) in c.iter_mut().enumerate().take(dims) {
                            *slot = if rng.next() % 4 == 0 { (rng.unit() * 3.0 - 1.0) * if s.normalized_coords { 1.0 } else { size[d] as f32 } } else { pick(&edge_coords(size[d], s.normalized_coords, inline_mode && nearest), &mut rng) };
                        }
                        if ty.is_array() {
                            c[dims] = pick(&lf, &mut rng);
                        }
                        c
                    })
                    .collect();
                let cb = Buffer::from_slice(&cs);
                let icb = Buffer::from_slice(&ics);
                let out = Buffer::new(n * 48);
                let mut k = p.kernel(&kernel).unwrap();
                k.set_arg(0, Arg::Image(&img)).unwrap();
                k.set_arg(1, Arg::Sampler(s)).unwrap();
                k.set_arg(2, Arg::Buffer(&cb)).unwrap();
                k.set_arg(3, Arg::Buffer(&icb)).unwrap();
                k.set_arg(4, Arg::Buffer(&out)).unwrap();
                k.launch(&NdRange::linear(n)).unwrap();
                let got = out.read::<[u32; 4]>();
                let unnormalized = Sampler::new(false, s.addressing, FilterMode::Nearest);
                let none = Sampler::new(false, AddressingMode::None, FilterMode::Nearest);
                for i in 0..n {
                    let (c, ic) = (cs[i], ics[i]);
                    if nearest {
                        assert_eq!(got[3 * i], r.nearest_bits(s, dims, c), "{ty:?} {fmt:?} {s:?} at {c:?}");
                    } else {
                        let want = ref_sample(&r, s, dims, c);
                        assert!(close(got[3 * i].map(f32::from_bits), want, false), "{ty:?} {fmt:?} {s:?} at {c:?}: got {:?}, want {want:?}", got[3 * i].map(f32::from_bits));
                    }
                    assert_eq!(got[3 * i + 1], r.nearest_bits(unnormalized, dims, as_float(&ic)), "{ty:?} {fmt:?} {s:?} at {ic:?}");
                    assert_eq!(got[3 * i + 2], r.nearest_bits(none, dims, as_float(&ic)), "{ty:?} {fmt:?} sampler-less at {ic:?}");
                    checked += 3;
                }
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn inline_reads_through_constant_samplers_match_the_reference() {
    let p = program();
    let mut rng = Rng(0xC0_5A);
    let (w, h) = (5usize, 4usize);
    for fmt in inline_and_other_formats().into_iter().filter(|f| !is_integer(f.ty)) {
        let bytes = random_texels(fmt, w * h, &mut rng);
        let img = Image::from_bytes(ImageType::Image2d, fmt, &[w, h], &bytes).unwrap();
        let r = Reference::new(fmt, [w, h, 1], 1, &bytes);
        // Unnormalized coordinates in .xy, normalized ones in .zw.
        let cs: Vec<[f32; 4]> = (0..200).map(|_| [pick(&edge_coords(w, false, true), &mut rng), pick(&edge_coords(h, false, true), &mut rng), pick(&edge_coords(w, true, true), &mut rng), pick(&edge_coords(h, true, true), &mut rng)]).collect();
        let cb = Buffer::from_slice(&cs);
        let out = Buffer::new(cs.len() * 6 * 16);
        let mut k = p.kernel("constant_samplers").unwrap();
        k.set_arg(0, Arg::Image(&img)).unwrap();
        k.set_arg(1, Arg::Buffer(&cb)).unwrap();
        k.set_arg(2, Arg::Buffer(&out)).unwrap();
        k.launch(&NdRange::linear(cs.len())).unwrap();
        let got = out.read::<[u32; 4]>();
        let modes = [AddressingMode::None, AddressingMode::ClampToEdge, AddressingMode::Clamp];
        for (i, c) in cs.iter().enumerate() {
            for (m, normalized) in [false, true].into_iter().flat_map(|nz| modes.map(|m| (m, nz))).enumerate() {
                let s = Sampler::new(normalized.1, normalized.0, FilterMode::Nearest);
                let c = if normalized.1 { [c[2], c[3], 0.0, 0.0] } else { *c };
                assert_eq!(got[6 * i + m], r.nearest_bits(s, 2, c), "{fmt:?} {s:?} at {c:?}");
            }
        }
    }
}

/// The bytes a write of `v` (a lane of `kind` bits) stores for one channel
/// of integer type `ty` (section 8.3.2: saturated).
fn expected_int_channel(ty: T, v: u32, signed_source: bool) -> Vec<u8> {
    let x = if signed_source { v as i32 as i64 } else { v as i64 };
    match ty {
        T::SignedInt8 => vec![x.clamp(-128, 127) as i8 as u8],
        T::SignedInt16 => (x.clamp(-32768, 32767) as i16).to_le_bytes().to_vec(),
        T::SignedInt32 => (x.clamp(i32::MIN as i64, i32::MAX as i64) as i32).to_le_bytes().to_vec(),
        T::UnsignedInt8 => vec![x.clamp(0, 255) as u8],
        T::UnsignedInt16 => (x.clamp(0, 65535) as u16).to_le_bytes().to_vec(),
        T::UnsignedInt32 => (x.clamp(0, u32::MAX as i64) as u32).to_le_bytes().to_vec(),
        _ => unreachable!("integer formats only"),
    }
}

#[test]
fn inline_writes_convert_and_drop_writes_outside_the_image() {
    for (cpu, p) in programs() {
        inline_writes_on(&p, cpu);
    }
}

fn inline_writes_on(p: &Program, cpu: &str) {
    let mut rng = Rng(0x3217E);
    let specials = [0.0f32, -0.0, 1.0, -1.0, 0.5, 1.5, -2.0, 1e9, -1e9, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.5 / 255.0, 1.5 / 255.0, 2.5 / 255.0, 254.5 / 255.0, 0.5 / 127.0, -0.5 / 127.0, 0.5 / 65535.0, 1e-7, 8_388_608.5];
    let ints = [0u32, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, i32::MAX as u32, -1i32 as u32, -128i32 as u32, -129i32 as u32, -32769i32 as u32, i32::MIN as u32, u32::MAX - 255];
    for fmt in inline_and_other_formats() {
        // Writes of the kind that matches the channel type (the others
        // are undefined by the specification).
        for &(ty, name, sizes, dims) in &INLINE_SHAPES {
            let mut size = [1usize; 3];
            size[..dims].copy_from_slice(&sizes[..dims]);
            let layers = if sizes.len() > dims { sizes[dims] } else { 1 };
            let count = size.iter().product::<usize>() * layers;
            let kernel = format!("writes_{name}_{}", kind_suffix(fmt.ty));
            let elem = channels(fmt.order) * channel_size(fmt.ty);
            let launch = |img: &Image, coords: &[[i32; 4]], values: &[[u32; 4]]| {
                let cb = Buffer::from_slice(coords);
                let vb = Buffer::from_slice(values);
                let mut k = p.kernel(&kernel).unwrap();
                k.set_arg(0, Arg::Image(img)).unwrap();
                k.set_arg(1, Arg::Buffer(&cb)).unwrap();
                k.set_arg(2, Arg::Buffer(&vb)).unwrap();
                k.launch(&NdRange::linear(coords.len())).unwrap();
            };
            let value = |rng: &mut Rng| -> [u32; 4] {
                std::array::from_fn(|_| if is_integer(fmt.ty) { if rng.next() % 2 == 0 { pick(&ints, rng) } else { rng.next() as u32 } } else if rng.next() % 2 == 0 { pick(&specials, rng).to_bits() } else { (rng.unit() * 2.4 - 1.2).to_bits() })
            };
            // Every texel once, in a shuffled order.
            let mut inside: Vec<[i32; 4]> = (0..count)
                .map(|t| {
                    let mut c = [0i32; 4];
                    let mut rest = t;
                    for (d, slot) in c.iter_mut().enumerate().take(dims) {
                        *slot = (rest % size[d]) as i32;
                        rest /= size[d];
                    }
                    if ty.is_array() {
                        c[dims] = rest as i32;
                    }
                    c
                })
                .collect();
            for i in (1..inside.len()).rev() {
                inside.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            // Coordinates outside in one lane (a spatial one or the
            // layer) or in all: nothing may change.
            let lanes = dims + ty.is_array() as usize;
            let outside: Vec<[i32; 4]> = (0..64)
                .map(|_| {
                    let mut c = pick(&inside, &mut rng);
                    let bad = |lim: usize, rng: &mut Rng| pick(&[-1, lim as i32, lim as i32 + 1, i32::MIN, i32::MAX], rng);
                    let l = (rng.next() % (lanes as u64 + 1)) as usize;
                    for d in 0..lanes {
                        if d == l || l == lanes {
                            c[d] = bad(if d < dims { size[d] } else { layers }, &mut rng);
                        }
                    }
                    c
                })
                .collect();
            let mut img = Image::new(ty, fmt, sizes).unwrap();
            let fill = vec![0xA5u8; count * elem];
            img.write(&fill).unwrap();
            let vals: Vec<[u32; 4]> = (0..outside.len()).map(|_| value(&mut rng)).collect();
            launch(&img, &outside, &vals);
            assert_eq!(img.read_bytes(), fill, "{cpu}: {ty:?} {fmt:?}: a write outside the image changed it");
            let vals: Vec<[u32; 4]> = (0..inside.len()).map(|_| value(&mut rng)).collect();
            launch(&img, &inside, &vals);
            let mut want = fill.clone();
            for (c, v) in inside.iter().zip(&vals) {
                let mut t = 0;
                for d in (0..lanes).rev() {
                    t = t * if d < dims { size[d] } else { layers } + c[d] as usize;
                }
                let bytes: Vec<u8> = write_lanes(fmt.order)
                    .iter()
                    .flat_map(|&l| match kind_suffix(fmt.ty) {
                        "f" => expected_channel(fmt.ty, f32::from_bits(v[l])),
                        k => expected_int_channel(fmt.ty, v[l], k == "i"),
                    })
                    .collect();
                want[t * elem..(t + 1) * elem].copy_from_slice(&bytes);
            }
            let got = img.read_bytes();
            for t in 0..count {
                assert_eq!(got[t * elem..(t + 1) * elem], want[t * elem..(t + 1) * elem], "{cpu}: {ty:?} {fmt:?} texel {t}: wrote {:?}", inside.iter().zip(&vals).find(|(c, _)| (0..lanes).rev().fold(0, |acc, d| acc * if d < dims { size[d] } else { layers } + c[d] as usize) == t).map(|(_, v)| v));
            }
        }
    }
}

// ---------------------------------------------------------------------
// sRGB orders and packed channel types (reads through every sampler are
// in `reads_through_every_addressing_mode_and_filter_match_the_reference_sampler`)
// ---------------------------------------------------------------------

fn copy2d(p: &Program, src: &Image, dst: &Image) {
    let mut k = p.kernel("copy2d_f").unwrap();
    k.set_arg(0, Arg::Image(src)).unwrap();
    k.set_arg(1, Arg::Image(dst)).unwrap();
    k.launch(&NdRange { dims: 2, global: [src.width(), src.height(), 1], offset: [0; 3], local: None }).unwrap();
}

#[test]
fn srgb_and_packed_writes_convert_by_the_specification() {
    let p = program();
    let (w, h) = (8usize, 6usize);
    // Values outside [0, 1], NaN and infinities, the ends of the sRGB
    // curve's linear part, halfway cases of the packed fields.
    let specials = [0.0f32, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0031308, 0.0031307, 1e-7, 0.04045, 0.5 / 31.0, 1.5 / 31.0, 0.5 / 63.0, 0.5 / 1023.0, 0.214, 0.9999];
    let mut rng = Rng(0x5_4_6_B);
    let colors: Vec<[f32; 4]> = (0..w * h).map(|i| std::array::from_fn(|l| if i % 2 == 0 { specials[(i * 4 + l) % specials.len()] } else { rng.unit() * 1.2 - 0.1 })).collect();
    let formats = [
        ImageFormat::new(O::Srgba, T::UnormInt8),
        ImageFormat::new(O::Sbgra, T::UnormInt8),
        ImageFormat::new(O::Srgb, T::UnormInt8),
        ImageFormat::new(O::Srgbx, T::UnormInt8),
        ImageFormat::new(O::Rgb, T::UnormShort565),
        ImageFormat::new(O::Rgbx, T::UnormShort555),
        ImageFormat::new(O::Rgb, T::UnormInt101010),
    ];
    for fmt in formats {
        let img = Image::new(ImageType::Image2d, fmt, &[w, h]).unwrap();
        write_image(&p, "write_f", &img, &colors);
        let size = texel_size(fmt);
        let got = img.read_bytes();
        for (t, c) in colors.iter().enumerate() {
            let g = &got[t * size..(t + 1) * size];
            if is_packed(fmt.ty) {
                // Each field as a normalized integer (section 8.3.1.1:
                // scaled, rounded to nearest even, saturated; NaN 0); the
                // unused bits are left as they were (0).
                let bits = g.iter().rev().fold(0u32, |acc, &b| acc << 8 | b as u32);
                let want = packed_fields(fmt.ty).iter().zip(c).fold(0u32, |acc, (&(n, shift), &x)| {
                    let max = ((1u32 << n) - 1) as f32;
                    let v = x * max;
                    acc | (if v.is_nan() { 0.0 } else { v.round_ties_even().clamp(0.0, max) } as u32) << shift
                });
                assert_eq!(bits, want, "{fmt:?} texel {t}: {c:?}");
                continue;
            }
            for (i, &lane) in write_lanes(fmt.order).iter().enumerate() {
                if lane < 3 {
                    // The specification allows less than 1 from the exact
                    // encoded value; clc rounds it to nearest.
                    let exact = srgb_encode(c[lane] as f64) * 255.0;
                    assert!((g[i] as f64 - exact).abs() <= 0.5 + 1e-9, "{fmt:?} texel {t} lane {lane}: {} for {} (exact {exact})", g[i], c[lane]);
                } else {
                    // Alpha is stored linearly.
                    assert_eq!(g[i..=i], expected_channel(T::UnormInt8, c[lane]), "{fmt:?} texel {t} alpha: {c:?}");
                }
            }
            if fmt.order == O::Srgbx {
                assert_eq!(g[3], 0, "{fmt:?} texel {t}: x is never written");
            }
        }
    }
}

#[test]
fn srgb_reads_are_within_the_specifications_bound_and_every_byte_round_trips() {
    let p = program();
    // Every byte in every channel.
    let bytes: Vec<u8> = (0..=255u8).flat_map(|b| [b, b, b, b]).collect();
    for order in [O::Srgba, O::Sbgra] {
        let fmt = ImageFormat::new(order, T::UnormInt8);
        let src = Image::from_bytes(ImageType::Image2d, fmt, &[256, 1], &bytes).unwrap();
        let lin = Image::new(ImageType::Image2d, ImageFormat::new(O::Rgba, T::Float), &[256, 1]).unwrap();
        copy2d(&p, &src, &lin);
        for (b, v) in lin.read::<[f32; 4]>().into_iter().enumerate() {
            // Section 8.3.1.3: the value read, converted back to sRGB
            // without rounding, lies within 0.5 of the stored byte.
            for &x in &v[..3] {
                assert!((srgb_encode(x as f64) * 255.0 - b as f64).abs() <= 0.5, "{order:?} byte {b} read as {x}");
                assert_eq!(x, srgb_decode(b as f64 / 255.0) as f32, "{order:?} byte {b}: the nearest float to the exact value");
            }
            assert_eq!(v[3], b as f32 / 255.0, "{order:?} alpha {b}");
        }
        let back = Image::new(ImageType::Image2d, fmt, &[256, 1]).unwrap();
        copy2d(&p, &src, &back);
        assert_eq!(back.read_bytes(), bytes, "{order:?}: read_imagef then write_imagef keeps every byte");
    }
    // Packed texels round-trip too: every field value is exact in float.
    for (fmt, count) in [(ImageFormat::new(O::Rgb, T::UnormShort565), 1usize << 16), (ImageFormat::new(O::Rgbx, T::UnormShort555), 1 << 15), (ImageFormat::new(O::Rgb, T::UnormInt101010), 1 << 16)] {
        let mut rng = Rng(count as u64);
        let texels: Vec<u8> = (0..count as u32)
            .flat_map(|i| if fmt.ty == T::UnormInt101010 { ((rng.next() as u32) & 0x3FFF_FFFF).to_le_bytes().to_vec() } else { (i as u16).to_le_bytes().to_vec() })
            .collect();
        let src = Image::from_bytes(ImageType::Image2d, fmt, &[256, count / 256], &texels).unwrap();
        let back = Image::new(ImageType::Image2d, fmt, &[256, count / 256]).unwrap();
        copy2d(&p, &src, &back);
        assert_eq!(back.read_bytes(), texels, "{fmt:?}");
    }
}
