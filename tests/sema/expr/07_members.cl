// Member access on structs and unions, through `.` and `->`; unknown
// members with did-you-mean.
typedef struct { int count; float weight; struct { int inner; }; } Item;
union U { int i; float f; };

kernel void ok(global Item *items, global float *o)
{
    Item it = items[0];
    o[0] = it.weight + items->count + items[1].inner;
    union U u;
    u.f = 1.0f;
    o[1] = u.i;
    items->count = 3;
}

kernel void bad(global Item *items, global float *o)
{
    Item it = items[0];
    o[0] = it.weigth;
    o[1] = items.count;
    o[2] = it->count;
    float f = 1.0f;
    o[3] = f.count;
}
