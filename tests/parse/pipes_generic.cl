__kernel void producer(__write_only pipe int p, read_only pipe float4 q) {}
void g(__generic int *x, generic float *y) {}
__kernel void consumer(pipe struct S *p) {}
