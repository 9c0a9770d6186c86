//! `clc run` as a process: printf from many work-items on all cores, its
//! OpenCL format rules, and release/acquire message passing between
//! work-groups; pipes from the command line; `clc -c` of image kernels for 32-bit x86; and what the
//! process says when it crashes.

use std::process::Command;

fn kernel(name: &str, src: &str) -> String {
    let p = std::env::temp_dir().join(format!("clc-run-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, src).unwrap();
    p.display().to_string()
}

#[test]
fn printf_writes_whole_lines_from_every_work_item() {
    let f = kernel("printf.cl", "kernel void p(int n) { int i = get_global_id(0); printf(\"work-item %d of %d says %s\\n\", i, n, \"hello\"); }");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", &f, "--kernel", "p", "--global", "2000", "--local", "50", "--arg", "int:2000"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut seen = vec![false; 2000];
    for line in text.lines() {
        let rest = line.strip_prefix("work-item ").unwrap_or_else(|| panic!("a broken line: {line:?}"));
        let (i, tail) = rest.split_once(' ').unwrap();
        assert_eq!(tail, "of 2000 says hello", "{line:?}");
        let i: usize = i.parse().unwrap();
        assert!(!std::mem::replace(&mut seen[i], true), "work-item {i} printed twice");
    }
    assert!(seen.iter().all(|&s| s), "every work-item printed");
}

/// OpenCL's printf rules on the CPU: `float` printed as itself (not
/// promoted by the caller), vector conversions with every length
/// modifier (`h` and `hh` of negative values as C prints them),
/// flags/width/precision, `%%`, the return value (0, not a
/// character count), and text printed as written where arguments run out.
#[test]
fn printf_follows_opencl_format_rules() {
    let f = kernel(
        "printf_formats.cl",
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
         #pragma OPENCL EXTENSION cl_khr_fp16 : enable
         kernel void p(global float *x) {
             float f = x[0];
             half h = 1.5h;
             int r = printf(\"f=%f h=%.1f d=%d c=%c s=%s u=%u x=%#x ld=%ld\\n\", f, h, -3, 'A', \"str\", 7u, 255, (long)-5);
             printf(\"r=%d\\n\", r);
             printf(\"v=%v4hlf|%v2hhd|%v2hhu|%v8hd|%v2ld|%v2lf\\n\", (float4)(1.0f, 2.5f, -3.0f, 4.0f), (char2)(-1, 2), (uchar2)(255, 7),
                    (short8)(-300, 1, 2, 3, 4, 5, 6, 7), (long2)(-9000000000L, 5), (double2)(0.25, -2.0));
             printf(\"%5.2f|%-6d|%06.1e|%x|%o|%%|%v3hlg|%v16hlx\\n\", 3.14159f, 42, 12345.678f, 255u, 8, (float3)(1, 2, 3),
                    (uint16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16));
             printf(\"%hx|%#v2hx|%hhu|%v2hho|%hd\\n\", (short)-42, (short2)(-42, 7), (char)-1, (char2)(-1, 8), 70000);
             printf(\"missing %d\\n\");
             printf(\"%*d|%.*f|%-*.*e\\n\", 5, 42, 2.9f, 3.14159f, (short)8, 1L, 2.0f);
         }",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", &f, "--kernel", "p", "--global", "1", "--arg", "buf:float:1:2.25"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let want = [
        "f=2.250000 h=1.5 d=-3 c=A s=str u=7 x=0xff ld=-5",
        "r=0",
        "v=1.000000,2.500000,-3.000000,4.000000|-1,2|255,7|-300,1,2,3,4,5,6,7|-9000000000,5|0.250000,-2.000000",
        " 3.14|42    |1.2e+04|ff|10|%|1,2,3|1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,10",
        // `h` and `hh` convert back to the short or char, as in C.
        "ffd6|0xffd6,0x7|255|377,10|4464",
        "missing %d",
        // `*` takes an int; a float there (-Wformat says so) converts as
        // C converts it (a fuzzer-found internal error before).
        "   42|3.14|2.0e+00 ",
    ];
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}

/// Calls LLVM would take for the C library's and rewrite (`printf("%s\n",
/// s)` into `puts`, `printf("x")` into `putchar`, which the CPU runtime
/// does not provide: "calls functions the CPU target does not provide"
/// at -O1 and above), and `__func__` as a `%s` argument, in a function
/// and in a block literal, at every level.
#[test]
fn printf_calls_are_not_the_c_librarys() {
    let f = kernel(
        "printf_libcalls.cl",
        "kernel void p(global int *o) {
             printf(\"%s\\n\", \"abc\");
             printf(\"x\");
             printf(\"%c\", 'y');
             printf(\"\\n%s|%s\\n\", __func__, __PRETTY_FUNCTION__);
             void (^b)(void) = ^{ printf(\"%s\\n\", __func__); };
             b();
         }",
    );
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", &f, "--kernel", "p", "--global", "1", "--arg", "buf:int:1", level]).output().unwrap();
        assert!(out.status.success(), "{level}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().collect::<Vec<_>>(), ["abc", "xy", "p|void p(__global int *__private)", "p_block_invoke"], "{level}");
    }
}

#[test]
fn release_acquire_message_passing_across_work_groups_never_sees_stale_data() {
    // Even groups publish a message (data, then a flag with release);
    // odd groups poll the flag with acquire for a while and, whenever they
    // see it, must see the whole message. Groups make no progress promise
    // to each other, so a consumer that never sees the flag is fine.
    let f = kernel(
        "mp.cl",
        "kernel void mp(global int *data, global atomic_int *flags, global int *seen) {
             int g = get_group_id(0), pair = g / 2;
             if (g % 2 == 0) {
                 for (int k = 0; k < 16; k++) data[pair * 16 + k] = pair * 1000 + k;
                 atomic_store_explicit(&flags[pair], 1, memory_order_release, memory_scope_device);
             } else {
                 int ok = -1;
                 for (int t = 0; t < 200000 && ok < 0; t++) {
                     if (atomic_load_explicit(&flags[pair], memory_order_acquire, memory_scope_device)) {
                         ok = 1;
                         for (int k = 0; k < 16; k++) if (data[pair * 16 + k] != pair * 1000 + k) ok = 0;
                     }
                 }
                 seen[pair] = ok;
             }
         }",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_clc"))
        .args(["run", &f, "--kernel", "mp", "--global", "512", "--local", "1", "--arg", "buf:int:4096", "--arg", "buf:int:256", "--arg", "buf:int:256", "--print", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let list = text.trim().strip_prefix("arg 2: [").and_then(|s| s.strip_suffix(']')).unwrap();
    let seen: Vec<i32> = list.split(", ").map(|v| v.parse().unwrap()).collect();
    assert_eq!(seen.len(), 256);
    assert!(seen.iter().all(|&s| s != 0), "a consumer saw the flag but stale data: {seen:?}");
}

#[test]
fn images_and_samplers_from_the_command_line() {
    // A 3x2 RGBA float image stored as its texel index, read at normalized
    // coordinates with a linear filter halfway between texels 0 and 1 of
    // each row, and `clc run --help` documenting the image specs.
    let f = kernel(
        "img.cl",
        "kernel void k(read_only image2d_t src, sampler_t s, global float4 *out) {
             int y = get_global_id(0);
             out[y] = read_imagef(src, s, (float2)(1.0f / 3.0f, (y + 0.5f) / 2.0f));
         }",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_clc"))
        .args(["run", &f, "--kernel", "k", "--global", "2", "--arg", "image2d:rgba:float:3x2:range", "--arg", "sampler:normalized:clamp_to_edge:linear", "--arg", "buf:float4:2", "--print", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // u = 1/3 * 3 = 1: halfway between texels 0 and 1, i.e. index + 0.5.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "arg 2: [(0.5, 0.5, 0.5, 0.5), (3.5, 3.5, 3.5, 3.5)]\n");
    let help = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("IMAGETYPE:ORDER:CHANNELTYPE:SIZES[:FILL]") && help.contains("sampler:COORDS:ADDRESS:FILTER"), "{help}");
}

#[test]
fn image_kernels_compile_for_32_bit_x86() {
    // Its baseline has no SSE2: the image code must not use SSE2's
    // intrinsics there (LLVM aborted on every image write).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for file in ["027_images_samplers", "058_image_blur"] {
        let src = root.join(format!("tests/corpus/valid/{file}.cl"));
        let out = std::env::temp_dir().join(format!("clc-i686-{}-{file}.o", std::process::id()));
        for opt in ["-O0", "-O2"] {
            let r = Command::new(env!("CARGO_BIN_EXE_clc"))
                .args(["-x", "cl", "-cl-std=CL2.0", opt, "-c", "--target=i686-unknown-linux-gnu", "-I"])
                .arg(root.join("tests/corpus/include"))
                .arg("-o")
                .arg(&out)
                .arg(&src)
                .output()
                .unwrap();
            assert!(r.status.success(), "{file} {opt}: {}", String::from_utf8_lossy(&r.stderr));
            let obj = std::fs::read(&out).unwrap();
            assert_eq!(&obj[..4], b"\x7fELF", "{file} {opt}");
            assert_eq!(obj[4], 1, "{file} {opt}: not a 32-bit ELF object");
        }
        let _ = std::fs::remove_file(&out);
    }
}

const BUG_REPORT: &str = "clc: this is a bug in clc; please report it with the input that caused it";

/// A crash or an LLVM fatal error inside clc is an internal-compiler-error
/// report naming the stage and the file, with status 3: never an abort or
/// a core dump. `#pragma clc __debug` makes them on purpose, as clang's
/// `#pragma clang __debug crash` does.
#[test]
fn crashes_and_llvm_fatal_errors_are_internal_errors_not_aborts() {
    let cases = [
        ("crash", "crashed with SIGSEGV (an invalid memory access or a stack overflow)"),
        ("llvm_fatal_error", "LLVM ERROR: #pragma clc __debug llvm_fatal_error"),
    ];
    for (action, what) in cases {
        let f = kernel(&format!("debug_{action}.cl"), &format!("kernel void k(global int *p) {{ *p = 1; }}\n#pragma clc __debug {action}\n"));
        let o = format!("{f}.o");
        let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["-c", &f, "-o", &o]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{action}: {:?} {err}", out.status);
        assert_eq!(err, format!("clc: internal compiler error: {what} (while preprocessing '{f}')\n{BUG_REPORT}\n"));
        assert!(!std::path::Path::new(&o).exists(), "{action}: no object written");
    }
}

/// Under `clc run`, a kernel that crashes (a store to an address it was
/// never given) is an error in the program, status 1, not a bug in clc.
#[test]
fn a_kernel_that_crashes_under_clc_run_is_an_error_in_the_program() {
    let f = kernel("wild_store.cl", "kernel void k(global int *p) { p[get_global_id(0)] = 1; if (get_global_id(0) == 3) *(volatile global int *)(ulong)16 = 1; }");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", &f, "--kernel", "k", "--global", "4", "--arg", "buf:int:4"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{:?} {err}", out.status);
    assert_eq!(err, format!("clc run: error: the kernel crashed with SIGSEGV (an invalid memory access or a stack overflow) (while running kernel 'k' of '{f}')\n"));
}

/// `--arg pipe:TYPE:CAPACITY[:VALUES]`: a pipe filled before the run,
/// drained by the kernel, another filled by it, both printed after.
#[test]
fn pipes_from_the_command_line() {
    let f = kernel(
        "pipes.cl",
        "kernel void scale(read_only pipe float in, write_only pipe float out, float s) {
             float v;
             if (read_pipe(in, &v) == 0) { v *= s; write_pipe(out, &v); }
         }",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_clc"))
        .args(["run", &f, "--kernel", "scale", "--global", "64", "--local", "8", "--arg", "pipe:float:100:0.5,1.5,2.5,-4", "--arg", "pipe:float:3", "--arg", "float:2", "--print", "0", "--print", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "arg 0: []", "{text}");
    // Three of the four doubled values fit, whichever three.
    let rest = lines[1].strip_prefix("arg 1: [").and_then(|l| l.strip_suffix(']')).unwrap_or_else(|| panic!("{text}"));
    let got: Vec<f32> = rest.split(", ").map(|v| v.parse().unwrap()).collect();
    assert_eq!(got.len(), 3, "{text}");
    assert!(got.iter().all(|v| [1.0, 3.0, 5.0, -8.0].contains(v)), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_clc")).args(["run", &f, "--kernel", "scale", "--global", "1", "--arg", "pipe:long:1", "--arg", "pipe:float:3", "--arg", "float:2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("argument 0: 'in' is pipe float, packets of 4 bytes; got a pipe of 8-byte packets"), "{}", String::from_utf8_lossy(&out.stderr));
}
