//! Writes the kernels `tests/spirv_exec/sweep.py` runs: one per builtin
//! overload of OpenCL C 2.0 that takes and gives values (scalars, vectors
//! and pointers to them) and one per conversion (`convert_<type>[_sat]
//! [_<rounding>]` between scalar types, of scalars and vectors of every
//! width), so that clc's native code and its SPIR-V on another
//! implementation can be compared on the same inputs.
//!
//! `cargo run -p clc-tests --bin value_sweep -- DIR [PER_FILE]` writes
//! `DIR/sweep_NN.cl` (PER_FILE kernels each, 100 by default) and
//! `DIR/sweep.tsv`, a line per kernel: file, kernel, the call, the input
//! slots' types, the output slots' types (see [`kernel`]).
//!
//! Left out: `half` values (the reference runtime has no cl_khr_fp16;
//! `half` pointers stay), functions of the work-item, group or memory
//! model (their results depend on the launch, not on their arguments),
//! and overloads that differ from a kept one only in the address space of
//! a pointer (the global one is kept, or else the generic one).

use clc_builtins::functions::{AddrSpace, Overload, Ty, Version, all_overloads};
use clc_builtins::types::Scalar;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Bytes per argument slot: room for a 16-element vector of doubles at
/// the offsets the runner gives vloadn/vstoren (0 to 2).
const SLOT: usize = 1024;

/// Whether `o` is swept (see the module documentation).
fn swept(o: &Overload) -> bool {
    let r = &o.requirement;
    let name = o.name.as_ref();
    let skipped_name = ["get_", "work_group_", "sub_group_", "mem_fence", "read_mem_fence", "write_mem_fence", "barrier", "prefetch", "wait_", "atomic", "atom_", "printf"]
        .iter()
        .any(|p| name.starts_with(p));
    let value = |t: &Ty| matches!(t, Ty::Scalar(s) | Ty::Vector(s, _) if *s != Scalar::Half && *s != Scalar::Bool);
    let param = |t: &Ty| match t {
        Ty::Pointer(p) => matches!(p.space, AddrSpace::Global | AddrSpace::Generic) && matches!(&p.pointee, Ty::Scalar(s) | Ty::Vector(s, _) if *s != Scalar::Bool),
        t => value(t),
    };
    let writes = o.params.iter().any(|p| matches!(p, Ty::Pointer(q) if !q.is_const));
    r.min_version <= Version::Cl20
        && r.max_version.is_none_or(|m| m >= Version::Cl20)
        && !o.variadic
        && !skipped_name
        && o.params.iter().all(param)
        && (value(&o.ret) || (o.ret == Ty::Void && writes))
}

/// The signature with pointers' address spaces left out (overloads equal
/// in it are one case).
fn shape(o: &Overload) -> String {
    let params: Vec<String> = o
        .params
        .iter()
        .map(|p| match p {
            Ty::Pointer(q) => format!("{}{}*", if q.is_const { "const " } else { "" }, q.pointee),
            t => t.to_string(),
        })
        .collect();
    format!("{}({})", o.name, params.join(", "))
}

/// The body of a kernel calling `o` once per work-item. Work-item `i`
/// reads its arguments from input slots `i * ins + k` (a value, or the
/// data a `const` pointer points at; `a` in the kernel) and writes the
/// result to output slot `i * outs` and what each other pointer points at
/// to the slots after it (`r`). Returns the body and the types of the
/// input and output slots.
fn kernel(o: &Overload) -> (String, Vec<String>, Vec<String>) {
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    if o.ret != Ty::Void {
        outs.push(o.ret.to_string());
    }
    let mut args = Vec::new();
    for p in &o.params {
        match p {
            Ty::Pointer(q) if q.is_const => {
                args.push(format!("(global const {} *)(a + {})", q.pointee, ins.len() * SLOT));
                ins.push(q.pointee.to_string());
            }
            Ty::Pointer(q) => {
                args.push(format!("(global {} *)(r + {})", q.pointee, outs.len() * SLOT));
                outs.push(q.pointee.to_string());
            }
            t => {
                args.push(format!("*(global const {t} *)(a + {})", ins.len() * SLOT));
                ins.push(t.to_string());
            }
        }
    }
    let call = format!("{}({})", o.name, args.join(", "));
    let body = if o.ret == Ty::Void { format!("{call};") } else { format!("*(global {} *)r = {call};", o.ret) };
    (body, ins, outs)
}

/// The scalar types conversions are swept between (`half` left out, as
/// above).
const CONVERTIBLE: [&str; 10] = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"];

/// `convert_<to>[_sat][_<rounding>](from)` for every pair of scalar types,
/// of scalars and vectors of every width: saturation where the result
/// is an integer, rounding modes where the source or the result is
/// floating point. The shape, the kernel's body, its input and output
/// type.
fn conversions() -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for width in ["", "2", "3", "4", "8", "16"] {
        for from in CONVERTIBLE {
            for to in CONVERTIBLE {
                let float = |t: &str| t == "float" || t == "double";
                let sats: &[&str] = if float(to) { &[""] } else { &["", "_sat"] };
                let roundings: &[&str] = if float(from) || float(to) { &["", "_rte", "_rtz", "_rtp", "_rtn"] } else { &[""] };
                for sat in sats {
                    for rounding in roundings {
                        let (f, t) = (format!("{from}{width}"), format!("{to}{width}"));
                        let name = format!("convert_{t}{sat}{rounding}");
                        let body = format!("*(global {t} *)r = {name}(*(global const {f} *)a);");
                        out.push((format!("{name}({f})"), body, f, t));
                    }
                }
            }
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: value_sweep DIR [PER_FILE]");
        std::process::exit(2);
    };
    let per_file: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    std::fs::create_dir_all(&dir).expect("the output directory");
    // By shape, the global pointer overload first, then the generic one.
    let mut cases: BTreeMap<String, &Overload> = BTreeMap::new();
    for o in all_overloads().filter(|o| swept(o)) {
        let global = |o: &Overload| o.params.iter().all(|p| !matches!(p, Ty::Pointer(q) if q.space != AddrSpace::Global));
        let e = cases.entry(shape(o)).or_insert(o);
        if global(o) && !global(e) {
            *e = o;
        }
    }
    let head = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
    // (shape, function name, kernel body, input and output slot types)
    let mut all: Vec<(String, String, String, Vec<String>, Vec<String>)> = cases
        .into_iter()
        .map(|(shape, o)| {
            let (body, ins, outs) = kernel(o);
            (shape, o.name.to_string(), body, ins, outs)
        })
        .collect();
    for (shape, body, from, to) in conversions() {
        all.push((shape, "convert".into(), body, vec![from], vec![to]));
    }
    let mut tsv = String::new();
    for (n, chunk) in all.chunks(per_file.max(1)).enumerate() {
        let file = format!("sweep_{n:02}.cl");
        let mut src = head.to_string();
        for (k, (shape, function, body, ins, outs)) in chunk.iter().enumerate() {
            let name = format!("s{n:02}_{k:03}_{function}");
            let _ = writeln!(
                src,
                "kernel void {name}(global const uchar *in, global uchar *out) {{\n    size_t i = get_global_id(0);\n    global const uchar *a = in + i * {};\n    global uchar *r = out + i * {};\n    {body}\n}}",
                ins.len().max(1) * SLOT,
                outs.len() * SLOT
            );
            let _ = writeln!(tsv, "{file}\t{name}\t{shape}\t{}\t{}", ins.join(","), outs.join(","));
        }
        std::fs::write(format!("{dir}/{file}"), src).expect("writing a kernel file");
    }
    std::fs::write(format!("{dir}/sweep.tsv"), tsv).expect("writing sweep.tsv");
    println!("{} kernels in {dir}", all.len());
}
