// Struct, union and enum tags live in their own namespace.
struct point { int x, y; };
int point = 0;                 // fine: ordinary identifier
union point2 { int i; float f; };
struct list;                   // forward declaration
struct list { struct list *next; int v; };

kernel void ok(global int *out)
{
    struct point p = { 1, 2 };
    struct point { float a; } inner = { 1.0f }; // shadows in a block
    out[0] = p.x + point + (int)inner.a;
}

struct point { int z; };       // redefinition
union point;                   // wrong kind of tag
struct dup { int a; float a; };
