// Exercises: pipe int / pipe float4 parameters with read_only/write_only, read_pipe/write_pipe, reservations, pipe queries.
__kernel void producer(__write_only pipe int out_pipe, __global const int *src)
{
    int v = src[get_global_id(0)];
    write_pipe(out_pipe, &v);
}

__kernel void consumer(read_only pipe int in_pipe, __global int *dst)
{
    int v;
    if (read_pipe(in_pipe, &v) == 0)
        dst[get_global_id(0)] = v;
    dst[0] = (int)get_pipe_num_packets(in_pipe) + (int)get_pipe_max_packets(in_pipe);
}

__kernel void reserved(write_only pipe float4 p, __global const float4 *src)
{
    reserve_id_t rid = reserve_write_pipe(p, 2);
    if (is_valid_reserve_id(rid)) {
        write_pipe(p, rid, 0, &src[0]);
        write_pipe(p, rid, 1, &src[1]);
        commit_write_pipe(p, rid);
    }
    reserve_id_t wg = work_group_reserve_write_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(wg)) {
        write_pipe(p, wg, get_local_id(0), &src[get_global_id(0)]);
        work_group_commit_write_pipe(p, wg);
    }
}
