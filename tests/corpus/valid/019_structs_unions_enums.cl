// Exercises: nested structs, anonymous struct/union members, enums with explicit values, tagged and typedef'd forms, member access through pointers.
enum color { RED, GREEN = 5, BLUE, ALPHA = BLUE * 2 };
typedef enum { MODE_A = 1 << 0, MODE_B = 1 << 1, MODE_AB = MODE_A | MODE_B } mode_t;

struct point { float x, y; };

struct shape {
    enum color col;
    mode_t mode;
    struct point origin;
    struct { int w, h; } size;
    union {
        float radius;
        int sides;
    };
    struct {
        uchar flags;
        uchar pad[3];
    };
};

typedef union {
    uint u;
    float f;
    uchar bytes[4];
} word_t;

typedef struct node { int value; struct node *next; } node_t;

int area(const struct shape *s) { return s->size.w * s->size.h; }

__kernel void structs(__global struct shape *shapes, __global word_t *words, __global int *out)
{
    size_t i = get_global_id(0);
    struct shape s = shapes[i];
    s.origin.x += 1.0f;
    s.radius = 2.0f;
    s.flags |= 1;
    s.col = BLUE;
    word_t w;
    w.f = s.origin.y;
    words[i] = w;
    node_t n2 = { 2, 0 };
    node_t n1 = { 1, &n2 };
    out[i] = area(&s) + ALPHA + MODE_AB + n1.next->value + w.bytes[0] + (int)shapes[i].mode;
    __global struct shape *ps = &shapes[i];
    ps->size.w = ps->sides + (int)(ps->origin).y;
}
