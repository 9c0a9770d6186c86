static const int a = 1;
extern volatile unsigned long b;
unsigned c, *d, e[4];
long long int f;
signed char g;
short unsigned int h;
register int r;
const __constant float k[3] = {1.0f, 2.0f, 3.0f};
inline int twice(int x) { return 2 * x; }
kernel void k1(read_only image2d_t img, __write_only image2d_t out, sampler_t s) {}
__local int lbuf[64];
uint4 u4;
size_t sz;
atomic_int counter;
