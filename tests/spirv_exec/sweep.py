#!/usr/bin/env python3
"""Every value builtin overload, natively and as SPIR-V elsewhere (opt-in, not in CI).

The kernels come from `cargo run -p clc-tests --bin value_sweep -- DIR`:
one per overload of OpenCL C 2.0 that takes and gives values (about 3000)
and one per conversion between scalar types, of scalars and vectors of
every width (about 2300; see tests/src/bin/value_sweep.rs). Each work-item
reads its arguments
from slots of an input buffer and writes the result, and what its pointer
arguments point at, to slots of an output buffer. Every kernel runs on the
same inputs (edge values and random ones, kept inside each builtin's
domain: clamp's bounds ordered, mad24's 24-bit operands, vload's offsets
small...)
  1. natively: clc -O2 -c for x86-64 (SWEEP_OPT=-O0 for -O0), linked into
     a shared library, each kernel's work-group entry called as run.py does;
  2. as clc's SPIR-V (--target=spirv64 -O2, or SWEEP_OPT) on an OpenCL runtime that
     ingests SPIR-V (Intel's CPU runtime from PyPI's `opencl-rt`);
each file of kernels in a child process, so that a crash is reported, not
fatal. Results are compared: integers and conversions exactly, floating point within
a few ulp (both sides have the specification's error bounds; see TOL).
Implementation-defined results (native_*, half_*, fast_*, nan's payload)
are not compared. Known differences of the other implementation are
listed in KNOWN and reported apart.

Set-up as run.py's. Run:
    cargo build --release -p clc
    cargo run --release -p clc-tests --bin value_sweep -- /tmp/sweep
    LD_LIBRARY_PATH=<python prefix>/lib python3 tests/spirv_exec/sweep.py /tmp/sweep [name-prefix ...]
Exit status 0 when every comparison holds.
"""

import ctypes
import multiprocessing as mp
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLC = os.environ.get("CLC", os.path.join(ROOT, "target", "release", "clc"))
# The optimisation level of both compiles (`SWEEP_OPT=-O0` for the
# unoptimised shapes).
OPT = os.environ.get("SWEEP_OPT", "-O2")
SLOT = 1024
N = 128

SCALARS = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32, "uint": np.uint32,
           "long": np.int64, "ulong": np.uint64, "size_t": np.uint64, "ptrdiff_t": np.int64, "half": np.float16,
           "float": np.float32, "double": np.float64}

# Not compared: results the specification leaves to the implementation
# (mad: fused or not, "for when speed matters more than accuracy"; mix's
# accuracy is implementation-defined, and x + (y - x) * a cancels).
UNCOMPARED = ("native_", "half_", "fast_", "nan(", "mad(", "mix(")

# The other implementation's known deviations (OpenCL C 3.0 §6.15 says
# otherwise; clc follows the specification).
KNOWN = {
    "mad_sat(int": "Intel's mad_sat of int, uint and long saturates wrongly (mad_sat(-2, 1, 5) is INT_MIN there)",
    "mad_sat(uint": "Intel's mad_sat of int, uint and long saturates wrongly (uint: wraps, or saturates without overflow)",
    "mad_sat(long": "Intel's mad_sat of int, uint and long saturates wrongly (long: wraps)",
    "step(": "Intel's step(NaN, x) is 1",
    "remquo(": "Intel's remquo stores the whole quotient, not its low seven bits",
    "lgamma_r(": "Intel's lgamma_r(±0) stores sign ±1 (OpenCL: 0)",
    "normalize(": "Intel's normalize of a vector with an infinite element is NaN (OpenCL: ±1 there, 0 elsewhere)",
    "vstorea_half3": "Intel's vstorea_half3 writes a fourth half (OpenCL: three)",
}

# ulp allowed between the two results (each may be the specification's
# bound away from the exact one).
TOL = defaultdict(lambda: 8, {"pow": 32, "pown": 32, "powr": 32, "rootn": 32, "tgamma": 32, "lgamma": 32, "lgamma_r": 32,
                              "erf": 32, "erfc": 32, "cross": 16, "normalize": 16, "length": 16, "distance": 16, "dot": 16,
                              "smoothstep": 16, "mix": 16, "hypot": 16})


def tolerance(name):
    """ulp allowed between the two results of function `name`."""
    return 0 if name.startswith("convert_") else TOL[name]


def split(t):
    """`float4` -> ("float", 4); `size_t` -> ("size_t", 1)."""
    for s in sorted(SCALARS, key=len, reverse=True):
        if t.startswith(s) and (t[len(s):] == "" or t[len(s):].isdigit()):
            return s, int(t[len(s):] or 1)
    raise ValueError(t)


def values(scalar, count, rng):
    dt = np.dtype(SCALARS[scalar])
    if dt.kind == "f":
        fi = np.finfo(dt)
        special = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, np.inf, -np.inf, np.nan, fi.tiny, -fi.tiny,
                            fi.tiny / 4, fi.max, -fi.max, 100.0, 1e-3], dtype=dt)
        mag = np.exp2(rng.uniform(-30, 30, count)) * rng.uniform(1, 2, count) * rng.choice([-1, 1], count)
        small = rng.uniform(-4, 4, count)
        x = np.where(rng.random(count) < 0.5, mag, small).astype(dt)
        pick = rng.random(count) < 0.1
        x[pick] = rng.choice(special, pick.sum())
        return x
    info = np.iinfo(dt)
    special = np.array([0, 1, info.max, info.min, info.max - 1, info.min + 1] + ([-1, -2] if info.min else [2, 3]), dtype=dt)
    bits = rng.integers(0, 256, count * dt.itemsize, dtype=np.uint8).view(dt)
    small = rng.integers(max(info.min, -100), 100, count).astype(dt)
    x = np.where(rng.random(count) < 0.5, bits, small)
    pick = rng.random(count) < 0.1
    x[pick] = rng.choice(special, pick.sum())
    return x


def inputs(case, rng):
    """The input buffer of one kernel: N items of len(ins) slots."""
    ins = case["ins"]
    name = case["name"]
    k = max(len(ins), 1)
    slots = []
    for t in ins:
        s, _ = split(t)
        per = SLOT // np.dtype(SCALARS[s]).itemsize
        v = values(s, N * per, rng).reshape(N, per)
        if s == "size_t":  # vloadn/vstoren offsets
            v = rng.integers(0, 3, (N, per)).astype(np.uint64)
        if name in ("mad24", "mul24"):
            v = ((v.astype(np.int64) << 40) >> 40).astype(v.dtype) if s == "int" else v & np.uint32(0xFFFFFF)
        if name == "mix" and len(slots) == 2:
            v = np.where(np.isfinite(v), np.abs(v) % 1, 0.5).astype(v.dtype)
        if name.startswith(("vload_half", "vloada_half")) and s == "half":
            v = np.where(np.isfinite(v), v, np.float16(1.5))
        to, _ = split(case["outs"][0]) if case["outs"] else (None, 0)
        if name.startswith("convert_") and "_sat" not in name and v.dtype.kind == "f" and np.dtype(SCALARS[to]).kind in "iu":
            # Out of range (and NaN) is undefined without _sat: kept inside,
            # a step from the ends (a rounding mode may go up), at half the
            # range for 32 and 64 bits (exactly representable).
            info = np.iinfo(SCALARS[to])
            lo, hi = (info.min + 1, info.max - 1) if info.bits <= 16 else (info.min // 2, info.max // 2)
            v = np.clip(np.nan_to_num(v), lo, hi).astype(v.dtype)
        slots.append(v)
    # clamp(x, lo, hi) and smoothstep(e0, e1, x): ordered, finite bounds.
    pair = {"clamp": (1, 2), "smoothstep": (0, 1)}.get(name)
    if pair:
        a, b = slots[pair[0]], slots[pair[1]]
        if a.dtype.kind == "f":
            a, b = np.nan_to_num(a, posinf=1e3, neginf=-1e3), np.nan_to_num(b, posinf=1e3, neginf=-1e3)
            b = np.where(a == b, a + 1, b)
        slots[pair[0]], slots[pair[1]] = np.minimum(a, b), np.maximum(a, b)
    buf = np.zeros((N, k * SLOT), np.uint8)
    for j, v in enumerate(slots):
        buf[:, j * SLOT:(j + 1) * SLOT] = v.view(np.uint8).reshape(N, SLOT)
    return buf.reshape(-1)


def read_cases(d):
    cases = []
    for line in open(os.path.join(d, "sweep.tsv")):
        f, kernel, shape, ins, outs = line.rstrip("\n").split("\t")
        cases.append(dict(file=f, kernel=kernel, shape=shape, name=shape.split("(")[0],
                          ins=[t for t in ins.split(",") if t], outs=[t for t in outs.split(",") if t]))
    return cases


def run_native(lib, cases, bufs, out):
    sys.path.insert(0, HERE)
    from run import Group
    so = ctypes.CDLL(lib)
    res = {}
    for c in cases:
        inb = bufs[c["kernel"]]
        o = np.zeros(N * len(c["outs"]) * SLOT, np.uint8)
        ptrs = [ctypes.c_void_p(inb.ctypes.data), ctypes.c_void_p(o.ctypes.data)]
        argv = (ctypes.c_void_p * 2)(*[ctypes.addressof(p) for p in ptrs])
        local = ctypes.create_string_buffer(64 << 10)
        u3 = lambda a, b, c: (ctypes.c_uint64 * 3)(a, b, c)
        g = Group(1, 0, u3(0, 0, 0), u3(N, 1, 1), u3(N, 1, 1), u3(N, 1, 1), u3(1, 1, 1), u3(0, 0, 0),
                  ctypes.cast(local, ctypes.c_void_p), None, None, None, u3(0, 0, 0), (ctypes.c_uint64 * 2)(0, 0),
                  64 << 10, (ctypes.c_uint64 * 2)(0, 0))
        getattr(so, "__clc_wg_" + c["kernel"])(argv, ctypes.byref(g))
        res[c["kernel"]] = o
    np.savez(out, **res)


def run_cl(spv, cases, bufs, out):
    import warnings
    warnings.filterwarnings("ignore")
    import pyopencl as cl
    dev = None
    for p in cl.get_platforms():
        for d in p.get_devices():
            if "SPIR-V" in d.get_info(cl.device_info.IL_VERSION):
                dev = d
    if dev is None:
        sys.exit(2)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, open(spv, "rb").read()).build()
    mf = cl.mem_flags
    res = {}
    for c in cases:
        o = np.zeros(N * len(c["outs"]) * SLOT, np.uint8)
        ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=bufs[c["kernel"]])
        ob = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=o)
        getattr(prog, c["kernel"])(q, (N,), None, ib, ob)
        cl.enqueue_copy(q, o, ob)
        q.finish()
        res[c["kernel"]] = o
    np.savez(out, **res)


def ulps(a, b):
    it = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    def key(x):
        i = x.view(it).astype(np.int64)
        return np.where(i < 0, -(i & ((1 << (8 * a.itemsize - 1)) - 1)), i)
    d = np.abs(key(a) - key(b))
    d[np.isnan(a) & np.isnan(b)] = 0
    return d


def compare(c, x, y):
    """Differences between two output buffers of case `c`, as text."""
    found = []
    x, y = x.reshape(N, -1), y.reshape(N, -1)
    for j, t in enumerate(c["outs"]):
        s, w = split(t)
        dt = np.dtype(SCALARS[s])
        a = x[:, j * SLOT:(j + 1) * SLOT].copy().view(dt)
        b = y[:, j * SLOT:(j + 1) * SLOT].copy().view(dt)
        if w == 3:  # a 3-vector's fourth element is padding
            a[:, 3::4] = 0
            b[:, 3::4] = 0
        bad = ulps(a, b) > tolerance(c["name"]) if dt.kind == "f" else a != b
        if bad.any():
            item, k = np.argwhere(bad)[0]
            args = []
            for m, ti in enumerate(c["ins"]):
                si, _ = split(ti)
                args.append(c["inputs"].reshape(N, -1)[item, m * SLOT:(m + 1) * SLOT].copy().view(SCALARS[si])[:max(4, k + 1)].tolist())
            found.append(f"out {j} ({t}): {int(bad.sum())} differ; item {item} [{k}]: native {a[item, k]!r} other {b[item, k]!r}; args {args}")
    return found


def child(kind, path, cases, bufs, out):
    (run_native if kind == "native" else run_cl)(path, cases, bufs, out)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/sweep"
    prefixes = sys.argv[2:]
    cases = read_cases(d)
    if prefixes:
        cases = [c for c in cases if c["shape"].startswith(tuple(prefixes))]
    rng = np.random.default_rng(2026)
    bufs = {}
    for c in cases:
        c["inputs"] = bufs[c["kernel"]] = inputs(c, rng)
    by_file = defaultdict(list)
    for c in cases:
        by_file[c["file"]].append(c)
    ctx = mp.get_context("spawn")
    diffs, known, crashes, compared, uncompared = [], [], [], 0, 0
    for f, cs in sorted(by_file.items()):
        src = os.path.join(d, f)
        obj, lib, spv = src[:-3] + ".o", src[:-3] + ".so", src[:-3] + ".spv"
        subprocess.run([CLC, OPT, "-c", src, "-o", obj], check=True)
        subprocess.run(["cc", "-shared", "-o", lib, obj, "-lmvec", "-lm"], check=True)
        subprocess.run([CLC, "--target=spirv64", OPT, "-c", src, "-o", spv], check=True)
        subprocess.run(["spirv-val", "--target-env", "opencl2.0", spv], check=True)
        results = {}
        for kind, path in (("native", lib), ("other", spv)):
            out = os.path.join(d, f"{f[:-3]}.{kind}.npz")
            p = ctx.Process(target=child, args=(kind, path, cs, {c["kernel"]: bufs[c["kernel"]] for c in cs}, out))
            p.start()
            p.join()
            if p.exitcode != 0:
                crashes.append(f"{f}: the {kind} run ended with status {p.exitcode}")
                break
            results[kind] = np.load(out)
        if len(results) < 2:
            continue
        for c in cs:
            if c["shape"].startswith(UNCOMPARED):
                uncompared += 1
                continue
            compared += 1
            found = compare(c, results["native"][c["kernel"]], results["other"][c["kernel"]])
            if found:
                note = next((v for k, v in KNOWN.items() if c["shape"].startswith(k)), None)
                (known if note else diffs).append((c, found, note))
        print(f"{f}: {len(cs)} kernels run", flush=True)
    for c, found, note in known:
        print(f"known {c['shape']}: {note}")
    for c, found, _ in diffs:
        print(f"DIFF  {c['shape']} ({c['file']} {c['kernel']})")
        for line in found:
            print("     ", line)
    for line in crashes:
        print("CRASH", line)
    print(f"{compared} overloads compared, {uncompared} not (implementation-defined), {len(known)} known differences, "
          f"{len(diffs)} differences, {len(crashes)} crashed files")
    return 1 if diffs or crashes else 0


if __name__ == "__main__":
    sys.exit(main())
