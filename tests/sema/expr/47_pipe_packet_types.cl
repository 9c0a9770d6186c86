// The pointer argument of a pipe function must point to the packet type.
kernel void w(write_only pipe int p, global int *src, global float *f) {
    int x = src[0];
    write_pipe(p, &x);
    write_pipe(p, f);
    reserve_id_t r = reserve_write_pipe(p, 2);
    write_pipe(p, r, 0, &x);
    write_pipe(p, r, 1, f);
    commit_write_pipe(p, r);
}
