#!/usr/bin/env python3
"""Runs piglit's OpenCL program tests through clc and its CPU runtime
(opt-in, not in CI).

piglit (Mesa's test suite, Debian package `piglit`) ships some 550 OpenCL C
files whose leading comment describes test runs (and 113 `.program_test`
files describing runs of a program kept in another file): the kernel, the NDRange,
each argument's input and the output expected, with a tolerance. Those
values were written by hand or computed by piglit's own generators, and
they are what real OpenCL implementations are held to: independent of clc.

For each file this builds nothing itself: it runs `clc run` (which builds
and launches the kernel on the CPU runtime) once per test, with the input
buffers written to files and the output buffers read back, and compares as
piglit's program-tester does (NaN matches NaN, infinities match exactly,
other values within the tolerance, absolute or in ulps). Files that expect
the build to fail are compiled with `clc -fsyntax-only` and must fail.

Skipped (and counted): tests that need an extension clc's CPU target does not report or another device
(`device_regex`), groups larger than the runtime's. Reported apart: tests
whose program clang-22 rejects too (written for an older clang that only
warned), and tests whose expected values contradict IEEE 754 / C99 Annex F
(`KNOWN_WRONG`, each with the value piglit wrongly expects).

Set-up (once; `cargo xtask demo` has installed the rest):
    cargo build --release -p clc
Run:
    python3 tests/piglit/run.py [--clc path/to/clc] [--filter SUBSTRING] [-v]
It fetches piglit with `apt-get download piglit` into target/piglit the
first time. Exit status 0 when every test that ran passed.
"""

import argparse
import glob
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

import warnings

import numpy as np

# Values out of a type's range (piglit's `half` inputs of 1e5, say) become
# infinities on purpose.
warnings.filterwarnings("ignore", category=RuntimeWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(ROOT, "target", "piglit")

# Extensions clc's CPU target reports (`CL_DEVICE_EXTENSIONS`).
EXTENSIONS = {
    "cl_khr_fp16", "cl_khr_fp64", "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics", "cl_khr_byte_addressable_store",
}

# Tests whose expected values contradict IEEE 754 and C99's Annex F (which
# OpenCL C's §7.5.1 adopts for special values), by the start of their
# "file: test" name, with the value piglit wrongly expects there: a test
# whose every mismatch expects that value is reported apart, not as clc's
# failure.
MATH = "generated_tests/cl/builtin/math/builtin-float-"
KNOWN_WRONG = {
    "tests/cl/program/execute/fdiv-modifiers-f32.cl: fdiv 4.0, y": ("nan", "expects 4.0 / 0.0 to be NaN; it is +inf"),
    "tests/cl/program/execute/fdiv-modifiers-f64.cl: fdiv 4.0, y": ("nan", "expects 4.0 / 0.0 to be NaN; it is +inf"),
    MATH + "copysign-1.0.generated.cl: copysign": ("nan", "expects copysign(-4.0, NaN) to be NaN; it is 4.0 with NaN's sign (F.9.8.1)"),
    MATH + "fmod-1.0.generated.cl: fmod": ("nan", "expects fmod(3.0, inf) to be NaN; it is 3.0 (F.9.7.1)"),
    MATH + "lgamma-1.0.generated.cl: lgamma": ("nan", "expects lgamma(0) to be NaN; it is +inf (F.9.5.3)"),
    MATH + "tgamma-1.0.generated.cl: tgamma": ("nan", "expects tgamma(+0) to be NaN; it is +inf (F.9.5.4)"),
    MATH + "pow-1.0.generated.cl: pow": ("inf", "expects pow(2147483647, -inf) to be +inf; it is +0 (F.9.4.4)"),
}


def known_wrong(tname, bad):
    """Why piglit is wrong, when every mismatch of the test expects the
    value piglit wrongly expects there."""
    for key, (value, why) in KNOWN_WRONG.items():
        if tname.startswith(key) and bad and all(str(w) == value for (_, _, _, w) in bad):
            return why
    return None

SCALARS = {
    "char": ("i1", True), "uchar": ("u1", True), "short": ("i2", True), "ushort": ("u2", True),
    "int": ("i4", True), "uint": ("u4", True), "long": ("i8", True), "ulong": ("u8", True),
    "half": ("f2", False), "float": ("f4", False), "double": ("f8", False),
}


def fetch():
    """piglit's cl tests, unpacked under target/piglit."""
    root = os.path.join(CACHE, "x", "usr", "lib", "x86_64-linux-gnu", "piglit")
    if not os.path.isdir(root):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run(["apt-get", "download", "piglit"], cwd=CACHE, check=True)
        deb = glob.glob(os.path.join(CACHE, "piglit_*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(CACHE, "x")], check=True)
    return root


def split_type(t):
    """`float4` -> ('float', 4); `uint` -> ('uint', 1)."""
    m = re.fullmatch(r"([a-z]+?)(2|3|4|8|16)?", t)
    if not m or m.group(1) not in SCALARS:
        raise ValueError("unknown type " + t)
    return m.group(1), int(m.group(2) or 1)


def parse_config(text):
    """The [config] section and the [test] sections of a file's comment."""
    m = re.search(r"/\*!(.*?)!\*/", text, re.S)
    if not m and "[config]" not in text:
        return None
    lines, cur = [], ""
    for raw in (m.group(1) if m else text).split("\n"):
        line = raw.split("#", 1)[0].rstrip()
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        cur += line
        if cur.strip():
            lines.append(cur.strip())
        cur = ""
    config, tests, section = {}, [], None
    for line in lines:
        if line.startswith("["):
            section = line.strip("[]").strip()
            if section == "test":
                tests.append({"args": []})
            continue
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        target = tests[-1] if section == "test" else config
        if key in ("arg_in", "arg_out"):
            target.setdefault("args", []).append((key, value))
        else:
            target[key] = value
    return config, tests


def number(s, scalar):
    if scalar in ("half", "float", "double"):
        s2 = s.lower()
        if "0x" in s2 and "p" in s2:
            return float.fromhex(s)
        if s2.startswith(("0x", "-0x")):
            return float(int(s, 16))
        return float(s2)
    if re.fullmatch(r"-?[0-9.]+[eE][-+]?[0-9]+", s) or "." in s:
        return int(float(s))
    return int(s, 0)


class Arg:
    def __init__(self, kind, value):
        f = value.split()
        self.kind = kind
        self.index = int(f[0])
        self.tolerance, self.ulp = 0.0, False
        if "tolerance" in f:
            i = f.index("tolerance")
            self.tolerance = float(f[i + 1])
            self.ulp = len(f) > i + 2 and f[i + 2] == "ulp"
            f = f[:i]
        self.image = self.sampler = None
        if f[1] == "buffer":
            m = re.fullmatch(r"(\w+)\[(\d+)\]", f[2])
            self.type, self.count = m.group(1), int(m.group(2))
            self.buffer = True
            self.values = f[3:]
        elif f[1] == "image":
            # `image TYPE values… image_type 2d image_width W …`.
            words = f[3:]
            k = next(i for i, w in enumerate(words) if w.startswith("image_"))
            self.values, props = words[:k], dict(zip(words[k::2], words[k + 1::2]))
            self.image = props
            self.type, self.buffer = f[2], True
            self.count = int(props["image_width"]) * int(props.get("image_height", "1")) * int(props.get("image_depth", "1"))
        elif f[1] == "sampler":
            props = dict(zip(f[2::2], f[3::2]))
            self.sampler = props
            self.type, self.count, self.buffer, self.values = "int", 1, False, []
        else:
            self.type, self.count, self.buffer = f[1], 1, False
            self.values = f[2:]
        self.scalar, self.lanes = split_type(self.type)

    def elements(self):
        """The values, one list per element (a 3-vector's 4th lane is 0)."""
        vals = self.values
        if vals and vals[0] == "NULL":
            return None
        if vals and vals[0] == "repeat":
            vals = vals[1:]
            n = self.count * self.lanes
            vals = (vals * (n // len(vals) + 1))[:n]
        elif vals and vals[0] == "random":
            rng = np.random.default_rng(1)
            vals = [str(rng.integers(0, 100)) for _ in range(self.count * self.lanes)]
        nums = [number(v, self.scalar) for v in vals]
        lanes = self.lanes
        if len(nums) != self.count * lanes:
            raise ValueError(f"{len(nums)} values for {self.type}[{self.count}]")
        return [nums[i * lanes:(i + 1) * lanes] for i in range(self.count)]

    def dtype(self):
        return np.dtype("<" + SCALARS[self.scalar][0])

    def stored_lanes(self):
        return 4 if self.lanes == 3 else self.lanes

    def to_bytes(self):
        els = self.elements()
        dt = self.dtype()
        out = np.zeros((self.count, self.stored_lanes()), dtype=dt)
        for i, e in enumerate(els):
            for j, v in enumerate(e):
                if dt.kind in "iu":
                    bits = dt.itemsize * 8
                    v = v & ((1 << bits) - 1)
                    if dt.kind == "i" and v >= 1 << (bits - 1):
                        v -= 1 << bits
                out[i, j] = v
        return out.tobytes()


def within_ulps(got, want, n, dt):
    """piglit's test (`piglit_cl_probe_floating`): `got` is within n times
    the gap between finite `want` and its neighbour towards zero (so -0.0
    and 0.0 are equal)."""
    w = np.array(want, dtype=dt)
    toward = np.array(np.inf if np.signbit(w) else -np.inf, dtype=dt)
    one = abs(float(w) - float(np.nextafter(w, toward)))
    return abs(got - float(w)) <= one * n


def check(arg, raw):
    """Mismatches between the buffer `raw` came back as and the expected."""
    dt = arg.dtype()
    got = np.frombuffer(raw, dtype=dt).reshape(arg.count, arg.stored_lanes())
    want = arg.elements()
    bad = []
    for i, e in enumerate(want):
        for j, w in enumerate(e):
            g = got[i, j]
            if dt.kind == "f":
                g = float(g)
                wv = float(np.array([w], dtype=dt)[0])
                if math.isnan(wv):
                    ok = math.isnan(g)
                elif math.isinf(wv):
                    ok = g == wv
                elif math.isnan(g) or math.isinf(g):
                    ok = False
                elif arg.ulp:
                    ok = within_ulps(g, wv, arg.tolerance, dt)
                else:
                    ok = abs(g - wv) <= arg.tolerance
            else:
                bits = dt.itemsize * 8
                wv = w & ((1 << bits) - 1)
                if dt.kind == "i" and wv >= 1 << (bits - 1):
                    wv -= 1 << bits
                ok = abs(int(g) - wv) <= arg.tolerance
            if not ok:
                bad.append((i, j, g, w))
    return bad


def value_spec(a, param):
    """`clc run`'s spec of a scalar or vector argument. piglit lets the
    value's type differ from the parameter's when their sizes agree (an
    `int` for a `uint`): the bits are then read as the parameter's type."""
    words = [w for w in re.sub(r"[*]", " * ", param).split() if w not in ("const", "volatile", "__private", "private")]
    t = a.type
    if len(words) >= 2 and "*" not in words:
        try:
            s2, l2 = split_type(words[-2])
            if (s2, l2) != (a.scalar, a.lanes) and np.dtype("<" + SCALARS[s2][0]).itemsize * l2 == a.dtype().itemsize * a.lanes:
                raw = np.frombuffer(a.to_bytes(), dtype=np.dtype("<" + SCALARS[s2][0]))
                vals = [repr(float(x)) if s2 in ("half", "float", "double") else str(int(x)) for x in raw[:l2]]
                return f"{words[-2]}:{','.join(vals).replace('nan', 'NaN')}"
        except ValueError:
            pass
    vals = [repr(float(np.array([v], dtype=a.dtype())[0])) if a.scalar in ("half", "float", "double") else str(v) for v in a.elements()[0]]
    return f"{t}:{','.join(vals).replace('nan', 'NaN')}"


def clang_rejects(path, opts):
    """Does clang-22 refuse the program too (when it is installed)?"""
    try:
        r = subprocess.run(["clang-22", "-fsyntax-only"] + opts + [path], capture_output=True)
    except FileNotFoundError:
        return False
    return r.returncode != 0


def kernel_params(clc, src, opts):
    """Each kernel's parameters (as written, after preprocessing)."""
    r = subprocess.run([clc, "-E"] + opts + [src], capture_output=True, text=True)
    text = re.sub(r"\s+", " ", r.stdout)
    out = {}
    for m in re.finditer(r"(?:__kernel|kernel)\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?void\s+(\w+)\s*\(([^)]*)\)", text):
        out[m.group(1)] = [p.strip() for p in m.group(2).split(",")]
    return out


def std_for(config):
    lo = int(config.get("clc_version_min", "10"))
    hi = int(config.get("clc_version_max", "20"))
    v = max(lo, min(12, hi)) if lo < 20 else 20
    return {10: "CL1.0", 11: "CL1.1", 12: "CL1.2", 20: "CL2.0"}.get(v, "CL2.0")


def run_file(clc, path, counts, verbose, failures):
    text = open(path, errors="replace").read()
    parsed = parse_config(text)
    test_file = path
    if path.endswith(".program_test") and parsed:
        # The configuration alone; the program is in another file.
        src = parsed[0].get("program_source_file")
        if not src:
            counts["skipped"] += 1
            return
        path = os.path.join(os.path.dirname(path), src)
    if parsed is None:
        counts["skipped"] += 1
        return
    config, tests = parsed
    name = os.path.relpath(test_file, ROOT_PIGLIT)
    need = set(config.get("require_device_extensions", "").split())
    # `device_regex` names other devices (amdgcn's `gfx…`).
    if need - EXTENSIONS or "device_regex" in config:
        counts["skipped"] += 1
        return
    opts = ["-cl-std=" + std_for(config)] + config.get("build_options", "").split()
    if config.get("expect_build_fail") == "true":
        r = subprocess.run([clc, "-fsyntax-only"] + opts + [path], capture_output=True, text=True)
        if r.returncode == 0:
            counts["failed"] += 1
            failures.append(f"{name}: the build should fail")
        else:
            counts["passed"] += 1
        return
    params = None
    for t in tests:
        tname = f"{name}: {t.get('name', '?')}"
        kernel = t.get("kernel_name", config.get("kernel_name"))
        dims = int(t.get("dimensions", config.get("dimensions", "1")))
        gsize = (t.get("global_size", config.get("global_size", "1 0 0")).split() + ["1", "1"])[:dims]
        lsize = t.get("local_size", config.get("local_size"))
        offset = t.get("global_offset", config.get("global_offset"))
        expect_fail = t.get("expect_test_fail", config.get("expect_test_fail")) == "true"
        try:
            args = [Arg(k, v) for k, v in t["args"]]
        except NotImplementedError:
            counts["skipped"] += 1
            continue
        if params is None:
            params = kernel_params(clc, path, opts)
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [clc, "run", path, "--kernel", kernel, "--global", ",".join(gsize)] + opts
            if lsize:
                cmd += ["--local", ",".join(lsize.split()[:dims])]
            if offset:
                cmd += ["--offset", ",".join(offset.split()[:dims])]
            ins = {a.index: a for a in args if a.kind == "arg_in"}
            outs = {a.index: a for a in args if a.kind == "arg_out"}
            for i in range(max(list(ins) + list(outs)) + 1):
                a = ins.get(i) or outs.get(i)
                if a is None:
                    raise ValueError(f"{tname}: no argument {i}")
                ps = params.get(kernel) or []
                param = ps[i] if i < len(ps) else ""
                if a.sampler is not None:
                    sm = a.sampler
                    coords = "normalized" if sm.get("normalized_coords") == "1" else "unnormalized"
                    cmd += ["--arg", f"sampler:{coords}:{sm.get('addressing_mode', 'NONE').lower()}:{sm.get('filter_mode', 'NEAREST').lower()}"]
                    continue
                if not a.buffer:
                    cmd += ["--arg", value_spec(a, param)]
                    continue
                size = a.count * a.stored_lanes() * a.dtype().itemsize
                if re.search(r"\b(__)?local\b", param):
                    cmd += ["--arg", f"local:{size}"]
                    continue
                f = os.path.join(tmp, f"in{i}.bin")
                data = a.to_bytes() if i in ins and a.elements() is not None else bytes(size)
                open(f, "wb").write(data)
                if a.image is not None:
                    im = a.image
                    channel = {"FLOAT": "float", "HALF_FLOAT": "half", "UNSIGNED_INT8": "uint8", "SIGNED_INT8": "int8", "UNSIGNED_INT16": "uint16",
                               "SIGNED_INT16": "int16", "UNSIGNED_INT32": "uint32", "SIGNED_INT32": "int32", "UNORM_INT8": "unorm8"}[im["image_channel_data_type"]]
                    dims = [im["image_width"]] + [im[k] for k in ("image_height", "image_depth") if k in im]
                    cmd += ["--arg", f"image{im['image_type']}:{im['image_channel_order'].lower()}:{channel}:{'x'.join(dims)}:file:{f}"]
                else:
                    cmd += ["--arg", f"buf:{a.type}:{a.count}:file:{f}"]
                if i in outs:
                    cmd += ["--out", f"{i}={os.path.join(tmp, f'out{i}.bin')}"]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if r.returncode != 0 and "invalid ND-range" in r.stderr:
                # piglit skips a test whose group is larger than the
                # device's.
                counts["skipped"] += 1
                continue
            if r.returncode == 1 and clang_rejects(path, opts):
                counts["clang-22 rejects"] += 1
                failures.append(f"{tname}: clang-22 rejects the program too (written for an older clang)")
                continue
            if r.returncode != 0:
                counts["failed"] += 1
                failures.append(f"{tname}: clc run exit {r.returncode}\n    " + "\n    ".join(r.stderr.strip().splitlines()[:8]))
                continue
            mismatches = []
            for i, a in outs.items():
                raw = open(os.path.join(tmp, f"out{i}.bin"), "rb").read()
                mismatches += check(a, raw)
            bad = [f"[{e}].{l}: got {g}, want {w}" for (e, l, g, w) in mismatches]
            why = known_wrong(tname, mismatches)
            if why:
                counts["known wrong"] += 1
                failures.append(f"{tname}: piglit's expectation is wrong ({why})")
                continue
            if bool(bad) == expect_fail:
                counts["passed"] += 1
                if verbose:
                    print("pass", tname)
            else:
                counts["failed"] += 1
                why = "expected to fail, passed" if expect_fail else "; ".join(bad[:6]) + (f" (+{len(bad) - 6} more)" if len(bad) > 6 else "")
                failures.append(f"{tname}: {why}")


def main():
    global ROOT_PIGLIT
    ap = argparse.ArgumentParser()
    ap.add_argument("--clc", default=os.path.join(ROOT, "target", "release", "clc"))
    ap.add_argument("--filter", default="")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    ROOT_PIGLIT = fetch()
    files = sorted(f for ext in ("cl", "program_test") for f in glob.glob(os.path.join(ROOT_PIGLIT, "**", "cl", "**", "*." + ext), recursive=True))
    files = [f for f in files if a.filter in f and not os.path.basename(f).startswith(("template_program.", "doc_program."))]
    counts = {"passed": 0, "failed": 0, "skipped": 0, "known wrong": 0, "clang-22 rejects": 0}
    failures = []
    for f in files:
        try:
            run_file(a.clc, f, counts, a.v, failures)
        except (ValueError, KeyError, IndexError) as e:
            counts["failed"] += 1
            failures.append(f"{os.path.relpath(f, ROOT_PIGLIT)}: could not run: {e}")
    for x in failures:
        print("NOTE" if "piglit's expectation is wrong" in x or "clang-22 rejects" in x else "FAIL", x)
    print(f"piglit: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped, "
          f"{counts['known wrong']} with wrong expectations, {counts['clang-22 rejects']} that clang-22 rejects too ({len(files)} files)")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
