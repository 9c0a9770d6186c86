//! Every builtin overload of OpenCL C 1.2, 2.0 and 3.0 whose arguments the
//! sweep can make (values; pointers to values, atomics and events in every
//! address space; memory orders and scopes; events; images and samplers)
//! in kernels of one builtin name each:
//!
//! - built for the CPU (`jit::build` at -O0) without a diagnostic, an
//!   internal error or a call the JIT cannot resolve;
//! - compiled to SPIR-V by the `clc` binary (a process per module: LLVM
//!   22's SPIR-V back end is not safe to run twice in one process), valid
//!   for `spirv-val` (its default environment: the kernels use optional
//!   capabilities on purpose) and free of imports a consumer would have to
//!   link (builtin variables aside).
//!
//! Multi-sample images (unsupported on the CPU target), pipes and
//! device-side enqueue are left to their own tests.

use clc::jit::{BuildOptions, build};
use clc::options::ClStd;
use clc_builtins::functions::{Access, AddrSpace, Overload, Ty, Version, all_overloads};
use clc_builtins::types::Image;
use std::collections::BTreeMap;
use std::process::Command;

/// The image types a sweep kernel takes one of per access qualifier.
const IMAGES: [Image; 8] = [Image::I1d, Image::I1dArray, Image::I1dBuffer, Image::I2d, Image::I2dArray, Image::I3d, Image::I2dDepth, Image::I2dArrayDepth];

/// The dialects swept, with the least number of overloads each must reach
/// (5177, 6014 and 6014 when this was written; OpenCL C 2.0 has 6162).
const DIALECTS: [(ClStd, Version, &str, usize); 3] =
    [(ClStd::Cl12, Version::Cl12, "CL1.2", 5000), (ClStd::Cl20, Version::Cl20, "CL2.0", 5900), (ClStd::Cl30, Version::Cl30, "CL3.0", 5900)];

/// An expression of type `t` for argument `i` of a call, with the
/// declarations it needs first; `None` for the kinds the sweep leaves out.
fn argument(t: &Ty, i: usize) -> Option<(String, String)> {
    let at = i * 128;
    Some(match t {
        Ty::Scalar(_) | Ty::Vector(..) => (String::new(), format!("*(global const {t} *)(in + {at})")),
        Ty::MemoryOrder => (String::new(), "memory_order_relaxed".into()),
        Ty::MemoryScope => (String::new(), "memory_scope_work_group".into()),
        Ty::Event => (String::new(), "(event_t)0".into()),
        Ty::Image(image, access) if IMAGES.contains(image) => (String::new(), image_param(*image, *access)),
        Ty::Sampler => (String::new(), "smp".into()),
        Ty::Pointer(p) => {
            let pointee = match &p.pointee {
                Ty::Void => "uchar".to_string(),
                v @ (Ty::Scalar(_) | Ty::Vector(..) | Ty::Atomic(_) | Ty::Event) => v.to_string(),
                _ => return None,
            };
            let q = format!("{}{}", if p.is_const { "const " } else { "" }, if p.is_volatile { "volatile " } else { "" });
            match p.space {
                AddrSpace::Global => (String::new(), format!("(global {q}{pointee} *)(out + {at})")),
                AddrSpace::Constant => (String::new(), format!("(constant {pointee} *)(cin + {at})")),
                AddrSpace::Local => (String::new(), format!("(local {q}{pointee} *)(lm + {at})")),
                AddrSpace::Generic => (String::new(), format!("({q}{pointee} *)(out + {at})")),
                AddrSpace::Private => (format!("{pointee} p{i}[16]; "), format!("p{i}")),
            }
        }
        _ => return None,
    })
}

/// The kernel parameter holding an image of this type and access.
fn image_param(image: Image, access: Access) -> String {
    format!("{}_{}", image.name().trim_end_matches("_t"), access.keyword())
}

/// A block calling `o`, or `None` where an argument is of a kind the sweep
/// leaves out.
fn call_block(o: &Overload) -> Option<String> {
    let mut decls = String::new();
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        let (d, a) = argument(p, i)?;
        decls.push_str(&d);
        args.push(a);
    }
    let call = format!("{}({})", o.name, args.join(", "));
    let use_it = match &o.ret {
        Ty::Void => format!("{call};"),
        Ty::Event => format!("event_t e = {call}; wait_group_events(1, &e);"),
        t @ (Ty::Scalar(_) | Ty::Vector(..)) => format!("*(global {t} *)out = {call};"),
        _ => return None,
    };
    Some(format!("{{ {decls}{use_it} }}\n"))
}

/// The sweep of one dialect: per builtin name, a kernel calling each of its
/// overloads, and how many overloads that is.
fn kernels(std: ClStd, version: Version) -> (Vec<(String, String)>, usize) {
    let mut by_name: BTreeMap<&str, Vec<&Overload>> = BTreeMap::new();
    for o in all_overloads() {
        let r = &o.requirement;
        if r.min_version > version || r.max_version.is_some_and(|m| m < version) || o.variadic {
            continue;
        }
        by_name.entry(o.name.as_ref()).or_default().push(o);
    }
    // (1.2 has no read_write images.)
    let accesses: &[Access] = if std == ClStd::Cl12 { &[Access::ReadOnly, Access::WriteOnly] } else { &[Access::ReadOnly, Access::WriteOnly, Access::ReadWrite] };
    let mut head = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    head.push_str("kernel void k(global const uchar *in, global uchar *out, local uchar *lm, constant uchar *cin, sampler_t smp");
    for image in IMAGES {
        for &access in accesses {
            head.push_str(&format!(", {} {} {}", access.keyword(), image.name(), image_param(image, access)));
        }
    }
    head.push_str(") {\n");
    let mut swept = 0;
    let mut out = Vec::new();
    for (name, os) in by_name {
        let blocks: Vec<String> = os.iter().filter(|o| !o.params.iter().any(|p| matches!(p, Ty::Image(_, a) if !accesses.contains(a)))).filter_map(|o| call_block(o)).collect();
        if blocks.is_empty() {
            continue;
        }
        swept += blocks.len();
        out.push((name.to_string(), format!("{head}{}}}\n", blocks.concat())));
    }
    (out, swept)
}

#[test]
fn every_builtin_overload_builds_for_the_cpu() {
    for (std, version, _, least) in DIALECTS {
        let (kernels, swept) = kernels(std, version);
        assert!(swept > least, "{std:?}: only {swept} overloads swept");
        let opts = BuildOptions { std, opt_level: 0, ..BuildOptions::default() };
        let failures: Vec<String> = kernels.iter().filter_map(|(name, src)| build(src, "sweep.cl", &opts).err().map(|e| format!("{name}: {e}"))).collect();
        assert!(failures.is_empty(), "{std:?}: {} of {} names failed:\n{}", failures.len(), kernels.len(), failures.join("\n"));
    }
}

#[test]
fn every_builtin_overload_is_valid_spirv() {
    let dir = std::env::temp_dir().join(format!("clc-builtin-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for (std, version, flag, _) in DIALECTS {
        for (name, src) in kernels(std, version).0 {
            let file = dir.join(format!("{name}.cl"));
            let spv = dir.join(format!("{name}.spv"));
            std::fs::write(&file, src).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_clc")).args([format!("-cl-std={flag}").as_str(), "--target=spirv64", "-c"]).arg(&file).arg("-o").arg(&spv).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() {
                failures.push(format!("{flag} {name}: clc failed: {err}"));
                continue;
            }
            // The default environment: the OpenCL ones refuse capabilities
            // that depend on the device's extensions (Float16 for
            // cl_khr_fp16, Int64Atomics for the 64-bit atomics), which
            // the sweep calls on purpose.
            let val = Command::new("spirv-val").arg(&spv).output().expect("spirv-val (spirv-tools) is required");
            if !val.status.success() {
                failures.push(format!("{flag} {name}: spirv-val: {}{}", String::from_utf8_lossy(&val.stdout), String::from_utf8_lossy(&val.stderr)));
                continue;
            }
            let dis = Command::new("spirv-dis").arg(&spv).output().expect("spirv-dis (spirv-tools) is required");
            let text = String::from_utf8_lossy(&dis.stdout);
            for line in text.lines().filter(|l| l.contains("LinkageAttributes") && l.ends_with("Import") && !l.contains("__spirv_BuiltIn")) {
                failures.push(format!("{flag} {name}: unresolved import: {}", line.trim()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}
