#!/usr/bin/env python3
"""Runs clc's SPIR-V on another OpenCL implementation (opt-in, not in CI).

Each kernel of kernels.cl is
  1. compiled by clc to SPIR-V 1.0 (--target=spirv64 -O2) and run through
     an OpenCL runtime that ingests SPIR-V (Intel's CPU runtime from PyPI's
     `opencl-rt` does), with pyopencl;
  2. compiled by clc for x86-64 (-O2 -c), linked into a shared library and
     run natively through each kernel's work-group entry (`__clc_wg_<name>`,
     the CPU runtime's ABI) as one work-group (kernels with barriers need
     the runtime's launcher and run on the other implementation only);
and both results are compared with values computed here, and with each
other. printf.cl's output, natively (`clc run`) and elsewhere (in a child
process, whose standard output the runtime prints to), is compared with
the text expected here. pipes.cl's kernels (SPIR-V 1.0, -O2 and -O0)
pass packets through pipes there.

Set-up (once):
    pip install opencl-rt pyopencl numpy
    echo <python prefix>/lib/libintelocl.so > /etc/OpenCL/vendors/intel.icd
Run:
    cargo build --release -p clc
    LD_LIBRARY_PATH=<python prefix>/lib python3 tests/spirv_exec/run.py [path/to/clc]
Exit status 0 when every comparison holds.
"""

import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "clc")
SRC = os.path.join(HERE, "kernels.cl")
IMAGES = os.path.join(HERE, "images.cl")
PRINTF = os.path.join(HERE, "printf.cl")
PIPES = os.path.join(HERE, "pipes.cl")
ENQUEUE = os.path.join(HERE, "enqueue.cl")
# printf.cl's output for x = 3.25, i = 42.
PRINTF_WANT = """d=42 i=-42 u=42 x=2a X=2A o=52 c=B s=str %
f=3.250000 e=3.250000e+00 g=3.25 a=0x1.ap+1
[   3.250] [3.25e+00] [+42] [ 42] [00042] [3] [0x2a] [052] [        ab] [z    ]
3.250000,-3.250000,6.500000,0.500000|3.25,-3.25,6.50,0.50|42,-42|1,-2,3,-4|0xffd6,0x7|42000000000,-42000000000|     3.2,    -3.2,     6.5
hh=-42 hu=65494 h=42
"""
N = 64

class Group(ctypes.Structure):
    """`ClcGroup`: one work-group, as a kernel's `__clc_wg_<name>` entry reads it."""

    _fields_ = [
        ("work_dim", ctypes.c_uint32),
        ("pad", ctypes.c_uint32),
        ("global_offset", ctypes.c_uint64 * 3),
        ("global_size", ctypes.c_uint64 * 3),
        ("local_size", ctypes.c_uint64 * 3),
        ("enqueued_local_size", ctypes.c_uint64 * 3),
        ("num_groups", ctypes.c_uint64 * 3),
        ("group_id", ctypes.c_uint64 * 3),
        ("local_mem", ctypes.c_void_p),
        ("barrier", ctypes.c_void_p),
        ("barrier_ctx", ctypes.c_void_p),
        ("only_item", ctypes.c_void_p),
        ("global_base", ctypes.c_uint64 * 3),
        ("row", ctypes.c_uint64 * 2),
        ("local_mem_size", ctypes.c_uint64),
        ("stack", ctypes.c_uint64 * 2),
        ("queue", ctypes.c_void_p),
    ]


S_DTYPE = np.dtype({"names": ["c", "v", "k"], "formats": ["i1", ("<f4", 4), "<i4"], "offsets": [0, 16, 32], "itemsize": 48})


def i32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def cdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def expected_arith(a, b):
    out = []
    for x, y in zip(a.tolist(), b.tolist()):
        s = y & 31
        out += [
            i32(x << s),
            x >> s,
            cdiv(x, y) if y != 0 else 0,
            x - cdiv(x, y) * y if y != 0 else 0,
            (x < y) - (x > y),
            min(max(x, 0), 255) + min(max(i32(x * 1000), -32768), 32767),
        ]
    return np.array(out, dtype=np.int32)


def expected_floats(a, b):
    f = np.float32
    out = []
    for x, y in zip(a, b):
        out += [
            f(x * y - x / (abs(y) + f(1))),
            f(min(x, y) + max(x, f(2))),
            f(np.sqrt(abs(x)) + np.floor(y) + np.ceil(x) + np.trunc(y)),
            f(int(np.trunc(f(x * f(3.5))))),
            f(np.copysign(x * y + f(1), y)),
        ]
    return np.array(out, dtype=np.float32)


def expected_vectors(v):
    a = v.reshape(-1, 4)
    b = a[:, ::-1].copy()
    b[:, 0], b[:, 1] = 0.5, -0.5
    lt = np.where(a < b, -1, 0).astype(np.int32)
    o = np.where(lt < 0, a, b * np.float32(2)).astype(np.float32)
    return lt.reshape(-1), o.reshape(-1)


def expected_vec3(p):
    t = p.reshape(-1, 3)
    r = t[:, [2, 0, 1]] * np.float32(2) + np.array([1, 2, 3], dtype=np.float32)
    return r.reshape(-1).astype(np.float32)


def expected_structs(n):
    s = np.zeros(n, dtype=S_DTYPE)
    s["c"] = ord("a")
    s["v"] = [1, 2, 3, 4]
    s["k"] = np.arange(n) * 3
    table = [[1, 2, 3], [4, 5, 6]]
    priv = [0, 0, 5, 6]
    acc = sum(priv[k] * table[k & 1][k % 3] for k in range(4) if k != 1)

    def pick(x):
        return {0: 10, 1: x + 100, 2: x}.get(x & 3, -1)

    def sw(x):
        r = {0: 3, 1: 2, 2: 2, 5: 3, 97: 97}.get(x, 2)
        return r + 1

    return s, np.array([acc + sum(sw(j) for j in range(i + 40)) + pick(i) for i in range(n)], dtype=np.int32)


class Failures:
    def __init__(self):
        self.items = []

    def check(self, what, got, want, tol=0.0):
        got, want = np.asarray(got), np.asarray(want)
        if got.dtype.names:
            ok = all(np.allclose(got[n], want[n], rtol=tol, atol=tol) for n in got.dtype.names)
        elif tol:
            ok = np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
        else:
            ok = np.array_equal(got, want)
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            self.items.append(what)
            print("  got ", got.reshape(-1)[:12])
            print("  want", want.reshape(-1)[:12])


def expected_more_math(v, a, b):
    """ldexp of each float4 by i % 7 - 3; remquo's remainder and the low
    seven bits of its quotient (x/y to nearest even, exactly, in
    fractions), with the quotient's sign."""
    from fractions import Fraction
    o = np.array([v[4 * i:4 * i + 4] * np.float32(2.0 ** (i % 7 - 3)) for i in range(N)], np.float32).reshape(-1)
    r = np.zeros(N, np.float32)
    q = np.zeros(N, np.int32)
    for i in range(N):
        x, y = Fraction(float(np.float32(a[i]) * np.float32(10))), Fraction(float(np.float32(b[i]) / np.float32(64)))
        k = round(x / y)
        r[i] = np.float32(float(x - k * y))
        bits = abs(k) & 127
        q[i] = -bits if (x < 0) != (y < 0) else bits
    return o, r, q


def expected_clang_bits(u, l):
    """clang's __builtin_* bit functions, worked out on Python integers
    (zero counts are the width)."""
    def clz(v, bits):
        return bits - v.bit_length()

    def ctz(v, bits):
        return (v & -v).bit_length() - 1 if v else bits

    def rev(v, bits):
        return int(format(v, f"0{bits}b")[::-1], 2)

    def swap(v, nbytes):
        return int.from_bytes(v.to_bytes(nbytes, "little"), "big")

    def rotl(v, n, bits):
        n %= bits
        return ((v << n) | (v >> (bits - n))) & ((1 << bits) - 1)

    o = np.zeros(8 * N, np.int32)
    w = np.zeros(6 * N, np.uint64)
    for i in range(N):
        x, y = int(u[i]), int(l[i])
        sx = x - (1 << 32) if x >> 31 else x
        o[8 * i:8 * i + 8] = [clz(x, 32), ctz(x, 32), bin(x).count("1"), ctz(x, 32) + 1 if x else 0,
                              clz(~sx if sx < 0 else sx, 32) - 1, clz(y, 64), bin(y).count("1") & 1, 1 if x > 5 else 2]
        w[6 * i:6 * i + 6] = [swap(x & 0xFFFF, 2) | swap(x, 4) << 16, swap(y, 8),
                              rev(x & 0xFF, 8) | rev(x & 0xFFFF, 16) << 8 | rev(x, 32) << 24, rev(y, 64),
                              rotl(x, i, 32) ^ rotl(y, 64 - i % 64, 64),
                              rotl(x & 0xFF, i, 8) | rotl(x & 0xFFFF, 16 - i % 16, 16) << 8]
    return o, w


def expected_clang_memory(s):
    """memmove within each 32-byte row, both ways; memset of two ints."""
    rows = bytearray(s.tobytes())
    o = np.zeros(2 * N, np.int32)
    for i in range(N):
        r = rows[32 * i:32 * i + 32]
        d = 2 + i % 3
        r[d:d + 9] = r[0:9]
        f = 18 + i % 3
        r[16:25] = r[f:f + 9]
        rows[32 * i:32 * i + 32] = r
        o[2 * i:2 * i + 2] = int.from_bytes(bytes([i & 0xFF] * 4), "little", signed=True)
    return np.frombuffer(bytes(rows), np.int8), o


def inputs():
    rng = np.random.default_rng(7)
    a = rng.integers(-100000, 100000, N, dtype=np.int32)
    b = rng.integers(-40, 40, N, dtype=np.int32)
    fa = rng.uniform(-50, 50, N).astype(np.float32)
    fb = rng.uniform(-50, 50, N).astype(np.float32)
    v = rng.uniform(-1, 1, 4 * N).astype(np.float32)
    p = rng.uniform(-10, 10, 3 * N).astype(np.float32)
    return a, b, fa, fb, v, p


def run_cases(run, fails, who):
    """`run(kernel, n, args)` runs a kernel; args: numpy arrays (updated in
    place) or ("local", nbytes)."""
    a, b, fa, fb, v, p = inputs()
    o = np.zeros(6 * N, np.int32)
    run("arith", N, [a, b, o])
    fails.check(f"{who}: arith", o, expected_arith(a, b))
    of = np.zeros(5 * N, np.float32)
    run("floats", N, [fa, fb, of])
    fails.check(f"{who}: floats", of, expected_floats(fa, fb), tol=1e-5)
    m = np.zeros(4 * N, np.int32)
    ov = np.zeros(4 * N, np.float32)
    run("vectors", N, [v, m, ov])
    em, eo = expected_vectors(v)
    fails.check(f"{who}: vector comparison", m, em)
    fails.check(f"{who}: vector select", ov, eo)
    q = p.copy()
    run("vec3", N, [q])
    fails.check(f"{who}: vload3/vstore3", q, expected_vec3(p))
    s = np.zeros(N, S_DTYPE)
    os_ = np.zeros(N, np.int32)
    run("structs", N, [s, os_])
    es, eos = expected_structs(N)
    fails.check(f"{who}: struct layout", s, es, tol=1e-7)
    fails.check(f"{who}: initializers and control flow", os_, eos)
    total, legacy, mx = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(1, np.uint32)
    run("atomics", N, [total, legacy, mx])
    fails.check(f"{who}: atomics", [total[0], legacy[0], mx[0]], [N * (N + 1) // 2, N, max(i * 7 % 13 for i in range(N))])
    om, rm, qm = np.zeros(4 * N, np.float32), np.zeros(N, np.float32), np.zeros(N, np.int32)
    run("more_math", N, [v, fa, fb, om, rm, qm])
    eo, er, eq = expected_more_math(v, fa, fb)
    fails.check(f"{who}: ldexp(float4, int)", om, eo)
    fails.check(f"{who}: remquo remainder", rm, er)
    # OpenCL asks for the low seven bits with the quotient's sign; Intel's
    # runtime stores the whole quotient: its low seven bits are compared.
    fails.check(f"{who}: remquo's seven quotient bits", np.sign(qm) * (np.abs(qm) & 127), eq)
    rng = np.random.default_rng(11)
    u = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    u[:4] = [0, 1, 0x80000000, 0xFFFFFFFF]
    l = rng.integers(0, 1 << 63, N, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    l[:4] = [0, 1, 1 << 63, (1 << 64) - 1]
    ob, wb = np.zeros(8 * N, np.int32), np.zeros(6 * N, np.uint64)
    run("clang_bits", N, [u, l, ob, wb])
    eob, ewb = expected_clang_bits(u, l)
    fails.check(f"{who}: clang's bit counts", ob, eob)
    fails.check(f"{who}: clang's byte and bit swaps, rotations", wb, ewb)
    sm = (np.arange(32 * N) * 7 % 251).astype(np.int8)
    om = np.zeros(2 * N, np.int32)
    esm, eom = expected_clang_memory(sm)
    run("clang_memory", N, [sm, om])
    fails.check(f"{who}: clang's memmove (overlapping, both ways)", sm, esm)
    fails.check(f"{who}: clang's memset, memcpy", om, eom)
    return o, of, ov, q


def main():
    fails = Failures()
    tmp = tempfile.mkdtemp(prefix="clc-spirv-exec-")
    spv = os.path.join(tmp, "k.spv")
    obj = os.path.join(tmp, "k.o")
    subprocess.run([CLC, "--target=spirv64", "-O2", "-c", SRC, "-o", spv], check=True)
    subprocess.run(["spirv-val", "--target-env", "opencl2.0", spv], check=True)
    img_spv = os.path.join(tmp, "images.spv")
    subprocess.run([CLC, "--target=spirv64", "-O2", "-c", IMAGES, "-o", img_spv], check=True)
    subprocess.run(["spirv-val", "--target-env", "opencl2.0", img_spv], check=True)
    subprocess.run([CLC, "-O2", "-c", SRC, "-o", obj], check=True)
    lib = os.path.join(tmp, "k.so")
    subprocess.run(["cc", "-shared", "-o", lib, obj], check=True)

    # Native: the kernel's work-group entry, one group of n work-items.
    so = ctypes.CDLL(lib)

    def run_native(name, n, args):
        entry = getattr(so, "__clc_wg_" + name)
        ptrs = [ctypes.c_void_p(x.ctypes.data) for x in args]
        argv = (ctypes.c_void_p * len(ptrs))(*[ctypes.addressof(p) for p in ptrs])
        local = ctypes.create_string_buffer(64 << 10)
        one = (ctypes.c_uint64 * 3)(1, 1, 1)
        g = Group(1, 0, (ctypes.c_uint64 * 3)(0, 0, 0), (ctypes.c_uint64 * 3)(n, 1, 1), (ctypes.c_uint64 * 3)(n, 1, 1),
                  (ctypes.c_uint64 * 3)(n, 1, 1), one, (ctypes.c_uint64 * 3)(0, 0, 0), ctypes.cast(local, ctypes.c_void_p),
                  None, None, None, (ctypes.c_uint64 * 3)(0, 0, 0), (ctypes.c_uint64 * 2)(0, 0), 64 << 10,
                  (ctypes.c_uint64 * 2)(0, 0))
        entry(argv, ctypes.byref(g))

    native = run_cases(run_native, fails, "native")

    # The other implementation, from our SPIR-V.
    ctx = None
    for platform in cl.get_platforms():
        for dev in platform.get_devices():
            il = dev.get_info(cl.device_info.IL_VERSION) if hasattr(cl.device_info, "IL_VERSION") else ""
            if "SPIR-V" in il:
                ctx = cl.Context([dev])
                print(f"device: {platform.name} / {dev.name} ({il})")
                break
        if ctx:
            break
    if ctx is None:
        print("no OpenCL device that ingests SPIR-V: see the set-up in this script's docstring")
        return 2
    queue = cl.CommandQueue(ctx)
    with open(spv, "rb") as f:
        prog = cl.Program(ctx, f.read()).build()
    mf = cl.mem_flags

    def run_cl(name, n, args, local=None):
        bufs, kargs = [], []
        for x in args:
            if isinstance(x, tuple) and x[0] == "local":
                kargs.append(cl.LocalMemory(x[1]))
                bufs.append(None)
            else:
                buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x)
                kargs.append(buf)
                bufs.append(buf)
        getattr(prog, name)(queue, (n,), local, *kargs)
        for x, buf in zip(args, bufs):
            if buf is not None:
                cl.enqueue_copy(queue, x, buf)
        queue.finish()

    other = run_cases(run_cl, fails, "SPIR-V on the other implementation")
    for what, x, y, tol in zip(["arith", "floats", "vectors", "vec3"], native, other, [0, 1e-5, 0, 0]):
        fails.check(f"native == SPIR-V elsewhere: {what}", x, y, tol)

    src = np.arange(4 * 16, dtype=np.int32)
    out = np.zeros_like(src)
    run_cl("local_reverse", 64, [src, out, ("local", 16 * 4)], local=(16,))
    fails.check("SPIR-V elsewhere: barrier and __local memory", out, src.reshape(4, 16)[:, ::-1].reshape(-1))

    src = np.arange(4 * 16, dtype=np.int32) * 3
    out = np.zeros_like(src)
    fences = np.zeros_like(src)
    run_cl("async_copies", 64, [src, out, fences, ("local", 16 * 4)], local=(16,))
    halves = src.reshape(4, 2, 8).transpose(0, 2, 1).reshape(-1)
    fails.check("SPIR-V elsewhere: async copies (null and shared events)", out, halves)
    # get_fence of a local pointer is the local fence. (Of a global one
    # it is the global fence, but Intel's CPU runtime makes to_local, which
    # clc's SPIR-V asks, return any pointer unchanged, so it is not
    # checked here; the CPU runtime's own tests check it natively.)
    fails.check("SPIR-V elsewhere: get_fence of a local pointer", fences & 15, np.full(64, 1, np.int32))

    w, h = 8, 5
    pix = np.random.default_rng(3).uniform(0, 1, (h, w, 4)).astype(np.float32)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    src_img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=pix)
    dst_img = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
    smp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    with open(img_spv, "rb") as f:
        img_prog = cl.Program(ctx, f.read()).build()
    img_prog.img_shift(queue, (w, h), None, src_img, dst_img, smp)
    got = np.zeros_like(pix)
    cl.enqueue_copy(queue, got, dst_img, origin=(0, 0), region=(w, h))
    queue.finish()
    shifted = np.concatenate([pix[:, 1:], pix[:, -1:]], axis=1)
    want = shifted * np.float32(2) + pix + np.array([w, h, 0, 0], dtype=np.float32)
    fails.check("SPIR-V elsewhere: images, samplers (program-scope and argument), image queries", got, want, tol=1e-6)

    # Clamped to the edge: pixel i - 1 of row 0.
    edge = np.zeros((w, 4), np.float32)
    ebuf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=edge)
    img_prog.img_edge(queue, (w,), None, src_img, ebuf)
    cl.enqueue_copy(queue, edge, ebuf)
    queue.finish()
    fails.check("SPIR-V elsewhere: one program-scope sampler in two kernels", edge, pix[0, np.clip(np.arange(w) - 1, 0, w - 1)])

    # The channel data type is OpenCL's CLK_* value, not SPIR-V's
    # enumerant (LLVM 22's OpImageQueryFormat alone gave 2 for UNORM_INT8).
    u8 = cl.Image(ctx, mf.READ_ONLY, cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8), shape=(w, h))
    formats = np.zeros(2, dtype=np.int32)
    fbuf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=formats)
    img_prog.img_format(queue, (1,), None, u8, src_img, fbuf)
    cl.enqueue_copy(queue, formats, fbuf)
    queue.finish()
    fails.check("SPIR-V elsewhere: get_image_channel_data_type", formats, np.array([cl.channel_type.UNORM_INT8, cl.channel_type.FLOAT], dtype=np.int32))

    # The channel order likewise (LLVM 22 has no OpImageQueryOrder; clc
    # writes it into the binary and adds CLK_R to SPIR-V's enumerant).
    order_list = [cl.channel_order.R, cl.channel_order.RG, cl.channel_order.RGBA, cl.channel_order.BGRA]
    flags = [mf.READ_ONLY, mf.WRITE_ONLY, mf.READ_WRITE, mf.READ_ONLY]
    imgs = [cl.Image(ctx, fl, cl.ImageFormat(o, cl.channel_type.UNORM_INT8), shape=(w, h)) for o, fl in zip(order_list, flags)]
    orders = np.zeros(4, dtype=np.int32)
    obuf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=orders)
    img_prog.img_order(queue, (1,), None, *imgs, obuf)
    cl.enqueue_copy(queue, orders, obuf)
    queue.finish()
    fails.check("SPIR-V elsewhere: get_image_channel_order", orders, np.array(order_list, dtype=np.int32))

    # printf: natively through `clc run`, elsewhere in a child process
    # (the runtime prints to the process's own standard output).
    native = subprocess.run([CLC, "run", PRINTF, "--kernel", "p", "--global", "1", "--arg", "buf:float:1:3.25", "--arg", "buf:int:1:42"],
                            capture_output=True, text=True)
    fails.check("native: printf", native.stdout, PRINTF_WANT)
    pf_spv = os.path.join(tmp, "printf.spv")
    subprocess.run([CLC, "--target=spirv64", "-O2", "-c", PRINTF, "-o", pf_spv], check=True)
    subprocess.run(["spirv-val", "--target-env", "opencl2.0", pf_spv], check=True)
    other = subprocess.run([sys.executable, __file__, "--printf", pf_spv], capture_output=True, text=True)
    fails.check("SPIR-V elsewhere: printf", other.stdout, PRINTF_WANT)

    for level in ["-O2", "-O0"]:
        check_pipes(ctx, queue, tmp, level, fails)
        check_enqueue(ctx, dev, queue, tmp, level, fails)

    print(f"{len(fails.items)} failure(s)")
    return 1 if fails.items else 0


PACKET = np.dtype([("a", "<i4"), ("b", "<f4"), ("c", "i1"), ("pad", "V3")])


def built(ctx, tmp, src, level):
    """src compiled by clc to SPIR-V at level, validated, and built by the
    other implementation."""
    spv = os.path.join(tmp, os.path.basename(src).replace(".cl", f"{level}.spv"))
    subprocess.run([CLC, "--target=spirv64", level, "-c", src, "-o", spv], check=True)
    subprocess.run(["spirv-val", "--target-env", "opencl2.0", spv], check=True)
    with open(spv, "rb") as f:
        return cl.Program(ctx, f.read()).build()


def check_pipes(ctx, queue, tmp, level, fails):
    """pipes.cl on the other implementation: packets written are read back
    exactly once, through plain calls and reservations of work-items and
    work-groups (packet order between work-items is the
    implementation's: compared as sets)."""
    prog = built(ctx, tmp, PIPES, level)
    mf = cl.mem_flags
    n = 64

    def buffer(a):
        return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)

    def back(a, buf):
        cl.enqueue_copy(queue, a, buf)
        queue.finish()
        return a

    src = np.arange(n, dtype=np.int32) * 3 + 1
    pipe = cl.Pipe(ctx, 0, 4, n, [])
    status = buffer(np.full(n, 9, np.int32))
    prog.pipe_write(queue, (n,), (16,), pipe, buffer(src), status)
    fails.check(f"SPIR-V {level} elsewhere: write_pipe succeeds", back(np.zeros(n, np.int32), status), np.zeros(n, np.int32))
    counts = buffer(np.zeros(2, np.uint32))
    prog.pipe_counts(queue, (1,), None, pipe, counts)
    fails.check(f"SPIR-V {level} elsewhere: get_pipe_num_packets, get_pipe_max_packets", back(np.zeros(2, np.uint32), counts), np.array([n, n], np.uint32))
    dst = buffer(np.zeros(n, np.int32))
    prog.pipe_read(queue, (n,), (16,), pipe, dst, status)
    got = back(np.zeros(n, np.int32), dst)
    fails.check(f"SPIR-V {level} elsewhere: read_pipe succeeds", back(np.zeros(n, np.int32), status), np.zeros(n, np.int32))
    fails.check(f"SPIR-V {level} elsewhere: read_pipe gives each packet once", np.sort(got), src)
    prog.pipe_read(queue, (4,), None, pipe, dst, status)
    fails.check(f"SPIR-V {level} elsewhere: read_pipe of an empty pipe fails", back(np.zeros(n, np.int32), status)[:4] < 0, np.ones(4, bool))

    packets = cl.Pipe(ctx, 0, PACKET.itemsize, n, [])
    status = buffer(np.zeros(n, np.int32))
    prog.packets_reserved(queue, (n // 2,), (8,), packets, status)
    fails.check(f"SPIR-V {level} elsewhere: reserve_write_pipe from a function", back(np.zeros(n, np.int32), status)[: n // 2], np.ones(n // 2, np.int32))
    out = buffer(np.zeros(n, PACKET))
    prog.packets_group_read(queue, (n,), (16,), packets, out, status)
    got = np.sort(back(np.zeros(n, PACKET), out), order="a")
    g = np.arange(n) // 2
    want = np.zeros(n, PACKET)
    want["a"] = np.arange(n)
    want["b"] = g * 0.5 + np.arange(n) % 2
    want["c"] = g & 0x7F
    fails.check(f"SPIR-V {level} elsewhere: work_group_reserve_read_pipe", back(np.zeros(n, np.int32), status), np.ones(n, np.int32))
    fails.check(f"SPIR-V {level} elsewhere: struct packets through reservations", got[["a", "b", "c"]], want[["a", "b", "c"]])

    # Reservations in an array, stored through a pointer, one picked and
    # copied by a run-time index: packet 2 * pick + 1 of 0..7.
    for pick in range(4):
        pipe = cl.Pipe(ctx, 0, 4, 8, [])
        prog.pipe_fill(queue, (1,), None, pipe, np.int32(8))
        out = buffer(np.full(2, -1, np.int32))
        prog.reservations_in_memory(queue, (1,), None, pipe, np.int32(pick), out)
        fails.check(f"SPIR-V {level} elsewhere: reservations in memory (pick = {pick})", back(np.full(2, -1, np.int32), out), np.array([1, 2 * pick + 1], np.int32))

    for c, want in [(1, [0]), (0, [1, 2])]:
        pipe = cl.Pipe(ctx, 0, 4, 8, [])
        prog.pipe_fill(queue, (1,), None, pipe, np.int32(8))
        out = buffer(np.full(2, -1, np.int32))
        prog.pick_reservation(queue, (1,), None, pipe, np.int32(c), out)
        fails.check(f"SPIR-V {level} elsewhere: c ? a : b of reservations (c = {c})", back(np.full(2, -1, np.int32), out)[: len(want)], np.array(want, np.int32))


def check_enqueue(ctx, dev, queue, tmp, level, fails):
    """enqueue.cl on the other implementation, with a device queue as q:
    children of the 2D range (two local buffers, waiting on two user
    events), a child enqueueing a grandchild, a marker, events picked
    through a branch, the kernel queries, a program-scope block, a
    literal called where it is written, a block variable naming another."""
    prog = built(ctx, tmp, ENQUEUE, level)
    props = cl.command_queue_properties
    device_queue = cl.CommandQueue(ctx, dev, properties=props.ON_DEVICE | props.ON_DEVICE_DEFAULT | props.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    n = 5
    out = np.zeros(32, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    k = prog.enqueue_all
    k.set_arg(0, buf)
    k.set_arg(1, device_queue)
    k.set_arg(2, np.int32(n))
    cl.enqueue_nd_range_kernel(queue, k, (4,), None)
    queue.finish()
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    want = np.zeros(32, np.int32)
    want[1] = 1  # is_valid_event of a user event
    want[2:10] = n  # the 4x2 children, out[2 + 4y + x]
    want[12:14] = 7  # the grandchildren
    want[21:23] = 1  # the kernel queries are positive
    want[24] = n * n  # a program-scope block
    want[25] = n + 1  # a literal called where it is written
    want[26:28] = [n * n, n * n + 1]  # an enqueued block variable naming another
    # out[16..17]: the marker's execution time, the implementation's.
    out[16:18] = 0
    fails.check(f"SPIR-V {level} elsewhere: device-side enqueue", out, want)


def printf_child(spv):
    """Runs printf.cl's kernel from `spv` on the first device that ingests
    SPIR-V; its output goes to this process's standard output."""
    import warnings
    warnings.filterwarnings("ignore")
    for platform in cl.get_platforms():
        for dev in platform.get_devices():
            if "SPIR-V" in dev.get_info(cl.device_info.IL_VERSION):
                ctx = cl.Context([dev])
                queue = cl.CommandQueue(ctx)
                with open(spv, "rb") as f:
                    prog = cl.Program(ctx, f.read()).build()
                mf = cl.mem_flags
                x = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.array([3.25], np.float32))
                n = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.array([42], np.int32))
                prog.p(queue, (1,), None, x, n)
                queue.finish()
                return 0
    return 2


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--printf":
        sys.exit(printf_child(sys.argv[2]))
    sys.exit(main())
