// __constant variables must be initialized.
constant int c1 = 4;
constant int c2;
constant float4 c3;
kernel void k(global int *out)
{
    constant int inner = 5;   // allowed at kernel scope
    out[0] = c1 + inner;
}
void helper(void)
{
    constant int not_here = 1;
}
