// Exercises: multi-dimensional arrays, brace initializers, designated initializers .x = 1 and [3] = 2, nested designators, incomplete arrays sized by initializer.
typedef struct { int x, y, z; } ivec3_t;
typedef struct { ivec3_t pos; int id; float w[2]; } item_t;

__constant int table[] = { 1, 2, 3, [7] = 8, [3] = 4 };
__constant ivec3_t origin = { .x = 1, .z = 3 };
__constant float matrix[3][3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, [2] = { [2] = 1.0f } };

__kernel void arrays(__global int *out)
{
    int a[4] = { 0 };
    int b[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    int c[2][2][2] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int d[10] = { [3] = 2, [0] = 1, 5, [9] = 9 };
    char s[] = "hello";
    ivec3_t v = { .y = 2, .x = 1 };
    item_t it = { .pos = { .x = 1 }, .id = 7, .w = { [1] = 2.0f } };
    item_t it2 = { .pos.y = 5, .w[0] = 1.0f };
    item_t items[2] = { [1] = { .id = 3 }, [0].pos.z = 4 };
    float m = matrix[1][1] + matrix[2][2];
    for (int i = 0; i < 4; i++)
        a[i] = b[i % 2][i % 3] + c[i % 2][1][0];
    out[0] = a[0] + a[3] + d[4] + s[4] + v.x + v.y + it.id + it2.pos.y + items[1].id + items[0].pos.z;
    out[1] = table[7] + table[3] + origin.z + (int)m + sizeof(table) / sizeof(table[0]);
}
