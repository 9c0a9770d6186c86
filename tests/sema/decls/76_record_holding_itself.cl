// A record with a member of its own type (or an array of it) is refused once; a record
// holding it, and uses of the lost member, are not reported again (the checker recursed
// without end on the layout of `struct shape`: found by the fuzzer).
struct point { float x; struct point origin; };
struct shape { struct point origin; };
struct list { int n; struct list items[2]; };
// A tagged record without declarator declares nothing (only an untagged definition is an
// anonymous member): `struct loop` held itself that way, and a member lookup recursed.
struct loop { int a; struct loop; };
struct other { int b; };
struct holder { int c; struct other; struct { int d; }; };
kernel void k(global struct point *o, global struct shape *s, global struct list *l, global struct loop *lp, global struct holder *h) {
    struct point p = o[0];
    lp->a = lp->missing + h->b + h->d;
    o[1].x = p.origin.x + s[0].origin.x + sizeof(struct shape) + l[0].n;
}
