// Objects of void or incomplete type.
struct opaque;
void takes_ptr(struct opaque *p) {}
struct opaque *op;
kernel void k(global int *out)
{
    void v;
    struct opaque o;
    out[0] = 0;
}
