// Mistakes clang only warns about, read as clang reads them: the last
// member's ';' missing, a repeated width or qualifier, an unknown escape
// sequence (the character itself).
struct point { float x, y };
typedef struct { int id; float w } item_t;
short short narrow = 3;

kernel void k(global int *out, global item_t *items) {
    constant char *msg = "tab\ there";
    char c = '\q';
    const const int twice = 2;
    out[0] = narrow + c + msg[3] + (int)items[0].w + twice;
}
