//! Native execution tests: kernels compiled at -O2 for the host, loaded
//! with LLVM's JIT in-process and called directly through the work-group
//! entry (without the runtime's launcher), their results checked against
//! values computed here in Rust.
//!
//! Each kernel runs through its work-group entry (`__clc_wg_<name>`, the
//! CPU runtime's ABI) as one work-group; its work-items run in order.

use super::{CodegenOptions, configure, optimize};
use crate::diag::Diagnostics;
use crate::options::{ClStd, Target};
use crate::sema::{SemaOptions, check};
use crate::source::SourceMap;
use inkwell::OptimizationLevel;
use inkwell::context::Context;
use std::ffi::c_void;

use clc_runtime::abi::{Entry, Group};

/// A pointer to an argument value, as `__clc_wg_*` reads them.
fn arg<T>(v: &T) -> *mut c_void {
    v as *const T as *mut c_void
}

/// Runs a kernel's work-group entry over one group of `n` work-items
/// (one dimension).
fn launch(entry: Entry, n: usize, args: &[*mut c_void]) {
    let mut local = vec![0u8; 64 << 10];
    let n = n as u64;
    let g = Group {
        work_dim: 1,
        pad: 0,
        global_offset: [0; 3],
        global_size: [n, 1, 1],
        local_size: [n, 1, 1],
        enqueued_local_size: [n, 1, 1],
        num_groups: [1; 3],
        group_id: [0; 3],
        local_mem: local.as_mut_ptr(),
        barrier: None,
        barrier_ctx: std::ptr::null_mut(),
        only_item: std::ptr::null(),
        global_base: [0; 3],
        row: [0; 2],
        local_mem_size: local.len() as u64,
        stack: clc_runtime::thread_stack(),
        queue: std::ptr::null_mut(),
    };
    // SAFETY: a work-group entry from the JIT, with one argument pointer
    // per parameter and a filled-in group.
    unsafe { entry(args.as_ptr(), &g) };
}

/// Compiles `src` for the host at -O2, JIT-loads it and runs `f` with a
/// function that looks kernels up by name.
fn with_kernels(src: &str, f: impl FnOnce(&dyn Fn(&str) -> Entry)) {
    with_kernels_fp(src, crate::options::FpOptions::default(), f)
}

/// [`with_kernels`] with floating-point options.
fn with_kernels_fp(src: &str, fp: crate::options::FpOptions, f: impl FnOnce(&dyn Fn(&str) -> Entry)) {
    with_kernels_at(src, 2, fp, f)
}

/// [`with_kernels_fp`] at optimisation level `level`.
fn with_kernels_at(src: &str, level: u8, fp: crate::options::FpOptions, f: impl FnOnce(&dyn Fn(&str) -> Entry)) {
    let mut sm = SourceMap::new();
    let main = sm.add_virtual("jit.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let out = crate::pp::preprocess(&mut sm, main, &crate::pp::PpOptions::default(), &mut diags);
    let tu = crate::parse::parse(&sm, &out, ClStd::Cl20, &mut diags);
    let p = check(&tu, &SemaOptions::new(ClStd::Cl20, Target::Host, &out.pragmas), &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.iter().map(|d| &d.message).collect::<Vec<_>>());
    let ctx = Context::create();
    let opts = CodegenOptions { opt_level: level, fp, ..Default::default() };
    let m = super::lower(&ctx, &p, &sm, "jit", &opts).unwrap();
    let tm = configure(&m, &opts).unwrap();
    m.verify().unwrap();
    optimize(&m, &tm, level, false).unwrap();
    let ee = m.create_jit_execution_engine(OptimizationLevel::Default).unwrap();
    f(&|name| {
        let addr = ee.get_function_address(&format!("__clc_wg_{name}")).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // SAFETY: the address of a `__clc_wg_*` entry, which has this type.
        unsafe { std::mem::transmute::<usize, Entry>(addr) }
    });
}

#[test]
fn vector_add_and_saxpy() {
    let src = "kernel void add(global const float *a, global const float *b, global float *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }
               kernel void saxpy(float alpha, global const float *x, global float *y) { int i = get_global_id(0); y[i] = alpha * x[i] + y[i]; }";
    with_kernels(src, |get| {
        let add = get("add");
        let saxpy = get("saxpy");
        let a: Vec<f32> = (0..37).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..37).map(|i| 100.0 - i as f32).collect();
        let mut c = vec![0f32; 37];
        launch(add, 37, &[arg(&a.as_ptr()), arg(&b.as_ptr()), arg(&c.as_mut_ptr())]);
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert_eq!(c, want);
        let mut y = b.clone();
        launch(saxpy, 37, &[arg(&3.0f32), arg(&a.as_ptr()), arg(&y.as_mut_ptr())]);
        for i in 0..37 {
            // Contraction may fuse the multiply-add: allow one rounding.
            let exact = 3.0f64 * a[i] as f64 + b[i] as f64;
            assert!((y[i] as f64 - exact).abs() <= exact.abs() * 1e-6, "{i}: {} vs {exact}", y[i]);
        }
    });
}

#[test]
fn integer_semantics_shifts_division_and_conversions() {
    let src = "kernel void ints(global const int *a, global const int *b, global int *o) {
                   int i = get_global_id(0);
                   int x = a[i], y = b[i];
                   o[i * 8 + 0] = x << y;          /* count masked to 0..31 */
                   o[i * 8 + 1] = x >> y;
                   o[i * 8 + 2] = (int)((uint)x >> y);
                   o[i * 8 + 3] = y != 0 ? x / y : 7;
                   o[i * 8 + 4] = y != 0 ? x % y : 7;
                   o[i * 8 + 5] = convert_uchar_sat(x);
                   o[i * 8 + 6] = convert_short_sat(x * 1000);
                   o[i * 8 + 7] = (x < y) + (x == y) * 2 + ((uint)x > (uint)y) * 4;
               }
               kernel void divzero(global int *o) { int z = o[0]; o[1] = 5 / z; o[2] = 5 % z; o[3] = (-2147483647 - 1) / (z - 1); }";
    with_kernels(src, |get| {
        let k = get("ints");
        let a: Vec<i32> = vec![1, -8, 300, -300, 123456, 7, i32::MAX, -1];
        let b: Vec<i32> = vec![3, 33, 1, 31, -5, 0, 64, 2];
        let mut o = vec![0i32; a.len() * 8];
        launch(k, a.len(), &[arg(&a.as_ptr()), arg(&b.as_ptr()), arg(&o.as_mut_ptr())]);
        for i in 0..a.len() {
            let (x, y) = (a[i], b[i]);
            let s = (y & 31) as u32;
            let want = [
                x.wrapping_shl(s),
                x >> s,
                ((x as u32) >> s) as i32,
                if y != 0 { x.wrapping_div(y) } else { 7 },
                if y != 0 { x.wrapping_rem(y) } else { 7 },
                x.clamp(0, 255),
                x.wrapping_mul(1000).clamp(i16::MIN as i32, i16::MAX as i32),
                (x < y) as i32 + (x == y) as i32 * 2 + ((x as u32) > (y as u32)) as i32 * 4,
            ];
            assert_eq!(&o[i * 8..i * 8 + 8], &want, "item {i}: a={x} b={y}");
        }
        // Division by zero is undefined in OpenCL C, but must not kill the
        // host process.
        let dz = get("divzero");
        let mut o = vec![0i32; 4];
        launch(dz, 1, &[arg(&o.as_mut_ptr())]);
    });
}

#[test]
fn vectors_swizzles_comparisons_and_three_element_layout() {
    let src = "kernel void vec(global float4 *v, global int4 *c, global float *f3) {
                   int i = get_global_id(0);
                   float4 a = v[i];
                   float4 b = a.wzyx;
                   b.xy = (float2)(10.0f, 20.0f);
                   c[i] = a < b;                        /* -1 / 0 lanes */
                   v[i] = c[i] ? a : b;                 /* select by MSB */
                   float3 t = vload3(i, f3);
                   vstore3(t * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, f3);
               }
               kernel void sizes(global int *o) { o[0] = sizeof(float3); o[1] = vec_step(float3); o[2] = sizeof(char3); o[3] = __alignof__(float3); }";
    with_kernels(src, |get| {
        let k = get("vec");
        let mut v: Vec<[f32; 4]> = vec![[1.0, 2.0, 3.0, 4.0], [40.0, -3.0, 0.5, 25.0]];
        let orig = v.clone();
        let mut c = vec![[0i32; 4]; 2];
        let mut f3: Vec<f32> = (0..6).map(|i| i as f32).collect();
        launch(k, 2, &[arg(&v.as_mut_ptr()), arg(&c.as_mut_ptr()), arg(&f3.as_mut_ptr())]);
        for i in 0..2 {
            let a = orig[i];
            let b = [10.0, 20.0, a[1], a[0]];
            let lt: [i32; 4] = std::array::from_fn(|l| if a[l] < b[l] { -1 } else { 0 });
            assert_eq!(c[i], lt);
            let sel: [f32; 4] = std::array::from_fn(|l| if lt[l] < 0 { a[l] } else { b[l] });
            assert_eq!(v[i], sel);
        }
        assert_eq!(f3, vec![1.0, 4.0, 7.0, 7.0, 10.0, 13.0]);
        let s = get("sizes");
        let mut o = [0i32; 4];
        launch(s, 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o, [16, 4, 4, 16]);
    });
}

#[test]
fn structs_arrays_initializers_and_control_flow() {
    let src = "typedef struct { char c; float4 v; int i; } S;
               typedef struct __attribute__((packed)) { char c; int i; } P;
               constant int table[2][3] = { 1, 2, 3, 4, 5, 6 };          /* brace elision */
               int classify(int x) {
                   switch (x & 3) { case 0: return 10; case 1: x += 100; /* fall through */ case 2: return x; default: break; }
                   return -1;
               }
               kernel void st(global S *s, global P *p, global int *o) {
                   int i = get_global_id(0);
                   S t = { 'a', (float4)(1.0f, 2.0f, 3.0f, 4.0f), i };
                   s[i] = t;
                   p[i].c = 'b'; p[i].i = i * 3;
                   int priv[4] = { [2] = 5, 6 };
                   int acc = 0;
                   for (int k = 0; k < 4; k++) { if (k == 1) continue; acc += priv[k] * table[k & 1][k % 3]; }
                   int n = 0;
               again:
                   n++;
                   if (n < 5) goto again;
                   do { n += 2; } while (n < 12);
                   o[i * 3] = acc; o[i * 3 + 1] = classify(i) + n; o[i * 3 + 2] = table[1][2];
               }";
    with_kernels(src, |get| {
        /// `float4`: aligned to its size.
        #[repr(C, align(16))]
        #[derive(Clone, Copy, Default, Debug, PartialEq)]
        struct F4([f32; 4]);
        #[repr(C)]
        #[derive(Clone, Copy, Default)]
        struct S {
            c: i8,
            v: F4,
            i: i32,
        }
        #[repr(C, packed)]
        #[derive(Clone, Copy, Default)]
        struct P {
            c: i8,
            i: i32,
        }
        assert_eq!(std::mem::size_of::<S>(), 48);
        let k = get("st");
        let mut s = vec![S::default(); 4];
        let mut p = vec![P::default(); 4];
        let mut o = vec![0i32; 12];
        launch(k, 4, &[arg(&s.as_mut_ptr()), arg(&p.as_mut_ptr()), arg(&o.as_mut_ptr())]);
        let table = [[1, 2, 3], [4, 5, 6]];
        let priv_ = [0, 0, 5, 6];
        for i in 0..4usize {
            assert_eq!((s[i].c, s[i].v, s[i].i), (b'a' as i8, F4([1.0, 2.0, 3.0, 4.0]), i as i32));
            let (pc, pi) = (p[i].c, p[i].i);
            assert_eq!((pc, pi), (b'b' as i8, i as i32 * 3));
            let acc: i32 = (0..4).filter(|&k| k != 1).map(|k| priv_[k] * table[k & 1][k % 3]).sum();
            let x = i as i32;
            let class = match x & 3 {
                0 => 10,
                1 => x + 100,
                2 => x,
                _ => -1,
            };
            assert_eq!(&o[i * 3..i * 3 + 3], &[acc, class + 13, 6], "item {i}");
        }
    });
}

#[test]
fn atomics_are_atomic_operations() {
    let src = "kernel void at(global atomic_int *sum, global int *old, global volatile int *legacy, global atomic_uint *mx) {
                   int i = get_global_id(0);
                   old[i] = atomic_fetch_add_explicit(sum, i + 1, memory_order_relaxed, memory_scope_device);
                   atomic_inc(legacy);
                   atomic_fetch_max(mx, (uint)(i * 7 % 5));
                   int expected = atomic_load(sum);
                   while (!atomic_compare_exchange_weak(sum, &expected, expected + 1000)) { }
               }";
    with_kernels(src, |get| {
        let k = get("at");
        let mut sum = 0i32;
        let mut old = vec![0i32; 6];
        let mut legacy = 0i32;
        let mut mx = 0u32;
        launch(k, 6, &[arg(&&mut sum), arg(&old.as_mut_ptr()), arg(&&mut legacy), arg(&&mut mx)]);
        // Work-items run in order here, so each sees the previous ones.
        let mut s = 0;
        for (i, o) in old.iter().enumerate() {
            assert_eq!(*o, s, "item {i}");
            s += i as i32 + 1 + 1000;
        }
        assert_eq!(sum, s);
        assert_eq!(legacy, 6);
        assert_eq!(mx, (0..6).map(|i| (i * 7 % 5) as u32).max().unwrap());
    });
}

#[test]
fn arrays_sized_by_their_initializers() {
    // `int a[] = {…}` takes its length from the initializer (it used to be
    // a zero-length array written past its end).
    let src = "constant int g[] = { 4, 5, 6 };
               kernel void k(global int *o) {
                   int a[] = { 1, 2, 3 };
                   char s[] = \"hey\";
                   int b[] = { [5] = 1, 2 };
                   int m[][2] = { 1, 2, 3, 4, 5 };
                   int *c = (int[]){ 7, 8, 9, 10 };
                   o[0] = sizeof(a); o[1] = sizeof(s); o[2] = sizeof(b); o[3] = sizeof(m); o[4] = sizeof(g);
                   o[5] = a[2] + s[1] + b[6] + m[2][0] + c[3] + g[2];
               }
               kernel void local_enum(global int *o) {
                   enum { TWO = 2, FIVE = 5 };
                   int t[] = { [TWO] = FIVE };
                   switch (o[0]) { case TWO: o[1] = sizeof(t) + t[TWO]; break; default: o[1] = -1; }
               }";
    with_kernels(src, |get| {
        let k = get("k");
        let mut o = [0i32; 6];
        launch(k, 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o, [12, 4, 28, 24, 12, 3 + b'e' as i32 + 2 + 5 + 10 + 6]);
        // Enumerators of a function-scope enum in designators, case labels.
        let k = get("local_enum");
        let mut o = [2i32, 0];
        launch(k, 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o[1], 12 + 5);
    });
}

/// A program-scope array defined without a size or initializer is C's
/// tentative definition: one element (it was a zero-length global, its
/// element written out of bounds).
#[test]
fn tentative_array_definition_has_one_element() {
    let src = "global int g[];
               kernel void k(global int *o) { g[0] = o[0] * 3; o[1] = g[0] + 1; }";
    with_kernels(src, |get| {
        let mut o = [7i32, 0];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o, [7, 22]);
    });
}

/// Braced lists for vectors (OpenCL C: every component, vectors giving
/// all of theirs; no brace elision into vectors, so a scalar for a vector
/// element or member is a splat), next to the values computed here.
#[test]
fn vector_initializer_lists() {
    let src = "struct S { int2 a; int b; };
               constant int4 g = { (int2)(9, 8), 7, 6 };
               kernel void k(global int *o) {
                   int4 h = { (int2)(1, 2), (int2)(3, 4) };
                   int4 j = { (int3)(5, 6, 7), 8 };
                   int2 k = { {11}, 12 };
                   int2 none = { };
                   float2 f = { 1, 2u };
                   int2 splat[2] = { 13, 14 };
                   struct S s = { 15, 16 };
                   int4 l = { 2.75f, -1.5f, 'a', (short)-3 };
                   int i = 0;
                   o[i++] = h.x; o[i++] = h.y; o[i++] = h.z; o[i++] = h.w;
                   o[i++] = j.x; o[i++] = j.w; o[i++] = k.x; o[i++] = k.y;
                   o[i++] = none.x + none.y; o[i++] = (int)(f.y * 10.0f);
                   o[i++] = splat[0].x; o[i++] = splat[0].y; o[i++] = splat[1].x; o[i++] = splat[1].y;
                   o[i++] = s.a.x; o[i++] = s.a.y; o[i++] = s.b;
                   o[i++] = l.x; o[i++] = l.y; o[i++] = l.z; o[i++] = l.w;
                   o[i++] = g.x; o[i++] = g.y; o[i++] = g.z; o[i++] = g.w;
               }";
    with_kernels(src, |get| {
        let mut o = [-99i32; 25];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        let want = [1, 2, 3, 4, 5, 8, 11, 12, 0, 20, 13, 13, 14, 14, 15, 15, 16, 2.75f32 as i32, -1.5f32 as i32, 'a' as i32, -3, 9, 8, 7, 6];
        assert_eq!(o, want);
    });
}

/// Large constants with few elements initialized (their zero runs one
/// `zeroinitializer` each, `init::ZERO_RUN`) read back element by element
/// at indices the compiler cannot see: initialized, zero, past a run,
/// unions by another member, nested arrays, a program-scope global.
#[test]
fn sparse_constant_arrays_read_back_as_initialized() {
    let src = "typedef union { int i; float f; } U;
               constant int t[100000] = { 1, 2, [5000] = 3, [99999] = 4 };
               constant U us[200] = { [1].f = 1.5f, [150].i = 7 };
               constant float2 m[300][2] = { [0][1] = (float2)(1.0f, 2.0f), [299] = { (float2)(3.0f, 4.0f) } };
               global int counts[1000] = { [999] = 9, [500] = 5, 6 };
               kernel void k(global const int *ix, global int *o, global float *f) {
                   for (int n = 0; n < 8; n++) o[n] = t[ix[n]];
                   o[8] = us[ix[8]].i; o[9] = us[ix[9]].i; o[10] = us[ix[10]].i;
                   o[11] = counts[ix[11]]; o[12] = counts[ix[12]]; o[13] = counts[ix[13]]; o[14] = counts[ix[14]];
                   f[0] = us[ix[15]].f; f[1] = m[ix[16]][ix[17]].y; f[2] = m[ix[18]][ix[19]].x; f[3] = m[ix[20]][ix[21]].y; f[4] = m[ix[22]][ix[23]].x;
               }";
    with_kernels(src, |get| {
        let ix: [i32; 24] = [0, 1, 2, 4999, 5000, 5001, 99998, 99999, 0, 150, 199, 999, 500, 501, 0, 1, 0, 1, 299, 0, 299, 1, 150, 0];
        let (mut o, mut f) = ([-1i32; 15], [-1.0f32; 5]);
        launch(get("k"), 1, &[arg(&ix.as_ptr()), arg(&o.as_mut_ptr()), arg(&f.as_mut_ptr())]);
        assert_eq!(o, [1, 2, 0, 0, 3, 0, 0, 4, 0, 7, 0, 9, 5, 6, 0]);
        assert_eq!(f, [1.5, 2.0, 3.0, 0.0, 0.0]);
    });
}

#[test]
fn blocks_capture_by_value_and_are_called_directly() {
    let src = "int apply(int v) {
                   int k = 10;
                   int (^add)(int) = ^(int x) { return x + k + v; };
                   k = 1000;                       /* the block captured 10 */
                   float2 f = (float2)(1.0f, 2.0f);
                   float (^dot2)(float2) = ^(float2 a) { return a.x * f.x + a.y * f.y; };
                   return add(1) + (int)dot2(f);
               }
               kernel void k(global int *o) { o[0] = apply(o[1]); }";
    with_kernels(src, |get| {
        let k = get("k");
        let mut o = [0i32, 7];
        launch(k, 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o[0], 1 + 10 + 7 + 5);
    });
}

/// Program-scope blocks (lowered where they are used), a block variable
/// initialized from another, a literal called where it is written, a
/// cast to the block's own type; `k2`'s block is its own, not `k`'s at
/// the same place in its body (blocks were once found by expression
/// number only).
#[test]
fn program_scope_blocks_aliases_and_literals_are_called() {
    let src = "typedef int (^bl_t)(int);
               bl_t triple = ^(int x) { return 3 * x; };
               bl_t same = triple;
               int helper(int v) { return triple(v) + 1; }
               kernel void k(global int *o) {
                   int base = o[0];
                   bl_t add = ^(int x) { return x + base; };
                   bl_t alias = add;
                   o[1] = triple(o[0]);
                   o[2] = same(2);
                   o[3] = helper(5);
                   o[4] = ^(int x) { return x * 7; }(o[0]);
                   o[5] = alias(1);
                   o[6] = ^{ return triple(base) + same(1); }();
                   o[7] = ((bl_t)add)(2);
               }
               kernel void k2(global int *o) {
                   int base = o[0];
                   bl_t add = ^(int x) { return x - base; };
                   o[1] = add(1);
               }";
    with_kernels(src, |get| {
        let b = 9;
        let mut o = [b, 0, 0, 0, 0, 0, 0, 0];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o, [b, 3 * b, 6, 16, 7 * b, 1 + b, 3 * b + 3, 2 + b]);
        launch(get("k2"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o[1], 1 - b);
    });
}

/// Declarations a macro expansion makes all share the expansion's span:
/// two functions whose parameters `a` and `b` have each other's types, a
/// local `k` declared twice in one body, a global and a parameter both
/// named `g`. Each use names its own declaration (declarations were once
/// told apart by span and name, and the later function's parameter types
/// were taken for the earlier one's: an internal error).
#[test]
fn names_declared_by_one_macro_expansion_are_told_apart() {
    let src = "typedef struct { float re, im; } cf;
               #define DEFINE \\
                   float g = 0.5f; \\
                   cf addr(cf a, float b) { cf r = { a.re + b, a.im }; return r; } \\
                   cf radd(float a, cf b) { cf r = { a + b.re, 2 * b.im }; return r; } \\
                   float twice(float g) { float t = 0; { float k = g; t += k; } { float k = 2 * g; t += k; } return t; }
               DEFINE
               kernel void k(global float *o) {
                   cf z = { o[0], o[1] };
                   cf x = addr(z, o[2]);
                   cf y = radd(o[2], z);
                   o[3] = x.re; o[4] = x.im; o[5] = y.re; o[6] = y.im;
                   o[7] = twice(o[2]) + g;
               }";
    with_kernels(src, |get| {
        let mut o = [1.5f32, -2.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o[3..], [1.5 + 4.0, -2.0, 4.0 + 1.5, -4.0, 3.0 * 4.0 + 0.5]);
    });
}

/// `ext_vector_type` makes OpenCL's vector types (a `float4` is the
/// typedef's value, swizzles and all; a 3-element one is sized as 4);
/// attributes clang ignores after a parameter's name or its `*` change
/// nothing.
#[test]
fn ext_vector_types_are_opencl_vectors() {
    let src = "typedef float f4 __attribute__((ext_vector_type(4)));
               typedef int i3 __attribute__((__ext_vector_type__(3)));
               f4 twice(f4 v) { return v + v; }
               kernel void k(global float4 *o __attribute__((max_constant_size(64))), global int * __attribute__((unused)) p) {
                   f4 v = o[0];
                   i3 w = (int3)(p[0], p[1], p[2]);
                   o[1] = twice(v).wzyx;
                   p[3] = w.x * w.y * w.z;
                   p[4] = sizeof(i3);
               }";
    with_kernels(src, |get| {
        // `float4`s: on the heap, aligned to 16 as they must be.
        let mut o: Vec<[f32; 4]> = vec![[1.0, 2.0, 3.0, 4.0], [0.0; 4]];
        let mut p = [2, 3, 5, 0, 0];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr()), arg(&p.as_mut_ptr())]);
        assert_eq!(o[1], [8.0, 6.0, 4.0, 2.0]);
        assert_eq!(p[3..], [30, 16]);
    });
}

#[test]
fn postfix_operators_apply_to_a_whole_vector_literal() {
    // As in clang: `(float4)(…).w` is `((float4)(…)).w`, for vector type
    // names and typedefs of them; a scalar type's cast takes the postfix
    // expression (`(float)(v).y`).
    let src = "typedef float4 vec;
               typedef vec vec_too;
               typedef float f4 __attribute__((ext_vector_type(4)));
               typedef float flt;
               kernel void k(global float *o, global float4 *v, float a) {
                   o[0] = (float4)(1.0f, 2.0f, 3.0f, 4.0f).w;
                   o[1] = (float4)(a).x + (float2)(a, 2.0f * a)[1];
                   v[0].xyz = (float4)(1.0f, 2.0f, 3.0f, 4.0f).zyx;
                   o[2] = (vec)(5.0f, 6.0f, 7.0f, 8.0f).y;
                   o[3] = (vec_too)(a).z + (f4)(1.0f, 2.0f, 3.0f, 4.0f).s2;
                   o[4] = (flt)(v[1]).y + (float)(v[1]).x;
                   o[5] = (int)(int2)(9, 10).y;
               }";
    with_kernels(src, |get| {
        let mut o = [0.0f32; 6];
        let mut v: Vec<[f32; 4]> = vec![[0.0; 4], [0.5, 0.25, 0.0, 0.0]];
        let a = 1.5f32;
        launch(get("k"), 1, &[arg(&o.as_mut_ptr()), arg(&v.as_mut_ptr()), arg(&a)]);
        assert_eq!(o, [4.0, a + 2.0 * a, 6.0, a + 3.0, 0.25 + 0.5, 10.0]);
        assert_eq!(v[0], [3.0, 2.0, 1.0, 0.0]);
    });
}

#[test]
fn gnu_case_ranges_match_every_value_between_their_bounds() {
    // Small ranges are values of the switch, a large one (over 64 values)
    // a range check; an empty range matches nothing; a uchar's cases are
    // compared after its promotion to int.
    let src = "int class_of(int x) {
                   switch (x) {
                   case -10 ... -1: return 1;
                   case 0: return 2;
                   case 1 ... 63: return 3;
                   case 64 ... 100000: return 4;
                   case 200000 ... 200064: return 5;
                   case 7000000 ... 6000000: return 6;
                   default: return 0;
                   }
               }
               kernel void k(global const int *in, global int *out, global const uchar *c) {
                   int i = get_global_id(0);
                   out[i] = class_of(in[i]);
                   switch (c[i]) { case 'a' ... 'z': out[i] += 10; break; case 128 ... 255: out[i] += 20; }
                   ulong u = (ulong)in[i];
                   switch (u) { case 0xFFFFFFFFFFFFFF00UL ... 0xFFFFFFFFFFFFFFFFUL: out[i] += 100; }
               }";
    let class_of = |x: i32| match x {
        -10..=-1 => 1,
        0 => 2,
        1..=63 => 3,
        64..=100000 => 4,
        200000..=200064 => 5,
        _ => 0,
    };
    with_kernels(src, |get| {
        let input: Vec<i32> = vec![-11, -10, -5, -1, 0, 1, 63, 64, 65, 99999, 100000, 100001, 199999, 200000, 200064, 200065, 6500000, -256, -255, i32::MIN];
        let c: Vec<u8> = (0..input.len()).map(|i| [b'a', b'z', b'A', 127, 128, 255, b'm'][i % 7]).collect();
        let mut out = vec![0i32; input.len()];
        launch(get("k"), input.len(), &[arg(&input.as_ptr()), arg(&out.as_mut_ptr()), arg(&c.as_ptr())]);
        for (i, &x) in input.iter().enumerate() {
            let letter = if c[i].is_ascii_lowercase() { 10 } else if c[i] >= 128 { 20 } else { 0 };
            let top = if (x as i64 as u64) >= 0xFFFF_FFFF_FFFF_FF00 { 100 } else { 0 };
            assert_eq!(out[i], class_of(x) + letter + top, "x = {x}, c = {}", c[i]);
        }
    });
}

#[test]
fn gnu_conditional_without_middle_operand_evaluates_its_condition_once() {
    // `c ?: b` is `c` if it is not zero, else `b`; `c` runs once (the
    // counter steps by one per work-item).
    let src = "int next(global int *c) { return (*c)++; }
               constant int folded = 0 ?: 9;
               kernel void k(global int *io, global int *p, global int *q, global int *counter) {
                   int i = get_global_id(0);
                   int x = io[i];
                   io[i] = x ?: 5;
                   p[i] = next(counter) ?: -1;
                   global int *r = (x & 1 ? 0 : q) ?: p;
                   q[i] = (r == p) + ((long)x ?: 3L) * 10 + folded * 1000;
               }";
    with_kernels(src, |get| {
        let n = 6usize;
        let input: Vec<i32> = vec![0, 1, 2, 0, -3, 4];
        let mut io = input.clone();
        let mut p = vec![0i32; n];
        let mut q = vec![0i32; n];
        let mut counter = [0i32];
        for i in 0..n {
            // One work-item at a time: the counter's order is known.
            let mut one = [io[i]];
            let (mut pi, mut qi) = ([0i32], [0i32]);
            launch(get("k"), 1, &[arg(&one.as_mut_ptr()), arg(&pi.as_mut_ptr()), arg(&qi.as_mut_ptr()), arg(&counter.as_mut_ptr())]);
            (io[i], p[i], q[i]) = (one[0], pi[0], qi[0]);
        }
        assert_eq!(counter[0], n as i32);
        for (i, &x) in input.iter().enumerate() {
            assert_eq!(io[i], if x != 0 { x } else { 5 });
            assert_eq!(p[i], if i != 0 { i as i32 } else { -1 });
            let odd = x & 1 != 0;
            assert_eq!(q[i], odd as i32 + (if x != 0 { x } else { 3 }) * 10 + 9000, "x = {x}");
        }
    });
}

#[test]
fn blocks_take_and_return_structs_by_value() {
    // The block's parameter is its own copy (the caller's struct keeps
    // its value); the returned struct is the block's.
    let src = "typedef struct { int a; float b; char c[3]; } S;
               kernel void k(global int *d, global S *s) {
                   int g = get_global_id(0);
                   int bias = d[g];
                   S (^mk)(int) = ^(int v) { S r = { v + bias, v * 0.5f, { 1, 2, 3 } }; return r; };
                   float (^get)(S, int) = ^(S x, int k) { x.a += 100; return x.b + x.a + k + x.c[2]; };
                   S t = mk(g);
                   s[g] = t;
                   d[g] = (int)get(t, 7) + t.a;
               }";
    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct S {
        a: i32,
        b: f32,
        c: [i8; 3],
    }
    with_kernels(src, |get| {
        let mut d = [0i32, 10, 20, 30];
        let mut s = [S { a: -1, b: -1.0, c: [0; 3] }; 4];
        launch(get("k"), 4, &[arg(&d.as_mut_ptr()), arg(&s.as_mut_ptr())]);
        for g in 0..4 {
            let a = g as i32 * 11;
            let b = g as f32 * 0.5;
            assert_eq!(s[g], S { a, b, c: [1, 2, 3] });
            assert_eq!(d[g], (b + (a + 100) as f32 + 7.0 + 3.0) as i32 + a);
        }
    });
}

#[test]
fn logical_operators_in_program_scope_initializers_are_constants() {
    // `1 || 2` and `c ? a : b` were internal errors there: the lowering
    // built a branch and a phi for them, no constant.
    let src = "__constant int c[4] = { 1 || 2, (3 > 2) && 4, 0 && 5, !7 || (2 < 1) };
               global int g = 0 || 0;
               global float h = sizeof(int) == 4 ? 2.5f : 1.0f;
               kernel void k(global int *o, global float *f) { for (int i = 0; i < 4; i++) o[i] = c[i]; o[4] = g; f[0] = h; f[1] = o[5] > 0 ? 3.0f : 4.0f; }";
    with_kernels(src, |get| {
        let mut o = [-1i32, -1, -1, -1, -1, 1];
        let mut f = [0.0f32; 2];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr()), arg(&f.as_mut_ptr())]);
        assert_eq!(o[..5], [1, 1, 0, 0, 0]);
        assert_eq!(f, [2.5, 3.0]);
    });
}

#[test]
fn string_literals_end_with_nul_and_char_arrays_are_zero_filled() {
    // A string in braces initializes a character array too, and may
    // fill it without its NUL.
    let src = "constant char braced[] = { \"xy\" };
               kernel void k(global char *o) {
                   char s[8] = \"hi\";
                   constant char *lit = \"abc\";
                   char b[4] = { \"de\" };
                   char full[3] = \"fgh\";
                   for (int i = 0; i < 8; i++) o[i] = s[i];
                   for (int i = 0; i < 4; i++) o[8 + i] = lit[i];
                   for (int i = 0; i < 4; i++) o[12 + i] = b[i];
                   for (int i = 0; i < 3; i++) o[16 + i] = full[i];
                   for (int i = 0; i < 3; i++) o[19 + i] = braced[i];
               }";
    with_kernels(src, |get| {
        let mut o = [0x55i8; 22];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o.map(|c| c as u8), *b"hi\0\0\0\0\0\0abc\0de\0\0fghxy\0");
    });
}

/// Loops LLVM unrolls because the program asks (`#pragma unroll`,
/// `opencl_unroll_hint`) still compute what they did: trip counts that
/// the count does not divide (a remainder loop), `continue` in unrolled
/// `while` and `for` loops, a `do` loop, a fully unrolled constant loop,
/// a `nounroll` loop with a barrier (at group level) and loops whose
/// trip count differs between work-items.
#[test]
fn unrolled_loops_compute_what_they_did() {
    let src = "kernel void unrolled(global const int *b, global int *o, local int *t, int n) {
                   int g = get_global_id(0);
                   int x = 0;
                   #pragma unroll 4
                   for (int i = 0; i < n + g; i++) x = x * 3 + b[i];
                   int y = 0, j = 0;
                   __attribute__((opencl_unroll_hint(3)))
                   while (j < n + g) { j++; if (b[j] % 3 == 0) continue; y += b[j] * j; }
                   int z = g;
                   #pragma unroll
                   for (int i = 0; i < 16; i++) z = z * 5 + i;
                   int w = 0, k = 0;
                   __attribute__((opencl_unroll_hint))
                   do { w ^= b[k] << (k & 7); k++; } while (k < g + 1);
                   int s = 0;
                   #pragma nounroll
                   for (int r = 0; r < 3; r++) {
                       t[get_local_id(0)] = x + r;
                       barrier(CLK_LOCAL_MEM_FENCE);
                       s += t[(get_local_id(0) + 1) % get_local_size(0)];
                       barrier(CLK_LOCAL_MEM_FENCE);
                   }
                   o[g * 5] = x; o[g * 5 + 1] = y; o[g * 5 + 2] = z; o[g * 5 + 3] = w; o[g * 5 + 4] = s;
               }";
    with_kernels(src, |get| {
        let k = get("unrolled");
        let (items, n) = (7usize, 13i32);
        let b: Vec<i32> = (0..64).map(|i| (i * 37 + 11) % 101 - 50).collect();
        let mut o = vec![0i32; items * 5];
        // The `__local` argument: memory for the group's `t`.
        let mut t = vec![0i32; items];
        launch(k, items, &[arg(&b.as_ptr()), arg(&o.as_mut_ptr()), arg(&t.as_mut_ptr()), arg(&n)]);
        let xs: Vec<i32> = (0..items as i32).map(|g| (0..n + g).fold(0i32, |x, i| x.wrapping_mul(3).wrapping_add(b[i as usize]))).collect();
        for g in 0..items as i32 {
            let gu = g as usize;
            let y = (1..=n + g).filter(|&j| b[j as usize] % 3 != 0).fold(0i32, |y, j| y.wrapping_add(b[j as usize] * j));
            let z = (0..16).fold(g, |z, i| z.wrapping_mul(5).wrapping_add(i));
            let w = (0..=g).fold(0i32, |w, k| w ^ (b[k as usize] << (k & 7)));
            // int arithmetic wraps, as the kernel's does.
            let s = (0..3).fold(0i32, |s, r| s.wrapping_add(xs[(gu + 1) % items].wrapping_add(r)));
            assert_eq!(&o[gu * 5..gu * 5 + 5], &[xs[gu], y, z, w, s], "work-item {g}");
        }
    });
}

/// GNU statement expressions compute the value of their last expression
/// statement after their other statements, in order with the rest of the
/// expression; `return`, `break` and `continue` in one leave it (and the
/// loop or function around it); arrays in the value decay; its locals
/// shadow the names around it (as in C: a macro's `_a` hides the
/// caller's).
#[test]
fn statement_expressions_compute_their_last_value() {
    let src = "#define MAX(a, b) ({ int _a = (a); int _b = (b); _a > _b ? _a : _b; })
               int first_negative(global const int *p, int n) {
                   for (int i = 0; i < n; i++) {
                       int v = ({ int t = p[i]; if (t < 0) return i; t; });
                       (void)v;
                   }
                   return -1;
               }
               kernel void k(global int *o, global const int *in, int n) {
                   int g = get_global_id(0);
                   global int *out = o + 8 * g;
                   int v = ({ int t = n * 2; if (t > 10) t = 10; t; });
                   int _a = 100;
                   out[0] = v + MAX(in[g], _a - 97);
                   ({ out[1] = 5; });
                   out[2] = ({ int z = 0; for (int i = 0; i < n; i++) { if (i == 7) break; z += i; } z; });
                   int s = 0;
                   for (int i = 0; i < n; i++) s += ({ int w = i; if (w == 3) continue; if (w == 9) break; w * w; });
                   out[3] = s;
                   out[4] = first_negative(in, 6);
                   int arr[3] = {g, 2 * g, 3 * g};
                   out[5] = ({ arr; })[2] + (({ o; }) == o);
                   int order = 1;
                   out[6] = ({ order *= 10; order; }) + ({ order += 3; order; });
                   out[7] = (int)({ 1.75f; }) + (g > 1 ? ({ -1; }) : ({ ++order; order; }));
               }";
    with_kernels(src, |get| {
        let (items, n) = (4usize, 12i32);
        let input: Vec<i32> = vec![7, -3, 2, 9, 4, -8];
        let mut o = vec![0i32; items * 8];
        launch(get("k"), items, &[arg(&o.as_mut_ptr()), arg(&input.as_ptr()), arg(&n)]);
        let v = (n * 2).min(10);
        let z: i32 = (0..n.min(7)).sum();
        let s: i32 = (0..n).take_while(|&w| w != 9).filter(|&w| w != 3).map(|w| w * w).sum();
        for g in 0..items as i32 {
            let gu = g as usize;
            // `_a - 97` in MAX names the macro's own `_a`: in[g] - 97.
            let want = [v + input[gu].max(input[gu] - 97), 5, z, s, 1, 3 * g + 1, 10 + 13, 1 + if g > 1 { -1 } else { 14 }];
            assert_eq!(&o[gu * 8..gu * 8 + 8], &want, "work-item {g}");
        }
    });
}

/// `__typeof__` gives the type of an expression (vectors, pointers,
/// arrays whole, an rvalue's type unqualified) or of a type name, without
/// evaluating the expression; with statement expressions it makes
/// type-generic macros.
#[test]
fn typeof_names_the_type_of_an_expression() {
    let src = "#define MAX(a, b) ({ __typeof__(a) _x = (a); __typeof__(b) _y = (b); _x > _y ? _x : _y; })
               #define SWAP(a, b) do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } while (0)
               kernel void k(global float4 *v, global int *o, global long *l) {
                   float4 a = v[0];
                   __typeof__(a) b = v[1];
                   SWAP(a, b);
                   v[2] = a - b;
                   int n = o[0];
                   __typeof__(n++) m = n * 3;
                   __typeof(int[3]) arr = {1, 2, 3};
                   __typeof__(arr) copy;
                   for (int i = 0; i < 3; i++) copy[i] = arr[i] * m;
                   __typeof__(o) p = o + 1;
                   *p = copy[0] + copy[1] + copy[2] + n;
                   o[2] = sizeof(__typeof__(arr)) + sizeof(__typeof__(l[0] + 1));
                   o[3] = MAX(n, -4);
                   // `__typeof__(l[1])` would be a `__global long`: values
                   // go through private variables (as in clang).
                   long l1 = l[1];
                   l[0] = MAX(l1, (long)n << 40);
                   float x0 = v[0].x, y1 = v[1].y;
                   v[3] = (float4)(MAX(x0, y1), 0.0f, 0.0f, 0.0f);
               }";
    with_kernels(src, |get| {
        let mut v: Vec<[f32; 4]> = vec![[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0], [0.0; 4], [0.0; 4]];
        let mut o = vec![7i32, 0, 0, 0];
        let mut l = vec![0i64, 5];
        launch(get("k"), 1, &[arg(&v.as_mut_ptr()), arg(&o.as_mut_ptr()), arg(&l.as_mut_ptr())]);
        assert_eq!(v[2], [9.0, 18.0, 27.0, 36.0]);
        // `n++` in `__typeof__` is not evaluated: n stays 7.
        assert_eq!(o[1..], [(1 + 2 + 3) * 21 + 7, 3 * 4 + 8, 7]);
        assert_eq!(l[0], 7i64 << 40);
        assert_eq!(v[3], [20.0, 0.0, 0.0, 0.0]);
    });
}

/// `__func__`, `__FUNCTION__` and `__PRETTY_FUNCTION__` hold what clang-22
/// gives them (read off its IR): the function's name, its signature with
/// every address space said, and in block literals clang's names for the
/// blocks' functions, numbered in source order.
#[test]
fn predefined_identifiers_name_the_function() {
    let src = "typedef struct { int a; } S;
               void put(global char *out, constant char *s) { int i = 0; for (; s[i]; i++) out[i] = s[i]; out[i] = 0; }
               int g(float x, global S *s, __local uint4 *l, int n) { return 0; }
               kernel void k(global char *o, global int *n) {
                   put(o, __func__);
                   put(o + 16, __FUNCTION__);
                   put(o + 32, __PRETTY_FUNCTION__);
                   n[0] = sizeof(__func__);
                   n[1] = sizeof(__PRETTY_FUNCTION__);
                   void (^a)(void) = ^{ put(o + 96, __func__); };
                   void (^b)(void) = ^{ void (^c)(void) = ^{ put(o + 160, __PRETTY_FUNCTION__); }; c(); put(o + 128, __func__); };
                   a(); b();
               }";
    with_kernels(src, |get| {
        let mut o = vec![0u8; 256];
        let mut n = vec![0i32; 2];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr()), arg(&n.as_mut_ptr())]);
        let text = |at: usize| String::from_utf8(o[at..].iter().take_while(|&&c| c != 0).copied().collect()).unwrap();
        assert_eq!([text(0), text(16), text(32)], ["k", "k", "void k(__global char *__private, __global int *__private)"]);
        assert_eq!(n, [2, 58]);
        assert_eq!([text(96), text(128), text(160)], ["k_block_invoke", "k_block_invoke_2", "void k(__global char *__private, __global int *__private)_block_invoke_3"]);
    });
}

/// The C type and limit macros clang predefines (`__SIZE_TYPE__` and
/// kin, `__INT8_TYPE__`, the `__*_MAX__` limits) name the types and values
/// OpenCL C's own names do.
#[test]
fn predefined_type_macros_name_opencl_types() {
    let src = "kernel void k(global long *o) {
                   __SIZE_TYPE__ s = __SIZE_MAX__; __PTRDIFF_TYPE__ d = -2; __INTPTR_TYPE__ ip = 1; __UINTPTR_TYPE__ up = 7;
                   __INT8_TYPE__ c = -1; __UINT64_TYPE__ u = __UINT64_MAX__;
                   o[0] = s == (size_t)-1; o[1] = d + ip + up; o[2] = c; o[3] = u == ULONG_MAX;
                   o[4] = sizeof(s) == __SIZEOF_SIZE_T__ && sizeof(ip) == __SIZEOF_POINTER__ && sizeof(c) == 1;
                   o[5] = __INT_MAX__ == INT_MAX && __LONG_MAX__ == LONG_MAX && __FLT_MAX__ == FLT_MAX && __DBL_EPSILON__ == DBL_EPSILON;
               }";
    with_kernels(src, |get| {
        let mut o = vec![0i64; 6];
        launch(get("k"), 1, &[arg(&o.as_mut_ptr())]);
        assert_eq!(o, [1, 6, -1, 1, 1, 1]);
    });
}

/// With `-cl-denorms-are-zero` a kernel's float and double arithmetic
/// flushes denormal results to zero and reads denormal operands as zero
/// (piglit's amdgcn-f32-inline-immediates expects it); without, denormals
/// are kept (IEEE). Either way the thread's floating-point modes are the
/// same after the launch as before.
#[test]
fn denormals_are_flushed_only_when_asked() {
    #[allow(deprecated)]
    use std::arch::x86_64::_mm_getcsr;
    let src = "kernel void k(global float *f, global double *d, global const uint *bits) {
                   float x = as_float(bits[0]);
                   f[0] = f[1] * 1e-30f;
                   f[1] = x + 0.0f;
                   f[2] = x * 1.0f > 0.0f ? 1.0f : 2.0f;
                   d[0] = d[1] * 1e-300;
               }";
    for flush in [false, true] {
        let fp = crate::options::FpOptions { denorms_are_zero: flush, ..Default::default() };
        with_kernels_fp(src, fp, |get| {
            let mut f = vec![0f32, 1e-10, 0.0];
            let mut d = vec![0f64, 1e-10];
            // The smallest positive denormal float.
            let bits = [1u32];
            #[allow(deprecated)]
            // SAFETY: reading MXCSR has no effect.
            let before = unsafe { _mm_getcsr() };
            launch(get("k"), 1, &[arg(&f.as_mut_ptr()), arg(&d.as_mut_ptr()), arg(&bits.as_ptr())]);
            #[allow(deprecated)]
            // SAFETY: as above.
            let after = unsafe { _mm_getcsr() };
            // The control bits (the low six are sticky exception flags).
            assert_eq!(before & !0x3f, after & !0x3f, "the entry restores MXCSR's modes");
            if flush {
                assert_eq!((f[0], f[1], f[2], d[0]), (0.0, 0.0, 2.0, 0.0));
            } else {
                assert_eq!((f[0], f[1].to_bits(), f[2], d[0]), (1e-10f32 * 1e-30f32, 1, 1.0, 1e-10 * 1e-300));
            }
        });
    }
}

/// `vstorea_half<n>` through a pointer that is not aligned to the vector
/// (piglit's vstorea_half tests store into a `short` array): the program
/// breaks the function's precondition, but the store must not fault (it
/// was an aligned vector move: SIGSEGV).
#[test]
fn misaligned_vstorea_half_does_not_fault() {
    let src = "kernel void k(global const float16 *in, global short *out) {
                   volatile short loc[40];
                   for (int i = 0; i < 40; i++) loc[i] = -1;
                   vstorea_half16(in[0], 0, (private half *)(loc + 1));
                   vstorea_half8(in[0].lo, 0, (private half *)(loc + 19));
                   for (int i = 0; i < 40; i++) out[i] = loc[i];
               }";
    with_kernels(src, |get| {
        // A `float16` is aligned to 64 bytes.
        #[repr(C, align(64))]
        struct Float16([f32; 16]);
        let input = vec![Float16(std::array::from_fn(|i| i as f32 * 1.5))];
        let mut out = vec![0i16; 40];
        launch(get("k"), 1, &[arg(&input.as_ptr()), arg(&out.as_mut_ptr())]);
        let h = |i: usize| clc_runtime::image::f32_to_half(i as f32 * 1.5) as i16;
        let mut want = vec![-1i16; 40];
        (0..16).for_each(|i| want[1 + i] = h(i));
        (0..8).for_each(|i| want[19 + i] = h(i));
        assert_eq!(out, want);
    });
}

#[test]
fn designated_initializers_place_items_as_c_does() {
    // After a designator, positional items go on in the innermost object
    // it named and back out when that is full; a member of an anonymous
    // member is designated through it; a union keeps its last member; GNU
    // ranges give every element the item; `T a[]` is as long as the
    // furthest item; a later braced list for a whole member replaces what
    // earlier items put in it (clang-22 gives the same values).
    let src = "struct P { int a; int b; };
               struct Q { struct P p; int c; struct { int x, y; }; union { int i; float f; } u; };
               __constant int table[] = { [2 ... 4] = 7, [6] = 1, 2, [1] = 3 };
               __constant struct Q cq[2] = { [1].p.b = 5, 6, 7, [0] = { .x = 8, 9 } };
               __constant struct Q cg = { .p.a = 3, .p = { .b = 2 } };
               kernel void k(global int *out) {
                   struct Q q = { .p.b = 1, 2, 3, .u.f = 2.5f };
                   int m[2][3] = { [1] = 4, 5, [0][1 ... 2] = 6 };
                   struct P ps[] = { [2].b = 1, 3 };
                   int r[8] = { [1 ... 6] = q.c * 10, [3] = -1 };
                   out[0] = q.p.a; out[1] = q.p.b; out[2] = q.c; out[3] = q.x; out[4] = as_int(q.u.f);
                   for (int i = 0; i < 6; i++) out[5 + i] = m[i / 3][i % 3];
                   out[11] = sizeof(ps) / sizeof(ps[0]); out[12] = ps[2].b; out[13] = ps[3].a;
                   for (int i = 0; i < 8; i++) out[14 + i] = r[i];
                   out[22] = sizeof(table) / sizeof(table[0]);
                   for (int i = 0; i < 8; i++) out[23 + i] = table[i];
                   out[31] = cq[1].p.b; out[32] = cq[1].c; out[33] = cq[1].x; out[34] = cq[0].x; out[35] = cq[0].y; out[36] = cq[0].p.b;
                   struct Q o = { .p.a = 3, .c = 4, .p = { .b = 2 } };
                   int n[2][2] = { [0][0] = 1, [1][1] = 2, [0] = { [1] = 7 } };
                   out[37] = o.p.a; out[38] = o.p.b; out[39] = o.c; out[40] = cg.p.a; out[41] = cg.p.b;
                   for (int i = 0; i < 4; i++) out[42 + i] = n[i / 2][i % 2];
               }";
    with_kernels(src, |get| {
        let mut out = vec![-99i32; 46];
        launch(get("k"), 1, &[arg(&out.as_mut_ptr())]);
        let mut want = vec![0, 1, 2, 3, 2.5f32.to_bits() as i32];
        want.extend([0, 6, 6, 4, 5, 0]);
        want.extend([4, 1, 3]);
        want.extend([0, 20, 20, -1, 20, 20, 20, 0]);
        want.push(8);
        want.extend([0, 3, 7, 7, 7, 0, 1, 2]);
        want.extend([5, 6, 7, 8, 9, 0]);
        want.extend([0, 2, 4, 0, 2]);
        want.extend([0, 7, 0, 2]);
        assert_eq!(out, want);
    });
}

#[test]
fn builtin_offsetof_gives_member_offsets_constant_or_not() {
    // Offsets of members, of members of anonymous members and of array
    // elements, as a constant (an array size, a __constant value) and with
    // an index known at run time only (a GNU extension clang has too).
    #[repr(C)]
    struct In {
        x: i32,
        y: i32,
    }
    #[repr(C)]
    struct S {
        a: u8,
        b: [f32; 4],
        anon: In,
        d: [[i16; 3]; 2],
        e: f64,
    }
    let src = "struct S { char a; float b[4]; struct { int x, y; }; short d[2][3]; double e; };
               #define offsetof(t, m) __builtin_offsetof(t, m)
               __constant ulong offs[] = { offsetof(struct S, a), offsetof(struct S, b[3]), offsetof(struct S, y), offsetof(struct S, d[1][2]), offsetof(struct S, e) };
               kernel void k(global ulong *out, int i) {
                   char sized[offsetof(struct S, d)];
                   for (int j = 0; j < 5; j++) out[j] = offs[j];
                   out[5] = sizeof(sized);
                   out[6] = offsetof(struct S, b[i]);
                   out[7] = __builtin_offsetof(struct S, d[i][i + 1]);
               }";
    let (b, d) = (std::mem::offset_of!(S, b), std::mem::offset_of!(S, d));
    let y = std::mem::offset_of!(S, anon) + std::mem::offset_of!(In, y);
    with_kernels(src, |get| {
        let mut out = vec![0u64; 8];
        let i = 1i32;
        launch(get("k"), 1, &[arg(&out.as_mut_ptr()), arg(&i)]);
        let want = [0, b + 12, y, d + 10, std::mem::offset_of!(S, e), d, b + 4, d + 6 + 4];
        assert_eq!(out, want.map(|v| v as u64));
        let _ = std::mem::size_of::<S>();
    });
}

#[test]
fn flexible_array_members_index_past_their_struct() {
    // C99's flexible array member: no size of its own, its element's
    // alignment; the elements follow the struct in the buffer (was an
    // internal error: the struct had no layout).
    let src = "struct F { int n; float data[]; };
               struct D { char c; long d[]; };
               kernel void k(global struct F *f, global float *o, global ulong *sizes) {
                   int i = get_global_id(0);
                   o[i] = f->data[i] * f->n;
                   if (i == 0) {
                       struct F local_f = { 7 };
                       sizes[0] = sizeof(struct F); sizes[1] = __builtin_offsetof(struct F, data);
                       sizes[2] = sizeof(struct D); sizes[3] = __builtin_offsetof(struct D, d);
                       sizes[4] = local_f.n;
                   }
               }";
    with_kernels(src, |get| {
        let n = 5usize;
        // The buffer: `n` (an int), then the floats.
        let mut buf = vec![0u32; 1 + n];
        buf[0] = 3;
        for i in 0..n {
            buf[1 + i] = (i as f32 + 0.5).to_bits();
        }
        let mut o = vec![0f32; n];
        let mut sizes = vec![0u64; 5];
        launch(get("k"), n, &[arg(&buf.as_ptr()), arg(&o.as_mut_ptr()), arg(&sizes.as_mut_ptr())]);
        for (i, v) in o.iter().enumerate() {
            assert_eq!(*v, (i as f32 + 0.5) * 3.0, "element {i}");
        }
        assert_eq!(sizes, [4, 4, 8, 8, 7]);
    });
}

#[test]
fn pragma_pack_lays_members_out_as_the_host_packs_them() {
    // `#pragma pack(1)` and `(2)` as a host compiler packs the same
    // structs: the kernel reads members at unaligned offsets and writes a
    // struct back (the Rust side builds the bytes itself).
    let src = "#pragma pack(push, 1)
               struct P { char c; int i; short s; double d; };
               #pragma pack(2)
               struct Q { char c; long l; };
               #pragma pack(pop)
               kernel void k(global struct P *p, global struct Q *q, global double *o) {
                   int i = get_global_id(0);
                   o[i] = p[i].c + p[i].i + p[i].s + p[i].d;
                   q[i].c = p[i].c;
                   q[i].l = (long)p[i].i * 1000;
               }";
    with_kernels(src, |get| {
        let n = 3usize;
        // struct P: 1 + 4 + 2 + 8 = 15 bytes, no padding.
        let mut p = vec![0u8; 15 * n];
        for k in 0..n {
            let b = &mut p[15 * k..15 * (k + 1)];
            b[0] = 10 + k as u8;
            b[1..5].copy_from_slice(&(-7 * k as i32 - 1).to_le_bytes());
            b[5..7].copy_from_slice(&(300 + k as i16).to_le_bytes());
            b[7..15].copy_from_slice(&(0.25 * k as f64).to_le_bytes());
        }
        // struct Q: char at 0, long at 2, 10 bytes.
        let mut q = vec![0xAAu8; 10 * n];
        let mut o = vec![0f64; n];
        launch(get("k"), n, &[arg(&p.as_ptr()), arg(&q.as_mut_ptr()), arg(&o.as_mut_ptr())]);
        for k in 0..n {
            let i = -7 * k as i32 - 1;
            assert_eq!(o[k], (10 + k) as f64 + i as f64 + (300 + k) as f64 + 0.25 * k as f64, "element {k}");
            let b = &q[10 * k..10 * (k + 1)];
            assert_eq!(b[0], 10 + k as u8);
            assert_eq!(b[1], 0xAA, "padding untouched");
            assert_eq!(i64::from_le_bytes(b[2..10].try_into().unwrap()), i as i64 * 1000);
        }
    });
}

#[test]
fn clang_builtins_compute_what_gcc_documents() {
    // clang's `__builtin_*` functions on values that reach every edge
    // (zero, one, the sign bit, all ones), at -O0 and at -O2 (where
    // `__builtin_expect` and `__builtin_assume` become LLVM's hints), each
    // checked against Rust's own bit operations. Zero counts are the width
    // (clc defines what GCC leaves undefined).
    let src = "int pick(int k) { switch (k) { case 0: return 10; case 1: return 20; default: __builtin_unreachable(); } }
               constant int folded[] = { __builtin_popcount(0xF0F), __builtin_clz(1), __builtin_bswap16(0x1234), __builtin_constant_p(3) };
               kernel void k(global const uint *u, global const ulong *l, global int *o, global ulong *w, int n) {
                   int i = get_global_id(0);
                   uint x = u[i]; ulong y = l[i];
                   global int *r = o + i * 16;
                   r[0] = __builtin_clz(x); r[1] = __builtin_ctz(x); r[2] = __builtin_popcount(x); r[3] = __builtin_parity(x);
                   r[4] = __builtin_ffs((int)x); r[5] = __builtin_clrsb((int)x); r[6] = __builtin_clzl(y); r[7] = __builtin_ctzll(y);
                   r[8] = __builtin_popcountl(y); r[9] = __builtin_ffsl((long)y); r[10] = __builtin_clrsbll((long)y);
                   r[11] = __builtin_expect(x > 5, 1) ? 1 : 2; r[12] = __builtin_abs((int)x); r[13] = __builtin_parityll(y);
                   r[14] = __builtin_clzs((ushort)x); r[15] = __builtin_expect_with_probability((int)x, 0, 0.25);
                   global ulong *q = w + i * 8;
                   q[0] = __builtin_bswap16((ushort)x); q[1] = __builtin_bswap32(x); q[2] = __builtin_bswap64(y);
                   q[3] = __builtin_bitreverse8((uchar)x) | ((ulong)__builtin_bitreverse16((ushort)x) << 8);
                   q[4] = __builtin_bitreverse32(x); q[5] = __builtin_bitreverse64(y);
                   q[6] = __builtin_rotateleft32(x, n) ^ __builtin_rotateright64(y, n);
                   q[7] = __builtin_rotateleft8((uchar)x, n) | (__builtin_rotateright16((ushort)x, n) << 8);
                   if (n < 0) __builtin_unreachable();
                   __builtin_assume(n >= 0);
                   __builtin_prefetch(u + i, 0, 3);
                   if (n == 12345) __builtin_trap();
               }
               kernel void c(global float *f, global int *o, int n) {
                   int sized[__builtin_popcount(7)];
                   f[0] = __builtin_inff(); f[1] = __builtin_nanf(\"0x12\"); f[2] = __builtin_huge_valf();
                   f[3] = __builtin_sqrtf(f[4]) + __builtin_fabsf(-2.0f) + __builtin_copysignf(1.0f, f[5]);
                   o[0] = sizeof(sized); o[1] = pick(n) + pick(n - 1);
                   switch (n) { case __builtin_bswap32(0x01000000): o[2] = 7; break; default: o[2] = 8; }
                   o[3] = __builtin_isnan(f[1]) + 2 * __builtin_isinf(f[0]) + 4 * __builtin_signbit(f[5]) + 8 * __builtin_isless(f[4], f[5]);
                   for (int k = 0; k < 4; k++) o[4 + k] = folded[k];
               }";
    let xs: [u32; 8] = [0, 1, 0x8000_0000, u32::MAX, 0x1234_5678, 6, 0x00F0_0000, 0x7FFF_FFFF];
    let ys: [u64; 8] = [0, 1, 1 << 63, u64::MAX, 0x0123_4567_89AB_CDEF, 6 << 40, 0xFFFF_0000_0000_0000, 0x7FFF_FFFF_FFFF_FFFF];
    let clrsb32 = |v: i32| (if v < 0 { !v } else { v }).leading_zeros() as i32 - 1;
    let clrsb64 = |v: i64| (if v < 0 { !v } else { v }).leading_zeros() as i32 - 1;
    let ffs = |tz: u32, zero: bool| if zero { 0 } else { tz as i32 + 1 };
    let n = 5i32;
    for level in [0, 2] {
        with_kernels_at(src, level, Default::default(), |get| {
            let mut o = vec![0i32; 16 * 8];
            let mut w = vec![0u64; 8 * 8];
            launch(get("k"), 8, &[arg(&xs.as_ptr()), arg(&ys.as_ptr()), arg(&o.as_mut_ptr()), arg(&w.as_mut_ptr()), arg(&n)]);
            for i in 0..8 {
                let (x, y) = (xs[i], ys[i]);
                let want = [
                    x.leading_zeros() as i32,
                    x.trailing_zeros() as i32,
                    x.count_ones() as i32,
                    (x.count_ones() & 1) as i32,
                    ffs(x.trailing_zeros(), x == 0),
                    clrsb32(x as i32),
                    y.leading_zeros() as i32,
                    y.trailing_zeros() as i32,
                    y.count_ones() as i32,
                    ffs(y.trailing_zeros(), y == 0),
                    clrsb64(y as i64),
                    if x > 5 { 1 } else { 2 },
                    (x as i32).wrapping_abs(),
                    (y.count_ones() & 1) as i32,
                    (x as u16).leading_zeros() as i32,
                    x as i32,
                ];
                assert_eq!(o[i * 16..i * 16 + 16], want, "-O{level}, x = {x:#x}, y = {y:#x}");
                let r = n as u32;
                let want = [
                    (x as u16).swap_bytes() as u64,
                    x.swap_bytes() as u64,
                    y.swap_bytes(),
                    (x as u8).reverse_bits() as u64 | ((x as u16).reverse_bits() as u64) << 8,
                    x.reverse_bits() as u64,
                    y.reverse_bits(),
                    x.rotate_left(r) as u64 ^ y.rotate_right(r),
                    (x as u8).rotate_left(r) as u64 | ((x as u16).rotate_right(r) as u64) << 8,
                ];
                assert_eq!(w[i * 8..i * 8 + 8], want, "-O{level}, x = {x:#x}, y = {y:#x}");
            }
            let mut f = vec![0f32, 0.0, 0.0, 0.0, 9.0, -3.0];
            let mut o = vec![0i32; 8];
            let one = 1i32;
            launch(get("c"), 1, &[arg(&f.as_mut_ptr()), arg(&o.as_mut_ptr()), arg(&one)]);
            assert_eq!(f[0], f32::INFINITY);
            assert_eq!(f[1].to_bits(), 0x7FC0_0012, "a quiet NaN with the payload");
            assert_eq!(f[2], f32::INFINITY);
            assert_eq!(f[3], 3.0 + 2.0 - 1.0);
            assert_eq!(o, [12, 20 + 10, 7, 1 + 2 + 4, 0xF0Fu32.count_ones() as i32, 31, 0x3412, 1]);
        });
    }
}

#[test]
fn clang_memory_builtins_copy_move_and_set_between_spaces() {
    // `__builtin_memcpy`/`memmove`/`memset` between private, global and
    // local memory (one overload per pair of spaces), overlapping moves
    // both ways, and a private array filled by memcpy across a barrier
    // (the kernel is lowered in regions); at -O0 and -O2.
    let src = "kernel void k(global int *g, global int *o, local int *l) {
                   int i = get_local_id(0);
                   int a[4];
                   __builtin_memcpy(a, g + 4 * i, sizeof(a));
                   l[i] = a[0] + a[3];
                   barrier(CLK_LOCAL_MEM_FENCE);
                   int b[4];
                   __builtin_memset(b, 0, sizeof(b));
                   __builtin_memcpy(b, l, 2 * sizeof(int));
                   global int *r = __builtin_memcpy(o + 8 * i, b, sizeof(b));
                   r[4] = a[1] + a[2];
               }
               kernel void m(global char *s) {
                   __builtin_memmove(s + 2, s, 6);
                   __builtin_memmove(s + 10, s + 12, 6);
                   __builtin_memset(s + 20, 0x1ff, 3);
               }";
    for level in [0, 2] {
        with_kernels_at(src, level, Default::default(), |get| {
            let g: Vec<i32> = (0..16).map(|v| v * 3 + 1).collect();
            let mut o = vec![-1i32; 32];
            let mut local = vec![0i32; 4];
            launch(get("k"), 4, &[arg(&g.as_ptr()), arg(&o.as_mut_ptr()), arg(&local.as_mut_ptr())]);
            let sums: Vec<i32> = (0..4).map(|i| g[4 * i] + g[4 * i + 3]).collect();
            for i in 0..4 {
                let want = [sums[0], sums[1], 0, 0, g[4 * i + 1] + g[4 * i + 2], -1, -1, -1];
                assert_eq!(o[8 * i..8 * i + 8], want, "-O{level}, work-item {i}");
            }
            let mut s: Vec<u8> = (0..24).collect();
            launch(get("m"), 1, &[arg(&s.as_mut_ptr())]);
            let mut want: Vec<u8> = (0..24).collect();
            want.copy_within(0..6, 2);
            want.copy_within(12..18, 10);
            want[20..23].fill(0xff);
            assert_eq!(s, want, "-O{level}");
        });
    }
}
