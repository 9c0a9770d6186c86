// Pipes (OpenCL C 2.0 §6.13.16), run by run.py on another implementation.
// (Not sub_group_reserve_*_pipe: Intel's CPU runtime has no
// __sub_group_reserve_read_pipe; spirv_val.rs checks clc's SPIR-V of it.)
typedef struct { int a; float b; char c; } Packet;

kernel void pipe_write(write_only pipe int p, global const int *src, global int *status)
{
    int g = get_global_id(0);
    status[g] = write_pipe(p, &src[g]);
}

kernel void pipe_read(read_only pipe int p, global int *dst, global int *status)
{
    int g = get_global_id(0);
    int v = -1;
    status[g] = read_pipe(p, &v);
    dst[g] = v;
}

kernel void pipe_counts(read_only pipe int p, global uint *out)
{
    out[0] = get_pipe_num_packets(p);
    out[1] = get_pipe_max_packets(p);
}

// A reservation returned by a function (inlined on SPIR-V).
static reserve_id_t reserve_two(write_only pipe Packet p)
{
    return reserve_write_pipe(p, 2);
}

kernel void packets_reserved(write_only pipe Packet p, global int *status)
{
    int g = get_global_id(0);
    reserve_id_t r = reserve_two(p);
    status[g] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        for (int i = 0; i < 2; i++) {
            Packet x = { 2 * g + i, g * 0.5f + i, (char)(g & 0x7f) };
            write_pipe(p, r, i, &x);
        }
        commit_write_pipe(p, r);
    }
}

kernel void packets_group_read(read_only pipe Packet p, global Packet *dst, global int *status)
{
    int g = get_global_id(0);
    reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
    status[g] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        read_pipe(p, r, get_local_id(0), &dst[g]);
        work_group_commit_read_pipe(p, r);
    }
}

// One work-item: the packets 0 .. n-1 in order.
kernel void pipe_fill(write_only pipe int p, int n)
{
    for (int i = 0; i < n; i++)
        write_pipe(p, &i);
}

// Reservations in memory: an array of them, filled through a pointer, one
// picked by a run-time index and copied through another array.
static void reserve_into(read_only pipe int p, reserve_id_t *r, uint n) { *r = reserve_read_pipe(p, n); }
kernel void reservations_in_memory(read_only pipe int p, int pick, global int *out) {
    reserve_id_t r[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            reserve_into(p, &r[i][j], 2);
    reserve_id_t moved[3];
    moved[pick % 3] = r[pick >> 1][pick & 1];
    out[0] = is_valid_reserve_id(moved[pick % 3]);
    read_pipe(p, moved[pick % 3], 1, &out[1]);
    for (int i = 0; i < 4; i++)
        commit_read_pipe(p, r[i >> 1][i & 1]);
}

// `c ? a : b` of reservations (a select of reservations at -O2).
kernel void pick_reservation(read_only pipe int p, int c, global int *out)
{
    reserve_id_t a = reserve_read_pipe(p, 1);
    reserve_id_t b = reserve_read_pipe(p, 2);
    reserve_id_t r = c ? a : b;
    for (int i = 0; i < (c ? 1 : 2); i++)
        read_pipe(p, r, i, &out[i]);
    commit_read_pipe(p, a);
    commit_read_pipe(p, b);
}
