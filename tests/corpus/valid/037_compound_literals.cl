// Exercises: compound literals of structs, arrays and scalars, passing compound literals as arguments, address of compound literal.
typedef struct { float x, y; } pt_t;
typedef struct { pt_t a, b; } seg_t;

float seg_len2(seg_t s) { float dx = s.b.x - s.a.x, dy = s.b.y - s.a.y; return dx * dx + dy * dy; }
int sum_arr(const int *p, int n) { int s = 0; while (n--) s += *p++; return s; }

__kernel void compound_lits(__global float *out)
{
    pt_t p = (pt_t){ 1.0f, 2.0f };
    seg_t s = (seg_t){ .a = p, .b = (pt_t){ .x = 4.0f, .y = 6.0f } };
    int total = sum_arr((int[]){ 1, 2, 3, 4 }, 4);
    int *ip = (int[3]){ 7, 8, 9 };
    pt_t *pp = &(pt_t){ 0.5f, 0.5f };
    float len = seg_len2(s) + seg_len2((seg_t){ { 0, 0 }, { 3, 4 } });
    int scalar = (int){ 5 };
    out[get_global_id(0)] = len + total + ip[2] + pp->y + scalar;
}
