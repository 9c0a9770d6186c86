//! `clc run`: build a kernel, launch it on the CPU, show its buffers.
//!
//! ```text
//! clc run kernel.cl --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]]
//!         [--offset X[,Y[,Z]]] --arg SPEC ... [--print I] [--out I=FILE]
//!         [--repeat N] [--json] [-cl-std=…] [-D…] [-I…] [-O0…-O3] [-cl-… build options]
//! ```
//!
//! Argument specs, one `--arg` per kernel argument, in order:
//! - `buf:TYPE:COUNT[:FILL]`: a buffer of COUNT elements of TYPE (`float`,
//!   `int4`, `half` stored as binary16, …), filled with FILL: a number
//!   (default 0), `range` (0, 1, 2, …), `rand[:SEED]` (uniform in [0, 1) for floats, [0, 100) for
//!   integers), or `file:PATH` (a `.npy` file or raw bytes);
//! - `TYPE:VALUE[,VALUE…]`: a scalar or vector value (`float:1.5`,
//!   `int4:1,2,3,4`);
//! - `local:BYTES`: the size of a `__local` pointer argument;
//! - `IMAGETYPE:ORDER:CHANNELTYPE:SIZES[:FILL]`: an image (`image2d:rgba:
//!   unorm8:64x32:rand`); IMAGETYPE is `image1d`, `image1d_array`,
//!   `image1d_buffer`, `image2d`, `image2d_array`, `image3d`,
//!   `image2d_depth` or `image2d_array_depth`; ORDER `r`, `a`, `rg`, `ra`,
//!   `rgba`, `bgra`, `argb`, `intensity`, `luminance`, `depth`, `rgb`,
//!   `rgbx` (with the packed types), `srgb`, `srgbx`, `srgba` or `sbgra`
//!   (with `unorm8`); CHANNELTYPE `unorm8`, `unorm16`, `snorm8`,
//!   `snorm16`, `int8`, `int16`, `int32`, `uint8`, `uint16`, `uint32`,
//!   `half`, `float`, or the packed `unorm565`, `unorm555`, `unorm101010`;
//!   SIZES the width, height, depth and layers that the type has, joined
//!   by `x`. FILL: a number (every channel's value as the kernel reads it:
//!   0.5 is a half-bright `unorm8` channel, and an sRGB image's r, g and b
//!   are stored encoded so that they read as 0.5; default 0), `range`
//!   (texel i's channels are stored as i; a packed texel's value is i),
//!   `rand[:SEED]` (random stored bits for 8- and 16-bit channels and
//!   packed texels, [0, 100) for 32-bit integers, [0, 1) for
//!   `half`/`float`) or `file:PATH` (a `.npy` file of the channel type's
//!   dtype, `<u2`/`<u4` for a packed texel, or raw bytes, holding every
//!   texel, x fastest);
//! - `sampler:COORDS:ADDRESS:FILTER`: a `sampler_t` (`sampler:normalized:
//!   repeat:linear`): COORDS `normalized` or `unnormalized`, ADDRESS
//!   `none`, `clamp_to_edge`, `clamp`, `repeat` or `mirrored_repeat`,
//!   FILTER `nearest` or `linear`;
//! - `pipe:TYPE:CAPACITY[:VALUES]`: a pipe of at most CAPACITY packets of
//!   TYPE (the element types of buffers), holding the packets VALUES
//!   (numbers separated by commas, a vector's lanes one after another:
//!   `pipe:int2:16:1,2,3,4` holds (1, 2) then (3, 4)) or `range:N` (N
//!   packets filled as a buffer's `range` is) when the kernel starts.
//!
//! `--print I` shows a pipe's packets after the run, first to last, as a
//! buffer's elements (`[]` when it is empty); `--out I=FILE` writes them.
//!
//! `--print I` shows an image's texels as the kernel reads them
//! (`read_imagef`/`read_imagei`/`read_imageui`); `--out I=FILE` writes its
//! stored bytes (`.npy`: shape (layers or depth, height, width, channels)
//! without the dimensions the type lacks).
//!
//! `--print I` prints buffer argument I after the run; `--out I=FILE`
//! writes it (`.npy` by extension, raw bytes otherwise). `--repeat N`
//! reports the kernel time (median and minimum over N launches) and the
//! compile time; `--json` prints that as JSON.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::jit::{self, BuildOptions, BuildError};
use crate::options::ClStd;
use crate::pp::CmdMacro;
use clc_runtime::image::{f32_to_half, half_to_f32, linear_to_srgb, srgb_to_linear};
use clc_runtime::{AddressingMode, Arg, Buffer, ChannelOrder, ChannelType, FilterMode, Image, ImageFormat, ImageType, NdRange, Pipe, Sampler};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// An element type of a buffer or value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Elem {
    scalar: Scalar,
    /// Lanes as written (3 is stored as 4).
    lanes: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    /// `half`: stored as IEEE binary16, read and written as numbers.
    F16,
    F32,
    F64,
}

impl Scalar {
    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    /// The numpy dtype.
    fn npy(self) -> &'static str {
        match self {
            Scalar::I8 => "|i1",
            Scalar::U8 => "|u1",
            Scalar::I16 => "<i2",
            Scalar::U16 => "<u2",
            Scalar::I32 => "<i4",
            Scalar::U32 => "<u4",
            Scalar::I64 => "<i8",
            Scalar::U64 => "<u8",
            Scalar::F16 => "<f2",
            Scalar::F32 => "<f4",
            Scalar::F64 => "<f8",
        }
    }

    /// `v` in this type's bytes.
    fn encode(self, v: f64, out: &mut Vec<u8>) {
        match self {
            Scalar::I8 => out.extend((v as i8).to_le_bytes()),
            Scalar::U8 => out.extend((v as u8).to_le_bytes()),
            Scalar::I16 => out.extend((v as i16).to_le_bytes()),
            Scalar::U16 => out.extend((v as u16).to_le_bytes()),
            Scalar::I32 => out.extend((v as i32).to_le_bytes()),
            Scalar::U32 => out.extend((v as u32).to_le_bytes()),
            Scalar::I64 => out.extend((v as i64).to_le_bytes()),
            Scalar::U64 => out.extend((v as u64).to_le_bytes()),
            Scalar::F16 => out.extend(f32_to_half(v as f32).to_le_bytes()),
            Scalar::F32 => out.extend((v as f32).to_le_bytes()),
            Scalar::F64 => out.extend(v.to_le_bytes()),
        }
    }

    /// The integer `v` in this (integer) type's bytes, if it is in the
    /// range of the type or of its other signedness.
    fn encode_int(self, v: i128, out: &mut Vec<u8>) -> bool {
        let bits = 8 * self.size() as u32;
        if v < -(1i128 << (bits - 1)) || v >= 1i128 << bits {
            return false;
        }
        out.extend(&(v as u128).to_le_bytes()[..self.size()]);
        true
    }

    fn decode(self, b: &[u8]) -> String {
        let a = |n: usize| -> Vec<u8> { b[..n].to_vec() };
        match self {
            Scalar::I8 => (b[0] as i8).to_string(),
            Scalar::U8 => b[0].to_string(),
            Scalar::I16 => i16::from_le_bytes(a(2).try_into().unwrap_or_default()).to_string(),
            Scalar::U16 => u16::from_le_bytes(a(2).try_into().unwrap_or_default()).to_string(),
            Scalar::I32 => i32::from_le_bytes(a(4).try_into().unwrap_or_default()).to_string(),
            Scalar::U32 => u32::from_le_bytes(a(4).try_into().unwrap_or_default()).to_string(),
            Scalar::I64 => i64::from_le_bytes(a(8).try_into().unwrap_or_default()).to_string(),
            Scalar::U64 => u64::from_le_bytes(a(8).try_into().unwrap_or_default()).to_string(),
            Scalar::F16 => half_to_f32(u16::from_le_bytes(a(2).try_into().unwrap_or_default())).to_string(),
            Scalar::F32 => f32::from_le_bytes(a(4).try_into().unwrap_or_default()).to_string(),
            Scalar::F64 => f64::from_le_bytes(a(8).try_into().unwrap_or_default()).to_string(),
        }
    }
}

impl Elem {
    fn parse(s: &str) -> Option<Elem> {
        let split = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (name, lanes) = s.split_at(split);
        let scalar = match name {
            "char" => Scalar::I8,
            "uchar" => Scalar::U8,
            "short" => Scalar::I16,
            "ushort" => Scalar::U16,
            "int" => Scalar::I32,
            "uint" => Scalar::U32,
            "long" => Scalar::I64,
            "ulong" | "size_t" => Scalar::U64,
            "half" => Scalar::F16,
            "float" => Scalar::F32,
            "double" => Scalar::F64,
            _ => return None,
        };
        let lanes = if lanes.is_empty() { 1 } else { lanes.parse().ok().filter(|n| [2, 3, 4, 8, 16].contains(n))? };
        Some(Elem { scalar, lanes })
    }

    /// Lanes in memory (a 3-vector takes 4).
    fn stored_lanes(self) -> usize {
        if self.lanes == 3 { 4 } else { self.lanes }
    }

    fn size(self) -> usize {
        self.scalar.size() * self.stored_lanes()
    }
}

/// A parsed `--arg`.
enum Spec {
    Buffer { elem: Elem, count: usize, data: Vec<u8> },
    /// The bytes, and the type as written.
    Value(Vec<u8>, String),
    Local(usize),
    Image { ty: ImageType, format: ImageFormat, sizes: Vec<usize>, data: Vec<u8> },
    Sampler(Sampler),
    /// The packets' type and the pipe's capacity; `data`: the packets it
    /// starts with.
    Pipe { elem: Elem, capacity: usize, data: Vec<u8> },
    /// A `queue_t`: the runtime passes the launch's device queue.
    Queue,
}

struct Options {
    input: PathBuf,
    kernel: String,
    range: NdRange,
    specs: Vec<Spec>,
    print: Vec<usize>,
    out: Vec<(usize, PathBuf)>,
    repeat: usize,
    json: bool,
    build: BuildOptions,
}

/// A usage mistake.
struct Usage(String);

const USAGE: &str = "USAGE: clc run file.cl --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]]
               --arg SPEC ... [--print I] [--out I=FILE] [--repeat N] [--json] [-cl-std=...] [-D...] [-I...] [-O0..-O3]
SPEC (one per kernel argument, in order):
  buf:TYPE:COUNT[:FILL]   a buffer (TYPE: char ... double, half, with 2, 3, 4, 8 or 16 lanes); FILL: a number
                          (default 0), range, rand[:SEED] or file:PATH (.npy or raw)
  TYPE:VALUE[,VALUE...]   a scalar or vector value (float:1.5, int4:1,2,3,4)
  local:BYTES             the size of a __local pointer argument
  IMAGETYPE:ORDER:CHANNELTYPE:SIZES[:FILL]
                          an image, e.g. image2d:rgba:unorm8:64x32:rand
      IMAGETYPE: image1d, image1d_array, image1d_buffer, image2d, image2d_array, image3d, image2d_depth,
                 image2d_array_depth
      ORDER: r, a, rg, ra, rgba, bgra, argb, intensity, luminance, depth, rgb, rgbx (packed types),
             srgb, srgbx, srgba, sbgra (unorm8)
      CHANNELTYPE: unorm8, unorm16, snorm8, snorm16, int8, int16, int32, uint8, uint16, uint32, half, float,
                   unorm565, unorm555, unorm101010 (packed: one value per texel)
      SIZES: width[xheight][xdepth][xlayers], as the type has them (64x32, 16x16x4)
      FILL: a number (each channel's value as read_imagef/i/ui returns it, sRGB colours stored encoded;
            default 0), range (texel i stored as i; a packed texel's value is i), rand[:SEED] (random
            stored bits; [0, 100) for 32-bit integers, [0, 1) for half/float) or file:PATH (.npy of the
            channel type's dtype, <u2/<u4 for packed texels, or raw bytes; x fastest)
  sampler:COORDS:ADDRESS:FILTER
                          a sampler_t, e.g. sampler:normalized:repeat:linear
      COORDS: normalized, unnormalized; ADDRESS: none, clamp_to_edge, clamp, repeat, mirrored_repeat;
      FILTER: nearest, linear
  queue                   a queue_t: the device queue the launch's kernels enqueue on
  pipe:TYPE:CAPACITY[:VALUES]
                          a pipe of at most CAPACITY packets of TYPE (as for buf), starting with the packets
                          VALUES (numbers separated by commas, vector lanes one after another) or range:N
--print I prints buffer, image or pipe argument I (image texels as the kernel reads them; a pipe's packets
left after the run, first to last); --out I=FILE writes its bytes (.npy by extension, raw otherwise; images
as (layers or depth, height, width, channels));
--repeat N reports the median and minimum kernel time over N launches and the compile time (--json: as JSON).";

/// Runs `clc run` with `args` (after `run`).
pub fn main(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        let _ = writeln!(out, "{USAGE}");
        return EXIT_OK;
    }
    let opts = match parse(args) {
        Ok(o) => o,
        Err(Usage(m)) => {
            let _ = writeln!(err, "clc run: error: {m}\n(clc run --help lists the options)");
            return EXIT_USAGE;
        }
    };
    let source = match std::fs::read_to_string(&opts.input) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "clc run: error: cannot read '{}': {e}", opts.input.display());
            return EXIT_ERRORS;
        }
    };
    let quoted = format!("'{}'", opts.input.display());
    crate::crash::set(crate::crash::Stage::Compiling, &quoted);
    let t0 = Instant::now();
    let program = match jit::build(&source, &opts.input.display().to_string(), &opts.build) {
        Ok(p) => p,
        Err(BuildError::Program(d)) => {
            let _ = write!(err, "{d}");
            return EXIT_ERRORS;
        }
        Err(BuildError::Internal(m)) => {
            let _ = writeln!(err, "clc: internal compiler error: {m}\n{}", super::BUG_REPORT);
            return super::EXIT_INTERNAL;
        }
    };
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let mut kernel = match program.kernel(&opts.kernel) {
        Ok(k) => k,
        Err(e) => {
            let _ = writeln!(err, "clc run: error: {e}");
            return EXIT_ERRORS;
        }
    };
    let nargs = kernel.info().args.len();
    if opts.specs.len() != nargs {
        let names: Vec<String> = kernel.info().args.iter().map(|a| format!("{} {}", a.type_name, a.name)).collect();
        let _ = writeln!(err, "clc run: error: kernel '{}' takes {nargs} arguments ({}); {} --arg given", opts.kernel, names.join(", "), opts.specs.len());
        return EXIT_USAGE;
    }
    let buffers: Vec<Option<Buffer>> = opts
        .specs
        .iter()
        .map(|s| match s {
            Spec::Buffer { data, .. } => Some(Buffer::from_slice(data)),
            _ => None,
        })
        .collect();
    let mut images: Vec<Option<Image>> = Vec::with_capacity(opts.specs.len());
    for (i, s) in opts.specs.iter().enumerate() {
        images.push(match s {
            Spec::Image { ty, format, sizes, data } => match Image::from_bytes(*ty, *format, sizes, data) {
                Ok(img) => Some(img),
                Err(e) => {
                    let _ = writeln!(err, "clc run: error: --arg {i}: {e}");
                    return EXIT_USAGE;
                }
            },
            _ => None,
        });
    }
    let mut pipes: Vec<Option<Pipe>> = Vec::with_capacity(opts.specs.len());
    for (i, s) in opts.specs.iter().enumerate() {
        pipes.push(match s {
            Spec::Pipe { elem, capacity, data } => match Pipe::new(elem.size(), *capacity).and_then(|mut p| p.push_bytes(data).map(|()| p)) {
                Ok(p) => Some(p),
                Err(e) => {
                    let _ = writeln!(err, "clc run: error: --arg {i}: {e}");
                    return EXIT_USAGE;
                }
            },
            _ => None,
        });
    }
    for (i, s) in opts.specs.iter().enumerate() {
        let arg = match s {
            Spec::Buffer { .. } => Arg::Buffer(buffers[i].as_ref().expect("a buffer spec has a buffer")),
            Spec::Pipe { .. } => Arg::Pipe(pipes[i].as_ref().expect("a pipe spec has a pipe")),
            Spec::Image { .. } => Arg::Image(images[i].as_ref().expect("an image spec has an image")),
            Spec::Sampler(sm) => Arg::Sampler(*sm),
            Spec::Value(v, t) => {
                let p = &kernel.info().args[i];
                let same = p.type_name == *t || (p.type_name == "size_t" && t == "ulong");
                if !same {
                    let _ = writeln!(err, "clc run: error: --arg {i}: '{}' is {}; got a {t}", p.name, p.type_name);
                    return EXIT_USAGE;
                }
                Arg::Value(v.clone())
            }
            Spec::Local(n) => Arg::Local(*n),
            Spec::Queue => {
                let p = &kernel.info().args[i];
                if p.kind != clc_runtime::ArgKind::Queue {
                    let _ = writeln!(err, "clc run: error: --arg {i}: '{}' is {}; got a queue", p.name, p.type_name);
                    return EXIT_USAGE;
                }
                continue;
            }
        };
        if let Err(e) = kernel.set_arg(i, arg) {
            let _ = writeln!(err, "clc run: error: {e}");
            return EXIT_USAGE;
        }
    }
    let mut times = Vec::with_capacity(opts.repeat);
    // A crash from here on is the kernel's (an access outside its
    // buffers, say): an error in the program, not in clc.
    crate::crash::set(crate::crash::Stage::Running, &format!("kernel '{}' of {quoted}", opts.kernel));
    for _ in 0..opts.repeat.max(1) {
        let t = Instant::now();
        if let Err(e) = kernel.launch(&opts.range) {
            let _ = writeln!(err, "clc run: error: {e}");
            return EXIT_ERRORS;
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    crate::crash::set(crate::crash::Stage::Idle, "");
    for &i in &opts.print {
        if let Some(img) = images.get(i).and_then(Option::as_ref) {
            let _ = writeln!(out, "arg {i}: {}", format_image(img));
            continue;
        }
        if let (Some(Some(p)), Some(Spec::Pipe { elem, .. })) = (pipes.get(i), opts.specs.get(i)) {
            let _ = writeln!(out, "arg {i}: {}", format_buffer(&pipe_bytes(p), *elem));
            continue;
        }
        let (Some(Some(b)), Some(Spec::Buffer { elem, .. })) = (buffers.get(i), opts.specs.get(i)) else {
            let _ = writeln!(err, "clc run: error: --print {i}: argument {i} is not a buffer, an image or a pipe");
            return EXIT_USAGE;
        };
        let _ = writeln!(out, "arg {i}: {}", format_buffer(&b.read::<u8>(), *elem));
    }
    for (i, path) in &opts.out {
        let is_npy = path.extension().is_some_and(|e| e == "npy");
        let data = match (buffers.get(*i), images.get(*i), opts.specs.get(*i)) {
            (Some(Some(b)), _, Some(Spec::Buffer { elem, count, .. })) => {
                let bytes = b.read::<u8>();
                if is_npy { npy(&bytes, *elem, *count) } else { bytes }
            }
            (_, Some(Some(img)), _) => {
                let bytes = img.read_bytes();
                if is_npy { npy_image(&bytes, img) } else { bytes }
            }
            (_, _, Some(Spec::Pipe { elem, .. })) if pipes.get(*i).is_some_and(Option::is_some) => {
                let bytes = pipes[*i].as_ref().map(pipe_bytes).unwrap_or_default();
                if is_npy { npy(&bytes, *elem, bytes.len() / elem.size()) } else { bytes }
            }
            _ => {
                let _ = writeln!(err, "clc run: error: --out {i}: argument {i} is not a buffer, an image or a pipe");
                return EXIT_USAGE;
            }
        };
        if let Err(e) = std::fs::write(path, data) {
            let _ = writeln!(err, "clc run: error: cannot write '{}': {e}", path.display());
            return EXIT_ERRORS;
        }
    }
    if opts.repeat > 1 || opts.json {
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        let min = sorted[0];
        if opts.json {
            let _ = writeln!(
                out,
                "{{\"kernel\": \"{}\", \"compile_ms\": {compile_ms:.3}, \"runs\": {}, \"kernel_median_ms\": {median:.4}, \"kernel_min_ms\": {min:.4}}}",
                opts.kernel,
                times.len()
            );
        } else {
            let _ = writeln!(out, "compile: {compile_ms:.2} ms; kernel over {} runs: median {median:.4} ms, min {min:.4} ms", times.len());
        }
    }
    EXIT_OK
}

/// A pipe's packets after the run, first to last (the launches have
/// finished, so the pipe is free).
fn pipe_bytes(p: &Pipe) -> Vec<u8> {
    p.read_bytes().unwrap_or_default()
}

/// The numpy dtype of an image channel type.
fn channel_dtype(t: ChannelType) -> &'static str {
    match t {
        ChannelType::UnormInt8 | ChannelType::UnsignedInt8 => "|u1",
        ChannelType::SnormInt8 | ChannelType::SignedInt8 => "|i1",
        ChannelType::UnormInt16 | ChannelType::UnsignedInt16 => "<u2",
        ChannelType::SnormInt16 | ChannelType::SignedInt16 => "<i2",
        ChannelType::SignedInt32 => "<i4",
        ChannelType::UnsignedInt32 => "<u4",
        ChannelType::HalfFloat => "<f2",
        ChannelType::Float => "<f4",
        ChannelType::UnormShort565 | ChannelType::UnormShort555 => "<u2",
        ChannelType::UnormInt101010 => "<u4",
    }
}

/// A stored channel as the kernel reads it (section 8.3 of the OpenCL
/// specification), for `--print`; all three of a packed texel.
fn channel_text(t: ChannelType, b: &[u8]) -> String {
    let u16le = || u16::from_le_bytes([b[0], b[1]]);
    let u32le = || u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    match t {
        ChannelType::UnormInt8 => (b[0] as f32 / 255.0).to_string(),
        ChannelType::UnormInt16 => (u16le() as f32 / 65535.0).to_string(),
        ChannelType::SnormInt8 => (b[0] as i8 as f32 / 127.0).max(-1.0).to_string(),
        ChannelType::SnormInt16 => (u16le() as i16 as f32 / 32767.0).max(-1.0).to_string(),
        ChannelType::SignedInt8 => (b[0] as i8).to_string(),
        ChannelType::SignedInt16 => (u16le() as i16).to_string(),
        ChannelType::SignedInt32 => (u32le() as i32).to_string(),
        ChannelType::UnsignedInt8 => b[0].to_string(),
        ChannelType::UnsignedInt16 => u16le().to_string(),
        ChannelType::UnsignedInt32 => u32le().to_string(),
        ChannelType::HalfFloat => half_to_f32(u16le()).to_string(),
        ChannelType::Float => f32::from_bits(u32le()).to_string(),
        ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010 => {
            let [r, g, b] = t.unpack(if t.size() == 2 { u16le() as u32 } else { u32le() });
            format!("({r}, {g}, {b})")
        }
    }
}

/// An image's texels, each the tuple of its stored channels.
fn format_image(img: &Image) -> String {
    let f = img.format();
    let cs = f.ty.size();
    let lanes = f.order.lanes();
    let items: Vec<String> = img
        .read_bytes()
        .chunks_exact(f.elem_size())
        .map(|t| {
            if f.ty.is_packed() {
                return channel_text(f.ty, t);
            }
            // The unused `x` of `sRGBx` is left out; sRGB colours are
            // shown linear, as reads return them.
            let ch: Vec<String> = t
                .chunks_exact(cs)
                .zip(lanes)
                .map(|(c, &lane)| if f.order.is_srgb() && lane < 3 { srgb_to_linear(c[0]).to_string() } else { channel_text(f.ty, c) })
                .collect();
            if ch.len() == 1 { ch[0].clone() } else { format!("({})", ch.join(", ")) }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The `.npy` header for `data` of `dtype` and `shape`, then `data`.
fn npy_with_shape(data: &[u8], dtype: &str, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

/// An image as `.npy`: (layers or depth, height, width, channels), less
/// the dimensions its type lacks.
fn npy_image(data: &[u8], img: &Image) -> Vec<u8> {
    let ty = img.image_type();
    let mut shape = Vec::new();
    if ty.is_array() {
        shape.push(img.array_size());
    }
    if ty.dims() == 3 {
        shape.push(img.depth());
    }
    if ty.dims() >= 2 {
        shape.push(img.height());
    }
    shape.push(img.width());
    // A packed texel is one value.
    if !img.format().ty.is_packed() {
        shape.push(img.format().order.channels());
    }
    npy_with_shape(data, channel_dtype(img.format().ty), &shape)
}

fn format_buffer(bytes: &[u8], elem: Elem) -> String {
    let size = elem.size();
    let items: Vec<String> = bytes
        .chunks_exact(size)
        .map(|c| {
            let lanes: Vec<String> = (0..elem.lanes).map(|l| elem.scalar.decode(&c[l * elem.scalar.size()..])).collect();
            if elem.lanes == 1 { lanes[0].clone() } else { format!("({})", lanes.join(", ")) }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// A `.npy` (version 1.0) file of `count` elements (vectors as a second
/// dimension, without a 3-vector's padding lane).
fn npy(bytes: &[u8], elem: Elem, count: usize) -> Vec<u8> {
    let shape: &[usize] = if elem.lanes == 1 { &[count] } else { &[count, elem.lanes] };
    let s = elem.scalar.size();
    let data: Vec<u8> = bytes.chunks_exact(elem.size()).take(count).flat_map(|c| c[..s * elem.lanes].to_vec()).collect();
    npy_with_shape(&data, elem.scalar.npy(), shape)
}

/// The data of a `.npy` file (its header checked against the element
/// type), or the bytes of a raw file.
fn read_data(path: &str, elem: Elem, count: usize) -> Result<Vec<u8>, Usage> {
    let need = elem.scalar.size() * elem.lanes * count;
    let data = read_file_data(path, elem.scalar.npy(), need)?;
    // Spread into the in-memory layout (3-vectors padded to 4).
    let mut out = Vec::with_capacity(elem.size() * count);
    let (s, l) = (elem.scalar.size(), elem.lanes);
    for c in data.chunks_exact(s * l).take(count) {
        out.extend(c);
        out.extend(std::iter::repeat_n(0u8, (elem.stored_lanes() - l) * s));
    }
    Ok(out)
}

/// The data of a `.npy` file of `dtype` or the bytes of a raw file: at
/// least `need` bytes.
fn read_file_data(path: &str, dtype: &str, need: usize) -> Result<Vec<u8>, Usage> {
    let bytes = std::fs::read(path).map_err(|e| Usage(format!("cannot read '{path}': {e}")))?;
    let data = if bytes.starts_with(b"\x93NUMPY") {
        let (len, start) = match bytes.get(6) {
            Some(1) => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
            Some(2 | 3) if bytes.len() >= 12 => (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12),
            _ => return Err(Usage(format!("'{path}' is not a .npy file clc can read"))),
        };
        let header = String::from_utf8_lossy(bytes.get(start..start + len).unwrap_or_default()).into_owned();
        if !header.contains(&format!("'{dtype}'")) && !header.contains(&format!("'{}'", dtype.replace('|', "<"))) {
            return Err(Usage(format!("'{path}' does not hold {dtype} data: {}", header.trim())));
        }
        bytes.get(start + len..).unwrap_or_default().to_vec()
    } else {
        bytes
    };
    if data.len() < need {
        return Err(Usage(format!("'{path}' has {} bytes; the argument needs {need}", data.len())));
    }
    Ok(data)
}

fn parse_dims(s: &str, what: &str) -> Result<(u32, [usize; 3]), Usage> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(Usage(format!("{what} '{s}': expected 1 to 3 sizes separated by commas")));
    }
    let mut v = [1usize; 3];
    for (i, p) in parts.iter().enumerate() {
        v[i] = p.trim().parse().map_err(|_| Usage(format!("{what} '{s}': '{p}' is not a size")))?;
    }
    Ok((parts.len() as u32, v))
}

fn parse_spec(s: &str, index: usize) -> Result<Spec, Usage> {
    let bad = |m: String| Usage(format!("--arg {index} '{s}': {m}"));
    if s == "queue" {
        return Ok(Spec::Queue);
    }
    let mut parts = s.splitn(2, ':');
    let head = parts.next().unwrap_or("");
    let rest = parts.next().ok_or_else(|| bad("expected buf:TYPE:COUNT[:FILL], TYPE:VALUE, local:BYTES, an image, a sampler or a pipe (see --help)".into()))?;
    if let Some(ty) = ImageType::ALL.into_iter().find(|t| t.name().strip_suffix("_t") == Some(head)) {
        return parse_image(ty, rest).map_err(|Usage(m)| bad(m));
    }
    match head {
        "sampler" => {
            let f: Vec<&str> = rest.split(':').collect();
            let [coords, address, filter] = f[..] else {
                return Err(bad("expected sampler:COORDS:ADDRESS:FILTER".into()));
            };
            let normalized = match coords {
                "normalized" | "norm" => true,
                "unnormalized" | "unnorm" => false,
                c => return Err(bad(format!("'{c}' is not normalized or unnormalized"))),
            };
            let addressing = match address {
                "none" => AddressingMode::None,
                "clamp_to_edge" => AddressingMode::ClampToEdge,
                "clamp" => AddressingMode::Clamp,
                "repeat" => AddressingMode::Repeat,
                "mirrored_repeat" => AddressingMode::MirroredRepeat,
                a => return Err(bad(format!("'{a}' is not an addressing mode (none, clamp_to_edge, clamp, repeat, mirrored_repeat)"))),
            };
            let filter = match filter {
                "nearest" => FilterMode::Nearest,
                "linear" => FilterMode::Linear,
                f => return Err(bad(format!("'{f}' is not a filter (nearest, linear)"))),
            };
            Ok(Spec::Sampler(Sampler::new(normalized, addressing, filter)))
        }
        "local" => rest.parse().map(Spec::Local).map_err(|_| bad(format!("'{rest}' is not a number of bytes"))),
        "pipe" => {
            let f: Vec<&str> = rest.splitn(3, ':').collect();
            let elem = Elem::parse(f[0]).ok_or_else(|| bad(format!("'{}' is not a packet type (char … double, half, with 2, 3, 4, 8 or 16 lanes)", f[0])))?;
            let capacity: usize = f.get(1).and_then(|c| c.parse().ok()).filter(|&c| c > 0).ok_or_else(|| bad("expected pipe:TYPE:CAPACITY[:VALUES] with a capacity of at least 1".into()))?;
            let mut data = Vec::new();
            match f.get(2).copied() {
                None | Some("") => {}
                Some(fill) if fill.starts_with("range:") => {
                    let n: usize = fill["range:".len()..].parse().map_err(|_| bad(format!("'{fill}' is not range:N")))?;
                    for i in 0..n {
                        for lane in 0..elem.stored_lanes() {
                            let v = if lane < elem.lanes { (i * elem.lanes + lane) as f64 } else { 0.0 };
                            elem.scalar.encode(v, &mut data);
                        }
                    }
                }
                Some(values) => {
                    let vals: Vec<&str> = values.split(',').collect();
                    if !vals.len().is_multiple_of(elem.lanes) {
                        return Err(bad(format!("{} values are not whole packets of {} lanes", vals.len(), elem.lanes)));
                    }
                    for packet in vals.chunks(elem.lanes) {
                        for v in packet {
                            let x: f64 = v.trim().parse().map_err(|_| bad(format!("'{v}' is not a number")))?;
                            elem.scalar.encode(x, &mut data);
                        }
                        for _ in elem.lanes..elem.stored_lanes() {
                            elem.scalar.encode(0.0, &mut data);
                        }
                    }
                }
            }
            if data.len() / elem.size() > capacity {
                return Err(bad(format!("{} packets do not fit in a pipe of {capacity}", data.len() / elem.size())));
            }
            Ok(Spec::Pipe { elem, capacity, data })
        }
        "buf" => {
            let f: Vec<&str> = rest.splitn(3, ':').collect();
            let elem = Elem::parse(f[0]).ok_or_else(|| bad(format!("'{}' is not an element type (char … double, half, with 2, 3, 4, 8 or 16 lanes)", f[0])))?;
            let count: usize = f.get(1).and_then(|c| c.parse().ok()).ok_or_else(|| bad("expected an element count after the type".into()))?;
            let fill = f.get(2).copied().unwrap_or("0");
            let data = if let Some(path) = fill.strip_prefix("file:") {
                read_data(path, elem, count).map_err(|Usage(m)| bad(m))?
            } else {
                let mut data = Vec::with_capacity(elem.size() * count);
                let mut rng = 0x9E37_79B9_7F4A_7C15u64;
                let (mode, seed) = fill.split_once(':').unwrap_or((fill, ""));
                if mode == "rand" && !seed.is_empty() {
                    let seed = seed.parse::<u64>().map_err(|_| bad(format!("'{seed}' is not a seed")))?;
                    rng ^= seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
                }
                let constant = match mode {
                    "range" | "rand" => None,
                    n => Some(n.parse::<f64>().map_err(|_| bad(format!("'{n}' is not a fill: a number, range, rand[:SEED] or file:PATH")))?),
                };
                for i in 0..count {
                    for lane in 0..elem.stored_lanes() {
                        let v = match (mode, constant) {
                            (_, Some(c)) => c,
                            ("range", _) => (i * elem.lanes + lane.min(elem.lanes - 1)) as f64,
                            _ => {
                                rng ^= rng << 13;
                                rng ^= rng >> 7;
                                rng ^= rng << 17;
                                let unit = (rng >> 11) as f64 / (1u64 << 53) as f64;
                                if elem.scalar.is_float() { unit } else { (unit * 100.0).floor() }
                            }
                        };
                        elem.scalar.encode(if lane < elem.lanes { v } else { 0.0 }, &mut data);
                    }
                }
                data
            };
            Ok(Spec::Buffer { elem, count, data })
        }
        t => {
            let elem = Elem::parse(t).ok_or_else(|| bad(format!("'{t}' is not a type, 'buf', 'local' or 'pipe'")))?;
            let vals: Vec<&str> = rest.split(',').collect();
            if vals.len() != elem.lanes {
                return Err(bad(format!("{t} takes {} values, got {}", elem.lanes, vals.len())));
            }
            let mut data = Vec::new();
            for v in &vals {
                let v = v.trim();
                if elem.scalar.is_float() {
                    let x: f64 = v.parse().map_err(|_| bad(format!("'{v}' is not a number")))?;
                    elem.scalar.encode(x, &mut data);
                } else {
                    // Integers exactly (through f64, 2^53 + 1 and the
                    // largest longs would change), in either signedness's
                    // range: `uint:-1` is 0xffffffff, `long:0xfffffffffffffffe`
                    // is -2, as a C conversion would make them.
                    let x = int_value(v).ok_or_else(|| bad(format!("'{v}' is not an integer")))?;
                    if !elem.scalar.encode_int(x, &mut data) {
                        return Err(bad(format!("'{v}' does not fit in {t}")));
                    }
                }
            }
            for _ in elem.lanes..elem.stored_lanes() {
                elem.scalar.encode(0.0, &mut data);
            }
            Ok(Spec::Value(data, t.to_string()))
        }
    }
}

/// A decimal or `0x` hexadecimal integer, with an optional sign.
fn int_value(s: &str) -> Option<i128> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// `ORDER:CHANNELTYPE:SIZES[:FILL]` of an image spec.
fn parse_image(ty: ImageType, rest: &str) -> Result<Spec, Usage> {
    let f: Vec<&str> = rest.splitn(4, ':').collect();
    let (Some(order), Some(ctype), Some(sizes)) = (f.first(), f.get(1), f.get(2)) else {
        return Err(Usage(format!("expected {}:ORDER:CHANNELTYPE:SIZES[:FILL]", ty.name().trim_end_matches("_t"))));
    };
    let order = ChannelOrder::ALL
        .into_iter()
        .find(|o| o.name().eq_ignore_ascii_case(order))
        .ok_or_else(|| Usage(format!("'{order}' is not a channel order (r, a, rg, ra, rgba, bgra, argb, intensity, luminance, depth, rgb, rgbx, srgb, srgbx, srgba, sbgra)")))?;
    let channel = match *ctype {
        "unorm8" => ChannelType::UnormInt8,
        "unorm16" => ChannelType::UnormInt16,
        "snorm8" => ChannelType::SnormInt8,
        "snorm16" => ChannelType::SnormInt16,
        "int8" => ChannelType::SignedInt8,
        "int16" => ChannelType::SignedInt16,
        "int32" => ChannelType::SignedInt32,
        "uint8" => ChannelType::UnsignedInt8,
        "uint16" => ChannelType::UnsignedInt16,
        "uint32" => ChannelType::UnsignedInt32,
        "half" => ChannelType::HalfFloat,
        "float" => ChannelType::Float,
        "unorm565" => ChannelType::UnormShort565,
        "unorm555" => ChannelType::UnormShort555,
        "unorm101010" => ChannelType::UnormInt101010,
        c => return Err(Usage(format!("'{c}' is not a channel type (unorm8, unorm16, snorm8, snorm16, int8, int16, int32, uint8, uint16, uint32, half, float, unorm565, unorm555, unorm101010)"))),
    };
    let sizes: Vec<usize> = sizes.split('x').map(|d| d.trim().parse().ok().filter(|&n| n > 0)).collect::<Option<_>>().ok_or_else(|| Usage(format!("'{sizes}' is not a list of sizes like 64x32")))?;
    if sizes.len() != ty.size_count() {
        return Err(Usage(format!("a {} takes {} sizes (width{}{}{}); got {}", ty.name(), ty.size_count(), if ty.dims() > 1 { "xheight" } else { "" }, if ty.dims() > 2 { "xdepth" } else { "" }, if ty.is_array() { "xlayers" } else { "" }, sizes.len())));
    }
    let format = ImageFormat::new(order, channel);
    let texels: usize = sizes.iter().product();
    // A packed texel is one value of the type's size.
    let channels = if channel.is_packed() { texels } else { texels * order.channels() };
    let cs = channel.size();
    let fill = f.get(3).copied().unwrap_or("0");
    let data = if let Some(path) = fill.strip_prefix("file:") {
        let mut d = read_file_data(path, channel_dtype(channel), channels * cs)?;
        d.truncate(channels * cs);
        d
    } else {
        let (mode, seed) = fill.split_once(':').unwrap_or((fill, ""));
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        if mode == "rand" && !seed.is_empty() {
            let seed = seed.parse::<u64>().map_err(|_| Usage(format!("'{seed}' is not a seed")))?;
            rng ^= seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
        }
        let mut data = Vec::with_capacity(channels * cs);
        match mode {
            "range" => {
                for i in 0..texels {
                    for _ in 0..channels / texels {
                        match channel {
                            ChannelType::HalfFloat => data.extend(f32_to_half(i as f32).to_le_bytes()),
                            ChannelType::Float => data.extend((i as f32).to_le_bytes()),
                            _ => data.extend(&(i as u64).to_le_bytes()[..cs]),
                        }
                    }
                }
            }
            "rand" => {
                for _ in 0..channels {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let unit = (rng >> 11) as f64 / (1u64 << 53) as f64;
                    match channel {
                        ChannelType::HalfFloat => data.extend(f32_to_half(unit as f32).to_le_bytes()),
                        ChannelType::Float => data.extend((unit as f32).to_le_bytes()),
                        ChannelType::SignedInt32 | ChannelType::UnsignedInt32 => data.extend(((unit * 100.0) as u32).to_le_bytes()),
                        _ => data.extend(&rng.to_le_bytes()[..cs]),
                    }
                }
            }
            n => {
                let v: f64 = n.parse().map_err(|_| Usage(format!("'{n}' is not a fill: a number, range, rand[:SEED] or file:PATH")))?;
                let one = encode_texel(format, v);
                for _ in 0..texels {
                    data.extend(&one);
                }
            }
        }
        data
    };
    Ok(Spec::Image { ty, format, sizes, data })
}

/// A texel's stored bytes for the value `v` in every channel, as
/// `write_image{f,i,ui}` stores it: packed fields scaled, rounded and
/// saturated; sRGB colour channels encoded (alpha is linear); the unused
/// `x` of `sRGBx` 0.
fn encode_texel(f: ImageFormat, v: f64) -> Vec<u8> {
    if f.ty.is_packed() {
        let q = |n: u32| {
            let max = ((1u32 << n) - 1) as f64;
            (v * max).round_ties_even().clamp(0.0, max) as u32
        };
        let bits = match f.ty {
            ChannelType::UnormShort565 => q(5) << 11 | q(6) << 5 | q(5),
            ChannelType::UnormShort555 => q(5) << 10 | q(5) << 5 | q(5),
            _ => q(10) << 20 | q(10) << 10 | q(10),
        };
        return bits.to_le_bytes()[..f.ty.size()].to_vec();
    }
    let lanes = f.order.lanes();
    (0..f.order.channels())
        .flat_map(|c| match lanes.get(c) {
            Some(&lane) if f.order.is_srgb() && lane < 3 => vec![linear_to_srgb(v as f32)],
            Some(_) => encode_channel(f.ty, v),
            None => vec![0; f.ty.size()],
        })
        .collect()
}

/// A channel's stored bytes for the value `v`, converted as
/// `write_image{f,i,ui}` converts it (normalized types scaled, rounded to
/// nearest even and saturated; integers saturated).
fn encode_channel(t: ChannelType, v: f64) -> Vec<u8> {
    let sat = |x: f64, lo: f64, hi: f64| x.round_ties_even().clamp(lo, hi);
    match t {
        ChannelType::UnormInt8 => vec![sat(v * 255.0, 0.0, 255.0) as u8],
        ChannelType::UnormInt16 => (sat(v * 65535.0, 0.0, 65535.0) as u16).to_le_bytes().to_vec(),
        ChannelType::SnormInt8 => vec![sat(v * 127.0, -128.0, 127.0) as i8 as u8],
        ChannelType::SnormInt16 => (sat(v * 32767.0, -32768.0, 32767.0) as i16).to_le_bytes().to_vec(),
        ChannelType::SignedInt8 => vec![sat(v, -128.0, 127.0) as i8 as u8],
        ChannelType::SignedInt16 => (sat(v, -32768.0, 32767.0) as i16).to_le_bytes().to_vec(),
        ChannelType::SignedInt32 => (sat(v, i32::MIN as f64, i32::MAX as f64) as i32).to_le_bytes().to_vec(),
        ChannelType::UnsignedInt8 => vec![sat(v, 0.0, 255.0) as u8],
        ChannelType::UnsignedInt16 => (sat(v, 0.0, 65535.0) as u16).to_le_bytes().to_vec(),
        ChannelType::UnsignedInt32 => (sat(v, 0.0, u32::MAX as f64) as u32).to_le_bytes().to_vec(),
        ChannelType::HalfFloat => f32_to_half(v as f32).to_le_bytes().to_vec(),
        ChannelType::Float => (v as f32).to_le_bytes().to_vec(),
        ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010 => encode_texel(ImageFormat::new(ChannelOrder::Rgb, t), v),
    }
}

fn parse(args: &[String]) -> Result<Options, Usage> {
    let mut input = None;
    let mut kernel = None;
    let mut global = None;
    let mut local = None;
    let mut offset = None;
    let mut specs = Vec::new();
    let mut print = Vec::new();
    let mut out = Vec::new();
    let mut repeat = 1usize;
    let mut json = false;
    let mut build = BuildOptions::default();
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, Usage> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| Usage(format!("{name} needs a value")))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--kernel" => kernel = Some(value(&mut i, a)?),
            "--global" => global = Some(parse_dims(&value(&mut i, a)?, "--global")?),
            "--local" => local = Some(parse_dims(&value(&mut i, a)?, "--local")?),
            "--offset" => offset = Some(parse_dims(&value(&mut i, a)?, "--offset")?),
            "--arg" => {
                let v = value(&mut i, a)?;
                specs.push(parse_spec(&v, specs.len())?);
            }
            "--print" => print.push(value(&mut i, a)?.parse().map_err(|_| Usage("--print takes an argument index".into()))?),
            "--out" => {
                let v = value(&mut i, a)?;
                let (idx, path) = v.split_once('=').ok_or_else(|| Usage(format!("--out '{v}': expected INDEX=FILE")))?;
                out.push((idx.parse().map_err(|_| Usage(format!("--out '{v}': '{idx}' is not an argument index")))?, PathBuf::from(path)));
            }
            "--repeat" => repeat = value(&mut i, a)?.parse().ok().filter(|&n| n > 0).ok_or_else(|| Usage("--repeat takes a positive count".into()))?,
            "--json" => json = true,
            _ if a.starts_with("-cl-std=") => build.std = ClStd::parse(&a[8..]).ok_or_else(|| Usage(format!("unknown OpenCL C version '{}'", &a[8..])))?,
            // `-D NAME` and `-I DIR` apart too, as clBuildProgram takes them.
            "-D" => build.macros.push(CmdMacro::Define(value(&mut i, a)?)),
            "-U" => build.macros.push(CmdMacro::Undef(value(&mut i, a)?)),
            "-I" => build.include_dirs.push(PathBuf::from(value(&mut i, a)?)),
            "-include" => build.includes.push(PathBuf::from(value(&mut i, a)?)),
            _ if a.starts_with("-D") && a.len() > 2 => build.macros.push(CmdMacro::Define(a[2..].to_string())),
            _ if a.starts_with("-U") && a.len() > 2 => build.macros.push(CmdMacro::Undef(a[2..].to_string())),
            _ if a.starts_with("-I") && a.len() > 2 => build.include_dirs.push(PathBuf::from(&a[2..])),
            "-O0" | "-cl-opt-disable" => build.opt_level = 0,
            "-O1" => build.opt_level = 1,
            "-O2" | "-O" => build.opt_level = 2,
            "-O3" => build.opt_level = 3,
            _ if build.fp.apply(a) => {}
            // Accepted by clBuildProgram; nothing to do on the CPU.
            "-cl-kernel-arg-info" | "-cl-strict-aliasing" | "-cl-uniform-work-group-size" | "-cl-no-subgroup-ifp" | "-w" => {}
            _ if a.starts_with('-') => return Err(Usage(format!("unknown option '{a}'"))),
            _ if input.is_none() => input = Some(PathBuf::from(a)),
            _ => return Err(Usage(format!("more than one input file ('{a}')"))),
        }
        i += 1;
    }
    let input = input.ok_or_else(|| Usage("no input file".into()))?;
    let kernel = kernel.ok_or_else(|| Usage("--kernel NAME is required".into()))?;
    let (dims, global) = global.ok_or_else(|| Usage("--global X[,Y[,Z]] is required".into()))?;
    let local = match local {
        Some((d, _)) if d != dims => return Err(Usage(format!("--local has {d} dimensions; --global has {dims}"))),
        Some((_, l)) => Some(l),
        None => None,
    };
    let offset = match offset {
        Some((d, _)) if d != dims => return Err(Usage(format!("--offset has {d} dimensions; --global has {dims}"))),
        Some((_, o)) => o,
        None => [0; 3],
    };
    Ok(Options { input, kernel, range: NdRange { dims, global, offset, local }, specs, print, out, repeat, json, build })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main(&args, &mut out, &mut err);
        (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
    }

    fn kernel_file(name: &str, src: &str) -> String {
        let p = std::env::temp_dir().join(format!("clc-run-{}-{name}", std::process::id()));
        std::fs::write(&p, src).unwrap();
        p.display().to_string()
    }

    #[test]
    fn a_queue_argument_and_a_device_side_enqueue() {
        let f = kernel_file(
            "enqueue.cl",
            "kernel void k(queue_t q, global int *o) {
                 if (get_global_id(0) == 0)
                     enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(6), ^{ o[get_global_id(0)] += 10 * (int)get_global_id(0); });
                 o[get_global_id(0)] = 1;
             }",
        );
        let (code, out, err) = run(&[&f, "--kernel", "k", "--global", "6", "--arg", "queue", "--arg", "buf:int:6", "--print", "1"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 1: [1, 11, 21, 31, 41, 51]\n");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "6", "--arg", "queue", "--arg", "queue"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("got a queue"), "{err}");
    }

    #[test]
    fn runs_a_kernel_and_prints_buffers() {
        let f = kernel_file("saxpy.cl", "kernel void saxpy(float a, global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }");
        let (code, out, err) = run(&[&f, "--kernel", "saxpy", "--global", "5", "--arg", "float:2", "--arg", "buf:float:5:range", "--arg", "buf:float:5:1", "--print", "2"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 2: [1, 3, 5, 7, 9]\n");
        // The build options clBuildProgram takes (clang's umbrella options
        // implying the ones they contain).
        for opt in ["-cl-denorms-are-zero", "-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-no-signed-zeros", "-cl-kernel-arg-info", "-cl-single-precision-constant"] {
            let (code, out, err) = run(&[&f, opt, "--kernel", "saxpy", "--global", "5", "--arg", "float:2", "--arg", "buf:float:5:range", "--arg", "buf:float:5:1", "--print", "2"]);
            assert_eq!(code, 0, "{opt}: {err}");
            assert_eq!(out, "arg 2: [1, 3, 5, 7, 9]\n", "{opt}");
        }
        // Integer values exactly, in either signedness's range.
        let g = kernel_file("ints.cl", "kernel void k(long a, uint b, long c, global long *o) { o[0] = a; o[1] = b; o[2] = c; }");
        let (code, out, err) = run(&[&g, "--kernel", "k", "--global", "1", "--arg", "long:9007199254740993", "--arg", "uint:-1", "--arg", "long:0xfffffffffffffffe", "--arg", "buf:long:3", "--print", "3"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 3: [9007199254740993, 4294967295, -2]\n");
        for (bad, why) in [("uint:4294967296", "does not fit in uint"), ("uint:1.5", "is not an integer"), ("uint:-2147483649", "does not fit in uint")] {
            let (code, _, err) = run(&[&g, "--kernel", "k", "--global", "1", "--arg", "long:1", "--arg", bad, "--arg", "long:1", "--arg", "buf:long:3"]);
            assert_eq!(code, 2, "{bad}: {err}");
            assert!(err.contains(why), "{bad}: {err}");
        }
        // `-D NAME`, `-I DIR` as two arguments.
        let d = kernel_file("d.cl", "kernel void k(global int *o) { o[0] = N + M; }");
        let (code, out, err) = run(&[&d, "-D", "N=40", "-DM=2", "-I", "/tmp", "--kernel", "k", "--global", "1", "--arg", "buf:int:1", "--print", "0"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 0: [42]\n");
        let (code, _, err) = run(&[&f, "-cl-no-such-option", "--kernel", "saxpy", "--global", "5"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("unknown option '-cl-no-such-option'"), "{err}");
    }

    #[test]
    fn vectors_local_memory_npy_output_and_timing() {
        let f = kernel_file(
            "v.cl",
            "kernel void v(global int4 *o, int4 add, local int *tmp) { size_t i = get_global_id(0); tmp[get_local_id(0)] = (int)i; barrier(CLK_LOCAL_MEM_FENCE); o[i] = add + tmp[get_local_id(0)]; }",
        );
        let npy_path = std::env::temp_dir().join(format!("clc-run-{}-out.npy", std::process::id()));
        let out_arg = format!("0={}", npy_path.display());
        let (code, out, err) = run(&[&f, "--kernel", "v", "--global", "4", "--local", "2", "--arg", "buf:int4:4", "--arg", "int4:1,2,3,4", "--arg", "local:8", "--print", "0", "--out", &out_arg, "--repeat", "3", "--json"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("arg 0: [(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6), (4, 5, 6, 7)]\n"), "{out}");
        assert!(out.contains("\"runs\": 3") && out.contains("\"kernel_median_ms\""), "{out}");
        let npy_bytes = std::fs::read(&npy_path).unwrap();
        assert!(npy_bytes.starts_with(b"\x93NUMPY\x01\x00"));
        assert!(String::from_utf8_lossy(&npy_bytes).contains("'shape': (4, 4)"));
        // Reading it back as an input.
        let in_arg = format!("buf:int4:4:file:{}", npy_path.display());
        let (code, out, err) = run(&[&f, "--kernel", "v", "--global", "4", "--local", "2", "--arg", &in_arg, "--arg", "int4:0,0,0,0", "--arg", "local:8", "--print", "0"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 0: [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)]\n");
    }

    #[test]
    fn images_and_samplers_from_specs_print_and_npy_round_trip() {
        // Texel (x, y) of a 4x2 RG uint8 image stored as its index; the
        // kernel reads it through a sampler at the texel centre plus one
        // (clamped to the edge) and writes x + y and the width into a
        // float image.
        let f = kernel_file(
            "img.cl",
            "kernel void k(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
                 int2 p = (int2)(get_global_id(0), get_global_id(1));
                 uint4 v = read_imageui(src, s, (float2)(p.x + 1.5f, p.y + 0.5f));
                 write_imagef(dst, p, (float4)(v.x, v.y, get_image_width(src), 0));
             }",
        );
        let npy_path = std::env::temp_dir().join(format!("clc-run-{}-img.npy", std::process::id()));
        let out_arg = format!("2={}", npy_path.display());
        let args = ["--kernel", "k", "--global", "4,2", "--arg", "image2d:rg:uint8:4x2:range", "--arg", "sampler:unnormalized:clamp_to_edge:nearest", "--arg", "image2d:r:float:4x2"];
        let (code, out, err) = run(&[&[f.as_str()][..], &args, &["--print", "0", "--print", "2", "--out", &out_arg]].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 0: [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)]\narg 2: [1, 2, 3, 3, 5, 6, 7, 7]\n");
        let npy_bytes = std::fs::read(&npy_path).unwrap();
        assert!(String::from_utf8_lossy(&npy_bytes).contains("'descr': '<f4', 'fortran_order': False, 'shape': (2, 4, 1)"));
        // The output read back as an input (a float image), normalized
        // coordinates repeating, a number fill for the destination.
        let in_arg = format!("image2d:r:float:4x2:file:{}", npy_path.display());
        let g = kernel_file(
            "img2.cl",
            "kernel void k(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
                 int2 p = (int2)(get_global_id(0), get_global_id(1));
                 write_imagef(dst, p, read_imagef(src, s, (float2)(p.x + 4.5f, p.y + 0.5f) / (float2)(4, 2)) / 8);
             }",
        );
        let (code, out, err) = run(&[&g, "--kernel", "k", "--global", "4,2", "--arg", &in_arg, "--arg", "sampler:normalized:repeat:nearest", "--arg", "image2d:rgba:unorm8:4x2:0.5", "--print", "2"]);
        assert_eq!(code, 0, "{err}");
        // An R texel reads as (r, 0, 0, 1), divided by 8; unorm8 stores
        // round(255 v) and reads back v / 255.
        let unorm = |v: f32| ((v * 255.0).round_ties_even() / 255.0).to_string();
        let want: Vec<String> = [1, 2, 3, 3, 5, 6, 7, 7].into_iter().map(|r: u32| format!("({}, 0, 0, {})", unorm(r as f32 / 8.0), unorm(1.0 / 8.0))).collect();
        assert_eq!(out, format!("arg 2: [{}]\n", want.join(", ")));
        // The number fill: 0.5 is stored as 128, read as 128 / 255.
        let (code, out, err) = run(&[&g, "--kernel", "k", "--global", "1", "--arg", &in_arg, "--arg", "sampler:normalized:repeat:nearest", "--arg", "image2d:rgba:unorm8:4x2:0.5", "--print", "2"]);
        assert_eq!(code, 0, "{err}");
        let v = 128.0f32 / 255.0;
        assert!(out.ends_with(&format!("({v}, {v}, {v}, {v})]\n")), "{out}");
        // Mistakes name the argument.
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "image2d:bgr:uint8:4x2", "--arg", "int:1", "--arg", "int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("'bgr' is not a channel order"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "image2d:rgb:uint8:4x2", "--arg", "int:1", "--arg", "int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("channel order RGB cannot have channel type UNSIGNED_INT8"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "image2d:r:float:4", "--arg", "int:1", "--arg", "int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("a image2d_t takes 2 sizes (widthxheight); got 1"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "image3d:r:float:1x1x1", "--arg", "sampler:normalized:clamp:linear", "--arg", "image2d:r:float:1x1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("'src' is read_only image2d_t; got an image3d_t"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "image2d:r:float:1x1", "--arg", "sampler:normalized:wrap:linear", "--arg", "image2d:r:float:1x1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("'wrap' is not an addressing mode"), "{err}");
    }

    /// `half` buffers and values: filled, printed and written as numbers,
    /// stored as binary16.
    #[test]
    fn half_buffers_and_values() {
        let f = kernel_file(
            "h.cl",
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
             kernel void k(global half *h, half s, global float *f) { size_t i = get_global_id(0); f[i] = h[i]; h[i] = h[i] * s; vstore_half_rtz(f[i] / 3, i + 4, h); }",
        );
        let npy_path = std::env::temp_dir().join(format!("clc-run-{}-half.npy", std::process::id()));
        let out_arg = format!("0={}", npy_path.display());
        let (code, out, err) = run(&[&f, "--kernel", "k", "--global", "4", "--arg", "buf:half:8:range", "--arg", "half:1.5", "--arg", "buf:float:4", "--print", "0", "--print", "2", "--out", &out_arg]);
        assert_eq!(code, 0, "{err}");
        // 1/3, 2/3 rounded towards zero to half: 0.33325195, 0.66650391.
        assert_eq!(out, "arg 0: [0, 1.5, 3, 4.5, 0, 0.33325195, 0.6665039, 1]\narg 2: [0, 1, 2, 3]\n");
        let npy_bytes = std::fs::read(&npy_path).unwrap();
        let _ = std::fs::remove_file(&npy_path);
        assert!(String::from_utf8_lossy(&npy_bytes).contains("'descr': '<f2'"), "{}", String::from_utf8_lossy(&npy_bytes));
        // 1.5 as binary16 is 0x3e00, at the end of the data.
        assert_eq!(&npy_bytes[npy_bytes.len() - 14..npy_bytes.len() - 12], &0x3e00u16.to_le_bytes());
    }

    #[test]
    fn images_srgb_and_packed_from_specs() {
        let f = kernel_file("s.cl", "kernel void k(read_only image2d_t a, read_only image2d_t b, global float4 *o) { o[0] = read_imagef(a, (int2)(1, 0)); o[1] = read_imagef(b, (int2)(1, 0)); }");
        let args = ["--kernel", "k", "--global", "1", "--arg", "image2d:srgba:unorm8:2x1:0.25", "--arg", "image2d:rgbx:unorm565:2x1:range", "--arg", "buf:float4:2"];
        let (code, out, err) = run(&[&[f.as_str()][..], &args, &["--print", "2", "--print", "1", "--print", "0"]].concat());
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        // The fill is the value reads return: r, g, b are stored sRGB-
        // encoded (0.25 is 137, which reads back within half an 8-bit
        // step of 0.25: the steps are about 0.004 there), alpha linearly
        // (64 / 255).
        let o: Vec<f32> = lines[0].trim_start_matches("arg 2: [(").trim_end_matches(")]").split([',', '(', ')']).filter_map(|x| x.trim().parse().ok()).collect();
        assert_eq!(o.len(), 8, "{out}");
        assert!(o[..3].iter().all(|&v| (v - 0.25).abs() < 0.0025 && v == o[0]), "{out}");
        assert_eq!(o[3], 64.0 / 255.0, "{out}");
        // A packed texel's `range` value is its index: texel 1 has b = 1 / 31.
        assert_eq!(o[4..], [0.0, 0.0, 1.0 / 31.0, 1.0], "{out}");
        assert_eq!(lines[1], format!("arg 1: [(0, 0, 0), (0, 0, {})]", 1.0f32 / 31.0), "{out}");
        // --print shows sRGB colours linear, as reads return them.
        assert_eq!(lines[2], format!("arg 0: [({0}, {0}, {0}, {1}), ({0}, {0}, {0}, {1})]", o[0], 64.0f32 / 255.0), "{out}");
    }

    /// A pipe starting with packets, read by one kernel and written by
    /// another through `--arg pipe:…`, printed and written after the run.
    #[test]
    fn pipes_from_specs() {
        let f = kernel_file(
            "pipe.cl",
            "kernel void twice(read_only pipe int in, write_only pipe int2 out, global int *status) {
                 int v = 0;
                 status[get_global_id(0)] = read_pipe(in, &v);
                 int2 w = (int2)(v, 2 * v);
                 if (v > 1) write_pipe(out, &w);
             }",
        );
        let npy_path = std::env::temp_dir().join(format!("clc-run-{}-pipe.npy", std::process::id()));
        let out_arg = format!("1={}", npy_path.display());
        let (code, out, err) = run(&[&f, "--kernel", "twice", "--global", "6", "--local", "1", "--arg", "pipe:int:8:1,2,3,4", "--arg", "pipe:int2:8", "--arg", "buf:int:6", "--print", "0", "--print", "1", "--print", "2", "--out", &out_arg]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "arg 0: []", "{out}");
        // Groups of one work-item in order on however many threads: the
        // packets come out in any order.
        let mut packets: Vec<&str> = lines[1].trim_start_matches("arg 1: [(").trim_end_matches(")]").split("), (").collect();
        packets.sort_unstable();
        assert_eq!(packets, ["2, 4", "3, 6", "4, 8"], "{out}");
        let mut status: Vec<&str> = lines[2].trim_start_matches("arg 2: [").trim_end_matches(']').split(", ").collect();
        status.sort_unstable();
        assert_eq!(status, ["-1", "-1", "0", "0", "0", "0"], "{out}");
        let npy_bytes = std::fs::read(&npy_path).unwrap();
        let _ = std::fs::remove_file(&npy_path);
        assert!(String::from_utf8_lossy(&npy_bytes).contains("'descr': '<i4', 'fortran_order': False, 'shape': (3, 2)"), "{}", String::from_utf8_lossy(&npy_bytes));
        // range:N, and what is left in the pipe.
        let (code, out, err) = run(&[&f, "--kernel", "twice", "--global", "2", "--arg", "pipe:int:8:range:5", "--arg", "pipe:int2:8", "--arg", "buf:int:2", "--print", "0"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "arg 0: [2, 3, 4]\n");
        // Mistakes: too many packets, a packet size the kernel does not
        // take, whole vectors only, a pipe where a buffer goes.
        let (code, _, err) = run(&[&f, "--kernel", "twice", "--global", "1", "--arg", "pipe:int:2:1,2,3", "--arg", "pipe:int2:8", "--arg", "buf:int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("3 packets do not fit in a pipe of 2"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "twice", "--global", "1", "--arg", "pipe:int:2", "--arg", "pipe:int:8", "--arg", "buf:int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("'out' is pipe int2, packets of 8 bytes; got a pipe of 4-byte packets"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "twice", "--global", "1", "--arg", "pipe:int:2", "--arg", "pipe:int2:8:1,2,3", "--arg", "buf:int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("3 values are not whole packets of 2 lanes"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "twice", "--global", "1", "--arg", "pipe:int:2", "--arg", "pipe:int2:8", "--arg", "pipe:int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("expected a buffer"), "{err}");
    }

    #[test]
    fn mistakes_name_the_argument_or_show_diagnostics() {
        let f = kernel_file("k.cl", "kernel void k(global float *x, int n) { x[0] = n; }");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "buf:float:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("takes 2 arguments (__global float * x, int n); 1 --arg given"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "buf:float:1", "--arg", "float:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("--arg 1: 'n' is int; got a float"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k", "--global", "1", "--arg", "buf:flot:1", "--arg", "int:1"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("--arg 0 'buf:flot:1': 'flot' is not an element type"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "nope", "--global", "1"]);
        assert_eq!(code, EXIT_ERRORS);
        assert!(err.contains("no kernel named 'nope' (kernels: k)"), "{err}");
        let bad = kernel_file("bad.cl", "kernel void k(global float *x) { x[0] = y; }");
        let (code, _, err) = run(&[&bad, "--kernel", "k", "--global", "1", "--arg", "buf:float:1"]);
        assert_eq!(code, EXIT_ERRORS);
        assert!(err.contains("error: use of undeclared identifier 'y'"), "{err}");
        let (code, _, err) = run(&[&f, "--kernel", "k"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(err.contains("--global X[,Y[,Z]] is required"), "{err}");
        let (code, out, _) = run(&["--help"]);
        assert_eq!(code, EXIT_OK);
        assert!(out.contains("buf:TYPE:COUNT[:FILL]"), "{out}");
    }
}
