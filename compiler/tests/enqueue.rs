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
int wg_sum(int x) { return work_group_reduce_add(x); }
kernel void parent_in_groups(global int *out) {
    size_t g = get_global_id(0);
    out[g] = (int)get_local_size(0);
    if (g == 0)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8, 4), ^{ out[8 + get_global_id(0)] = wg_sum((int)get_global_id(0)); });
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
kernel void wg_1d(global const int *in, global int *out, int scale, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(44, 8), ^{
        size_t g = get_global_id(0);
        int x = in[g] * scale;
        int sum = work_group_reduce_add(x);
        int lo = work_group_reduce_min(x);
        int inc = work_group_scan_inclusive_add(x);
        int exc = work_group_scan_exclusive_max(x);
        int last = work_group_broadcast(x, get_local_size(0) - 1);
        int any = work_group_any(x > 40);
        int all = work_group_all(x > -50);
        out[8 * g] = sum;
        out[8 * g + 1] = lo;
        out[8 * g + 2] = inc;
        out[8 * g + 3] = exc;
        out[8 * g + 4] = last;
        out[8 * g + 5] = any ? 1 : 0;
        out[8 * g + 6] = all ? 1 : 0;
        out[8 * g + 7] = (int)get_local_size(0);
    });
}
kernel void wg_2d(global const int *in, global int *out, global int *err) {
    size_t g[2] = { 8, 4 };
    size_t l[2] = { 3, 2 };
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(g, l), ^{
        size_t i = get_global_id(1) * 8 + get_global_id(0);
        int x = in[i];
        int sum = work_group_reduce_add(x);
        int hi = work_group_reduce_max(x);
        int inc = work_group_scan_inclusive_add(x);
        int mid = work_group_broadcast(x, 1, 1);
        out[4 * i] = sum;
        out[4 * i + 1] = hi;
        out[4 * i + 2] = inc;
        out[4 * i + 3] = mid;
    });
}
kernel void wg_open(global const int *in, global int *out, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(300), ^{
        size_t g = get_global_id(0);
        int sum = work_group_reduce_add(in[g]);
        int inc = work_group_scan_inclusive_add(in[g]);
        out[4 * g] = sum;
        out[4 * g + 1] = inc;
        out[4 * g + 2] = (int)get_group_id(0);
        out[4 * g + 3] = (int)get_local_size(0);
    });
}
kernel void async_child(global const int *src, global int *out, global int *back, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(40, 16), ^(local void *p) {
        local int *t = (local int *)p;
        size_t n = get_local_size(0);
        size_t base = get_group_id(0) * get_enqueued_local_size(0);
        event_t e = async_work_group_copy(t, src + base, n, 0);
        wait_group_events(1, &e);
        barrier(CLK_LOCAL_MEM_FENCE);
        size_t l = get_local_id(0);
        int r = t[n - 1 - l] * 2 + (int)l;
        out[get_global_id(0)] = r;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = r + 1000;
        barrier(CLK_LOCAL_MEM_FENCE);
        event_t f = async_work_group_copy(back + base, t, n, 0);
        wait_group_events(1, &f);
    }, 16u * sizeof(int));
}
int group_total(int x) { return work_group_reduce_add(x); }
int group_prefix(int x) {
    int s = work_group_scan_inclusive_add(x);
    barrier(CLK_LOCAL_MEM_FENCE);
    return s + work_group_broadcast(x, 0);
}
kernel void wg_calls(global int *out, int k, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(30, 6), ^{
        int g = (int)get_global_id(0);
        int t = group_total(g * k);
        out[2 * g] = t;
        out[2 * g + 1] = group_prefix(g + 1);
    });
}
kernel void wg_cond(global int *out, int c, global int *err) {
    void (^blk)(void) = ^{ int g = (int)get_global_id(0); out[g] = c ? group_total(g + 1) : -1; };
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 4), blk);
    err[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 1), blk);
    err[2] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), ^{ int g = (int)get_global_id(0); out[8 + g] = c ? group_total(g + 1) : -1; });
    err[3] = (int)get_kernel_work_group_size(blk);
    err[4] = (int)get_kernel_preferred_work_group_size_multiple(blk);
    err[5] = (int)get_kernel_work_group_size(^{ out[0] = group_total(1); });
}
int sync_get(local int *t, int i) {
    barrier(CLK_LOCAL_MEM_FENCE);
    return t[i];
}
kernel void barrier_cond(global int *out, int c, global int *err) {
    err[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(24, 8), ^(local void *p) {
        local int *t = (local int *)p;
        size_t l = get_local_id(0);
        t[l] = (int)get_global_id(0) * 3;
        int r = c ? sync_get(t, (int)((l + 3) % get_local_size(0))) : -1;
        out[get_global_id(0)] = r;
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

/// What only an enqueued block does is not its parent's: a parent whose
/// block calls a function with a work-group function runs in groups of
/// 4 (it was taken for a kernel that synchronises, which the regions did
/// not express: groups of one only, and the launch was refused).
#[test]
fn a_parent_is_not_taken_for_its_childs_synchronisation() {
    let p = program();
    let out = Buffer::new(4 * 16);
    let mut k = p.kernel("parent_in_groups").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange { local: Some([4, 1, 1]), ..NdRange::linear(8) }).unwrap();
    let mut want = vec![4i32; 8];
    want.extend((0..8).map(|g| if g < 4 { 6 } else { 22 }));
    assert_eq!(out.read::<i32>(), want);
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

/// Inputs for the work-group tests: small values of both signs, no pattern
/// a wrong group split could still match.
fn inputs(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 37 + 11) % 29 - 14).collect()
}

/// A 1D child with explicit local size 8 over 44 work-items (the last
/// group of 4) computes its work-group functions for its own groups.
#[test]
fn a_child_computes_work_group_functions_in_1d() {
    let p = program();
    let input = inputs(44);
    let src = Buffer::from_slice(&input);
    let out = Buffer::new(4 * 8 * 44);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("wg_1d").unwrap();
    k.set_arg(0, Arg::Buffer(&src)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::value(3i32)).unwrap();
    k.set_arg(3, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let x: Vec<i32> = input.iter().map(|v| v * 3).collect();
    let mut want = Vec::new();
    for group in x.chunks(8) {
        for l in 0..group.len() {
            want.extend([
                group.iter().sum(),
                *group.iter().min().unwrap(),
                group[..=l].iter().sum(),
                group[..l].iter().copied().max().unwrap_or(i32::MIN),
                group[group.len() - 1],
                i32::from(group.iter().any(|&v| v > 40)),
                i32::from(group.iter().all(|&v| v > -50)),
                group.len() as i32,
            ]);
        }
    }
    assert_eq!(err.read::<i32>(), [0]);
    assert_eq!(out.read::<i32>(), want);
}

/// A 2D child with local size 3 x 2 over 8 x 4 (remainder groups along x):
/// reductions, a scan in local linear order and a 2D broadcast.
#[test]
fn a_child_computes_work_group_functions_in_2d() {
    let p = program();
    let input = inputs(32);
    let src = Buffer::from_slice(&input);
    let out = Buffer::new(4 * 4 * 32);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("wg_2d").unwrap();
    k.set_arg(0, Arg::Buffer(&src)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let mut want = vec![0i32; 4 * 32];
    for gy in 0..2 {
        for gx in 0..3 {
            // The group's work-items in local linear order (x fastest).
            let ys: Vec<usize> = (2 * gy..2 * gy + 2).collect();
            let xs: Vec<usize> = (3 * gx..(3 * gx + 3).min(8)).collect();
            let items: Vec<usize> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| y * 8 + x)).collect();
            let vals: Vec<i32> = items.iter().map(|&i| input[i]).collect();
            let mid = input[ys[1] * 8 + xs[1]];
            for (l, &i) in items.iter().enumerate() {
                want[4 * i] = vals.iter().sum();
                want[4 * i + 1] = *vals.iter().max().unwrap();
                want[4 * i + 2] = vals[..=l].iter().sum();
                want[4 * i + 3] = mid;
            }
        }
    }
    assert_eq!(err.read::<i32>(), [0]);
    assert_eq!(out.read::<i32>(), want);
}

/// A child whose range leaves the local size to the runtime: each group,
/// as the child reports it, gets its own sums, and the groups have more
/// than one work-item.
#[test]
fn a_child_with_an_open_local_size_computes_work_group_functions() {
    let p = program();
    let input = inputs(300);
    let src = Buffer::from_slice(&input);
    let out = Buffer::new(4 * 4 * 300);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("wg_open").unwrap();
    k.set_arg(0, Arg::Buffer(&src)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    assert_eq!(err.read::<i32>(), [0]);
    let o = out.read::<i32>();
    let size = o[3] as usize;
    assert!(size > 1, "groups of {size}");
    for (i, &v) in input.iter().enumerate() {
        let (g, start) = (i / size, i / size * size);
        let group = &input[start..(start + size).min(300)];
        assert_eq!(o[4 * i + 2], g as i32, "group id of {i}");
        assert_eq!(o[4 * i + 3], group.len() as i32, "local size of {i}");
        assert_eq!(o[4 * i], group.iter().sum::<i32>(), "sum at {i}");
        assert_eq!(o[4 * i + 1], group[..=i - start].iter().sum::<i32>(), "scan at {i} ({v})");
    }
}

/// A child copies its group's slice into `__local` memory with an async
/// copy, reads it reversed after waiting and a barrier, and copies
/// `__local` memory back out (the last group has 8 work-items).
#[test]
fn a_child_copies_into_local_memory_asynchronously() {
    let p = program();
    let input = inputs(40);
    let src = Buffer::from_slice(&input);
    let out = Buffer::new(4 * 40);
    let back = Buffer::new(4 * 40);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("async_child").unwrap();
    k.set_arg(0, Arg::Buffer(&src)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&back)).unwrap();
    k.set_arg(3, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let mut want = Vec::new();
    for group in input.chunks(16) {
        let n = group.len();
        want.extend((0..n).map(|l| group[n - 1 - l] * 2 + l as i32));
    }
    assert_eq!(err.read::<i32>(), [0]);
    assert_eq!(out.read::<i32>(), want);
    assert_eq!(back.read::<i32>(), want.iter().map(|r| r + 1000).collect::<Vec<_>>());
}

/// Work-group functions in functions the block calls (one with a
/// barrier between them) are its groups' too.
#[test]
fn a_child_calls_functions_with_work_group_functions() {
    let p = program();
    let out = Buffer::new(4 * 2 * 30);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("wg_calls").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::value(5i32)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let mut want = Vec::new();
    for g in 0..30i32 {
        let start = g / 6 * 6;
        want.push((start..start + 6).map(|i| i * 5).sum());
        want.push((start..=g).map(|i| i + 1).sum::<i32>() + start + 1);
    }
    assert_eq!(err.read::<i32>(), [0]);
    assert_eq!(out.read::<i32>(), want);
}

/// A work-group function the regions cannot express (a call under `?:`)
/// runs in groups of one work-item: `enqueue_kernel` refuses a local size
/// of 4 with CLK_INVALID_NDRANGE, runs 1, and picks 1 where the range
/// leaves it open; the block's work-group size (and preferred multiple)
/// is 1, where a block the regions express has the runtime's limit.
#[test]
fn a_child_the_regions_cannot_express_runs_groups_of_one() {
    let p = program();
    let out = Buffer::new(4 * 16);
    let err = Buffer::from_slice(&[1i32; 6]);
    let mut k = p.kernel("wg_cond").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::value(1i32)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    assert_eq!(err.read::<i32>(), [-160, 0, 0, 1, 1, clc_runtime::MAX_WORK_GROUP_SIZE as i32]);
    let want: Vec<i32> = (0..16).map(|i| i % 8 + 1).collect();
    assert_eq!(out.read::<i32>(), want);
}

/// A barrier the regions cannot express (in a call under `?:`) runs the
/// child with a thread per work-item: each reads what another of its group
/// wrote before the barrier.
#[test]
fn a_child_with_a_barrier_the_regions_cannot_express_runs_a_thread_per_work_item() {
    let p = program();
    let out = Buffer::new(4 * 24);
    let err = Buffer::from_slice(&[-1i32]);
    let mut k = p.kernel("barrier_cond").unwrap();
    k.set_arg(0, Arg::Buffer(&out)).unwrap();
    k.set_arg(1, Arg::value(1i32)).unwrap();
    k.set_arg(2, Arg::Buffer(&err)).unwrap();
    k.launch(&one()).unwrap();
    let want: Vec<i32> = (0..24).map(|i| 3 * (i / 8 * 8 + (i % 8 + 3) % 8)).collect();
    assert_eq!(err.read::<i32>(), [0]);
    assert_eq!(out.read::<i32>(), want);
}
