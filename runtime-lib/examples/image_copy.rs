//! Times the kernels of `bench/kernels/images/copy.cl` compiled ahead of
//! time (`clc -O2 -c copy.cl && cc -shared copy.o -o libcopy.so -lm`):
//! image copies next to the same copy on buffers, each output checked
//! against its input. It needs no LLVM, so it runs on machines without
//! one (see bench/README.md, "images").
//!
//! Usage: `image_copy LIBCOPY.so [SIZE] [REPS]` (default 2048 x 2048
//! texels, 20 launches; the median and minimum are reported).

use clc_runtime::{AddressingMode, Arg, Buffer, ChannelOrder, ChannelType, FilterMode, Image, ImageFormat, ImageType, NdRange, Program, Sampler};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(lib) = args.get(1) else {
        eprintln!("usage: image_copy LIBCOPY.so [SIZE] [REPS]");
        std::process::exit(2);
    };
    let n: usize = args.get(2).map_or(2048, |s| s.parse().expect("SIZE is a number"));
    let reps: usize = args.get(3).map_or(20, |s| s.parse().expect("REPS is a number"));
    let p = Program::load(lib).unwrap_or_else(|e| panic!("{lib}: {e}"));
    let range = NdRange { dims: 2, global: [n, n, 1], offset: [0; 3], local: None };
    let sampler = Sampler::new(false, AddressingMode::ClampToEdge, FilterMode::Nearest);
    // Random texel bytes (xorshift), the same for every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = |len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    };
    // Float texels in [0, 1): bytes of random floats would hold NaNs,
    // which a copy through write_imagef need not keep bit for bit.
    let floats: Vec<u8> = random(n * n * 4).iter().flat_map(|&b| (b as f32 / 256.0).to_le_bytes()).collect();
    let bytes = random(n * n * 4);

    let time = |name: &str, args: Vec<Arg>| -> f64 {
        let mut k = p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, a) in args.into_iter().enumerate() {
            k.set_arg(i, a).unwrap_or_else(|e| panic!("{name} argument {i}: {e}"));
        }
        let mut t: Vec<f64> = (0..reps.max(1))
            .map(|_| {
                let start = Instant::now();
                k.launch(&range).unwrap();
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let report = |what: &str, median: f64, buffer: f64| println!("{what:<34} median {median:9.3} ms  {:6.2}x the buffer copy", median / buffer);

    for (ty, buffer_kernel, data) in [(ChannelType::UnormInt8, "buffer_copy_uchar4", &bytes), (ChannelType::Float, "buffer_copy_float4", &floats)] {
        let src = Buffer::from_slice(data);
        let dst = Buffer::new(data.len());
        let buffer = time(buffer_kernel, vec![Arg::Buffer(&src), Arg::Buffer(&dst)]);
        assert_eq!(&dst.read::<u8>(), data, "{buffer_kernel}");
        report(buffer_kernel, buffer, buffer);
        let fmt = ImageFormat::new(ChannelOrder::Rgba, ty);
        let src = Image::from_bytes(ImageType::Image2d, fmt, &[n, n], data).unwrap();
        for (kernel, sampled) in [("image_copy", false), ("image_copy_sampled", true)] {
            let dst = Image::new(ImageType::Image2d, fmt, &[n, n]).unwrap();
            let args: Vec<Arg> = if sampled { vec![Arg::Image(&src), Arg::Sampler(sampler), Arg::Image(&dst)] } else { vec![Arg::Image(&src), Arg::Image(&dst)] };
            let t = time(kernel, args);
            assert_eq!(&dst.read_bytes(), data, "{kernel} {ty:?}");
            report(&format!("{kernel} rgba {}", ty.name()), t, buffer);
        }
        if ty == ChannelType::UnormInt8 {
            let fmt = ImageFormat::new(ChannelOrder::Rgba, ChannelType::UnsignedInt8);
            let src = Image::from_bytes(ImageType::Image2d, fmt, &[n, n], data).unwrap();
            let dst = Image::new(ImageType::Image2d, fmt, &[n, n]).unwrap();
            let t = time("image_copy_ui", vec![Arg::Image(&src), Arg::Image(&dst)]);
            assert_eq!(&dst.read_bytes(), data, "image_copy_ui");
            report("image_copy_ui rgba UNSIGNED_INT8", t, buffer);
        }
    }
}
