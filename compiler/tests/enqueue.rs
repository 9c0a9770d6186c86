//! Device-side enqueue on the CPU target, run through the JIT: children
//! over 1D and 2D ranges writing captured values, `__local` block
//! parameters, chains through events, markers, user events, nested
//! enqueues and the error codes. Expected values are computed here in
//! Rust from what each kernel writes.

use clc::jit::{self, BuildOptions};
use clc_runtime::{Arg, Buffer, Error, NdRange, Program};

const KERNELS: &str = r#"
kernel void fill(global int *out, int n, int v, global int *err) {
    if (get_global_id(0) != 0) return;
    int base = v;
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D((size_t)n),
                            ^{ out[get_global_id(0)] = base + (int)get_global_id(0); });
}
kernel void fill2d(global int *out, queue_t q, global int *err) {
    size_t g[2] = { 5, 3 };
    size_t l[2] = { 5, 1 };
    int w = 100;
    err[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(g, l),
                            ^{ out[get_global_id(1) * 5 + get_global_id(0)] = w * (int)get_global_id(1) + (int)get_global_id(0)
                                 + 1000 * (int)get_local_size(0); });
}
kernel void with_local(global int *out, global int *err) {
    void (^blk)(local void *) = ^(local void *scratch) {
        local int *s = (local int *)scratch;
        s[get_local_id(0)] = (int)get_global_id(0) * 3;
        out[get_global_id(0)] = s[get_local_id(0)] + (int)get_local_size(0);
    };
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(12, 4), blk, 4u * sizeof(int));
}
kernel void chain(global int *a, global int *b, global int *err) {
    clk_event_t e1, e2;
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), 0, NULL, &e1,
                            ^{ a[get_global_id(0)] = (int)get_global_id(0) * 2; });
    err[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), 1, &e1, &e2,
                            ^{ b[get_global_id(0)] = a[7 - get_global_id(0)] + 1; });
    err[2] = is_valid_event(e1) ? 1 : 0;
    clk_event_t m;
    err[3] = enqueue_marker(get_default_queue(), 1, &e2, &m);
    err[4] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL,
                            ^{ b[8] = b[0] + b[7]; });
    release_event(e1);
    err[5] = is_valid_event(e1) ? 1 : 0;
    release_event(e2);
    release_event(m);
}
kernel void nested(global int *out) {
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), ^{
        int g = (int)get_global_id(0);
        out[g] = g + 1;
        if (g == 3)
            enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 2), ^{ out[4 + get_global_id(0)] = out[get_global_id(0)] * 10; });
    });
}
global int staged[4];
void (^stage)(void) = ^{ staged[get_global_id(0)] = 5 * (int)get_global_id(0) + 1; };
kernel void aliases(global int *out, global int *err) {
    void (^copy)(void) = ^{ out[get_global_id(0)] = staged[get_global_id(0)] + 100; };
    void (^copy_again)(void) = copy;
    clk_event_t e;
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &e, stage);
    err[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &e, NULL, copy_again);
    release_event(e);
}
kernel void bad(global int *out, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), ^{ out[0] = 1; });
    size_t g[3] = { 4, 4, 4 };
    size_t l[3] = { 64, 64, 2 };
    err[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(g, l), ^{ out[1] = 1; });
    err[2] = (int)get_kernel_work_group_size(^{ out[2] = 1; });
    err[3] = (int)get_kernel_preferred_work_group_size_multiple(^{ out[2] = 1; });
}
void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
kernel void with_barriers(global int *out, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(40, 8), ^(local void *p) {
        local int *t = (local int *)p;
        size_t l = get_local_id(0);
        t[l] = (int)get_global_id(0) * 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        int r = t[get_local_size(0) - 1 - l];
        sync();
        t[l] = r + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];
    }, 8u * sizeof(int));
}
kernel void user_event(global int *out, global int *err, int set) {
    clk_event_t u = create_user_event();
    err[0] = is_valid_event(u) ? 1 : 0;
    err[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL, ^{ out[0] = 7; });
    if (set) set_user_event_status(u, CL_COMPLETE);
    release_event(u);
}
"#;

fn program() -> Program {
    jit::build(KERNELS, "enqueue.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn one() -> NdRange {
    NdRange::linear(1)
}

#[test]
fn a_child_writes_captured_values_over_its_range() {
    let p = program();
    let out = Buffer::new(4 * 20);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("fill").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::value(17i32)).unwrap();
    k.set_arg(2, Arg::value(40i32)).unwrap();
    k.set_arg(3, Arg::Buffer(&err)).unwrap();
    k.launch(&NdRange::linear(3)).unwrap();
    let want: Vec<i32> = (0..20).map(|i| if i < 17 { 40 + i } else { 0 }).collect();
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(err.read::<i32>(), [0]);
}

#[test]
fn a_2d_child_sees_its_sizes_and_a_queue_argument() {
    let p = program();
    let out = Buffer::new(4 * 15);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("fill2d").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let want: Vec<i32> = (0..15).map(|i| 100 * (i / 5) + i % 5 + 5000).collect();
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(err.read::<i32>(), [0]);
}

#[test]
fn a_block_gets_local_memory() {
    let p = program();
    let out = Buffer::new(4 * 12);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("with_local").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let want: Vec<i32> = (0..12).map(|i| 3 * i + 4).collect();
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(err.read::<i32>(), [0]);
}

#[test]
fn events_order_children_and_markers() {
    let p = program();
    let a = Buffer::new(4 * 8);
    let b = Buffer::new(4 * 9);
    let err = Buffer::from_slice(&[-1i32; 6]);
    let mut k = p.kernel("chain").unwrap();
    k.set_arg(0, Arg::Buffer(&a)).unwrap();
    k.set_arg(1, Arg::Buffer(&b)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let av: Vec<i32> = (0..8).map(|i| 2 * i).collect();
    let mut bv: Vec<i32> = (0..8).map(|i| av[7 - i as usize] + 1).collect();
    bv.push(bv[0] + bv[7]);
    assert_eq!(a.read::<i32>(), av);
    assert_eq!(b.read::<i32>(), bv);
    assert_eq!(err.read::<i32>(), [0, 0, 1, 0, 0, 0]);
}

#[test]
fn a_child_enqueues_a_grandchild() {
    let p = program();
    let out = Buffer::new(4 * 8);
    let mut k = p.kernel("nested").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.launch(&one()).unwrap();
    assert_eq!(out.read::<i32>(), [1, 2, 3, 4, 10, 20, 30, 40]);
}

#[test]
fn program_scope_blocks_and_block_variables_naming_blocks_are_enqueued() {
    let p = program();
    let out = Buffer::new(4 * 4);
    let err = Buffer::from_slice(&[-1i32; 2]);
    let mut k = p.kernel("aliases").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let want: Vec<i32> = (0..4).map(|i| 5 * i + 1 + 100).collect();
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(err.read::<i32>(), [0, 0]);
}

#[test]
fn invalid_ranges_are_refused_and_queries_answer() {
    let p = program();
    let out = Buffer::new(4 * 3);
    let err = Buffer::from_slice(&[1i32; 4]);
    let mut k = p.kernel("bad").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    assert_eq!(err.read::<i32>(), [-160, -160, clc_runtime::MAX_WORK_GROUP_SIZE as i32, 8]);
    assert_eq!(out.read::<i32>(), [0, 0, 0]);
}

#[test]
fn user_events_gate_children() {
    let p = program();
    for set in [1, 0] {
        let out = Buffer::new(4);
        let err = Buffer::from_slice(&[-1i32; 2]);
        let mut k = p.kernel("user_event").unwrap();
        k.set_arg(0, Arg::Buffer(&out)).unwrap();
        k.set_arg(1, Arg::Buffer(&err)).unwrap();
        k.set_arg(2, Arg::value(set)).unwrap();
        let r = k.launch(&one());
        assert_eq!(err.read::<i32>(), [1, 0]);
        if set == 1 {
            r.unwrap();
            assert_eq!(out.read::<i32>(), [7]);
        } else {
            assert!(matches!(r, Err(Error::Enqueue(_))), "{r:?}");
            assert_eq!(out.read::<i32>(), [0]);
        }
    }
}

#[test]
fn the_corpus_example_runs() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/valid/031_device_enqueue.cl")).unwrap();
    let p = jit::build(&src, "031_device_enqueue.cl", &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let data = Buffer::new(4 * 64);
    let mut k = p.kernel("parent").unwrap();
    k.set_arg(0, Arg::Buffer(&data)).unwrap();
    k.set_arg(2, Arg::value(16i32)).unwrap();
    k.launch(&NdRange::linear(4)).unwrap();
    // The parent writes data[0] = err + size + multiple; the first child
    // writes 42 over 0..16, then the 2D child adds 1 over 0..16.
    let mut want = vec![0i32; 64];
    for v in want.iter_mut().take(16) {
        *v = 43;
    }
    let d = data.read::<i32>();
    assert_eq!(&d[1..], &want[1..]);
    assert_eq!(d[0], 43);
}

/// A child whose work-items meet at barriers (in the block and in a
/// function it calls) runs a thread per work-item: each reads what the
/// others of its group wrote before the barrier.
#[test]
fn a_child_synchronises_its_group_with_barriers() {
    let p = program();
    let out = Buffer::new(4 * 40);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("with_barriers").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    // Group g of 8: t[l] = 2 * (8g + 7 - l) + 1 after the second barrier;
    // item l reads t[(l + 1) % 8].
    let want: Vec<i32> = (0..40)
        .map(|i| {
            let (g, l) = (i / 8, i % 8);
            let m = (l + 1) % 8;
            2 * (8 * g + 7 - m) + 1
        })
        .collect();
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(err.read::<i32>(), [0]);
}

/// A child using a work-group function would need the group lowering:
/// reported, not miscompiled.
#[test]
fn a_child_with_work_group_functions_is_reported() {
    let src = "kernel void k(global int *out) { enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 4), ^{ out[get_global_id(0)] = work_group_reduce_add(1); }); }";
    let e = match jit::build(src, "wg.cl", &BuildOptions::default()) {
        Ok(_) => panic!("built"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("enqueuing a block that uses work-group functions or async copies is not supported"), "{e}");
}
