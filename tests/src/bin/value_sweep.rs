//! Writes the kernels `tests/spirv_exec/sweep.py` runs: one per builtin
//! overload of OpenCL C 2.0 that takes and gives values (scalars, vectors
//! and pointers to them), so that clc's native code and its SPIR-V on
//! another implementation can be compared on the same inputs.
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

/// Kernel `name` calling `o` once per work-item. Work-item `i` reads its
/// arguments from input slots `i * ins + k` (a value, or the data a
/// `const` pointer points at) and writes the result to output slot
/// `i * outs` and what each other pointer points at to the slots after
/// it. Returns the kernel and the types of its input and output slots.
fn kernel(name: &str, o: &Overload) -> (String, Vec<String>, Vec<String>) {
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
    let mut k = String::new();
    let _ = writeln!(
        k,
        "kernel void {name}(global const uchar *in, global uchar *out) {{\n    size_t i = get_global_id(0);\n    global const uchar *a = in + i * {};\n    global uchar *r = out + i * {};\n    {body}\n}}",
        ins.len().max(1) * SLOT,
        outs.len() * SLOT
    );
    (k, ins, outs)
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
    let mut tsv = String::new();
    let cases: Vec<_> = cases.into_iter().collect();
    for (n, chunk) in cases.chunks(per_file.max(1)).enumerate() {
        let file = format!("sweep_{n:02}.cl");
        let mut src = head.to_string();
        for (k, (shape, o)) in chunk.iter().enumerate() {
            let name = format!("s{n:02}_{k:03}_{}", o.name);
            let (text, ins, outs) = kernel(&name, o);
            src.push_str(&text);
            let _ = writeln!(tsv, "{file}\t{name}\t{shape}\t{}\t{}", ins.join(","), outs.join(","));
        }
        std::fs::write(format!("{dir}/{file}"), src).expect("writing a kernel file");
    }
    std::fs::write(format!("{dir}/sweep.tsv"), tsv).expect("writing sweep.tsv");
    println!("{} overloads in {dir}", cases.len());
}
