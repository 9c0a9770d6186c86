// A record with a member of its own type (or an array of it) is refused once; a record
// holding it, and uses of the lost member, are not reported again (the checker recursed
// without end on the layout of `struct shape`: found by the fuzzer).
struct point { float x; struct point origin; };
struct shape { struct point origin; };
struct list { int n; struct list items[2]; };
kernel void k(global struct point *o, global struct shape *s, global struct list *l) {
    struct point p = o[0];
    o[1].x = p.origin.x + s[0].origin.x + sizeof(struct shape) + l[0].n;
}
