// common.h: shared helpers for the clc corpus (include guard, macros, inline helpers, typedefs).
#ifndef CLC_CORPUS_COMMON_H
#define CLC_CORPUS_COMMON_H

#define TILE 16
#define BLOCK_SIZE 256
#define MIN2(a, b) ((a) < (b) ? (a) : (b))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define SQR(x) ((x) * (x))
#define IDX2(row, col, width) ((row) * (width) + (col))

typedef float real_t;
typedef float4 real4_t;

typedef struct {
    float x, y, z;
    float mass;
} particle_t;

static inline float lerp_f(float a, float b, float t) { return a + (b - a) * t; }

inline int wrap_index(int i, int n) { return (i % n + n) % n; }

#endif // CLC_CORPUS_COMMON_H
