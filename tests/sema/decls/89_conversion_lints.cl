// RUN: -Wdouble-promotion -Wfloat-conversion -Wimplicit-float-conversion -Wcast-qual -Wmissing-prototypes — clang's
// lint warnings (all off by default) on floating conversions that change precision, casts that drop
// const/volatile, and external functions defined without a prototype. Same lines, columns and
// messages as clang-22, its -Wimplicit-int-float-conversion (int to float, in that group) included.
float sq(float x) { return x * x; }
static float sq2(float x) { return x * x; }
float sq3(float x);
float sq3(float x) { return x; }
void vproto(void);
void vproto(void) {}
double dbl(float f) { return f; }
float back(double d) { return d; }
int toint(float f) { return f; }
void args(double d);
kernel void k(global float *o, global double *od, global const int *in, int n) {
  double d = o[0];
  float f = d;
  int i = o[1];
  i += o[2];
  f = 0.1;
  f = 1.0;
  d = f * 2.0f;
  d = f + d;
  args(f);
  float2 v2 = (float2)(f, f); double2 dv = convert_double2(v2); (void)dv;
  i = 3.0f;
  i = f;
  long l = f; (void)l;
  o[3] = i + f;
  f = i;
  od[0] = f;
  f = od[1] * 2;
  const global int *cp = in; global int *np = (global int *)cp; (void)np;
  const int *pc; int *p2 = (int *)pc; (void)p2;
  volatile int vi; int *pv = (int *)&vi; (void)pv;
  global const float *cfp = (global const float *)cp; (void)cfp;
  o[4] = (float)d; o[5] = sq(f) + sq2(f) + sq3(f) + toint(f) + back(f) + dbl(f);
  o[6] = d > f;
  o[7] = (d = f);
}
inline int b1(int x) { return x; }
__attribute__((overloadable)) int b2(int x) { return x; }
__attribute__((overloadable)) int b2(float x) { return x; }
int b3(int x);
int b3(int x) { return x; }
extern int b4(int x) { return x; }
int b5() { return 1; }
int b6(void) { return 1; }
static inline int b7(void) { return 1; }
kernel void k2(void) {}
void __attribute__((always_inline)) b8(void) {}
