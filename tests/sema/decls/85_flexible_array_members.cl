// C99 flexible array members: last in a struct (an error elsewhere), a struct ending in one not at the
// end of another is clang's GNU warning; none may be initialized (clang allows it at program scope).
struct F { int n; float data[]; };
struct G { float d[]; int x; };
struct E { float d[]; };
union V { int n; float d[]; };
struct H { struct F f; int y; };
struct F arr[2];
kernel void k(global struct F *f, global float *o) { struct F local_f; o[0] = f->data[1] + sizeof(struct F); }
__constant struct F g3 = { 1, { 2.0f, 3.0f } };
__constant struct F g4 = { 1 };
kernel void k2(global float *o) { struct F l = { 1, { 2.0f } }; struct F l2 = { 1, 2.0f }; o[0] = l.n + g3.data[1]; }
