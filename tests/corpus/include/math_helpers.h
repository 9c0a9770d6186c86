// math_helpers.h: overloadable math helpers, included by relative path from valid/.
#ifndef CLC_CORPUS_MATH_HELPERS_H
#define CLC_CORPUS_MATH_HELPERS_H

#include "common.h"

#define PI_F 3.14159265358979f
#define INV_SQRT_2PI 0.3989422804014327f

float __attribute__((overloadable)) square(float x) { return x * x; }
int __attribute__((overloadable)) square(int x) { return x * x; }
float4 __attribute__((overloadable)) square(float4 x) { return x * x; }

#endif
