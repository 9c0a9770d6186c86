//! Pipes on the CPU target, run through the JIT: producers and consumers,
//! full and empty pipes, reservations (per work-item and per work-group,
//! through the region lowering and outside it), the packet counts, struct
//! packets, and the runtime's argument checks. Expected values are
//! computed here in Rust from what each kernel writes; the runtime's own
//! bookkeeping (the pipe's contents after a launch) is checked through
//! `Pipe::read`.

use clc::jit::{self, BuildOptions};
use clc_runtime::{Arg, Buffer, Error, NdRange, Pipe, Program};

const KERNELS: &str = r#"
kernel void produce(write_only pipe int p, global int *failed) {
    int v = get_global_id(0) * 7 + 3;
    if (write_pipe(p, &v) != 0) atomic_inc(failed);
}
kernel void consume(read_only pipe int p, global int *out, global int *failed) {
    int v = -1;
    if (read_pipe(p, &v) != 0) atomic_inc(failed);
    out[get_global_id(0)] = v;
}
/* Four packets per work-item through a reservation, written by index. */
kernel void reserve_write4(write_only pipe int p, global int *failed) {
    int g = get_global_id(0);
    reserve_id_t r = reserve_write_pipe(p, 4);
    if (!is_valid_reserve_id(r)) { atomic_inc(failed); return; }
    for (uint i = 0; i < 4; i++) {
        int v = g * 4 + i;
        write_pipe(p, r, 3 - i, &v);
    }
    commit_write_pipe(p, r);
}
kernel void reserve_read4(read_only pipe int p, global int4 *out, global int *failed) {
    reserve_id_t r = reserve_read_pipe(p, 4);
    int v[4] = { -1, -1, -1, -1 };
    if (is_valid_reserve_id(r)) {
        for (uint i = 0; i < 4; i++) read_pipe(p, r, i, &v[i]);
        commit_read_pipe(p, r);
    } else {
        atomic_inc(failed);
    }
    out[get_global_id(0)] = (int4)(v[0], v[1], v[2], v[3]);
}
/* One reservation per work-group: each work-item writes its global id at
   its local id, so a group's packets lie together in local-id order. */
kernel void group_write(write_only pipe int p, global int *failed) {
    reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(r)) {
        int v = get_global_id(0);
        if (write_pipe(p, r, get_local_id(0), &v) != 0) atomic_inc(failed);
        work_group_commit_write_pipe(p, r);
    } else {
        atomic_inc(failed);
    }
}
/* The same with a barrier before and after, and local memory between. */
kernel void group_write_barriers(write_only pipe int p, global int *failed, local int *tmp) {
    int l = get_local_id(0);
    tmp[l] = get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (is_valid_reserve_id(r)) {
        int v = tmp[l];
        if (write_pipe(p, r, l, &v) != 0) atomic_inc(failed);
        work_group_commit_write_pipe(p, r);
    } else {
        atomic_inc(failed);
    }
}
/* Reservations in a loop the group runs together (a barrier in its
   body), then in a function the kernel calls: one per group each time.
   (A call of a synchronising function inside a loop is a shape the
   regions do not express yet, pipes or not.) */
reserve_id_t reserve_for_group(write_only pipe int p) {
    return work_group_reserve_write_pipe(p, get_local_size(0));
}
kernel void group_write_loop(write_only pipe int p, global int *failed) {
    int v;
    for (int i = 0; i < 3; i++) {
        reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
        barrier(CLK_GLOBAL_MEM_FENCE);
        v = get_global_id(0) * 4 + i;
        if (!is_valid_reserve_id(r) || write_pipe(p, r, get_local_id(0), &v) != 0) atomic_inc(failed);
        work_group_commit_write_pipe(p, r);
    }
    reserve_id_t r = reserve_for_group(p);
    v = get_global_id(0) * 4 + 3;
    if (!is_valid_reserve_id(r) || write_pipe(p, r, get_local_id(0), &v) != 0) atomic_inc(failed);
}
kernel void group_read(read_only pipe int p, global int *out, global int *failed) {
    reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
    int v = -1;
    if (is_valid_reserve_id(r)) {
        read_pipe(p, r, get_local_id(0), &v);
        work_group_commit_read_pipe(p, r);
    } else {
        atomic_inc(failed);
    }
    out[get_global_id(0)] = v;
}
/* A work-group function under ?: is a shape the regions do not express:
   the kernel runs with groups of one work-item, each reserving alone. */
kernel void group_write_fallback(write_only pipe int p, int c) {
    reserve_id_t r = c ? work_group_reserve_write_pipe(p, 1) : work_group_reserve_write_pipe(p, 2);
    int v = get_global_id(0);
    write_pipe(p, r, 0, &v);
    if (!c) { v = -v - 1; write_pipe(p, r, 1, &v); }
    work_group_commit_write_pipe(p, r);
}
kernel void sub_group_write(write_only pipe int p) {
    reserve_id_t r = sub_group_reserve_write_pipe(p, 2);
    int v = get_global_id(0);
    if (is_valid_reserve_id(r)) {
        write_pipe(p, r, 0, &v);
        v = -v;
        write_pipe(p, r, 1, &v);
        sub_group_commit_write_pipe(p, r);
    }
}
/* Reads packets into local memory, then after a barrier writes each
   group's packets back reversed and doubled: the region lowering with
   pipe functions in two regions. */
kernel void reverse_groups(read_only pipe int in, write_only pipe int out, local int *tmp, global int *status) {
    int l = get_local_id(0), n = get_local_size(0);
    int v = 0;
    status[get_global_id(0)] = read_pipe(in, &v);
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int w = tmp[n - 1 - l] * 2;
    write_pipe(out, &w);
}
kernel void counts_read(read_only pipe int p, global uint *out) {
    int v;
    out[0] = get_pipe_max_packets(p);
    out[1] = get_pipe_num_packets(p);
    read_pipe(p, &v);
    out[2] = get_pipe_num_packets(p);
    reserve_id_t r = reserve_read_pipe(p, 3);
    out[3] = get_pipe_num_packets(p);
    out[4] = is_valid_reserve_id(r);
    out[5] = v;
}
kernel void counts_write(write_only pipe int p, global uint *out) {
    int v = 5;
    out[0] = get_pipe_max_packets(p);
    out[1] = get_pipe_num_packets(p);
    write_pipe(p, &v);
    write_pipe(p, &v);
    out[2] = get_pipe_num_packets(p);
    out[3] = is_valid_reserve_id(reserve_write_pipe(p, 100));
    out[4] = get_pipe_num_packets(p);
}
/* Every work-item sees between 0 and max packets, however the others
   have got on. */
kernel void counts_racing(read_only pipe int p, global uint *out) {
    int v;
    read_pipe(p, &v);
    out[get_global_id(0)] = get_pipe_num_packets(p);
}
typedef struct { int a; float b; char c; } Packet;
kernel void struct_produce(write_only pipe Packet p) {
    int g = get_global_id(0);
    Packet x = { g, g * 0.5f, (char)(g % 100) };
    write_pipe(p, &x);
}
kernel void struct_consume(read_only pipe Packet p, global int *a, global float *b, global char *c) {
    Packet x = { -1, -1.0f, -1 };
    read_pipe(p, &x);
    int g = get_global_id(0);
    a[g] = x.a; b[g] = x.b; c[g] = x.c;
}
kernel void long_pipe(read_only pipe long p) { long v; read_pipe(p, &v); }
"#;

fn program(opt_level: u8) -> Program {
    jit::build(KERNELS, "pipes.cl", &BuildOptions { opt_level, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}"))
}

fn range(global: usize, local: Option<usize>) -> NdRange {
    NdRange { local: local.map(|l| [l, 1, 1]), ..NdRange::linear(global) }
}

fn sorted(mut v: Vec<i32>) -> Vec<i32> {
    v.sort_unstable();
    v
}

/// Runs `produce` over `n` work-items into `pipe`: the failure count.
fn produce(p: &Program, pipe: &Pipe, n: usize, local: Option<usize>) -> i32 {
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("produce").unwrap();
    k.set_arg(0, Arg::Pipe(pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(n, local)).unwrap();
    failed.read::<i32>()[0]
}

/// Runs `consume` over `n` work-items from `pipe`: what each read, and the
/// failure count.
fn consume(p: &Program, pipe: &Pipe, n: usize, local: Option<usize>) -> (Vec<i32>, i32) {
    let out = Buffer::new(4 * n);
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("consume").unwrap();
    k.set_arg(0, Arg::Pipe(pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(n, local)).unwrap();
    (out.read::<i32>(), failed.read::<i32>()[0])
}

fn producer_then_consumer(opt_level: u8) {
    let p = program(opt_level);
    for (n, local) in [(1000, None), (777, Some(64)), (50, Some(1)), (4096, Some(256))] {
        let pipe = Pipe::new(4, n).unwrap();
        assert_eq!(produce(&p, &pipe, n, local), 0, "{n} writes into a pipe of {n}");
        let want: Vec<i32> = (0..n as i32).map(|g| g * 7 + 3).collect();
        // The pipe holds every packet once, in any order.
        assert_eq!(sorted(pipe.read::<i32>().unwrap()), want, "-O{opt_level}, {n} work-items");
        let (got, failed) = consume(&p, &pipe, n, local);
        assert_eq!(failed, 0);
        assert_eq!(sorted(got), want, "-O{opt_level}, {n} work-items: every packet read once");
        assert!(pipe.is_empty().unwrap(), "the consumer emptied the pipe");
    }
}

#[test]
fn producer_then_consumer_moves_every_packet_once() {
    producer_then_consumer(2);
}

#[test]
fn producer_then_consumer_at_o0() {
    producer_then_consumer(0);
}

#[test]
fn a_full_pipe_refuses_writes_and_an_empty_one_reads() {
    let p = program(2);
    // 300 packets offered to a pipe with room for 100 (30 already in it).
    let mut pipe = Pipe::new(4, 130).unwrap();
    pipe.push(&(0..30).map(|i| -i - 1).collect::<Vec<i32>>()).unwrap();
    assert_eq!(produce(&p, &pipe, 300, Some(32)), 200);
    let held = pipe.read::<i32>().unwrap();
    assert_eq!(held.len(), 130);
    assert_eq!(&held[..30], &(0..30).map(|i| -i - 1).collect::<Vec<i32>>()[..], "the packets already there come first");
    let written = sorted(held[30..].to_vec());
    assert!(written.windows(2).all(|w| w[0] < w[1]), "no packet twice");
    assert!(written.iter().all(|&v| v >= 3 && (v - 3) % 7 == 0 && (v - 3) / 7 < 300), "only packets the kernel wrote");

    // 64 readers of a pipe of 10: 54 find it empty, 10 get a packet each.
    let mut pipe = Pipe::new(4, 16).unwrap();
    pipe.push(&(100..110).collect::<Vec<i32>>()).unwrap();
    let (got, failed) = consume(&p, &pipe, 64, Some(8));
    assert_eq!(failed, 54);
    let read: Vec<i32> = sorted(got.into_iter().filter(|&v| v != -1).collect());
    assert_eq!(read, (100..110).collect::<Vec<_>>());
    assert!(pipe.is_empty().unwrap());
    let (got, failed) = consume(&p, &pipe, 5, None);
    assert_eq!((got, failed), (vec![-1; 5], 5), "an empty pipe reads nothing");
}

#[test]
fn the_ring_wraps_across_launches() {
    let p = program(2);
    let mut pipe = Pipe::new(4, 10).unwrap();
    pipe.push(&[1i32, 2, 3, 4, 5, 6, 7]).unwrap();
    let (got, _) = consume(&p, &pipe, 5, None);
    assert_eq!(sorted(got), [1, 2, 3, 4, 5]);
    // head is 5 with 2 packets: 8 writes wrap round the end of the ring.
    assert_eq!(produce(&p, &pipe, 9, None), 1);
    let held = pipe.read::<i32>().unwrap();
    assert_eq!(&held[..2], &[6, 7]);
    assert_eq!(sorted(held[2..].to_vec()).len(), 8);
    let (got, failed) = consume(&p, &pipe, 10, Some(10));
    assert_eq!(failed, 0);
    assert_eq!(sorted(got), sorted(held));
}

#[test]
fn reservations_of_four_packets_per_work_item() {
    let p = program(2);
    let n = 300;
    let pipe = Pipe::new(4, 4 * n).unwrap();
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("reserve_write4").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(n, Some(30))).unwrap();
    assert_eq!(failed.read::<i32>()[0], 0);
    let held = pipe.read::<i32>().unwrap();
    // Each reservation is four consecutive packets, written by index in
    // reverse: g*4+3, g*4+2, g*4+1, g*4.
    for chunk in held.chunks_exact(4) {
        let g = chunk[3] / 4;
        assert_eq!(chunk, [g * 4 + 3, g * 4 + 2, g * 4 + 1, g * 4], "{held:?}");
    }
    assert_eq!(sorted(held.clone()), (0..4 * n as i32).collect::<Vec<_>>());

    // Reading them back four at a time: each reservation gets four
    // consecutive packets of the pipe.
    let out = Buffer::new(16 * (n + 5));
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("reserve_read4").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(n + 5, None)).unwrap();
    assert_eq!(failed.read::<i32>()[0], 5, "five reservations find too few packets");
    let got = out.read::<[i32; 4]>();
    let mut seen = Vec::new();
    for v in got {
        if v == [-1; 4] {
            continue;
        }
        let pos = held.chunks_exact(4).position(|c| c == v).unwrap_or_else(|| panic!("{v:?} is not four consecutive packets"));
        seen.push(pos);
    }
    assert_eq!(sorted(seen.iter().map(|&x| x as i32).collect()), (0..n as i32).collect::<Vec<_>>());
    assert!(pipe.is_empty().unwrap());

    // Too little room: reservations fail whole, none partly.
    let pipe = Pipe::new(4, 4 * 10 + 3).unwrap();
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("reserve_write4").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(16, None)).unwrap();
    assert_eq!(failed.read::<i32>()[0], 6);
    assert_eq!(pipe.len().unwrap(), 40);
}

/// Runs a work-group reservation kernel over `global` work-items in
/// groups of `local` into a pipe of `max` packets: the pipe's packets and
/// the failure count.
fn group_write(p: &Program, kernel: &str, global: usize, local: usize, max: usize) -> (Vec<i32>, i32) {
    let pipe = Pipe::new(4, max).unwrap();
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel(kernel).unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&failed)).unwrap();
    if kernel == "group_write_barriers" {
        k.set_arg(2, Arg::Local(4 * local)).unwrap();
    }
    k.launch(&range(global, Some(local))).unwrap();
    (pipe.read::<i32>().unwrap(), failed.read::<i32>()[0])
}

#[test]
fn work_group_reservations_are_one_per_group() {
    for opt_level in [2, 0] {
        let p = program(opt_level);
        for kernel in ["group_write", "group_write_barriers"] {
            for (global, local) in [(256, 64), (1000, 100), (300, 7), (130, 32), (5, 1), (64, 64)] {
                let (held, failed) = group_write(&p, kernel, global, local, global);
                let what = format!("{kernel} -O{opt_level}, {global} in groups of {local}");
                assert_eq!(failed, 0, "{what}");
                // Each group's packets lie together in local-id order: one
                // id for the whole group, its size (the last group may be
                // smaller) reserved at once.
                let mut at = 0;
                while at < held.len() {
                    let first = held[at] as usize;
                    assert_eq!(first % local, 0, "{what}: a group's packets start with its first work-item: {held:?}");
                    let size = local.min(global - first);
                    assert_eq!(&held[at..at + size], &(first as i32..(first + size) as i32).collect::<Vec<_>>()[..], "{what}");
                    at += size;
                }
                assert_eq!(sorted(held), (0..global as i32).collect::<Vec<_>>(), "{what}: each packet once");
            }
            // Room for three groups of 32 and a bit: the fourth group's
            // reservation fails for all of its work-items.
            let (held, failed) = group_write(&p, kernel, 128, 32, 100);
            assert_eq!(failed, 32, "{kernel} -O{opt_level}");
            assert_eq!(held.len(), 96);
        }
    }
}

#[test]
fn work_group_reservations_in_a_called_function_and_a_group_loop() {
    let p = program(2);
    for (global, local) in [(96, 32), (50, 16)] {
        let pipe = Pipe::new(4, 4 * global).unwrap();
        let failed = Buffer::from_slice(&[0i32]);
        let mut k = p.kernel("group_write_loop").unwrap();
        k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
        k.set_arg(1, Arg::Buffer(&failed)).unwrap();
        k.launch(&range(global, Some(local))).unwrap();
        assert_eq!(failed.read::<i32>()[0], 0);
        let held = pipe.read::<i32>().unwrap();
        // Blocks of one group and reservation: ids g*4+i for the group's
        // work-items in order, the same i throughout.
        let mut at = 0;
        while at < held.len() {
            let (g0, i) = (held[at] / 4, held[at] % 4);
            let size = (local as i32).min(global as i32 - g0);
            assert_eq!(g0 % local as i32, 0, "{held:?}");
            assert_eq!(&held[at..at + size as usize], &(g0..g0 + size).map(|g| g * 4 + i).collect::<Vec<_>>()[..], "{held:?}");
            at += size as usize;
        }
        assert_eq!(sorted(held), (0..4 * global as i32).collect::<Vec<_>>());
    }
}

#[test]
fn work_group_reservations_outside_the_regions() {
    let p = program(2);
    let info = p.kernels().iter().find(|k| k.name == "group_write_fallback").unwrap();
    assert!(info.synchronises && !info.item_threads, "the regions do not express it");
    for c in [1, 0] {
        let pipe = Pipe::new(4, 100).unwrap();
        let mut k = p.kernel("group_write_fallback").unwrap();
        k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
        k.set_arg(1, Arg::value(c)).unwrap();
        k.launch(&NdRange::linear(40)).unwrap();
        let held = pipe.read::<i32>().unwrap();
        if c == 1 {
            assert_eq!(sorted(held), (0..40).collect::<Vec<_>>());
        } else {
            // 50 reservations of 2 fit: every work-item's pair together.
            assert_eq!(held.len(), 80);
            for pair in held.chunks_exact(2) {
                assert_eq!(pair[1], -pair[0] - 1);
            }
        }
    }
}

#[test]
fn work_group_reads_take_a_group_of_packets() {
    let p = program(2);
    let mut pipe = Pipe::new(4, 200).unwrap();
    pipe.push(&(0..150).collect::<Vec<i32>>()).unwrap();
    let out = Buffer::new(4 * 200);
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("group_read").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.set_arg(2, Arg::Buffer(&failed)).unwrap();
    k.launch(&range(200, Some(40))).unwrap();
    // Three groups of 40 fit in 150 packets, the other two do not.
    assert_eq!(failed.read::<i32>()[0], 80);
    let got = out.read::<i32>();
    let mut read = Vec::new();
    for group in got.chunks_exact(40) {
        if group[0] == -1 {
            assert!(group.iter().all(|&v| v == -1));
            continue;
        }
        // Consecutive packets, in local-id order.
        assert!(group.windows(2).all(|w| w[1] == w[0] + 1), "{group:?}");
        read.extend_from_slice(group);
    }
    assert_eq!(sorted(read), (0..120).collect::<Vec<_>>());
    assert_eq!(pipe.read::<i32>().unwrap(), (120..150).collect::<Vec<_>>());
}

#[test]
fn sub_group_reservations_are_per_work_item() {
    let p = program(2);
    let pipe = Pipe::new(4, 64).unwrap();
    let mut k = p.kernel("sub_group_write").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.launch(&range(40, Some(8))).unwrap();
    let held = pipe.read::<i32>().unwrap();
    assert_eq!(held.len(), 64, "32 reservations of 2 fit");
    for pair in held.chunks_exact(2) {
        assert_eq!(pair[1], -pair[0]);
    }
    let mut firsts: Vec<i32> = held.chunks_exact(2).map(|c| c[0]).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 32);
}

#[test]
fn pipes_through_the_region_lowering() {
    for opt_level in [2, 0] {
        let p = program(opt_level);
        let (n, local) = (96, 16);
        let mut input = Pipe::new(4, 128).unwrap();
        let packets: Vec<i32> = (0..n as i32).map(|i| i * 3 + 1).collect();
        input.push(&packets).unwrap();
        let output = Pipe::new(4, 128).unwrap();
        let status = Buffer::new(4 * n);
        let mut k = p.kernel("reverse_groups").unwrap();
        k.set_arg(0, Arg::Pipe(&input)).unwrap();
        k.set_arg(1, Arg::Pipe(&output)).unwrap();
        k.set_arg(2, Arg::Local(4 * local)).unwrap();
        k.set_arg(3, Arg::Buffer(&status)).unwrap();
        k.launch(&range(n, Some(local))).unwrap();
        assert!(status.read::<i32>().iter().all(|&s| s == 0));
        assert!(input.is_empty().unwrap());
        let got = sorted(output.read::<i32>().unwrap());
        assert_eq!(got, sorted(packets.iter().map(|v| v * 2).collect()), "-O{opt_level}");
    }
}

#[test]
fn the_same_pipe_read_and_written_in_one_launch() {
    // Readers take the packets there at the start; writers fill the free
    // slots; the launch leaves what was not read followed by what was
    // written.
    let p = program(2);
    let mut pipe = Pipe::new(4, 40).unwrap();
    pipe.push(&(0..32).collect::<Vec<i32>>()).unwrap();
    let status = Buffer::new(4 * 32);
    let mut k = p.kernel("reverse_groups").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(2, Arg::Local(4 * 8)).unwrap();
    k.set_arg(3, Arg::Buffer(&status)).unwrap();
    k.launch(&range(16, Some(8))).unwrap();
    let held = pipe.read::<i32>().unwrap();
    assert_eq!(&held[..16], &(16..32).collect::<Vec<_>>()[..]);
    // 8 free slots: half the writes fail (dropped), whichever they are.
    assert_eq!(held.len(), 24);
    assert!(held[16..].iter().all(|v| v % 2 == 0 && *v < 32));
}

#[test]
fn packet_counts() {
    let p = program(2);
    let mut pipe = Pipe::new(4, 20).unwrap();
    pipe.push(&[42i32, 1, 2, 3, 4, 5]).unwrap();
    let out = Buffer::new(4 * 6);
    let mut k = p.kernel("counts_read").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(1)).unwrap();
    assert_eq!(out.read::<u32>(), [20, 6, 5, 2, 1, 42]);
    assert_eq!(pipe.read::<i32>().unwrap(), [4, 5]);

    let mut k = p.kernel("counts_write").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.launch(&NdRange::linear(1)).unwrap();
    assert_eq!(&out.read::<u32>()[..5], [20, 2, 4, 0, 4]);
    assert_eq!(pipe.read::<i32>().unwrap(), [4, 5, 5, 5]);

    let mut pipe = Pipe::new(4, 500).unwrap();
    pipe.push(&(0..300).collect::<Vec<i32>>()).unwrap();
    let out = Buffer::new(4 * 1000);
    let mut k = p.kernel("counts_racing").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&out)).unwrap();
    k.launch(&range(1000, Some(50))).unwrap();
    let seen = out.read::<u32>();
    assert!(seen.iter().all(|&c| c < 300), "{seen:?}");
    assert!(seen.contains(&0), "the last reader sees the pipe empty");
}

#[test]
fn struct_packets_keep_their_layout() {
    // struct { int a; float b; char c; }: 12 bytes with the padding.
    let p = program(2);
    assert_eq!(p.kernels().iter().find(|k| k.name == "struct_produce").unwrap().args[0].packet_size, Some(12));
    let n = 200;
    let pipe = Pipe::new(12, n).unwrap();
    let mut k = p.kernel("struct_produce").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.launch(&range(n, Some(20))).unwrap();
    let bytes = pipe.read_bytes().unwrap();
    let mut seen: Vec<i32> = Vec::new();
    for packet in bytes.chunks_exact(12) {
        let a = i32::from_le_bytes(packet[0..4].try_into().unwrap());
        let b = f32::from_le_bytes(packet[4..8].try_into().unwrap());
        assert_eq!(b, a as f32 * 0.5);
        assert_eq!(packet[8] as i32, a % 100);
        seen.push(a);
    }
    assert_eq!(sorted(seen), (0..n as i32).collect::<Vec<_>>());

    // Packets the host pushed, read field by field.
    let mut pipe = Pipe::new(12, 4).unwrap();
    let mut pushed = Vec::new();
    for (a, b, c) in [(7i32, 1.25f32, b'x'), (-3, -8.0, 200u8)] {
        pushed.extend(a.to_le_bytes());
        pushed.extend(b.to_le_bytes());
        pushed.extend([c, 0, 0, 0]);
    }
    pipe.push_bytes(&pushed).unwrap();
    let (a, b, c) = (Buffer::new(8), Buffer::new(8), Buffer::new(2));
    let mut k = p.kernel("struct_consume").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&a)).unwrap();
    k.set_arg(2, Arg::Buffer(&b)).unwrap();
    k.set_arg(3, Arg::Buffer(&c)).unwrap();
    k.launch(&range(2, Some(1))).unwrap();
    let mut got: Vec<(i32, f32, u8)> = (0..2).map(|i| (a.read::<i32>()[i], b.read::<f32>()[i], c.read::<u8>()[i])).collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(got, [(-3, -8.0, 200), (7, 1.25, b'x')]);
}

/// Reservations in memory (`reservations_in_memory` of
/// `tests/spirv_exec/pipes.cl`): four reservations of two packets each
/// kept in a 2x2 array (stored through a pointer by a function), the one
/// `pick` names copied into another array by a run-time index, and its
/// second packet read: packet 2 * pick + 1 of a pipe holding 0..8.
#[test]
fn reservations_in_arrays_and_through_pointers() {
    // The kernel Intel's runtime runs too (`tests/spirv_exec/run.py`).
    let src = include_str!("../../tests/spirv_exec/pipes.cl");
    for opt_level in [0, 2] {
        let p = jit::build(src, "pipes.cl", &BuildOptions { opt_level, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}"));
        for pick in 0..4 {
            let mut pipe = Pipe::new(4, 8).unwrap();
            pipe.push(&(0..8).collect::<Vec<i32>>()).unwrap();
            let out = Buffer::from_slice(&[-1i32, -1]);
            let mut k = p.kernel("reservations_in_memory").unwrap();
            k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
            k.set_arg(1, Arg::value(pick)).unwrap();
            k.set_arg(2, Arg::Buffer(&out)).unwrap();
            k.launch(&range(1, None)).unwrap();
            assert_eq!(out.read::<i32>(), [1, 2 * pick + 1], "-O{opt_level}, pick {pick}");
            assert!(pipe.is_empty().unwrap(), "the four reservations were committed");
        }
    }
}

#[test]
fn pipe_arguments_are_checked() {
    let p = program(2);
    let info = &p.kernels().iter().find(|k| k.name == "produce").unwrap().args[0];
    assert_eq!((info.kind, info.packet_size, info.type_name.as_str()), (clc_runtime::ArgKind::Pipe, Some(4), "pipe int"));
    let mut k = p.kernel("produce").unwrap();
    let b = Buffer::new(16);
    let e = k.set_arg(0, Arg::Buffer(&b)).unwrap_err();
    assert!(matches!(&e, Error::Arg { index: 0, message, .. } if message.contains("expected a pipe")), "{e}");
    let wide = Pipe::new(8, 4).unwrap();
    let e = k.set_arg(0, Arg::Pipe(&wide)).unwrap_err();
    assert!(matches!(&e, Error::Arg { index: 0, message, .. } if message.contains("packets of 4 bytes") && message.contains("8-byte")), "{e}");
    let pipe = Pipe::new(4, 4).unwrap();
    let e = k.set_arg(1, Arg::Pipe(&pipe)).unwrap_err();
    assert!(matches!(&e, Error::Arg { index: 1, message, .. } if message.contains("expected a buffer")), "{e}");
    let mut k = p.kernel("long_pipe").unwrap();
    assert!(k.set_arg(0, Arg::Pipe(&pipe)).is_err(), "a long pipe takes 8-byte packets");
    k.set_arg(0, Arg::Pipe(&wide)).unwrap();
}

#[test]
fn an_asynchronous_launch_folds_its_packets_in_when_it_ends() {
    let p = program(2);
    let pipe = Pipe::new(4, 5000).unwrap();
    let failed = Buffer::from_slice(&[0i32]);
    let mut k = p.kernel("produce").unwrap();
    k.set_arg(0, Arg::Pipe(&pipe)).unwrap();
    k.set_arg(1, Arg::Buffer(&failed)).unwrap();
    let ev = k.launch_async(&range(5000, None)).unwrap();
    ev.wait();
    assert_eq!(sorted(pipe.read::<i32>().unwrap()), (0..5000).map(|g| g * 7 + 3).collect::<Vec<_>>());
}
