// Images, pipes and samplers are handles to objects the implementation
// owns: a program passes them (and initializes a sampler) but does not
// assign them, take their address, return them, or keep samplers in
// arrays or in __local/__global. Queues and device-side events compare
// for equality; events, samplers and reservations do not.
const sampler_t fine = CLK_NORMALIZED_COORDS_FALSE;
const global sampler_t in_global = 0;
sampler_t make(void);
read_only image2d_t pick(read_only image2d_t a);
void use(read_only image2d_t i, sampler_t s, read_only pipe int p) {
    sampler_t t = s;
    t = s;
    i = i;
    p = p;
    (void)&i;
    (void)&p;
    (void)&t;
    sampler_t many[] = { s, s };
}
kernel void k(global int *o) {
    event_t e1 = 0, e2 = 0;
    clk_event_t c1 = create_user_event(), c2 = c1;
    reserve_id_t r1, r2;
    queue_t q = get_default_queue();
    o[0] = (e1 == e2) + (c1 == c2) + (r1 == r2) + (q == q);
}
