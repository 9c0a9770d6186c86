// Exercises: __attribute__((packed)), aligned(16), attributes on struct/typedef/variable, _Alignof, sizeof of packed structs.
typedef struct __attribute__((packed)) {
    char c;
    int i;
    short s;
} packed_t;

struct __attribute__((aligned(16))) aligned_s {
    float a;
    int b;
};

typedef struct {
    char tag;
    float4 v __attribute__((aligned(16)));
} __attribute__((aligned(32))) big_aligned_t;

struct plain { char c; int i; } __attribute__((packed));

__kernel void attrs(__global packed_t *p, __global struct aligned_s *a, __global int *out)
{
    __private int local_aligned __attribute__((aligned(8))) = 3;
    size_t i = get_global_id(0);
    p[i].i = a[i].b + local_aligned;
    out[0] = sizeof(packed_t);
    out[1] = _Alignof(struct aligned_s);
    out[2] = __alignof__(big_aligned_t);
    out[3] = sizeof(struct plain);
    out[4] = _Alignof(float4);
}
